/**
 * `graphplan run --strategy rfsn` end to end in the local environment on a
 * small Python package with a real bug, real pytest, the real helper, and
 * scripted candidate models: a run that reproduces, localizes from the
 * traceback, patches with a template, verifies and expands; a run where the
 * best-scored candidate weakens a test and the gate refuses it so the next
 * candidate wins; a run that ends STUCK with its explanation; and the first
 * one again in a podman container (an image with python3 and pytest, no
 * network), and in a `graphplan batch --strategy rfsn` over two instances of
 * an image that holds the package in /testbed. Skipped, saying why, where
 * python3, pytest or podman is absent.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { stringify } from "yaml";
import { git, graphplan, graphplanRun, readJson } from "./_support.ts";
import { PYTEST_SKIP, writeRepo } from "../agent/rfsn/_pyrepo.ts";
import { GUARD_PLAN } from "../agent/rfsn/_fixtures.ts";
import { podmanEnv, PYTHON_IMAGE_SKIP, pythonImage, removePythonImage } from "./_python_image.ts";

if (PYTEST_SKIP) console.log(`rfsn_test: skipped: ${PYTEST_SKIP}`);
if (PYTHON_IMAGE_SKIP) console.log(`rfsn_test: container test skipped: ${PYTHON_IMAGE_SKIP}`);

const SOURCE = "def mean(values):\n    return sum(values) / len(values)\n";
const TESTS = `from pkg.stats import mean


def test_mean_empty():
    assert mean([]) == 0


def test_mean():
    assert mean([1, 2, 3]) == 2
`;
const TASK = "mean([]) raises ZeroDivisionError; it should return 0 for an empty list.";
const TARGET = "tests/test_stats.py::test_mean_empty";

/** A scripted turn answering the PATCH prompt with `proposal` as JSON. */
function answer(proposal: Record<string, unknown>): { content: string } {
  return { content: "```json\n" + JSON.stringify(proposal) + "\n```" };
}

const GUARD_ANSWER = answer({
  hypothesis: "mean() divides by len(values), which is 0 for an empty list: ZeroDivisionError",
  target: { path: "pkg/stats.py", symbol: "mean" },
  change_summary: "return 0 when values is empty",
  risk_level: "low",
  plan: GUARD_PLAN,
});

/** The guard plan with a poor story: it scores below a candidate that retells the failure. */
const RUNNER_UP_ANSWER = answer({
  hypothesis: "an empty list needs a guard",
  target: { path: "pkg/stats.py", symbol: "mean" },
  change_summary: "guard",
  risk_level: "low",
  plan: GUARD_PLAN,
});

interface Traj {
  info: {
    exit_status: string;
    submission: string;
    error?: string;
    model_stats: { cost: number; calls: number };
    gate?: { admissible: boolean; refused: boolean };
    rfsn: {
      steps: {
        phase: string;
        proposal?: { action_type: string; action: Record<string, unknown>; hypothesis: string };
        verdict?: { accepted: boolean; rejection_type: string | null };
        candidates?: {
          model: string;
          score: { total: number; factors: { factor: string; why: string }[] } | null;
          verdict: { accepted: boolean; rejection_type: string | null; issues: { code: string }[] } | null;
          edit: { source: string; tiers: number[]; files: string[] } | null;
          problems: string[];
          admissible: boolean;
        }[];
        chosen?: string;
        feedback?: { success: boolean; output: string; edit?: { source: string; plan: unknown } };
      }[];
      transitions: { from: string; to: string }[];
      state: { history: { hypotheses_tried: { outcome: string; signature: string | null }[] } };
      test_files: { source: string | null; patterns: string[] };
    };
  };
}

/** The first PATCH step of a run and the records of the candidates of `models` (scripted names). */
function firstPatch(traj: Traj, models: string[]) {
  const patch = traj.info.rfsn.steps.find((s) => s.candidates)!;
  const records = models.map((m) => patch.candidates!.find((c) => c.model === `scripted/${m}`)!);
  return { patch, records };
}

