/**
 * `graphplan` as a process for the verification tests: stdin in, exit code,
 * stdout and stderr out, journals in the tests' private state directory,
 * optionally with another PATH (to hide python or node).
 *
 * @module
 */

import { STATE_HOME } from "../exec/_support.ts";
import { runCli as runGraphplan } from "../../_support/cli.ts";

/** Run `deno run -A main.ts ARGS` with `stdin`, and `path` as PATH when given. */
export function runCli(
  args: string[],
  options: { stdin?: string; path?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return runGraphplan(args, {
    stdin: options.stdin ?? "",
    env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1", ...(options.path ? { PATH: options.path } : {}) },
  });
}
