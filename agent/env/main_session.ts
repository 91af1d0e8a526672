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
 * A runtime may start the container and still never pass its output on
 * (a `run -i` that does not forward stdout). {@linkcode attachMain} then
 * gives up once an `exec` probe finds the marker printed a few times over
 * while the client passed nothing on; `ContainerEnvironment.start` starts
 * the container again detached, the session is opened with `exec -i`, and
 * later containers of the same runtime in this process skip the attempt.
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
 * NAME and export each variable in order, say MARKER, create `/tmp/MARKER`
 * (the evidence {@linkcode attachMain}'s probe looks for), run ARGV, say
 * MARKER-end, then hold the container open.
 */
export const MAIN_SCRIPT = 'm="$1"; shift; while [ "$1" != -- ]; do case $1 in -*) unset "${1#-}" ;; ' +
  '*) export "$1" ;; esac; shift; done; shift; unset SHLVL; printf "%s\\n" "$m"; ' +
  '{ : >"/tmp/$m"; } 2>/dev/null; "$@"; ' +
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

/** Why {@linkcode attachMain} gave up: the client ended, the runtime never passed the marker on, or the cap. */
export type AttachFailure = "exited" | "stalled" | "timeout";

/** The attached client did not start the session; `kind` says how. */
export class MainAttachError extends Error {
  readonly kind: AttachFailure;
  constructor(kind: AttachFailure, message: string) {
    super(message);
    this.name = "MainAttachError";
    this.kind = kind;
  }
}

/**
 * The stall watch's schedule: the first probe after {@linkcode PROBE_FIRST}
 * seconds (a start that answers never sees one), then waits doubling up to
 * {@linkcode PROBE_MAX}; {@linkcode STALL_SIGHTINGS} probes that find the
 * marker printed, while the client still has not passed it on, are a stall.
 */
export const PROBE_FIRST = 1;
const PROBE_MAX = 8;
const STALL_SIGHTINGS = 3;

/** Options of {@linkcode attachMain}. */
export interface AttachOptions {
  /**
   * Whether the container's script has printed the marker (it touches
   * `/tmp/MARKER` right after: {@linkcode markerPath}), asked through another
   * way into the container than the attached client (an `exec`).
   */
  probe?: () => Promise<boolean>;
  /**
   * The stall watch's schedule in seconds (default {@linkcode PROBE_FIRST}
   * then doubling up to 8): tests shorten it so that a watch of three probes
   * does not wait 7 s of real time.
   */
  schedule?: ProbeSchedule;
}

/** When the stall watch probes: the first wait, and the most the doubling waits grow to (seconds). */
export interface ProbeSchedule {
  first: number;
  max: number;
}

/** The file the main script creates once it has printed `marker` (the stall watch's evidence). */
export function markerPath(marker: string): string {
  return `/tmp/${marker}`;
}

/**
 * Wait for `marker` on the attached client's stdout, then the client as the
 * session's process: stdout from after the marker to before the end marker.
 *
 * It gives up (a {@linkcode MainAttachError}) at the first sign that the
 * marker will not come: the client exits or closes its stdout (`exited`,
 * with its stderr), or `options.probe` finds, {@linkcode STALL_SIGHTINGS}
 * times, that the script printed it while the client passed nothing on
 * (`stalled`: a runtime whose `run -i` does not forward the container's
 * output). This wait is not a race against the machine's speed: it begins
 * once the marker is known to be printed and lasts at least two more probe
 * round trips through the same runtime and 6 s. Without either sign, the cap
 * is `timeout` seconds (the start may be pulling an image).
 */
export async function attachMain(
  process: SpawnedProcess,
  marker: string,
  timeout: number,
  options: AttachOptions = {},
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
  const watching = new AbortController();
  const never = new Promise<never>(() => {});
  const watch = options.probe ? watchStall(options.probe, watching.signal, options.schedule) : undefined;
  const stalled = watch ? watch.then((found) => found ?? never) : never;
  let started: string | "timeout" | "stalled" | null;
  try {
    do started = await Promise.race([lines.next(), expired, stalled]); while (
      started !== null && started !== "timeout" && started !== "stalled" && started !== marker
    );
  } finally {
    clearTimeout(timer);
    watching.abort();
    await watch;
  }
  if (started !== marker) {
    kill(process);
    await process.status.catch(() => {});
    if (started === "timeout") throw new MainAttachError("timeout", `timed out after ${timeout} s`);
    if (started === "stalled") {
      throw new MainAttachError(
        "stalled",
        "the container runs, but its output never came through the client",
      );
    }
    throw new MainAttachError("exited", stderrTail.trim() || "the container exited at once");
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

/**
 * Probe on `schedule` (by default {@linkcode PROBE_FIRST}'s) until `signal` aborts (then
 * undefined) or the marker was found printed {@linkcode STALL_SIGHTINGS}
 * times (then "stalled"). A probe that fails counts as not found.
 */
async function watchStall(
  probe: () => Promise<boolean>,
  signal: AbortSignal,
  schedule: ProbeSchedule = { first: PROBE_FIRST, max: PROBE_MAX },
): Promise<"stalled" | undefined> {
  let wait = schedule.first;
  let sightings = 0;
  while (await pause(wait, signal)) {
    if (await probe().catch(() => false)) sightings += 1;
    if (signal.aborted) return undefined;
    if (sightings >= STALL_SIGHTINGS) return "stalled";
    wait = Math.min(wait * 2, schedule.max);
  }
  return undefined;
}

/** Wait `seconds`; false when `signal` aborts first. */
function pause(seconds: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve(true);
    }, seconds * 1000);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
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
