/**
 * `tests/_support/probe_cache.ts`: a tool looked for by one test file is not
 * looked for again by the next, which `deno test --parallel` runs in another
 * isolate (a worker of the same process, as here).
 */

import assert from "node:assert/strict";
import { foundOnce } from "../_support/probe_cache.ts";

Deno.test("probe cache: found once per process, absence included; another isolate reads the answer", async () => {
  const name = `PROBE_TEST_${crypto.randomUUID().replaceAll("-", "_").toUpperCase()}`;
  let looks = 0;
  const find = () => (looks++, "/opt/tool/bin/tool");
  assert.equal(foundOnce(name, find), "/opt/tool/bin/tool");
  assert.equal(foundOnce(name, find), "/opt/tool/bin/tool");
  assert.equal(looks, 1);
  let absentLooks = 0;
  const absent = () => void absentLooks++;
  assert.equal(foundOnce(`${name}_ABSENT`, absent), undefined);
  assert.equal(foundOnce(`${name}_ABSENT`, absent), undefined);
  assert.equal(absentLooks, 1);
  // A worker is a new isolate that evaluates the module again: it must not look. Its source is
  // JavaScript, which Deno does not type-check each run as it does a TypeScript data URL.
  const source = `import { foundOnce } from ${
    JSON.stringify(new URL("../_support/probe_cache.ts", import.meta.url).href)
  };
    postMessage([foundOnce(${JSON.stringify(name)}, () => "looked again"), foundOnce(${
    JSON.stringify(`${name}_ABSENT`)
  }, () => "looked again")]);`;
  const worker = new Worker(`data:application/javascript,${encodeURIComponent(source)}`, { type: "module" });
  try {
    const answer = await new Promise((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
    });
    assert.deepEqual(answer, ["/opt/tool/bin/tool", undefined]);
  } finally {
    worker.terminate();
    Deno.env.delete(`GRAPHPLAN_TEST_FOUND_${name}`);
    Deno.env.delete(`GRAPHPLAN_TEST_FOUND_${name}_ABSENT`);
  }
});