async function scenario(
  models: Record<string, { content: string }[]>,
  overrides: string[] = [],
  options: { args?: string[]; env?: Record<string, string>; before?: (repo: string) => Promise<void> } = {},
) {
  const root = await writeRepo({});
  const repo = await writeRepo({
    "pkg/__init__.py": "",
    "pkg/stats.py": SOURCE,
    "tests/__init__.py": "",
    "tests/test_stats.py": TESTS,
  });
  await git(repo, "init", "-q");
  await git(repo, "add", "-A");
  await git(repo, "commit", "-q", "-m", "init");
  await options.before?.(repo);
  const candidates = [];
  for (const [name, turns] of Object.entries(models)) {
    const script = join(root, `${name}.yaml`);
    await Deno.writeTextFile(script, stringify(turns));
    candidates.push({ name: `scripted/${name}`, script });
  }
  const out = join(root, "out");
  const result = await graphplanRun([
    "--strategy",
    "rfsn",
    "--repo",
    repo,
    "--task",
    TASK,
    "--id",
    "stats",
    "-o",
    out,
    // The run's own model must exist; with candidate_models set it is not asked.
    "-c",
    `model.name=${candidates[0].name}`,
    "-c",
    `model.script=${JSON.stringify(candidates[0].script)}`,
    "-c",
    `rfsn.candidate_models=${JSON.stringify(candidates)}`,
    "-c",
    `rfsn.tests=["${TARGET}"]`,
    ...overrides.flatMap((o) => ["-c", o]),
    ...(options.args ?? []),
  ], { env: options.env });
  const traj = await readJson<Traj>(join(out, "stats", "stats.traj.json"));
  const cleanup = async () => {
    await Deno.remove(root, { recursive: true });
    await Deno.remove(repo, { recursive: true });
  };
  return { ...result, traj, repo, out, cleanup };
}

