/**
 * `graphplan` as a subprocess for CLI tests: `deno run -A main.ts ARGS`,
 * with optional stdin, working directory and environment, giving the exit
 * code, stdout, stderr and, when the command was asked for `--json` (or the
 * caller says its output is JSON), the parsed document.
 *
 * @module
 */

/** The entry point the tests run. */
export const MAIN = new URL("../../main.ts", import.meta.url).pathname;

/** Options of {@linkcode runCli}. */
export interface CliOptions {
  /** Text fed to stdin (stdin is closed at once, /dev/null, when absent). */
  stdin?: string;
  cwd?: string;
  /** Variables added to this process's environment. */
  env?: Record<string, string>;
  /**
   * Whether stdout is JSON to parse: by default when `args` has `--json`;
   * true for commands that always print JSON (the helper's one-shot
   * requests), false to leave unreadable output to the caller.
   */
  json?: boolean;
}

/** What a finished run gave. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed (see {@linkcode CliOptions.json}) when it is not blank; else undefined. */
  // deno-lint-ignore no-explicit-any
  json: any;
}

/** Options of {@linkcode spawnCli}: each stream is piped unless "null". */
export interface SpawnOptions {
  cwd?: string;
  /** Variables added to this process's environment. */
  env?: Record<string, string>;
  stdin?: "piped" | "null";
  stdout?: "piped" | "null";
  stderr?: "piped" | "null";
}

/** Start `graphplan ARGS` (a session, or a run to pause or kill); the caller talks to it and waits for it. */
export function spawnCli(args: string[], options: SpawnOptions = {}): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin ?? "piped",
    stdout: options.stdout ?? "piped",
    stderr: options.stderr ?? "piped",
  }).spawn();
}

/** Run `graphplan ARGS` to its end (see {@linkcode CliOptions}). */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliRun> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const out = await child.output();
  const decoder = new TextDecoder();
  const stdout = decoder.decode(out.stdout);
  const stderr = decoder.decode(out.stderr);
  let json = undefined;
  if ((options.json ?? args.includes("--json")) && stdout.trim() !== "") {
    try {
      json = JSON.parse(stdout);
    } catch {
      throw new Error(`graphplan ${args.join(" ")} printed no single JSON document: ${stdout.slice(0, 500)}`);
    }
  }
  return { code: out.code, stdout, stderr, json };
}
