/** The gate on the corpus gold patches (how they parse and apply: tests/engine/lift/unified_diff_test.ts). */

import assert from "node:assert/strict";
import { checkInvariants } from "../../../engine/gate/invariants.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { corpusTestPatchFiles } from "./_corpus_tests.ts";
import { gateChanges } from "./_gate_support.ts";

if (CORPUS_SKIP) console.log(`gate/gold_test: skipped: ${CORPUS_SKIP}`);

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

/**
 * Gold test patches that remove a check no new check replaces on the same
 * subject: the gate refuses that from an agent, whoever wrote it.
 * flask-4045 deletes `test_dotted_names` (its new test expects
 * `flask.Blueprint("app.ui", ...)` to raise instead) and drops the checks
 * that the blueprint's other routes are served; sympy-19007 deletes
 * `assert A[i, j] == B[i, j]` of `blockcut(...)`, and its new checks index
 * other block matrices in another file. (pytest-5413's merged test and
 * pytest-11148's renamed, inverted one are admitted: `subject.ts`,
 * `test_weakening.ts`.)
 */
const REMOVES_CHECKS = ["pallets__flask-4045", "sympy__sympy-19007"];

Deno.test({
  name: "gate: every corpus gold test patch is admitted but the two that remove checks no new check replaces",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const files = await corpusTestPatchFiles();
    const byInstance = Map.groupBy(files, (file) => file.instance);
    const refused: string[] = [];
    for (const [instance, changes] of byInstance) {
      const report = await gateChanges(changes);
      if (report.refused) {
        refused.push(instance);
        const codes = new Set(report.errors.map((issue) => issue.code));
        assert.ok(
          REMOVES_CHECKS.includes(instance),
          `${instance}: ${JSON.stringify(report.errors, null, 1)}`,
        );
        assert.deepEqual([...codes].filter((c) => c !== "test-deleted" && c !== "assertion-removed"), []);
      }
    }
    console.log(`gate on gold test patches: ${byInstance.size - refused.length}/${byInstance.size} admitted`);
    assert.deepEqual(refused.sort(), REMOVES_CHECKS);
    assert.equal(byInstance.size, 107);
  },
});
