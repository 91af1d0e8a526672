import assert from "node:assert/strict";
import { checkInvariants } from "../../../agent/rfsn/gate/invariants.ts";
import { applyFilePatch, parseUnifiedDiff } from "../../../agent/rfsn/gate/unified_diff.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";

if (CORPUS_SKIP) console.log(`gate_gold_test: skipped: ${CORPUS_SKIP}`);

Deno.test({
  name:
    "gate: every corpus gold patch applies in memory to its before files and gives the after files byte for byte",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    let files = 0;
    for (const instance of await loadCorpus()) {
      const parsed = parseUnifiedDiff(instance.patch);
      assert.deepEqual(parsed.errors, [], instance.instance_id);
      for (const patch of parsed.files) {
        const file = instance.files.find((f) => f.path === (patch.oldPath ?? patch.newPath));
        assert.ok(file, `${instance.instance_id}: ${patch.oldPath}`);
        const applied = applyFilePatch(patch.oldPath === null ? null : file.before, patch);
        assert.ok("text" in applied, `${instance.instance_id}: ${JSON.stringify(applied)}`);
        assert.equal(applied.text, file.after, `${instance.instance_id}: ${file.path}`);
        files++;
      }
    }
    assert.ok(files >= 187);
  },
});

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
