/**
 * Running one process with a timeout that really ends it: the agent's
 * commands on the host (`--env local`) and, inside a container, the commands
 * the helper's `shell` method runs.
 *
 * The process starts in its own session and process group (`detached`,
 * which calls `setsid`), so its children share its group id. On timeout the
 * whole group gets SIGKILL (`kill(-pgid)`): `sleep 100 & sleep 100; wait`
 * leaves nothing behind. When the main process exits by itself, whatever it
 * left running in its group is killed too (unless `keepBackground`), so no
 * background job outlives its command or holds the output pipes open. With
 * `keepBackground` a job started with `&` goes on running, as it does after
 * a container runtime's `exec`; its output after the main process ended is
 * not waited for longer than `pipeGraceMs`.
 *
 * @module
 */

import { OutputCollector } from "./output.ts";

/** What a command printed (stdout and stderr interleaved as they came) and how it ended. */
export interface ProcessResult {
  /** Output, with the middle cut out when it was longer than the output limit. */
  output: string;
  returncode: number;
  timedOut: boolean;
  /** True when `output` lost its middle. */
  truncated?: boolean;
}

/** Options of {@linkcode runProcess}. */
export interface RunOptions {
  cwd?: string;
  /** Variables added to the inherited environment (the whole environment with `clearEnv`). */
  env?: Record<string, string>;
  /** Start from an empty environment: `env` is all the process gets. */
  clearEnv?: boolean;
  /** Seconds; no limit when absent. */
  timeout?: number;
  /** On timeout, SIGTERM the group first and SIGKILL it this many seconds later (as `timeout -k`). */
  killAfter?: number;
  /** Bytes of output kept (head and tail). */
  outputLimit?: number;
  /** Written to stdin, which is then closed. */
  stdin?: string;
  /** Leave the process group running after the main process exits (the jobs it started with `&`). */
  keepBackground?: boolean;
  /** Milliseconds to wait for the output pipes to close after the main process ended (default 2000). */
  pipeGraceMs?: number;
  /** Called with the process group id once it runs; the function it returns is called when it ended. */
  onSpawn?: (pgid: number) => () => void;
}

/** Grace period after the main process ended for output pipes to close, in ms. */
const PIPE_GRACE_MS = 2000;

/** Run `argv` and collect its interleaved stdout and stderr. */
export async function runProcess(argv: string[], options: RunOptions = {}): Promise<ProcessResult> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv,
    stdin: options.stdin !== undefined ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  const unregister = options.onSpawn?.(child.pid) ?? (() => {});
  const collector = new OutputCollector(options.outputLimit ?? 1_000_000);
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const pumps = readers.map(async (reader) => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        collector.push(value);
      }
    } catch {
      // the stream was cancelled after a grace period
    }
  });
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    writer.write(new TextEncoder().encode(options.stdin)).then(() => writer.close()).catch(() => {});
  }
  let timedOut = false;
  let hardKill: ReturnType<typeof setTimeout> | undefined;
  const timer = options.timeout !== undefined
    ? setTimeout(() => {
      timedOut = true;
      if (options.killAfter === undefined) return killGroup(child.pid);
      killGroup(child.pid, "SIGTERM");
      hardKill = setTimeout(() => killGroup(child.pid), options.killAfter * 1000);
    }, options.timeout * 1000)
    : undefined;
  const status = await child.status;
  clearTimeout(timer);
  clearTimeout(hardKill);
  if (!options.keepBackground) killGroup(child.pid);
  unregister();
  let grace: ReturnType<typeof setTimeout> | undefined;
  const drained = await Promise.race([
    Promise.all(pumps).then(() => true),
    new Promise<boolean>((resolve) =>
      grace = setTimeout(() => resolve(false), options.pipeGraceMs ?? PIPE_GRACE_MS)
    ),
  ]);
  clearTimeout(grace);
  if (!drained) {
    await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
    await Promise.all(pumps);
  }
  const { text, truncated } = collector.result();
  return { output: text, returncode: status.code, timedOut, ...(truncated ? { truncated } : {}) };
}

/** SIGKILL (or `signal`) every process in the group `pgid`; a group already gone is fine. */
export function killGroup(pgid: number, signal: Deno.Signal = "SIGKILL"): void {
  try {
    Deno.kill(-pgid, signal);
  } catch {
    // no such group: everything has exited
  }
}
