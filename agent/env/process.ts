/**
 * Running one host process with a timeout that really ends it.
 *
 * The process starts in its own session and process group (`detached`,
 * which calls `setsid`), so its children share its group id. On timeout the
 * whole group gets SIGKILL (`kill(-pgid)`): `sleep 100 & sleep 100; wait`
 * leaves nothing behind. When the main process exits by itself, whatever it
 * left running in its group is killed too, so no background job outlives its
 * command or holds the output pipes open. A detached group does not get the
 * terminal's Ctrl-C, so a running command's group is killed on SIGINT too.
 *
 * @module
 */

import { onInterrupt } from "./cleanup.ts";
import { OutputCollector } from "./output.ts";
import type { ExecResult } from "./types.ts";

/** Options of {@linkcode runProcess}. */
export interface RunOptions {
  cwd?: string;
  /** Variables added to the inherited environment. */
  env?: Record<string, string>;
  /** Seconds; no limit when absent. */
  timeout?: number;
  /** Bytes of output kept (head and tail). */
  outputLimit?: number;
  /** Written to stdin, which is then closed. */
  stdin?: string;
}

/** Grace period after the main process ended for output pipes to close, in ms. */
const PIPE_GRACE_MS = 2000;

/** Run `argv` and collect its interleaved stdout and stderr. */
export async function runProcess(argv: string[], options: RunOptions = {}): Promise<ExecResult> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd,
    env: options.env,
    stdin: options.stdin !== undefined ? "piped" : "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  // Its own process group does not get the terminal's Ctrl-C: kill it ourselves then.
  const unregister = onInterrupt(() => Promise.resolve(killGroup(child.pid)));
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
  const timer = options.timeout !== undefined
    ? setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeout * 1000)
    : undefined;
  const status = await child.status;
  clearTimeout(timer);
  killGroup(child.pid);
  unregister();
  let grace: ReturnType<typeof setTimeout> | undefined;
  const drained = await Promise.race([
    Promise.all(pumps).then(() => true),
    new Promise<boolean>((resolve) => grace = setTimeout(() => resolve(false), PIPE_GRACE_MS)),
  ]);
  clearTimeout(grace);
  if (!drained) {
    await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
    await Promise.all(pumps);
  }
  const { text, truncated } = collector.result();
  return { output: text, returncode: status.code, timedOut, ...(truncated ? { truncated } : {}) };
}

/** SIGKILL every process in the group `pgid`; a group already gone is fine. */
export function killGroup(pgid: number): void {
  try {
    Deno.kill(-pgid, "SIGKILL");
  } catch {
    // no such group: everything has exited
  }
}
