import assert from "node:assert/strict";
import { join } from "node:path";
import { Controller, countFailures, testCommandProblem } from "../../../agent/rfsn/controller.ts";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import { type Helper, SessionHelper } from "../../../agent/common/helper.ts";
import * as planner from "../../../agent/rfsn/planner.ts";
import { DEFAULT_STRICT_CODES } from "../../../engine/verify/strict.ts";
import { unifiedDiff } from "../../../engine/exec/diff.ts";
import { git } from "../../e2e/_support.ts";
import { PYTEST_SKIP, runPython, STATS_REPO, writeRepo } from "./_pyrepo.ts";
import { GUARD_DIFF, GUARD_PLAN, STATS, statsDiff } from "./_fixtures.ts";
import { diffFacts } from "../../../agent/rfsn/diff_facts.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

if (PYTEST_SKIP) console.log(`controller_test: skipped: ${PYTEST_SKIP}`);

const COMMAND = "python3 -m pytest -p no:cacheprovider -q -rfE {{tests}}";
const NO_HELPER = () => Promise.reject(new Error("no helper in this test")) as Promise<Helper>;

const MAIN = new URL("../../../main.ts", import.meta.url).pathname;
const CONFIG = new URL("../../../deno.json", import.meta.url).pathname;
const HELPER_ARGV = [Deno.execPath(), "run", "-A", "--config", CONFIG, MAIN, "helper"];

/**
 * A committed copy of `files`, and a controller on it (with the real helper
 * when `helper` is set); `calls` lists the helper methods called, in order.
 */
async function setup(
  options: { files?: Record<string, string>; helper?: boolean; strict?: readonly string[] } = {},
) {
  const repo = await writeRepo(options.files ?? STATS_REPO);
  await git(repo, "init", "-q");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "init");
  const env = new LocalEnvironment({ cwd: repo, timeout: 120 });
  const session = options.helper ? SessionHelper.start(env, HELPER_ARGV, { timeout: 120 }) : undefined;
  const calls: string[] = [];
  const counted: Helper | undefined = session && {
    call: (method, params) => {
      calls.push(method);
      return session.call(method, params);
    },
    close: () => session.close(),
  };
  const controller = new Controller(env, {
    testCommand: COMMAND,
    readLimit: 10_000,
    helper: counted ? () => Promise.resolve(counted) : NO_HELPER,
    strict: options.strict,
  });
  const cleanup = async () => {
    await session?.close();
    await env.close();
    await Deno.remove(repo, { recursive: true });
  };
  return { repo, env, controller, calls, cleanup };
}

/** Every file of `repo` (outside .git) with its bytes, for "nothing changed on disk". */
async function snapshot(repo: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(join(repo, dir))) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.name === ".git") continue;
      if (entry.isDirectory) await walk(path);
      else files.set(path, Array.from(await Deno.readFile(join(repo, path))).join(","));
    }
  };
  await walk("");
  return files;
}

function guard(change: Parameters<typeof planner.addGuard>[0]["change"]) {
  return planner.addGuard({
    path: "pkg/stats.py",
    symbol: "mean",
    hypothesis: "mean() divides by zero for an empty list",
    change_summary: "return 0 when values is empty",
    change,
    tests: [],
  });
}

Deno.test("controller: countFailures reads pytest and unittest summaries, null when there is none", () => {
  assert.equal(countFailures("==== 2 failed, 1 passed in 0.12s ===="), 2);
  assert.equal(countFailures("1 failed, 3 passed, 1 error in 2.01s"), 2);
  assert.equal(countFailures("=== 4 passed in 0.50s ==="), 0);
  assert.equal(countFailures("Ran 3 tests in 0.001s\n\nFAILED (failures=1, errors=2)"), 3);
  assert.equal(countFailures("Ran 3 tests in 0.001s\n\nOK"), 0);
  assert.equal(countFailures("bash: python3: command not found"), null);
});

