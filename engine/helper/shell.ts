/**
 * The helper's `shell` method: one of the agent's commands run by `bash`
 * where the helper runs (inside the task's container), so a command costs a
 * request over the open `--serve` session instead of a container runtime's
 * `exec` (~0.2 s each).
 *
 * Everything is as with `exec`, which stays the fallback
 * (agent/env/container.ts), because both run the same argv:
 * `timeout -k 5 SECONDS bash -c STDIN_SCRIPT` in its own process group,
 * stdout and stderr interleaved and capped (head and tail) at `output_limit`
 * bytes, in `cwd`, with the environment the helper was started with less the
 * helper's own variables (`unset`) plus `env`. Jobs the command starts with
 * `&` keep running after it, as after `exec`.
 *
 * The command never travels in argv (Linux refuses one argument over
 * 128 KiB: a plan written with a heredoc is larger): it is bash's stdin, read
 * whole by {@linkcode STDIN_SCRIPT}, which then runs it with stdin at
 * `/dev/null`, the stdin an `exec` without `-i` gives.
 *
 * @module
 */

import { fail } from "../issue.ts";
import { runProcess } from "./process.ts";

/**
 * The `bash -c` script that reads the command from stdin and runs it. Words
 * are expanded before redirections apply, so `$(cat)` reads the pipe and the
 * command itself gets `/dev/null`; `exit N` inside it ends bash with N.
 */
export const STDIN_SCRIPT = 'eval "$(cat)" </dev/null';

/** Exit status of GNU `timeout` when the time ran out. */
export const TIMEOUT_STATUS = 124;

/** Seconds GNU `timeout` waits after its TERM before it sends KILL. */
export const KILL_AFTER = 5;

/** The argv that runs a command given on stdin with a time limit (`timeout -k 5 N bash -c ...`). */
export function shellArgv(seconds: number): string[] {
  return ["timeout", "-k", String(KILL_AFTER), String(seconds), "bash", "-c", STDIN_SCRIPT];
}

/** Seconds the helper waits beyond `timeout`'s own kill before it kills the group itself. */
const BACKSTOP = 30;
/** After the command ended, how long output from jobs it left running is still read (ms). */
const PIPE_GRACE_MS = 200;

/** What `shell` answers. */
export interface ShellResult {
  output: string;
  returncode: number;
  timed_out: boolean;
  truncated: boolean;
}

/** `shell` params: `{command, time_limit, cwd?, env?, unset?, output_limit?}`. */
export async function shellMethod(params: Record<string, unknown>): Promise<ShellResult> {
  const command = params.command;
  if (typeof command !== "string") invalid("command", "a string");
  const seconds = params.time_limit;
  if (typeof seconds !== "number" || !(seconds > 0)) invalid("time_limit", "a positive number of seconds");
  const cwd = params.cwd ?? Deno.cwd();
  if (typeof cwd !== "string") invalid("cwd", "a path");
  const env = stringRecord(params.env ?? {}, "env");
  const unset = params.unset ?? [];
  if (!Array.isArray(unset) || !unset.every((name) => typeof name === "string")) invalid("unset", "names");
  const limit = params.output_limit ?? 10_000;
  if (typeof limit !== "number" || !(limit > 0)) invalid("output_limit", "a positive number of bytes");
  try {
    if (!(await Deno.stat(cwd)).isDirectory) throw new Deno.errors.NotADirectory();
  } catch {
    // What `exec -w` answers for a working directory that is not there.
    return {
      output: `Error: cannot change to the working directory "${cwd}": no such directory\n`,
      returncode: 127,
      timed_out: false,
      truncated: false,
    };
  }
  const base = Deno.env.toObject();
  for (const name of unset as string[]) delete base[name];
  const result = await runProcess(shellArgv(seconds), {
    cwd,
    env: { ...base, ...env },
    clearEnv: true,
    stdin: command,
    timeout: seconds + KILL_AFTER + BACKSTOP,
    outputLimit: limit,
    keepBackground: true,
    pipeGraceMs: PIPE_GRACE_MS,
  });
  return {
    output: result.output,
    returncode: result.returncode,
    timed_out: result.timedOut || result.returncode === TIMEOUT_STATUS,
    truncated: result.truncated ?? false,
  };
}

function stringRecord(value: unknown, name: string): Record<string, string> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    invalid(name, "an object of strings");
  }
  const record = value as Record<string, unknown>;
  if (!Object.values(record).every((item) => typeof item === "string")) invalid(name, "an object of strings");
  return record as Record<string, string>;
}

function invalid(name: string, what: string): never {
  fail("params-invalid", `Missing or invalid parameter "${name}": expected ${what}`, {
    path: ["params", name],
  });
}
