/**
 * Removing containers when the run is interrupted. Each live container
 * registers a cleanup; on SIGINT (Ctrl-C) or SIGTERM every registered cleanup
 * runs, then the process exits with 130 (143 for SIGTERM). The listeners are
 * installed with the first registration and removed with the last, so a run
 * without containers keeps the default signal behaviour.
 *
 * @module
 */

type Cleanup = () => Promise<void>;

const cleanups = new Set<Cleanup>();
const SIGNALS = [["SIGINT", 130], ["SIGTERM", 143]] as const;
const listeners = new Map<Deno.Signal, () => void>();

/** Run `cleanup` if the process is interrupted; returns the function that unregisters it. */
export function onInterrupt(cleanup: Cleanup): () => void {
  cleanups.add(cleanup);
  if (listeners.size === 0) {
    for (const [signal, code] of SIGNALS) {
      const listener = () => {
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
