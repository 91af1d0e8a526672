/**
 * `graphplan` as a process for the verification tests: stdin in, exit code,
 * stdout and stderr out, journals in the tests' private state directory,
 * optionally with another PATH (to hide python or node).
 *
 * @module
 */

import { STATE_HOME } from "../exec/_support.ts";

const MAIN = new URL("../../../main.ts", import.meta.url).pathname;

/** Run `deno run -A main.ts ARGS` with `stdin`, and `path` as PATH when given. */
export async function runCli(
  args: string[],
  options: { stdin?: string; path?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1", ...(options.path ? { PATH: options.path } : {}) },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(options.stdin ?? ""));
  await writer.close();
  const out = await child.output();
  return {
    code: out.code,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}