Deno.test({
  name: "rfsn: the patch leaves out the user's untracked file and uncommitted edit; the index is not touched",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    let index = "";
    const run = await scenario({ a: [GUARD_ANSWER] }, [], {
      before: async (repo) => {
        await Deno.writeTextFile(join(repo, "notes.txt"), "ask about medians\n");
        await Deno.writeTextFile(join(repo, "pkg/stats.py"), `# user's draft\n${SOURCE}`);
        index = await git(repo, "ls-files", "-s");
      },
    });
    try {
      assert.equal(run.code, 0, run.stderr);
      const { info } = run.traj;
      assert.equal(info.exit_status, "Submitted");
      assert.ok(info.submission.includes("+    if not values:\n+        return 0\n"), info.submission);
      // The user's line is context (the patch applies on top of it), never an added line.
      assert.doesNotMatch(info.submission, /notes\.txt|^[+-]# user's draft/m);
      assert.match(info.submission, /^ # user's draft$/m);
      assert.equal(await git(run.repo, "ls-files", "-s"), index);
      assert.equal(await git(run.repo, "diff", "--cached", "--name-only"), "");
      assert.equal(
        await git(run.repo, "status", "--porcelain", "--untracked-files=all"),
        " M pkg/stats.py\n?? notes.txt\n",
      );
      assert.match(await Deno.readTextFile(join(run.repo, "pkg/stats.py")), /^# user's draft\n/);
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name: "rfsn: reproduce, localize from the traceback, patch with a template, verify, expand, submit",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const run = await scenario({ a: [GUARD_ANSWER] });
    try {
      assert.equal(run.code, 0, run.stderr);
      const { info } = run.traj;
      assert.equal(info.exit_status, "Submitted");
      assert.ok(info.submission.includes("+    if not values:\n+        return 0\n"), info.submission);
      assert.equal(run.stdout.trim(), info.submission.trim());
      assert.deepEqual(info.rfsn.transitions.map((t) => t.to), ["LOCALIZE", "PATCH", "VERIFY", "EXPAND"]);
      const actions = info.rfsn.steps.map((s) => s.proposal?.action_type ?? `patch:${s.chosen}`);
      assert.deepEqual(actions, ["run_tests", "read_file", "patch:scripted/a", "run_tests", "run_tests"]);
      assert.equal(info.rfsn.steps[1].proposal?.action.path, "pkg/stats.py");
      assert.equal(info.gate?.admissible, true);
      // The fix is real: pytest passes on the repository as the run left it.
      const check = await new Deno.Command("python3", {
        args: ["-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd: run.repo,
      })
        .output();
      assert.equal(check.code, 0);
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name:
    "rfsn: the best-scored candidate skips the failing test, the gate refuses it, the next candidate wins",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const weak =
      "--- a/tests/test_stats.py\n+++ b/tests/test_stats.py\n@@ -4,2 +4,4 @@\n def test_mean_empty():\n" +
      "+    if not []:\n+        return\n     assert mean([]) == 0\n";
    const run = await scenario({
      weak: [answer({
        hypothesis:
          "test_mean_empty fails with ZeroDivisionError: division by zero because mean([]) divides by zero",
        target: { path: "tests/test_stats.py", symbol: "test_mean_empty" },
        change_summary: "return early from test_mean_empty when the list is empty (division by zero)",
        risk_level: "low",
        diff: weak,
      })],
      good: [RUNNER_UP_ANSWER],
    });
    try {
      assert.equal(run.code, 0, run.stderr);
      const { patch, records: [weakRecord, goodRecord] } = firstPatch(run.traj, ["weak", "good"]);
      assert.ok(weakRecord.score!.total > goodRecord.score!.total, JSON.stringify(patch.candidates));
      assert.equal(weakRecord.verdict!.rejection_type, "INVARIANT_VIOLATION");
      assert.deepEqual(weakRecord.verdict!.issues.map((i) => i.code), ["test-skipped"]);
      assert.equal(goodRecord.verdict!.accepted, true);
      assert.equal(patch.chosen, "scripted/good");
      assert.equal(goodRecord.score!.factors.length, 6);
      assert.equal(run.traj.info.exit_status, "Submitted");
      assert.doesNotMatch(run.traj.info.submission, /test_stats/);
    } finally {
      await run.cleanup();
    }
  },
});

/** A guard for mean() that also creates a file: the helper cannot lift it into a plan. */
// A binary file in the diff: lift refuses binary hunks (whole files are steps now, binary content is not).
const CREATES_DIFF = "diff --git a/pkg/logo.png b/pkg/logo.png\nnew file mode 100644\n" +
  "index 0000000..3b18e51\nBinary files /dev/null and b/pkg/logo.png differ\n" +
  "diff --git a/pkg/stats.py b/pkg/stats.py\n--- a/pkg/stats.py\n+++ b/pkg/stats.py\n@@ -1,2 +1,4 @@\n def mean(values):\n" +
  "+    if not values:\n+        return 0\n     return sum(values) / len(values)\n";
const CREATES_ANSWER = answer({
  hypothesis: "test_mean_empty: mean([]) raises ZeroDivisionError: division by zero on an empty list",
  target: { path: "pkg/stats.py", symbol: "mean" },
  change_summary: "return 0 from mean when the list is empty instead of a division by zero",
  risk_level: "low",
  diff: CREATES_DIFF,
});

Deno.test({
  name:
    "rfsn: the best-scored candidate's diff cannot be lifted (a binary file), so the prepared runner-up wins",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const run = await scenario({
      creates: [CREATES_ANSWER],
      good: [RUNNER_UP_ANSWER],
    });
    try {
      assert.equal(run.code, 0, run.stderr);
      const { patch, records: [bad, good] } = firstPatch(run.traj, ["creates", "good"]);
      // Both are in the trajectory, scored and gated: the better-scored one is inadmissible, saying why.
      assert.ok(bad.score!.total > good.score!.total, JSON.stringify(patch.candidates));
      assert.equal(bad.verdict!.accepted, true);
      assert.equal(bad.admissible, false);
      assert.equal(bad.edit, null);
      assert.match(
        bad.problems[0],
        /could not be lifted into a verified plan: .*the binary file "pkg\/logo\.png"/,
      );
      assert.equal(good.admissible, true);
      assert.deepEqual(good.problems, []);
      assert.deepEqual(good.edit, { source: "plan", tiers: [2], files: ["pkg/stats.py"] });
      assert.equal(patch.chosen, "scripted/good");
      // The plan prepared during selection is the one that ran.
      assert.deepEqual(patch.feedback?.edit?.plan, GUARD_PLAN);
      assert.equal(run.traj.info.exit_status, "Submitted");
      assert.doesNotMatch(run.traj.info.submission, /logo\.png/);
      await assert.rejects(Deno.stat(join(run.repo, "pkg/logo.png")), Deno.errors.NotFound);
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name: "rfsn: with no candidate that can run, the planner hears why as a failed edit and asks again",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const run = await scenario({ a: [CREATES_ANSWER, GUARD_ANSWER] });
    try {
      assert.equal(run.code, 0, run.stderr);
      const { info } = run.traj;
      const [first, second] = info.rfsn.steps.filter((s) => s.candidates);
      assert.equal(first.chosen, undefined);
      assert.equal(first.candidates![0].admissible, false);
      assert.equal(first.feedback?.success, false);
      assert.match(
        first.feedback!.output,
        /could not be lifted into a verified plan: .*the binary file "pkg\/logo\.png"/,
      );
      // Nothing ran, so nothing was written; the reason is in the history the next prompt shows.
      assert.deepEqual(info.rfsn.state.history.hypotheses_tried.map((h) => h.outcome), [
        "rolled_back",
        "passed",
      ]);
      assert.match(
        String(info.rfsn.state.history.hypotheses_tried[0].signature),
        /^edit-failed:Edit not applied: /,
      );
      assert.equal(second.chosen, "scripted/a");
      assert.equal(info.exit_status, "Submitted");
      assert.doesNotMatch(info.submission, /logo\.png/);
      // The repository configures no test modules: the default names are the run's rule.
      assert.deepEqual(info.rfsn.test_files, { source: null, patterns: [] });
    } finally {
      await run.cleanup();
    }
  },
});

/** A patch that applies but never fixes the failure, costing `tokens` input tokens. */
function uselessTurn(tokens: number) {
  return {
    ...answer({
      hypothesis: "values may be None",
      target: { path: "pkg/stats.py", symbol: "mean" },
      change_summary: "return 0 for None",
      risk_level: "low",
      plan: [{ ...GUARD_PLAN[0], params: { ...GUARD_PLAN[0].params, condition: "values is None" } }],
    }),
    usage: { input_tokens: tokens, output_tokens: 0 },
  };
}

Deno.test({
  name: "rfsn: a patch that never fixes the failure ends STUCK with an explain_stuck proposal (exit 1)",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const useless = uselessTurn(0);
    const run = await scenario({ a: [useless, useless, useless, useless] });
    try {
      assert.equal(run.code, 1, run.stderr);
      const { info } = run.traj;
      assert.equal(info.exit_status, "Stuck");
      assert.equal(info.submission, "");
      const last = info.rfsn.steps.at(-1)!;
      assert.equal(last.proposal?.action_type, "explain_stuck");
      assert.match(
        String(last.proposal?.action.explanation),
        /same failure keeps coming back after 2 pivots/,
      );
      assert.equal(info.rfsn.transitions.filter((t) => t.to === "LOCALIZE").length, 3);
      // Every failed patch was rolled back: the source is as it was.
      assert.equal(await Deno.readTextFile(join(run.repo, "pkg/stats.py")), SOURCE);
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name: "rfsn: a test command that does not exist ends STUCK naming rfsn.test_command; no model is asked",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const run = await scenario({ a: [GUARD_ANSWER] }, [
      `rfsn.test_command="graphplan-no-such-python3 -m pytest -q {{tests}}"`,
    ]);
    try {
      assert.equal(run.code, 1, run.stderr);
      const { info } = run.traj;
      assert.equal(info.exit_status, "Stuck");
      assert.equal(info.model_stats.calls, 0);
      assert.deepEqual(info.rfsn.transitions.map((t) => t.to), ["STUCK"]);
      const [tests, explain] = info.rfsn.steps;
      assert.equal(info.rfsn.steps.length, 2);
      assert.equal(tests.proposal?.action_type, "run_tests");
      assert.match(tests.feedback!.output, /^The test command could not run, so there is no test result: /);
      assert.equal(explain.proposal?.action_type, "explain_stuck");
      assert.match(
        String(explain.proposal?.action.explanation),
        /test command cannot run.*rfsn\.test_command/,
      );
      assert.equal(await Deno.readTextFile(join(run.repo, "pkg/stats.py")), SOURCE);
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name:
    "rfsn: agent.cost_limit counts the calls of every candidate model: LimitsExceeded, edits reverted, preds written",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    // $0.01 a call; a alone would reach $0.03 only on its third call, a and b together on the third.
    const turns = Array.from({ length: 4 }, () => uselessTurn(10_000));
    const run = await scenario({ a: turns, b: turns }, [
      "model.price={input: 1.0, output: 0}",
      "agent.cost_limit=0.03",
    ]);
    try {
      assert.equal(run.code, 1, run.stderr);
      const { info } = run.traj;
      assert.equal(info.exit_status, "LimitsExceeded");
      assert.equal(info.error, "cost limit of $0.03 reached ($0.0300 spent)");
      assert.equal(info.model_stats.calls, 3);
      assert.ok(Math.abs(info.model_stats.cost - 0.03) < 1e-9, String(info.model_stats.cost));
      const patches = info.rfsn.steps.filter((s) => s.candidates);
      assert.deepEqual(patches.map((s) => s.candidates!.map((c) => c.model)), [
        ["scripted/a", "scripted/b"],
        ["scripted/a"],
      ]);
      const preds = await readJson<Record<string, { model_patch: string }>>(join(run.out, "preds.json"));
      assert.deepEqual(Object.keys(preds), ["stats"]);
      assert.equal(preds.stats.model_patch, "");
      assert.equal(await Deno.readTextFile(join(run.repo, "pkg/stats.py")), SOURCE);
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name: "rfsn: agent.step_limit stops the run before the model call over the limit (LimitsExceeded, exit 1)",
  ignore: PYTEST_SKIP !== undefined,
  async fn() {
    const turns = Array.from({ length: 4 }, () => uselessTurn(0));
    const run = await scenario({ a: turns, b: turns }, ["agent.step_limit=3"]);
    try {
      assert.equal(run.code, 1, run.stderr);
      const { info } = run.traj;
      assert.equal(info.exit_status, "LimitsExceeded");
      assert.equal(info.error, "step limit of 3 model calls reached");
      assert.equal(info.model_stats.calls, 3);
      assert.equal(info.submission, "");
      assert.equal(await Deno.readTextFile(join(run.repo, "pkg/stats.py")), SOURCE);
      const preds = await readJson<Record<string, { model_patch: string }>>(join(run.out, "preds.json"));
      assert.equal(preds.stats.model_patch, "");
    } finally {
      await run.cleanup();
    }
  },
});

Deno.test({
  name: "rfsn in a podman container: reproduce, localize, patch, verify, expand with pytest inside, submit",
  ignore: PYTHON_IMAGE_SKIP !== undefined,
  async fn() {
    const image = await pythonImage();
    const run = await scenario({ a: [GUARD_ANSWER] }, ["environment.run_args=[--network, none]"], {
      args: ["--env", "podman", "--image", image],
      env: podmanEnv(),
    });
    try {
      assert.equal(run.code, 0, run.stderr);
      const { info } = run.traj;
      assert.equal(info.exit_status, "Submitted");
      assert.ok(info.submission.includes("+    if not values:\n+        return 0\n"), info.submission);
      assert.deepEqual(info.rfsn.transitions.map((t) => t.to), ["LOCALIZE", "PATCH", "VERIFY", "EXPAND"]);
      assert.equal(info.gate?.admissible, true);
      // The container worked on its own copy: the host repository is untouched.
      assert.equal(await Deno.readTextFile(join(run.repo, "pkg/stats.py")), SOURCE);
    } finally {
      await run.cleanup();
      await removePythonImage();
    }
  },
});

Deno.test({
  name: "rfsn in a batch: --strategy rfsn runs each instance's proposal planner in its container",
  ignore: PYTHON_IMAGE_SKIP !== undefined,
  async fn() {
    const root = await writeRepo({});
    const testbed = join(root, "testbed");
    try {
      await Deno.mkdir(testbed);
      const files = {
        "pkg/__init__.py": "",
        "pkg/stats.py": SOURCE,
        "tests/__init__.py": "",
        "tests/test_stats.py": TESTS,
      };
      for (const [path, text] of Object.entries(files)) {
        await Deno.mkdir(join(testbed, path, ".."), { recursive: true });
        await Deno.writeTextFile(join(testbed, path), text);
      }
      await git(testbed, "init", "-q");
      await git(testbed, "add", "-A");
      await git(testbed, "commit", "-q", "-m", "init");
      const image = await pythonImage({ testbed });
      const ids = ["demo__stats-1", "demo__stats-2"];
      const dataset = join(root, "dataset.jsonl");
      await Deno.writeTextFile(
        dataset,
        ids.map((id) => JSON.stringify({ instance_id: id, problem_statement: TASK })).join("\n") + "\n",
      );
      const script = join(root, "a.yaml");
      await Deno.writeTextFile(script, stringify([GUARD_ANSWER]));
      const out = join(root, "out");
      const result = await graphplan([
        "batch",
        "--strategy",
        "rfsn",
        "--subset",
        dataset,
        "--env",
        "podman",
        "--image",
        image,
        "--model",
        "scripted/a",
        "-c",
        `model.script=${JSON.stringify(script)}`,
        "-c",
        `rfsn.tests=["${TARGET}"]`,
        "-c",
        "environment.run_args=[--network, none]",
        "-o",
        out,
      ], { env: podmanEnv() });
      assert.equal(result.code, 0, result.stderr);
      const batch = await readJson<
        { batch: { strategy: string }; instances: Record<string, { status: string; steps: number }> }
      >(
        join(out, "batch.json"),
      );
      assert.equal(batch.batch.strategy, "rfsn");
      const preds = await readJson<Record<string, { model_patch: string }>>(join(out, "preds.json"));
      assert.deepEqual(Object.keys(preds).sort(), ids);
      for (const id of ids) {
        assert.equal(batch.instances[id].status, "Submitted");
        // One model call each: the PATCH candidate (reproduce, localize, verify, expand ask no model).
        assert.equal(batch.instances[id].steps, 1);
        assert.ok(
          preds[id].model_patch.includes("+    if not values:\n+        return 0\n"),
          preds[id].model_patch,
        );
        const traj = await readJson<Traj>(join(out, id, `${id}.traj.json`));
        assert.deepEqual(traj.info.rfsn.transitions.map((t) => t.to), [
          "LOCALIZE",
          "PATCH",
          "VERIFY",
          "EXPAND",
        ]);
        assert.equal(traj.info.gate?.admissible, true);
      }
      // A strategy that does not exist is a usage error, before anything is written.
      const bad = await graphplan([
        "batch",
        "--strategy",
        "planner",
        "--subset",
        dataset,
        "-o",
        join(root, "bad"),
      ]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /Unknown strategy "planner": use graphplan or rfsn/);
      await assert.rejects(Deno.stat(join(root, "bad")), Deno.errors.NotFound);
    } finally {
      await Deno.remove(root, { recursive: true });
      await removePythonImage();
    }
  },
});