Deno.test("controller: testCommandProblem tells a command that cannot run from a test result", () => {
  const cmd = "python3 -m pytest -q {{tests}}";
  assert.match(
    testCommandProblem(cmd, { returncode: 127, output: "bash: python3: command not found" })!,
    /not found/,
  );
  assert.match(
    testCommandProblem("./t.sh", { returncode: 126, output: "bash: ./t.sh: Permission denied" })!,
    /126/,
  );
  assert.match(
    testCommandProblem(cmd, { returncode: 1, output: "/usr/bin/python3: No module named pytest" })!,
    /pytest/,
  );
  assert.match(
    testCommandProblem(cmd, {
      returncode: 4,
      output: "ERROR: file or directory not found: t.py\n\nno tests ran in 0.01s",
    })!,
    /exit 4/,
  );
  assert.match(
    testCommandProblem(cmd, { returncode: 5, output: "collected 0 items\n\n=== no tests ran in 0.01s ===" })!,
    /exit 5/,
  );
  // Results: tests failed (1), a collection error (2), a pass; an unknown command's exit 4 is not pytest's.
  assert.equal(
    testCommandProblem(cmd, { returncode: 1, output: "=== 1 failed, 1 passed in 0.1s ===" }),
    null,
  );
  assert.equal(testCommandProblem(cmd, { returncode: 2, output: "=== 1 error in 0.1s ===" }), null);
  assert.equal(testCommandProblem(cmd, { returncode: 0, output: "=== 2 passed in 0.1s ===" }), null);
  assert.equal(
    testCommandProblem("make check", { returncode: 4, output: "make: *** [check] Error 4" }),
    null,
  );
  // A failing test whose own output says "not found" still has a summary: it is a result.
  assert.equal(
    testCommandProblem(cmd, { returncode: 1, output: "E   sh: foo: not found\n=== 1 failed in 0.1s ===" }),
    null,
  );
});

