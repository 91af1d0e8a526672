/** The gate on the corpus gold patches (how they parse and apply: tests/engine/lift/unified_diff_test.ts). */

import assert from "node:assert/strict";
import { checkInvariants } from "../../../agent/rfsn/gate/invariants.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";

if (CORPUS_SKIP) console.log(`gate_gold_test: skipped: ${CORPUS_SKIP}`);

Deno.test({
  name: "gate: every corpus gold patch (it fixes source, not tests) is admissible: false-positive rate 0",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const corpus = await loadCorpus();
    const refused: string[] = [];
    let warnings = 0;
    for (const instance of corpus) {
      const before = new Map(instance.files.map((f) => [f.path, f.before]));
      const report = await checkInvariants(instance.patch, {
        readFile: (path) => Promise.resolve(before.get(path) ?? null),
      });
      if (report.refused || !report.admissible) {
        refused.push(`${instance.instance_id}: ${JSON.stringify(report.errors)}`);
      }
      warnings += report.warnings.length;
    }
    console.log(
      `gate on gold patches: ${
        corpus.length - refused.length
      }/${corpus.length} admissible, ${refused.length} refused, ${warnings} warnings`,
    );
    assert.deepEqual(refused, []);
    assert.equal(corpus.length, 187);
  },
});
