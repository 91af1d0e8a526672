/** The gate on the corpus gold patches (how they parse and apply: tests/engine/lift/unified_diff_test.ts). */

import assert from "node:assert/strict";
import { checkInvariants } from "../../../engine/gate/invariants.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { corpusTestPatchFiles } from "./_corpus_tests.ts";
import { type Change, gateChanges, replaceOnce } from "./_gate_support.ts";

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
 * subject: the gate refuses that from an agent, whoever wrote it (the
 * reasons, checked against sympy 1.14 and flask 3.1.3, which carry these
 * fixes: tests/bench/README.md, gate section). sympy-19007 deletes
 * `assert A[i, j] == B[i, j]` of a `blockcut(...)`, a check the fix makes
 * false (`B[i, j]` now stays `MatrixElement(B, i, j)`); its new checks index
 * other block matrices in another file. flask-4045 deletes
 * `test_dotted_names` (dotted blueprint names now raise) and drops from
 * `test_route_decorator_custom_endpoint_with_dots` three checks that still
 * hold after the fix: `/py/foo` is served as `bp.foo`, and the two rejected
 * rules answer 404. (pytest-5413's merged test and pytest-11148's renamed,
 * inverted one are admitted: `subject.ts`, `test_weakening.ts`.)
 */
const REMOVES_CHECKS = ["pallets__flask-4045", "sympy__sympy-19007"];

/** The errors the gate gives each of them: code and the test or check it names. */
const DROPPED: Record<string, [string, RegExp][]> = {
  "pallets__flask-4045": [
    ["test-deleted", /"test_dotted_names"/],
    [
      "assertion-removed",
      /"test_route_decorator_custom_endpoint_with_dots": "assert client\.get\("\/py\/foo"\)\.data == b"bp\.foo"" \(line \d+ of the original\) no longer runs; "assert rv\.status_code == 404" \(line \d+ of the original\) no longer runs \(it ran 2 times\)$/,
    ],
  ],
  "sympy__sympy-19007": [
    [
      "assertion-removed",
      /"test_blockcut": "assert A\[i, j\] == B\[i, j\]" \(line \d+ of the original\) no longer runs$/,
    ],
  ],
};

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
        assert.ok(
          REMOVES_CHECKS.includes(instance),
          `${instance}: ${JSON.stringify(report.errors, null, 1)}`,
        );
        const expected = DROPPED[instance];
        assert.equal(report.errors.length, expected.length, JSON.stringify(report.errors, null, 1));
        report.errors.forEach((issue, at) => {
          assert.equal(issue.code, expected[at][0]);
          assert.match(issue.message, expected[at][1]);
        });
      }
    }
    console.log(`gate on gold test patches: ${byInstance.size - refused.length}/${byInstance.size} admitted`);
    assert.deepEqual(refused.sort(), REMOVES_CHECKS);
    assert.equal(byInstance.size, 107);
  },
});

/** One gold test patch's files, with `edit` applied to the new side of the file ending in `path`. */
async function goldWith(instance: string, path: string, edit: (after: string) => string): Promise<Change[]> {
  const changes = (await corpusTestPatchFiles()).filter((file) => file.instance === instance);
  assert.ok(changes.some((file) => file.path.endsWith(path)), `${instance} has no "${path}"`);
  return changes.map((file) => file.path.endsWith(path) ? { ...file, after: edit(file.after!) } : file);
}

Deno.test({
  name: "gate: sympy-19007 with its deleted check pinned to the fix's value on the same subject is admitted",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    // `B[i, j] == MatrixElement(B, i, j)` holds after the fix, where `A[i, j] == B[i, j]` no longer does.
    const changes = await goldWith("sympy__sympy-19007", "test_blockmatrix.py", (after) =>
      replaceOnce(
        after,
        "    assert B == BlockMatrix",
        "    assert B[i, j] == MatrixElement(B, i, j)\n    assert B == BlockMatrix",
      ));
    const report = await gateChanges(changes);
    assert.deepEqual(report.errors, []);
    assert.deepEqual(report.warnings.map((issue) => issue.message), [
      'Assertion changed in test "test_blockcut": "assert A[i, j] == B[i, j]" became "assert B[i, j] == MatrixElement(B, i, j)"',
    ]);
  },
});

Deno.test({
  name:
    "gate: flask-4045 keeping the three checks its rewrite of a test drops is refused only for the deleted test",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const head = "def test_route_decorator_custom_endpoint_with_dots";
    const next = "def test_endpoint_decorator";
    const original = (await corpusTestPatchFiles()).find((file) =>
      file.instance === "pallets__flask-4045" && file.path.endsWith("test_blueprints.py")
    )!.before!;
    const oldTest = original.slice(original.indexOf(head), original.indexOf(next));
    const splice = (after: string, test: string) =>
      after.slice(0, after.indexOf(head)) + test + after.slice(after.indexOf(next));
    // The old test as the fix needs it (the checks expect ValueError), and the gold's
    // shorter test with the blueprint registered and the three checks it drops kept.
    const minimal = oldTest.replaceAll("AssertionError", "ValueError");
    const kept = (after: string) =>
      after.slice(after.indexOf(head), after.indexOf(next)).trimEnd() + "\n\n" +
      '    app.register_blueprint(bp, url_prefix="/py")\n' +
      '    assert client.get("/py/foo").data == b"bp.foo"\n' +
      '    rv = client.get("/py/bar")\n    assert rv.status_code == 404\n' +
      '    rv = client.get("/py/bar/123")\n    assert rv.status_code == 404\n\n\n';
    for (
      const edit of [(after: string) => splice(after, minimal), (after: string) => splice(after, kept(after))]
    ) {
      const report = await gateChanges(await goldWith("pallets__flask-4045", "test_blueprints.py", edit));
      assert.deepEqual(report.errors.map((issue) => [issue.code, issue.message]), [[
        "test-deleted",
        'Test deleted or no longer collected: "test_dotted_names" (line 12 of the original)',
      ]]);
      assert.equal(report.warnings.filter((issue) => issue.code === "assertion-changed").length, 3);
    }
  },
});
