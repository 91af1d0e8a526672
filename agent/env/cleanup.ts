/**
 * Removing containers when the run is interrupted. Each live container
 * registers a cleanup; on SIGINT (Ctrl-C) or SIGTERM every registered cleanup
 * runs, then the process exits with 130 (143 for SIGTERM). The listeners are
 * installed with the first registration and removed with the last, so a run
 * without containers keeps the default signal behaviour. A caller with a
 * teardown of its own (a batch: stop starting, stop running, then remove)
 * takes the signals over with {@linkcode takeOverInterrupts}; the default
 * handler then stays out of the way and the caller runs the cleanups.
 *
 * @module
 */

type Cleanup = () => Promise<void>;

const cleanups = new Set<Cleanup>();
const SIGNALS = [["SIGINT", 130], ["SIGTERM", 143]] as const;
const listeners = new Map<Deno.Signal, () => void>();
let takenOver = 0;

/** Run `cleanup` if the process is interrupted; returns the function that unregisters it. */
export function onInterrupt(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  if (listeners.size === 0) {
    for (const [signal, code] of SIGNALS) {
      const listener = () => {
        if (takenOver > 0) return;
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
  return () => {
    cleanups.delete(cleanup);
    if (cleanups.size === 0) removeListeners();
  };
}

/** Run every registered cleanup once (failures ignored) and forget them. */
export async function runCleanups(): Promise<void> {
  const pending = [...cleanups];
  cleanups.clear();
  removeListeners();
  await Promise.allSettled(pending.map((cleanup) => cleanup()));
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
