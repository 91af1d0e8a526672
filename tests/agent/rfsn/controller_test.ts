import assert from "node:assert/strict";
import { Controller, countFailures } from "../../../agent/rfsn/controller.ts";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import type { Helper } from "../../../agent/graphplan/helper.ts";
import * as planner from "../../../agent/rfsn/planner.ts";
import { git } from "../../e2e/_support.ts";
import { PYTEST_SKIP, STATS_REPO, writeRepo } from "./_pyrepo.ts";
import { GUARD_DIFF, STATS } from "./_fixtures.ts";
import { diffFacts } from "../../../agent/rfsn/diff_facts.ts";

if (PYTEST_SKIP) console.log(`controller_test: skipped: ${PYTEST_SKIP}`);

const COMMAND = "python3 -m pytest -p no:cacheprovider -q -rfE {{tests}}";
const NO_HELPER = () => Promise.reject(new Error("no helper in this test")) as Promise<Helper>;

async function setup() {
  const repo = await writeRepo(STATS_REPO);
  await git(repo, "init", "-q");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "init");
  const env = new LocalEnvironment({ cwd: repo, timeout: 120 });
  const controller = new Controller(env, { testCommand: COMMAND, readLimit: 10_000, helper: NO_HELPER });
  return { repo, env, controller, cleanup: () => Deno.remove(repo, { recursive: true }) };
}

Deno.test("controller: countFailures reads pytest and unittest summaries, null when there is none", () => {
  assert.equal(countFailures("==== 2 failed, 1 passed in 0.12s ===="), 2);
  assert.equal(countFailures("1 failed, 3 passed, 1 error in 2.01s"), 2);
  assert.equal(countFailures("=== 4 passed in 0.50s ==="), 0);
  assert.equal(countFailures("Ran 3 tests in 0.001s\n\nFAILED (failures=1, errors=2)"), 3);
  assert.equal(countFailures("Ran 3 tests in 0.001s\n\nOK"), 0);
  assert.equal(countFailures("bash: python3: command not found"), null);
});

Deno.test({
  name: "controller: run_tests with real pytest reports failures and evidence; read_file and search_repo",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const { controller, cleanup } = await setup();
    try {
      const run = await controller.execute(
        planner.reproduce({ tests: ["tests/test_stats.py::test_mean_empty"] }),
      );
      assert.equal(run.tests_failed, 1);
      assert.deepEqual(run.evidence?.failing_tests, ["tests/test_stats.py::test_mean_empty"]);
      assert.deepEqual(run.evidence?.exception_types, ["ZeroDivisionError"]);
      const pass = await controller.execute(
        planner.verifyTargeted({ tests: ["tests/test_stats.py::test_mean"], after_fix: "x" }),
      );
      assert.equal(pass.tests_failed, 0);
      const read = await controller.execute(planner.localizeFile({ path: "pkg/stats.py", reason: "r" }));
      assert.equal(read.success, true);
      assert.equal(read.output, STATS);
      const missing = await controller.execute(planner.localizeFile({ path: "pkg/nope.py", reason: "r" }));
      assert.equal(missing.success, false);
      const found = await controller.execute(planner.searchRepo({ pattern: "len(values)", reason: "r" }));
      assert.deepEqual(found.found_files, ["pkg/stats.py"]);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "controller: a diff edit is applied, kept in the submission, and reverted byte for byte; a stale diff is refused",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const { repo, controller, cleanup } = await setup();
    try {
      const edit = planner.addGuard({
        path: "pkg/stats.py",
        symbol: "mean",
        hypothesis: "h",
        change_summary: "guard",
        change: { diff: GUARD_DIFF },
        tests: [],
      });
      const applied = await controller.execute(edit);
      assert.equal(applied.success, true, applied.output);
      assert.match(await Deno.readTextFile(`${repo}/pkg/stats.py`), /if not values:/);
      const fixed = await controller.execute(
        planner.reproduce({ tests: ["tests/test_stats.py::test_mean_empty"] }),
      );
      assert.equal(fixed.tests_failed, 0);
      // The submission is git's diff of the edited file: the same change as the edit.
      const submission = await controller.submission();
      assert.match(submission, /^diff --git a\/pkg\/stats\.py b\/pkg\/stats\.py/);
      assert.deepEqual(diffFacts(submission), diffFacts(GUARD_DIFF));
      await controller.revertEdits();
      assert.equal(await Deno.readTextFile(`${repo}/pkg/stats.py`), STATS);
      const again = await controller.execute(edit);
      assert.equal(again.success, true);
      const stale = await controller.execute(edit);
      assert.equal(stale.success, false);
      assert.match(stale.output, /git apply refused the diff/);
    } finally {
      await cleanup();
    }
  },
});
