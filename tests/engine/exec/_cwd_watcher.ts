/**
 * A worker for confined_test.ts: reads the process's working directory in a
 * loop until told to stop (a shared flag set to 1), then answers with every
 * distinct value it saw. Confined writes on another thread must never show
 * it a second one.
 *
 * @module
 */

/** The worker's global scope, as far as this file uses it. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<Int32Array>) => void) | null;
  postMessage(message: string[]): void;
};

scope.onmessage = (event) => {
  const stop = event.data;
  const seen = new Set<string>();
  while (Atomics.load(stop, 0) === 0) seen.add(Deno.cwd());
  scope.postMessage([...seen]);
};
