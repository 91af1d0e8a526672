/**
 * A worker for confined_test.ts: writes `count` files atomically into its own
 * fresh directory (as `deno test --parallel` runs test files, as threads of
 * one process) and answers with how many writes failed and which names its
 * directory holds afterwards.
 *
 * @module
 */

import { atomicWrite } from "../../../engine/exec/atomic_write.ts";

/** The worker's global scope, as far as this file uses it. */
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<{ count: number; tag: string }>) => void) | null;
  postMessage(message: { failed: string[]; names: string[] }): void;
};

scope.onmessage = (event) => {
  const { count, tag } = event.data;
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "graphplan-concurrent-" }));
  const failed: string[] = [];
  for (let i = 0; i < count; i++) {
    try {
      atomicWrite(`${dir}/${tag}${i % 5}.txt`, new TextEncoder().encode(`${tag} ${i}\n`));
    } catch (err) {
      failed.push((err as Error).message);
    }
  }
  const names = [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
  Deno.removeSync(dir, { recursive: true });
  scope.postMessage({ failed, names });
};
