/**
 * A line session run as a container's main process, so opening it needs no
 * `exec` (a container runtime's `exec` alone costs 0.2–0.5 s here).
 *
 * The container starts attached (`run -i`, not `run -d`) with
 * {@linkcode MAIN_SCRIPT} as its command: bash exports the session's
 * variables, prints a marker line (the container runs: the start is over),
 * runs the session (the helper's `--serve`) on the container's stdin and
 * stdout, and once it ends prints the marker again with `-end` and becomes
 * `sleep infinity`, the main process a container has otherwise, so the
 * container stays for `exec` (the fallback, and every restart of the
 * session) until it is removed.
 *
 * The attached client never ends by itself while the container runs, so
 * {@linkcode attachMain} wraps it: its stdout starts after the marker and
 * ends at the end marker, where the client is killed (the container is not:
 * a client's SIGKILL is not forwarded). A session closed gently (stdin closed,
 * the helper finishes and exits) thus ends at once instead of after the
 * grace period of a kill.
 *
 * The session's variables are those an `exec` gives: the script unsets
 * `SHLVL` (so a seeded helper's `bash -c ... exec` counts as under `exec`)
 * and what the runtime gives the main process alone ({@linkcode mainOnlyVariables}).
 *
 * @module
 */

import type { SpawnedProcess } from "./line_session.ts";
import type { SessionOptions } from "./types.ts";

/** The session a container's main process runs: its argv and its variables (beside the config's). */
export interface MainSession {
  argv: string[];
  env: Record<string, string>;
}

/**
 * `bash -c MAIN_SCRIPT bash MARKER [-NAME | K=V]... -- ARGV...`: unset each
 * NAME and export each variable in order, say MARKER, run ARGV, say
 * MARKER-end, then hold the container open.
 */
export const MAIN_SCRIPT = 'm="$1"; shift; while [ "$1" != -- ]; do case $1 in -*) unset "${1#-}" ;; ' +
  '*) export "$1" ;; esac; shift; done; shift; unset SHLVL; printf "%s\\n" "$m"; "$@"; ' +
  'printf "%s-end\\n" "$m"; exec sleep infinity </dev/null >/dev/null 2>&1';

/**
 * Variables a runtime sets for a container's main process but not for an
 * `exec`: podman's `HOSTNAME` (docker's is in the container's environment,
 * which every `exec` gets too).
 */
export function mainOnlyVariables(executable: string): string[] {
  return executable.split("/").at(-1) === "podman" ? ["HOSTNAME"] : [];
}

/** Whether `startSession(argv, options)` asks for the session `main` runs. */
export function mainSessionMatches(main: MainSession, argv: string[], options: SessionOptions): boolean {
  const sorted = (env: Record<string, string>) => JSON.stringify(Object.entries(env).sort());
  return JSON.stringify(main.argv) === JSON.stringify(argv) && !options.cwd &&
    sorted(main.env) === sorted(options.env ?? {});
}

const STDERR_TAIL = 4000;

/**
 * Wait for `marker` on the attached client's stdout (at most `timeout`
 * seconds), then the client as the session's process: stdout from after the
 * marker to before the end marker. Throws with the client's stderr when the
 * container never ran its script.
 */
export async function attachMain(
  process: SpawnedProcess,
  marker: string,
  timeout: number,
): Promise<SpawnedProcess> {
  let stderrTail = "";
  const errors = process.stderr.getReader();
  const stderrDecoder = new TextDecoder();
  const stderr = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for (;;) {
          const { value, done } = await errors.read();
          if (done) break;
          stderrTail = (stderrTail + stderrDecoder.decode(value, { stream: true })).slice(-STDERR_TAIL);
          controller.enqueue(value);
        }
      } catch {
        // the client was killed mid-read
      }
      controller.close();
    },
  });
  const lines = new LineSplitter(process.stdout);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<"timeout">((resolve) =>
    timer = setTimeout(() => resolve("timeout"), timeout * 1000)
  );
  let started: string | "timeout" | null;
  try {
    do started = await Promise.race([lines.next(), expired]); while (
      started !== null && started !== "timeout" && started !== marker
    );
  } finally {
    clearTimeout(timer);
  }
  if (started !== marker) {
    kill(process);
    await process.status.catch(() => {});
    throw new Error(
      started === "timeout" ? "timed out" : stderrTail.trim() || "the container exited at once",
    );
  }
  const encoder = new TextEncoder();
  const stdout = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const line = await lines.next();
      if (line === null || line === `${marker}-end`) {
        controller.close();
        kill(process);
        return;
      }
      controller.enqueue(encoder.encode(line + "\n"));
    },
    cancel() {
      kill(process);
    },
  });
  return {
    stdin: process.stdin,
    stdout,
    stderr,
    status: process.status,
    kill: (signal) => process.kill(signal),
  };
}

function kill(process: SpawnedProcess): void {
  try {
    process.kill("SIGKILL");
  } catch {
    // already gone
  }
}

/** The lines of a byte stream, one at a time (`null` at its end; a last unended line is a line). */
class LineSplitter {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  readonly #ready: string[] = [];
  #pieces: string[] = [];
  #done = false;

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  async next(): Promise<string | null> {
    while (this.#ready.length === 0 && !this.#done) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await this.#reader.read();
      } catch {
        chunk = { done: true, value: undefined };
      }
      if (chunk.done) {
        this.#done = true;
        const rest = this.#pieces.join("") + this.#decoder.decode();
        if (rest) this.#ready.push(rest);
        break;
      }
      let text = this.#decoder.decode(chunk.value, { stream: true });
      let newline: number;
      while ((newline = text.indexOf("\n")) >= 0) {
        this.#ready.push(this.#pieces.join("") + text.slice(0, newline));
        this.#pieces = [];
        text = text.slice(newline + 1);
      }
      if (text) this.#pieces.push(text);
    }
    return this.#ready.shift() ?? null;
  }
}
