/**
 * Parallel parsing across workers that run this same executable.
 * (Placeholder until the worker pool lands: everything runs in-process.)
 *
 * @module
 */

/** When this process is a pool worker, serve requests and return true. */
export function maybeRunWorker(): boolean {
  return false;
}
