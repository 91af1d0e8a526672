/**
 * The helper's `shell` method: one of the agent's commands run by `bash`
 * where the helper runs (inside the task's container), so a command costs a
 * request over the open `--serve` session instead of a container runtime's
 * `exec` (~0.2 s each).
 *
 * Everything is as with `exec`, which stays the fallback
 * (agent/env/container.ts) and runs `timeout -k 5 SECONDS bash -c
 * STDIN_SCRIPT`: here the same `bash -c STDIN_SCRIPT` runs in its own process
 * group and the helper does what GNU `timeout` would (one process less per
 * command): after SECONDS the group gets SIGTERM, 5 s later SIGKILL, and the
 * status is 124 (137 when SIGKILL was needed). Stdout and stderr are
 * interleaved and capped (head and tail) at `output_limit` bytes; the command
 * runs in `cwd`, with the environment the helper was started with less the
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

import { fail } from "../base/issue.ts";
import { runProcess } from "./process.ts";

/**
 * The `bash -c` script that reads the command from stdin and runs it. Words
 * are expanded before redirections apply, so `$(</dev/stdin)` reads the pipe
 * (bash reads it itself, no `cat`; it knows `/dev/stdin` where `/dev` lacks
 * it) and the command gets `/dev/null`; `exit N` inside it ends bash with N.
 */
export const STDIN_SCRIPT = 'eval "$(</dev/stdin)" </dev/null';

/** Exit status of GNU `timeout` when the time ran out. */
export const TIMEOUT_STATUS = 124;

/** Seconds GNU `timeout` waits after its TERM before it sends KILL. */
export const KILL_AFTER = 5;

/**
 * `bash -c STDIN_SCRIPT bash`: the last word is the command's `$0` (and the
 * name its error messages start with), `bash` whichever path bash has.
 */
export const BASH_ARGV = ["bash", "-c", STDIN_SCRIPT, "bash"] as const;

/** The argv that runs a command given on stdin with a time limit (`timeout -k 5 N bash -c ...`). */
export function shellArgv(seconds: number): string[] {
  return ["timeout", "-k", String(KILL_AFTER), String(seconds), ...BASH_ARGV];
}

/** Exit status of a command that `timeout` had to SIGKILL. */
export const KILLED_STATUS = 137;
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
  const base = commandEnvironment(Deno.env.toObject(), unset as string[]);
  const result = await runProcess([...BASH_ARGV], {
    cwd,
    env: { ...base, ...env },
    clearEnv: true,
    stdin: command,
    timeout: seconds,
    killAfter: KILL_AFTER,
    outputLimit: limit,
    keepBackground: true,
    pipeGraceMs: PIPE_GRACE_MS,
  });
  const returncode = !result.timedOut
    ? result.returncode
    : result.returncode === KILLED_STATUS
    ? KILLED_STATUS
    : TIMEOUT_STATUS;
  return {
    output: result.output,
    returncode,
    timed_out: result.timedOut || returncode === TIMEOUT_STATUS,
    truncated: result.truncated ?? false,
  };
}

/**
 * The environment a command starts from: the helper's, less the variables
 * set for the helper alone (`unset`) and less what Deno adds to its own
 * (`DENO_NODE_SHIM_ACTIVE`, its `node_compat_bin` directory at the front of
 * `PATH`), so a command sees what `exec` would give it.
 */
export function commandEnvironment(
  env: Record<string, string>,
  unset: readonly string[],
): Record<string, string> {
  const base = { ...env };
  for (const name of [...unset, "DENO_NODE_SHIM_ACTIVE"]) delete base[name];
  if (base.PATH !== undefined) {
    base.PATH = base.PATH.split(":").filter((dir) => !dir.endsWith("/node_compat_bin")).join(":");
  }
  return base;
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