Deno.test("controller: a test command that is not found is feedback not_run, with no failed tests", async () => {
  const repo = await writeRepo(STATS_REPO);
  const env = new LocalEnvironment({ cwd: repo, timeout: 60 });
  const controller = new Controller(env, {
    testCommand: "graphplan-no-such-python3 -m pytest {{tests}}",
    readLimit: 10_000,
    helper: NO_HELPER,
  });
  try {
    const run = await controller.execute(
      planner.reproduce({ tests: ["tests/test_stats.py::test_mean_empty"] }),
    );
    assert.equal(run.tests_failed, null);
    assert.equal(run.success, false);
    assert.match(run.not_run!, /not found \(exit 127\)/);
    assert.match(
      run.output,
      /^The test command could not run, so there is no test result: .*"graphplan-no-such-python3 /,
    );
  } finally {
    await env.close();
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test({
  name: "controller: pytest on a test path that does not exist (exit 4) is not_run, not a failure",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const { controller, cleanup } = await setup();
    try {
      const run = await controller.execute(planner.reproduce({ tests: ["tests/test_nope.py::test_x"] }));
      assert.equal(run.tests_failed, null);
      assert.match(run.not_run!, /exit 4/);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name: "controller: run_tests with real pytest reports failures and evidence; read_file and search_repo",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
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
  name: "controller: a diff edit is lifted into a plan, applied byte for byte, recorded, and reverted",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const { repo, controller, cleanup } = await setup({ helper: true });
    try {
      const applied = await controller.execute(guard({ diff: GUARD_DIFF }));
      assert.equal(applied.success, true, applied.output);
      const fixed = STATS.replace(
        "def mean(values):\n",
        "def mean(values):\n    if not values:\n        return 0\n",
      );
      assert.equal(await Deno.readTextFile(join(repo, "pkg/stats.py")), fixed);
      // The trajectory's record: the lifted plan, its tiers, which hunk became which steps, exact.
      const edit = applied.edit!;
      assert.equal(edit.source, "lifted");
      assert.equal(edit.exact, true);
      assert.ok(Array.isArray(edit.plan) && edit.plan.length > 0, JSON.stringify(edit.plan));
      assert.equal(edit.tiers.length, (edit.plan as unknown[]).length);
      assert.ok(edit.tiers.every((tier) => tier >= 0 && tier <= 3));
      assert.deepEqual(edit.hunks!.map((h) => [h.file, h.lifted]), [["pkg/stats.py", true]]);
      assert.deepEqual(edit.files, ["pkg/stats.py"]);
      assert.match(applied.output, /lifted from the diff/);
      // Real pytest: the failing test now passes.
      const run = await controller.execute(
        planner.reproduce({ tests: ["tests/test_stats.py::test_mean_empty"] }),
      );
      assert.equal(run.tests_failed, 0, run.output);
      // The submission is git's diff of the edited file: the same change as the proposal's diff.
      const submission = await controller.submission();
      assert.match(submission, /^diff --git a\/pkg\/stats\.py b\/pkg\/stats\.py/);
      assert.deepEqual(diffFacts(submission), diffFacts(GUARD_DIFF));
      await controller.revertEdits();
      assert.equal(await Deno.readTextFile(join(repo, "pkg/stats.py")), STATS);
      assert.equal(await controller.submission(), "");
      // Applied again after the revert; once more it is stale: refused with nothing changed.
      assert.equal((await controller.execute(guard({ diff: GUARD_DIFF }))).success, true);
      const before = await snapshot(repo);
      const stale = await controller.execute(guard({ diff: GUARD_DIFF }));
      assert.equal(stale.success, false);
      assert.match(stale.output, /^Edit not applied: the diff could not be lifted into a verified plan: /);
      assert.deepEqual(await snapshot(repo), before);
    } finally {
      await cleanup();
    }
  },
});

Deno.test({
  name:
    "controller: a prepared diff edit runs as prepared: lifted and dry-run once, nothing written until run",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const { repo, controller, calls, cleanup } = await setup({ helper: true });
    try {
      const before = await snapshot(repo);
      const ready = await controller.prepare({ plan: null, diff: GUARD_DIFF });
      assert.ok("edit" in ready, JSON.stringify(ready));
      assert.equal(ready.edit.source, "lifted");
      assert.deepEqual(calls, ["lift", "execute_plan"]);
      assert.deepEqual(await snapshot(repo), before);
      const applied = await controller.execute(guard({ diff: GUARD_DIFF }), { edit: ready.edit });
      assert.equal(applied.success, true, applied.output);
      assert.equal(applied.edit, ready.edit);
      // One more call: the plan itself (no second lift, no second dry run).
      assert.deepEqual(calls, ["lift", "execute_plan", "execute_plan"]);
      assert.match(await Deno.readTextFile(join(repo, "pkg/stats.py")), /if not values:\n {8}return 0\n/);
      // What cannot be prepared says why, as the edit would have: a new file that does not parse.
      const creates = "diff --git a/pkg/util.py b/pkg/util.py\nnew file mode 100644\n--- /dev/null\n" +
        "+++ b/pkg/util.py\n@@ -0,0 +1,1 @@\n+def broken(:\n";
      const refused = await controller.prepare({ plan: null, diff: creates });
      assert.ok("problems" in refused);
      assert.match(refused.problems[0], /could not be lifted into a verified plan: .*[Ss]yntax/);
    } finally {
      await cleanup();
    }
  },
});

Deno.test(
  "controller: diffs that fail verification are refused with every file unchanged",
  SLOW,
  async () => {
    const strict = await setup({ helper: true, strict: DEFAULT_STRICT_CODES });
    const lenient = await setup({ helper: true });
    try {
      const before = await snapshot(strict.repo);
      const cases: [string, string, RegExp][] = [
        // A syntax error: no step reproduces it (each one fails the post-check's syntax rule).
        [
          "return sum(values) / len(values)\n",
          "return sum(values) / len(values\n",
          /could not be lifted into a verified plan: Hunk 0 of "pkg\/stats\.py" could not be lifted/,
        ],
        // A name bound nowhere: refused under the strict codes (the helper's `strict`).
        [
          "return sum(values) / len(values)\n",
          "return total(values) / len(values)\n",
          /failed verification: .*"total"/,
        ],
      ];
      for (const [find, replace, why] of cases) {
        const feedback = await strict.controller.execute(guard({ diff: statsDiff(find, replace) }));
        assert.equal(feedback.success, false, replace);
        assert.match(feedback.output, why);
        assert.equal(feedback.edit, undefined);
        assert.deepEqual(await snapshot(strict.repo), before, replace);
      }
      assert.equal(await strict.controller.submission(), "");
      // The dangling name is only a warning without the strict codes: the same diff is applied.
      const diff = statsDiff("return sum(values) / len(values)\n", "return total(values) / len(values)\n");
      const applied = await lenient.controller.execute(guard({ diff }));
      assert.equal(applied.success, true, applied.output);
      assert.match(await Deno.readTextFile(join(lenient.repo, "pkg/stats.py")), /return total\(values\)/);
    } finally {
      await strict.cleanup();
      await lenient.cleanup();
    }
  },
);

Deno.test(
  "controller: a diff that creates a file becomes a create_file step; reverting the edit removes the file",
  SLOW,
  async () => {
    const { repo, controller, cleanup } = await setup({ helper: true });
    try {
      const before = await snapshot(repo);
      const creates = "diff --git a/pkg/util.py b/pkg/util.py\nnew file mode 100644\n--- /dev/null\n" +
        "+++ b/pkg/util.py\n@@ -0,0 +1,2 @@\n+def safe_len(values):\n+    return len(values) or 1\n";
      const applied = await controller.execute(guard({ diff: creates + GUARD_DIFF }));
      assert.equal(applied.success, true, applied.output);
      assert.deepEqual((applied.edit!.plan as { op?: string }[]).filter((s) => s.op).map((s) => s.op), [
        "create_file",
      ]);
      assert.deepEqual(applied.edit!.files.sort(), ["pkg/stats.py", "pkg/util.py"]);
      assert.equal(
        await Deno.readTextFile(join(repo, "pkg/util.py")),
        "def safe_len(values):\n    return len(values) or 1\n",
      );
      await controller.revertEdits();
      assert.deepEqual(await snapshot(repo), before);
    } finally {
      await cleanup();
    }
  },
);

Deno.test(
  "controller: a plan edit runs as a transaction; revert restores CRLF bytes without a final newline",
  SLOW,
  async () => {
    // CRLF line ends and no newline at the end: a text round trip would lose either.
    const source = "def mean(values):\r\n    return sum(values) / len(values)";
    const { repo, controller, cleanup } = await setup({
      files: { "pkg/__init__.py": "", "pkg/stats.py": source },
      helper: true,
    });
    try {
      const plan = GUARD_PLAN;
      const applied = await controller.execute(guard({ plan }));
      assert.equal(applied.success, true, applied.output);
      assert.equal(applied.edit?.source, "plan");
      assert.deepEqual(applied.edit?.tiers, [2]);
      const edited = await Deno.readTextFile(join(repo, "pkg/stats.py"));
      assert.match(edited, /if not values:\r\n\s+return 0\r\n/);
      if (PYTEST_SKIP === undefined) {
        const compiled = await runPython(repo, [
          "-c",
          "import ast,sys; ast.parse(open('pkg/stats.py').read())",
        ]);
        assert.equal(compiled.code, 0, compiled.output);
      }
      // A plan whose step fails resolves nothing and changes nothing.
      const missing = await controller.execute(guard({
        plan: [{
          ...plan[0],
          params: { ...plan[0].params, target: { file: "pkg/stats.py", kind: "function", name: "median" } },
        }],
      }));
      assert.equal(missing.success, false);
      assert.equal(await Deno.readTextFile(join(repo, "pkg/stats.py")), edited);
      await controller.revertEdits();
      assert.deepEqual(await Deno.readFile(join(repo, "pkg/stats.py")), new TextEncoder().encode(source));
      // The diff of the plan's dry run is what the gate judges; it matches the edit made.
      assert.equal(
        (await controller.prepare({ plan, diff: null }) as { edit: { diff: string } }).edit.diff,
        unifiedDiff("pkg/stats.py", source, edited),
      );
    } finally {
      await cleanup();
    }
  },
);

Deno.test("controller: without a helper an edit is feedback (helper unavailable), not a crash", async () => {
  const { repo, controller, cleanup } = await setup();
  try {
    const before = await snapshot(repo);
    const feedback = await controller.execute(guard({ diff: GUARD_DIFF }));
    assert.equal(feedback.success, false);
    assert.equal(feedback.output, "Edit not applied: the helper is unavailable: no helper in this test");
    assert.deepEqual(await controller.prepare({ plan: GUARD_PLAN, diff: null }), {
      problems: ["Edit not applied: the helper is unavailable: no helper in this test"],
    });
    assert.deepEqual(await snapshot(repo), before);
  } finally {
    await cleanup();
  }
});
