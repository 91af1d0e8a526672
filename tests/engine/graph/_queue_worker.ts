/**
 * A worker for the SharedQueue race test: waits for the queue's memory,
 * claims from the front until the queue is empty, and posts what it got.
 *
 * @module
 */

import { SharedQueue } from "../../../engine/graph/pool.ts";

const scope = globalThis as unknown as {
  onmessage: ((event: MessageEvent<SharedArrayBuffer>) => void) | null;
  postMessage(message: number[] | "ready"): void;
};
scope.onmessage = (event) => {
  const queue = new SharedQueue(event.data);
  const claimed: number[] = [];
  for (let index = queue.claim("front"); index >= 0; index = queue.claim("front")) claimed.push(index);
  scope.postMessage(claimed);
};
scope.postMessage("ready");
