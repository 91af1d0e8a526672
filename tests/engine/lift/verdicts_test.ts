import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { benchPatches, modelPatches, verdictCounts, VERDICTS_SKIP } from "../../bench/lift_patches.ts";

Deno.test({
  name:
    "lift verdicts: the held-in model patches, whole diffs included, lift and pass verify --strict exactly when CPython and pyflakes find nothing new broken",
  ignore: CORPUS_SKIP !== undefined || VERDICTS_SKIP !== undefined,
  async fn() {
    const outcomes = await benchPatches(await modelPatches(), { part: "held-in" });
    const counts = verdictCounts(outcomes);
    const lifted = outcomes.filter((o) => o.lifted);
    // the patches that create or delete files (build/lib output, reproduction scripts) lift too
    assert.ok(lifted.length >= 0.98 * outcomes.length, `${lifted.length} of ${outcomes.length} lifted`);
    assert.ok(lifted.filter((o) => o.wholeFile).length >= 30, "whole-file patches lifted");
    const show = (list: typeof counts.misses) =>
      list.map((o) => `${o.id}: ${[...o.refusals, ...o.broken].join("; ")}`);
    assert.deepEqual(show(counts.falseAlarms), [], "correct code refused");
    assert.deepEqual(show(counts.misses), [], "broken code passed");
  },
});
