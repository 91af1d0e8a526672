import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { benchPatches, modelPatches, verdictCounts, VERDICTS_SKIP } from "../../bench/lift_patches.ts";

Deno.test({
  name:
    "lift verdicts: every lifted held-in model patch passes verify --strict exactly when CPython and pyflakes find nothing new broken",
  ignore: CORPUS_SKIP !== undefined || VERDICTS_SKIP !== undefined,
  async fn() {
    const outcomes = await benchPatches(await modelPatches());
    const counts = verdictCounts(outcomes);
    // the patches that create or delete files do not lift yet (whole diffs); the others do
    assert.ok(counts.lifted >= 80, `${counts.lifted} of ${counts.total} lifted`);
    const show = (list: typeof counts.misses) =>
      list.map((o) => `${o.id}: ${[...o.refusals, ...o.broken].join("; ")}`);
    assert.deepEqual(show(counts.falseAlarms), [], "correct code refused");
    assert.deepEqual(show(counts.misses), [], "broken code passed");
  },
});
