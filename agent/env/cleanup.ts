/**
 * What happens on SIGINT (Ctrl-C) and SIGTERM.
 *
 * Processes and containers register a cleanup with `onInterrupt`. Without a
 * graceful stop in force, a signal runs every cleanup and exits with 130
 * (143 for SIGTERM), as before.
 *
 * A run registers a graceful stop with `onStop` for its duration. Then the
 * first signal does not end the process: it runs only the cleanups that are
 * safe mid-run (killing a bash command, whose output the run can do without)
 * and calls the stop handler, which lets the run end at its next safe point:
 * a plan the helper is applying is finished or rolled back by the helper,
 * the trajectory is finalized as `Interrupted` and preds.json written.
 * Cleanups registered with `keepOnStop` (the helper session, the container
 * the helper runs in) are left to the run's own shutdown. A second signal
 * is the impatient user: every cleanup, then exit.
 *
 * A caller with a teardown of its own (a batch: stop starting, stop the
 * running instances, then remove their containers) takes the signals over
 * with {@linkcode takeOverInterrupts}: while it holds them, neither the
 * graceful stop nor the default exit happens here, and the caller decides
 * when to call {@linkcode runCleanups} and when to exit.
 *
 * The listeners are installed while anything is registered, so a process
 * with nothing registered keeps the default signal behaviour.
 *
 * @module
 */

type Cleanup = () => Promise<void>;

/** Options of {@linkcode onInterrupt}. */
export interface InterruptOptions {
  /** Leave this cleanup alone on a graceful stop (the run's shutdown does it). */
  keepOnStop?: boolean;
}

const cleanups = new Map<Cleanup, InterruptOptions>();
const stops = new Set<(signal: Deno.Signal) => void>();
const SIGNALS = [["SIGINT", 130], ["SIGTERM", 143]] as const;
const listeners = new Map<Deno.Signal, () => void>();
let stopping = false;
let takenOver = 0;

/** Run `cleanup` if the process is interrupted; returns the function that unregisters it. */
export function onInterrupt(cleanup: Cleanup, options: InterruptOptions = {}): () => void {
  cleanups.set(cleanup, options);
  installListeners();
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0 && stops.size === 0) removeListeners();
  };
}

/**
 * While registered, the first SIGINT/SIGTERM calls `handler` (after killing
 * what `onInterrupt` registered without `keepOnStop`) instead of exiting;
 * returns the function that unregisters it.
 */
export function onStop(handler: (signal: Deno.Signal) => void): () => void {
  stops.add(handler);
  installListeners();
  return () => {
    stops.delete(handler);
    if (stops.size === 0) stopping = false;
    if (cleanups.size === 0 && stops.size === 0) removeListeners();
  };
}

/** Run every registered cleanup once (failures ignored) and forget them. */
export async function runCleanups(): Promise<void> {
  const pending = [...cleanups.keys()];
  cleanups.clear();
  removeListeners();
  await Promise.allSettled(pending.map((cleanup) => cleanup()));
}

function installListeners(): void {
  if (listeners.size > 0) return;
  for (const [signal, code] of SIGNALS) {
    const listener = () => {
      if (takenOver > 0) return;
      if (stops.size > 0 && !stopping) {
        stopping = true;
        const safe = [...cleanups].filter(([, options]) => !options.keepOnStop).map(([cleanup]) => cleanup);
        for (const cleanup of safe) cleanups.delete(cleanup);
        Promise.allSettled(safe.map((cleanup) => cleanup())).then(() => {
          for (const handler of stops) handler(signal);
        });
        return;
      }
      runCleanups().finally(() => Deno.exit(code));
    };
    try {
      Deno.addSignalListener(signal, listener);
      listeners.set(signal, listener);
    } catch {
      // signals not supported here (Windows SIGTERM): nothing to listen to
    }
  }
}

function removeListeners(): void {
  for (const [signal, listener] of listeners) {
    try {
      Deno.removeSignalListener(signal, listener);
    } catch {
      // already removed
    }
  }
  listeners.clear();
}

/**
 * Send SIGINT and SIGTERM to `handler` instead of the default teardown until
 * the returned function is called. The handler decides when to call
 * {@linkcode runCleanups} and when to exit.
 */
export function takeOverInterrupts(handler: (signal: "SIGINT" | "SIGTERM") => void): () => void {
  takenOver += 1;
  const own: [Deno.Signal, () => void][] = [];
  for (const [signal] of SIGNALS) {
    const listener = () => handler(signal);
    try {
      Deno.addSignalListener(signal, listener);
      own.push([signal, listener]);
    } catch {
      // signals not supported here
    }
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    takenOver -= 1;
    for (const [signal, listener] of own) {
      try {
        Deno.removeSignalListener(signal, listener);
      } catch {
        // already removed
      }
    }
  };
}
