/**
 * `graphplan run` end to end in the local environment, driven by a fake
 * OpenAI-compatible server (real HTTP, the real client with its retries)
 * and the real helper over its `--serve` session: every phase, every
 * fallback point, the limits, the exit statuses, the trajectory and
 * preds.json. The sample project's own unit tests are the oracle of a fix
 * (skipped where python3 is absent).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Received } from "../agent/model/_fake_llm.ts";
import { operatorCatalog } from "../../agent/graphplan/catalog.ts";
import {
  bash,
  DEMO_TASK,
  fakeServer,
  FIX,
  fixPlan,
  git,
  graphplanRun,
  openaiReply,
  PYTHON,
  readJson,
  type Reply,
  ROOT,
  runCommand,
  sampleRepo,
  SED_FIX,
  SUBMIT,
  TASK,
  unitTestsPass,
  writePlan,
} from "./_support.ts";

if (!PYTHON) console.log("run_test: python3 is absent: the sample project's unit tests are not run");

const READY = `echo 'READY_TO_PLAN: ["app/service.py"]'`;

interface Trajectory {
  instance_id: string;
  info: {
    exit_status: string;
    submission: string;
    model_stats: { cost: number; calls: number; input_tokens: number; output_tokens: number };
    phases: { name: string; status: string; [key: string]: unknown }[];
    fallback?: { point: string; reason: string };
    plan?: { plan_files: string[]; plan_steps: unknown[] };
    patch_check?: { ok: boolean; problems: string[] };
    error?: string;
    [key: string]: unknown;
  };
  messages: { role: string; content: string; tool_call_id?: string; extra?: Record<string, unknown> }[];
}

/** One run of `graphplan run` against a fake server answering `replies`. */
async function scenario(
  replies: Reply[],
  extra: string[] = [],
  options: { id?: string; args?: (repo: string) => string[] } = {},
) {
  const ctx = await sampleRepo();
  const server = fakeServer(replies);
  const id = options.id ?? "sample-1";
  try {
    const result = await graphplanRun([
      ...(options.args?.(ctx.repo) ?? ["--repo", ctx.repo, "--task", TASK, "--id", id]),
      "-o",
      ctx.out,
      "--model",
      "openai/fake-model",
      "-c",
      `model.base_url=${server.url}/v1`,
      "-c",
      "model.price={input: 1.0, output: 2.0}",
      "-c",
      "model.backoff_initial=0",
      "-c",
      "model.backoff_max=0",
      "-c",
      `agent.plan_path=${ctx.planPath}`,
      ...extra.flatMap((spec) => ["-c", spec]),
    ], { env: { OPENAI_API_KEY: "test-key" } });
    const trajectory = await readJson<Trajectory>(join(ctx.out, id, `${id}.traj.json`)).catch(() => null);
    const preds = await readJson<Record<string, Record<string, string>>>(join(ctx.out, "preds.json"))
      .catch(() => null);
    return { ...result, ctx, requests: server.requests, trajectory, preds, id };
  } finally {
    await server.close();
  }
}

type Outcome = Awaited<ReturnType<typeof scenario>>;

/** The last message of the request at `index` (what the model was told before that turn). */
function lastMessage(requests: Received[], index: number): string {
  const messages = requests[index].body.messages as { content: string }[];
  return messages.at(-1)!.content;
}

function phaseNames(outcome: Outcome): string[] {
  return outcome.trajectory!.info.phases.map((phase) => phase.name);
}

async function assertFixed(outcome: Outcome): Promise<void> {
  assert.equal(outcome.code, 0, outcome.stderr);
  assert.match(outcome.stdout, /^diff --git a\/app\/service\.py b\/app\/service\.py/);
  assert.ok(outcome.stdout.includes(`+        ${FIX}`), outcome.stdout);
  const info = outcome.trajectory!.info;
  assert.equal(info.exit_status, info.fallback ? "FallbackSubmitted" : "Submitted");
  assert.equal(outcome.trajectory!.info.submission.trim(), outcome.stdout.trim());
  assert.deepEqual(outcome.preds![outcome.id], {
    instance_id: outcome.id,
    model_name_or_path: "openai/fake-model",
    model_patch: outcome.trajectory!.info.submission,
  });
  assert.equal(outcome.trajectory!.info.patch_check?.ok, true);
  if (PYTHON) assert.ok(await unitTestsPass(outcome.ctx.repo), "the project's tests pass after the fix");
}

/** A scenario whose plan commands need the plan path: `build` gets it. */
async function planScenario(build: (planPath: string) => Reply[], extra: string[] = []) {
  const dir = await Deno.makeTempDir({ prefix: "gp_e2e_plan_" });
  const planPath = join(dir, "edit_plan.json");
  const outcome = await scenario(build(planPath), [`agent.plan_path=${planPath}`, ...extra]);
  return {
    outcome,
    cleanup: async () => {
      await outcome.ctx.cleanup();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("e2e run: every phase through HTTP hiccups (429, 500, malformed call, slow answer)", async () => {
  const { outcome, cleanup } = await planScenario((planPath) => [
    { status: 429, headers: { "retry-after": "0" }, body: { error: { message: "Rate limit reached" } } },
    { status: 500, body: { error: { message: "The server had an error" } } },
    bash("find app -name '*.py' | sort", "Let me look at the layout."),
    openaiReply("Reading the service.", [{ arguments: "{not json" }]),
    { ...bash("grep -n discount app/service.py"), delayMs: 5000 },
    bash("grep -n discount app/service.py", "Where is the discount used?"),
    bash(READY, "The fix is in app/service.py."),
    bash(writePlan(planPath, fixPlan()), "The plan replaces order_total."),
    bash("git diff", "Reviewing."),
    bash(SUBMIT),
  ], ["model.timeout=2"]);
  try {
    await assertFixed(outcome);
    const { info, messages } = outcome.trajectory!;
    assert.deepEqual(phaseNames(outcome), [
      "setup",
      "explore",
      "graph",
      "plan",
      "verify",
      "execute",
      "submit",
    ]);
    assert.equal(info.fallback, undefined);
    const setup = info.phases[0] as { status: string; helper?: { mode: string; version: string } };
    assert.equal(setup.status, "done");
    assert.equal(setup.helper?.mode, "source");
    assert.deepEqual(info.plan?.plan_files, ["app/service.py"]);
    assert.equal(info.plan?.plan_steps.length, 1);
    const verify = info.phases.find((phase) => phase.name === "verify")!;
    assert.equal(verify.status, "passed");
    const execute = info.phases.find((phase) => phase.name === "execute")!;
    assert.deepEqual(execute.files_changed, ["app/service.py"]);
    // 7 answered calls at 1000 + 500 tokens, $1 and $2 per million.
    assert.equal(info.model_stats.calls, 7);
    assert.ok(Math.abs(info.model_stats.cost - 0.014) < 1e-9, String(info.model_stats.cost));
    // 10 HTTP requests: 2 retried errors, 1 timed out and retried.
    assert.equal(outcome.requests.length, 10);
    assert.equal(outcome.requests[0].headers.authorization, "Bearer test-key");
    assert.equal(outcome.requests[0].path, "/v1/chat/completions");
    assert.equal(outcome.requests[0].body.model, "fake-model");
    assert.deepEqual(outcome.requests[0].body, outcome.requests[2].body, "a retry resends the same request");
    // The malformed call was answered with the format-error prompt, and the run went on.
    const answered = messages.find((m) => m.role === "tool" && /could not be acted on/.test(m.content));
    assert.ok(answered, "the malformed call is answered");
    assert.match(lastMessage(outcome.requests, 4), /could not be acted on/);
    // The PLAN prompt carries the graph view and the operator catalog.
    const planPrompt = lastMessage(outcome.requests, 7);
    assert.match(planPrompt, /OrderService/);
    assert.match(planPrompt, /order_total/);
    // The catalog is the engine's own (operatorCatalog(), from the registries).
    assert.ok(planPrompt.includes(operatorCatalog()), "the operator catalog is in the prompt");
    assert.match(planPrompt, /`replace_node`/);
    assert.match(planPrompt, /Only the files \["app\/service\.py"\] may be edited/);
    // The SUBMIT prompt names the changed file.
    assert.match(lastMessage(outcome.requests, 8), /Phase 3 of 3: REVIEW AND SUBMIT[\s\S]*app\/service\.py/);
    assert.match(outcome.stderr, /explore step 1 \$0\.0020: find app/);
    assert.match(outcome.stderr, /verify: passed/);
    assert.match(outcome.stderr, /exit status: Submitted\n/);
    assert.match(outcome.stderr, /trajectory: .*sample-1\/sample-1\.traj\.json/);
    // The shipped fixture is untouched.
    assert.equal(await git(ROOT, "status", "--porcelain", "--", "tests/fixtures/sample_project"), "");
  } finally {
    await cleanup();
  }
});

function assertFallback(outcome: Outcome, point: string, reason: RegExp): void {
  const { info } = outcome.trajectory!;
  assert.equal(info.fallback?.point, point);
  assert.match(info.fallback!.reason, reason);
  const phase = info.phases.find((p) => p.name === "fallback")!;
  assert.equal(phase.point, point);
  assert.match(outcome.stderr, new RegExp(`after falling back at ${point}`));
  assert.match(info.exit_status, /^Fallback(Submitted|LimitsExceeded|FormatError)$/);
}

Deno.test("e2e run: fallback when EXPLORE never says READY_TO_PLAN", async () => {
  const outcome = await scenario(
    [bash("ls"), bash("cat app/service.py"), bash(SED_FIX, "Fixing it directly."), bash(SUBMIT)],
    ["agent.max_explore_steps=2"],
  );
  try {
    await assertFixed(outcome);
    assertFallback(outcome, "explore", /no READY_TO_PLAN within 2 steps/);
    assert.match(lastMessage(outcome.requests, 2), /could not be used \(no READY_TO_PLAN within 2 steps\)/);
    assert.deepEqual(phaseNames(outcome), ["setup", "explore", "fallback"]);
  } finally {
    await outcome.ctx.cleanup();
  }
});

Deno.test("e2e run: fallback when the GRAPH of the chosen files is empty", async () => {
  const outcome = await scenario([
    bash(`echo 'READY_TO_PLAN: ["app/no_such_file.py"]'`),
    bash(SED_FIX),
    bash(SUBMIT),
  ]);
  try {
    await assertFixed(outcome);
    assertFallback(outcome, "graph", /code graph of \["app\/no_such_file\.py"\] is empty/);
    assert.deepEqual(phaseNames(outcome), ["setup", "explore", "graph", "fallback"]);
    assert.equal(outcome.trajectory!.info.phases[2].status, "empty");
  } finally {
    await outcome.ctx.cleanup();
  }
});

Deno.test("e2e run: fallback when no PLAN is written after the nudges", async () => {
  const outcome = await scenario(
    [bash(READY), bash("echo thinking"), bash("echo still thinking"), bash(SED_FIX), bash(SUBMIT)],
    ["agent.max_plan_nudges=1"],
  );
  try {
    await assertFixed(outcome);
    assertFallback(outcome, "plan", /no plan was written after 1 reminder$/);
    assert.match(
      lastMessage(outcome.requests, 2),
      /no usable plan in .*edit_plan\.json yet \(the file does not exist\)/,
    );
    assert.deepEqual(phaseNames(outcome), ["setup", "explore", "graph", "plan", "fallback"]);
  } finally {
    await outcome.ctx.cleanup();
  }
});

Deno.test("e2e run: VERIFY errors are fed back, the revised plan passes; a plan that keeps failing falls back", async () => {
  const bad = structuredClone(fixPlan()) as { params: { locator: { name: string } } }[];
  bad[0].params.locator.name = "order_totl";
  const revised = await planScenario((planPath) => [
    bash(READY),
    bash(writePlan(planPath, bad)),
    bash(writePlan(planPath, fixPlan()), "Fixing the locator."),
    bash(SUBMIT),
  ]);
  try {
    await assertFixed(revised.outcome);
    const feedback = lastMessage(revised.outcome.requests, 2);
    assert.match(feedback, /NOT applied/);
    assert.match(feedback, /order_totl/);
    const verifies = revised.outcome.trajectory!.info.phases.filter((p) => p.name === "verify");
    assert.deepEqual(verifies.map((p) => p.status), ["failed", "passed"]);
    assert.equal(revised.outcome.trajectory!.info.fallback, undefined);
  } finally {
    await revised.cleanup();
  }

  const failing = await planScenario((planPath) => [
    bash(READY),
    bash(writePlan(planPath, bad)),
    bash(writePlan(planPath, bad)),
    bash(SED_FIX),
    bash(SUBMIT),
  ], ["agent.max_plan_revisions=2"]);
  try {
    await assertFixed(failing.outcome);
    assertFallback(failing.outcome, "verify", /failed verification 2 times/);
    assert.deepEqual(phaseNames(failing.outcome), [
      "setup",
      "explore",
      "graph",
      "plan",
      "verify",
      "plan",
      "verify",
      "fallback",
    ]);
  } finally {
    await failing.cleanup();
  }
});

Deno.test("e2e run: a failed EXECUTE is rolled back and fed back, then falls back", async () => {
  const helper = [
    Deno.execPath(),
    "run",
    "-A",
    "--config",
    join(ROOT, "deno.json"),
    join(ROOT, "tests/e2e/_failing_helper.ts"),
  ];
  const { outcome, cleanup } = await planScenario((planPath) => [
    bash(READY),
    bash(writePlan(planPath, fixPlan())),
    bash(`git diff --stat && ${writePlan(planPath, fixPlan())}`),
    bash(SED_FIX),
    bash(SUBMIT),
  ], ["agent.max_plan_revisions=2", `environment.helper_command=${JSON.stringify(helper)}`]);
  try {
    await assertFixed(outcome);
    assertFallback(outcome, "execute", /failed to execute \(attempt 2\)/);
    const feedback = lastMessage(outcome.requests, 2);
    assert.match(feedback, /Applying the plan failed at step 0, and every file was rolled back/);
    assert.match(feedback, /injected failure/);
    // Nothing was written by the failed executions: `git diff --stat` printed nothing.
    const stat = outcome.trajectory!.messages.find((m) =>
      m.role === "tool" && /<returncode>0/.test(m.content) &&
      m.extra?.phase === "plan"
    );
    assert.ok(stat && /<output>\s*<\/output>/.test(stat.content), stat?.content);
    const executes = outcome.trajectory!.info.phases.filter((p) => p.name === "execute");
    assert.deepEqual(executes.map((p) => p.status), ["rolled_back", "rolled_back"]);
  } finally {
    await cleanup();
  }
});

Deno.test("e2e run: step, cost and wall-time limits end the run with LimitsExceeded and no patch", async (t) => {
  const check = async (outcome: Outcome, reason: RegExp, calls: number) => {
    try {
      assert.equal(outcome.code, 1, outcome.stderr);
      assert.equal(outcome.stdout, "");
      assert.equal(outcome.trajectory!.info.exit_status, "LimitsExceeded");
      assert.match(outcome.trajectory!.info.error!, reason);
      assert.equal(outcome.trajectory!.info.model_stats.calls, calls);
      assert.equal(outcome.preds![outcome.id].model_patch, "");
      assert.match(outcome.stderr, /exit status: LimitsExceeded/);
      assert.match(outcome.stderr, /no patch was submitted/);
      assert.equal(
        outcome.trajectory!.messages.at(-1)!.content.trim(),
        `The run stopped: ${outcome.trajectory!.info.error}.`,
      );
    } finally {
      await outcome.ctx.cleanup();
    }
  };
  const many = (n: number, delayMs = 0) => Array.from({ length: n }, () => ({ ...bash("ls"), delayMs }));
  await t.step("step_limit", async () => {
    await check(await scenario(many(10), ["agent.step_limit=3"]), /step limit of 3 model calls/, 3);
  });
  await t.step("cost_limit", async () => {
    // $0.002 a call: the limit is reached after the third.
    await check(await scenario(many(10), ["agent.cost_limit=0.005"]), /cost limit of \$0\.005 reached/, 3);
  });
  await t.step("wall_time_limit", async () => {
    const outcome = await scenario(many(10, 700), ["agent.wall_time_limit=1"]);
    const calls = outcome.trajectory!.info.model_stats.calls;
    assert.ok(calls >= 1 && calls <= 3, String(calls));
    await check(outcome, /wall time limit of 1 s reached/, calls);
  });
});

Deno.test("e2e run: exit statuses FormatError, AuthenticationError and ModelUnavailable", async (t) => {
  await t.step("FormatError", async () => {
    const outcome = await scenario(
      [openaiReply("I think the bug is in the service."), openaiReply("Still thinking.")],
      ["agent.max_format_errors=2"],
    );
    try {
      assert.equal(outcome.code, 1);
      assert.equal(outcome.trajectory!.info.exit_status, "FormatError");
      assert.match(lastMessage(outcome.requests, 1), /could not be acted on/);
    } finally {
      await outcome.ctx.cleanup();
    }
  });
  await t.step("AuthenticationError", async () => {
    const outcome = await scenario([{ status: 401, body: { error: { message: "Incorrect API key" } } }]);
    try {
      assert.equal(outcome.code, 1);
      assert.equal(outcome.trajectory!.info.exit_status, "AuthenticationError");
      assert.equal(outcome.requests.length, 1, "not retried");
      assert.equal(outcome.preds![outcome.id].model_patch, "");
    } finally {
      await outcome.ctx.cleanup();
    }
  });
  await t.step("ModelUnavailable", async () => {
    const down = { status: 503, body: { error: { message: "Overloaded" } } };
    const outcome = await scenario([down, down, down], ["model.retries=2"]);
    try {
      assert.equal(outcome.code, 1);
      assert.equal(outcome.trajectory!.info.exit_status, "ModelUnavailable");
      assert.equal(outcome.requests.length, 3);
    } finally {
      await outcome.ctx.cleanup();
    }
  });
});

Deno.test("e2e run: an empty submission is sent back once, then the real patch is accepted", async () => {
  const outcome = await scenario(
    [bash("ls"), bash(SUBMIT, "Done?"), bash(SED_FIX, "I forgot the change."), bash(SUBMIT)],
    ["agent.max_explore_steps=1"],
  );
  try {
    await assertFixed(outcome);
    assert.match(
      lastMessage(outcome.requests, 2),
      /The submitted patch was not accepted:\n- the patch is empty/,
    );
  } finally {
    await outcome.ctx.cleanup();
  }
});

Deno.test("e2e run: --instance from a gzipped SWE-bench JSONL dataset with --repo", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_e2e_dataset_" });
  try {
    const rows = [
      { instance_id: "other__other-1", problem_statement: "Not this one", repo: "x/y", base_commit: "abc" },
      { instance_id: "shop__orders-7", problem_statement: TASK, repo: "shop/orders", base_commit: "def" },
    ];
    const text = rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
    const gz = await new Response(
      new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer();
    const dataset = join(dir, "tasks.jsonl.gz");
    await Deno.writeFile(dataset, new Uint8Array(gz));
    const outcome = await scenario(
      [bash("ls"), bash(SED_FIX), bash(SUBMIT)],
      ["agent.max_explore_steps=1"],
      {
        id: "shop__orders-7",
        args: (repo) => ["--instance", "shop__orders-7", "--dataset", dataset, "--repo", repo],
      },
    );
    try {
      await assertFixed(outcome);
      assert.equal(outcome.trajectory!.instance_id, "shop__orders-7");
      assert.deepEqual(Object.keys(outcome.preds!), ["shop__orders-7"]);
      const first = (outcome.requests[0].body.messages as { content: string }[])[1].content;
      assert.ok(first.includes(`<task>\n${TASK}\n</task>`), first);
      assert.ok(first.includes(`checked out in ${outcome.ctx.repo}`), first);
    } finally {
      await outcome.ctx.cleanup();
    }
    const missing = await graphplanRun(["--instance", "nope__nope-1", "--dataset", dataset, "--repo", dir]);
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /No instance "nope__nope-1" in .*\(2 rows, e\.g\. "other__other-1", "shop__orders-7"\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e run: the gate checks the final patch (info.gate); gate.mode=refuse withdraws a patch that skips a test", async () => {
  const SKIP_TEST =
    `sed -i 's/^    def test_customer_without_discount/    @unittest.skip("flaky")\\n    def test_customer_without_discount/' tests/test_service.py`;
  const replies = () => [
    bash("ls"),
    bash("cat app/service.py"),
    bash(SKIP_TEST, "Skipping the failing test."),
    bash(SUBMIT),
  ];
  const reported = await scenario(replies(), ["agent.max_explore_steps=2"]);
  try {
    assert.equal(reported.code, 0, reported.stderr);
    const gate = reported.trajectory!.info.gate as {
      admissible: boolean;
      refused: boolean;
      warnings: { code: string; line: number }[];
    };
    assert.equal(gate.admissible, false);
    assert.equal(gate.refused, false);
    // The decorator the patch adds, on line 21 of the patched tests/test_service.py.
    assert.deepEqual(gate.warnings.map((w) => [w.code, w.line]), [["test-skipped", 21]]);
    assert.equal(reported.trajectory!.info.exit_status, "FallbackSubmitted");
  } finally {
    await reported.ctx.cleanup();
  }
  // Under refuse the model hears why, max_patch_rejections (2) times; a patch that still skips is withdrawn.
  const refused = await scenario([...replies(), bash(SUBMIT), bash(SUBMIT)], [
    "agent.max_explore_steps=2",
    "gate.mode=refuse",
  ]);
  try {
    assert.equal(refused.code, 1, refused.stderr);
    const info = refused.trajectory!.info;
    assert.equal(info.exit_status, "GateRefused");
    assert.equal(info.submission, "");
    assert.equal((info.gate as { refused: boolean }).refused, true);
    assert.equal((info.gate_refusals as unknown[]).length, 2);
    assert.equal(refused.preds![refused.id].model_patch, "");
    const told = refused.requests.at(-1)!.body.messages as { content: string }[];
    assert.match(told.at(-1)!.content, /weakens the tests[\s\S]*tests\/test_service\.py:21: Test skipped/);
  } finally {
    await refused.ctx.cleanup();
  }
  // Told why, the model restores the test and fixes the code: the patch is admitted.
  const revised = await scenario(
    [
      ...replies(),
      bash(`git checkout tests/test_service.py && ${SED_FIX}`, "Restoring the test."),
      bash(SUBMIT),
    ],
    ["agent.max_explore_steps=2", "gate.mode=refuse"],
  );
  try {
    await assertFixed(revised);
    assert.equal((revised.trajectory!.info.gate as { admissible: boolean }).admissible, true);
    assert.equal((revised.trajectory!.info.gate_refusals as unknown[]).length, 1);
  } finally {
    await revised.ctx.cleanup();
  }
  // A real fix passes the gate under refuse.
  const fixed = await scenario(
    [bash("ls"), bash("cat app/service.py"), bash(SED_FIX, "Fixing it directly."), bash(SUBMIT)],
    ["agent.max_explore_steps=2", "gate.mode=refuse"],
  );
  try {
    await assertFixed(fixed);
    assert.equal((fixed.trajectory!.info.gate as { admissible: boolean }).admissible, true);
  } finally {
    await fixed.ctx.cleanup();
  }
});

Deno.test("e2e run: from the repository's root, the default graphplan-runs output stays out of the submitted patch", async () => {
  const ctx = await sampleRepo();
  try {
    // The README's command with the demo's scripted model, run where a user runs it: inside the repository.
    const result = await graphplanRun([
      "--repo",
      ".",
      ...DEMO_TASK,
    ], { cwd: ctx.repo });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^\+ +discount = order\.customer\.discount or Decimal\("0"\)$/m);
    assert.doesNotMatch(result.stdout, /graphplan-runs/, "the patch holds the fix only");
    const saved = await readJson<Trajectory>(
      join(ctx.repo, "graphplan-runs", "sample_project", "sample_project.traj.json"),
    );
    assert.equal(saved.info.exit_status, "Submitted");
    assert.doesNotMatch(saved.info.submission, /graphplan-runs/);
    assert.equal(await git(ctx.repo, "status", "--porcelain", "--ignored=no", "--", "graphplan-runs"), "");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("e2e run: a --task-file that is missing or a directory is a usage error naming it, not a crash", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_e2e_task_" });
  try {
    const folder = await graphplanRun(["--task-file", dir, "--repo", dir]);
    assert.equal(folder.code, 2, folder.stderr);
    assert.match(
      folder.stderr,
      new RegExp(`^graphplan: Cannot read the task file "${dir}": it is a directory\n`),
    );
    assert.doesNotMatch(folder.stderr, /internal error|\n\s+at /);
    const missing = await graphplanRun(["--task-file", join(dir, "task.md"), "--repo", dir, "--json"]);
    assert.equal(missing.code, 2);
    assert.equal(
      JSON.parse(missing.stdout).errors[0].message,
      `Cannot read the task file "${join(dir, "task.md")}": no such file`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("e2e run: a local --repo that does not exist is refused before the run starts, not a crash", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_e2e_repo_" });
  try {
    const missing = join(dir, "nope");
    const result = await graphplanRun([
      "--repo",
      missing,
      ...DEMO_TASK,
      "-o",
      join(dir, "out"),
    ]);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`error\\[repo-not-found\\] Repository directory not found: "${missing}"`),
    );
    assert.doesNotMatch(result.stderr, /internal error|\n\s+at /);
    assert.deepEqual([...Deno.readDirSync(dir)], [], "no output directory was written");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/**
 * The demo's scripted model with one more step before it submits: the agent
 * creates `app/discounts.py` (a new file the patch must carry).
 */
async function demoScriptCreatingAFile(dir: string): Promise<string[]> {
  const demo = await Deno.readTextFile(join(ROOT, "config/demo/scripted_run.yaml"));
  const submit = "- content: The change is minimal and correct. Submitting.";
  assert.ok(demo.includes(submit), "the demo script's last turn");
  const script = join(dir, "scripted_new_file.yaml");
  await Deno.writeTextFile(
    script,
    demo.replace(
      submit,
      `- content: A module for the default discount.\n  command: printf 'ZERO = 0\\n' > app/discounts.py\n${submit}`,
    ),
  );
  return [
    "--task-file",
    join(ROOT, "config/demo/task.md"),
    "-c",
    "model.name=scripted/demo",
    "-c",
    `model.script=${script}`,
  ];
}

/** The files a patch touches, from its `diff --git` headers. */
function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map((match) => match[1]);
}

Deno.test("e2e run: the patch holds the agent's changes only; the user's untracked files, edits and index are left alone", async () => {
  const ctx = await sampleRepo();
  try {
    // What the user had before the run: an untracked note and secrets, an uncommitted edit in the
    // file the agent will fix and in another one.
    await Deno.writeTextFile(join(ctx.repo, "notes.txt"), "call the customer back\n");
    await Deno.writeTextFile(join(ctx.repo, ".env"), "API_TOKEN=secret\n");
    const service = join(ctx.repo, "app/service.py");
    await Deno.writeTextFile(service, `# reviewed by the user\n${await Deno.readTextFile(service)}`);
    await Deno.writeTextFile(join(ctx.repo, "app/models.py"), "# user's edit\n", { append: true });
    const index = await git(ctx.repo, "ls-files", "-s");
    const before = await git(ctx.repo, "status", "--porcelain");

    const result = await graphplanRun(["--repo", ".", ...await demoScriptCreatingAFile(ctx.root)], {
      cwd: ctx.repo,
    });
    assert.equal(result.code, 0, result.stderr);
    const patch = result.stdout;
    assert.deepEqual(patchFiles(patch), ["app/discounts.py", "app/service.py"]);
    assert.match(patch, /^\+ +discount = order\.customer\.discount or Decimal\("0"\)$/m);
    assert.match(patch, /^new file mode 100644\n(?:.*\n){4}\+ZERO = 0$/m);
    assert.doesNotMatch(patch, /notes|API_TOKEN|reviewed by the user|user's edit|graphplan-runs/);

    // The index is as the user left it; the status only gained the agent's own work.
    assert.equal(await git(ctx.repo, "ls-files", "-s"), index);
    assert.equal((await runCommand(["git", "diff", "--cached", "--quiet"], ctx.repo)).code, 0);
    assert.equal(before, " M app/models.py\n M app/service.py\n?? .env\n?? notes.txt\n");
    assert.equal(
      await git(ctx.repo, "status", "--porcelain"),
      " M app/models.py\n M app/service.py\n?? .env\n?? app/discounts.py\n?? notes.txt\n",
    );
    assert.match(
      await Deno.readTextFile(service),
      /^# reviewed by the user\n/,
      "the user's edit is still there",
    );

    // The trajectory: the baseline tree, the same patch, checked against the files as the run found them.
    const saved = await readJson<Trajectory>(
      join(ctx.repo, "graphplan-runs", "sample_project", "sample_project.traj.json"),
    );
    assert.equal(saved.info.submission, patch);
    assert.equal(saved.info.patch_check?.ok, true, JSON.stringify(saved.info.patch_check));
    const baseline = (saved.info.baseline as { tree: string }).tree;
    const patchFile = join(ctx.root, "submitted.diff");
    await Deno.writeTextFile(patchFile, patch);
    const applies = await runCommand(
      [
        "bash",
        "-c",
        `t=$(mktemp); rm -f "$t"; GIT_INDEX_FILE="$t" git read-tree ${baseline} && ` +
        `GIT_INDEX_FILE="$t" git apply --cached --check '${patchFile}'; s=$?; rm -f "$t"; exit $s`,
      ],
      ctx.repo,
    );
    assert.equal(applies.code, 0, applies.stderr);
    // The old submit command (still in the demo script) was not run: nothing staged, nothing in the output.
    const last = saved.messages.filter((message) => message.role === "tool").at(-1)!;
    assert.equal(last.content, `COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n${patch}`);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("e2e run: in a clean checkout the patch is byte for byte `git add -A && git diff --cached` of a copy", async () => {
  const ctx = await sampleRepo();
  try {
    const result = await graphplanRun([
      "--repo",
      ctx.repo,
      "-o",
      ctx.out,
      ...await demoScriptCreatingAFile(ctx.root),
    ]);
    assert.equal(result.code, 0, result.stderr);
    const preds = await readJson<Record<string, { model_patch: string }>>(join(ctx.out, "preds.json"));
    const patch = preds.sample_project.model_patch;
    assert.deepEqual(patchFiles(patch), ["app/discounts.py", "app/service.py"]);
    assert.equal(
      (await runCommand(["git", "diff", "--cached", "--quiet"], ctx.repo)).code,
      0,
      "nothing staged",
    );
    // What the submit command used to print, in a copy of the repository after the run.
    const copy = join(ctx.root, "copy");
    assert.equal((await runCommand(["cp", "-a", ctx.repo, copy], ctx.root)).code, 0);
    await git(copy, "add", "-A");
    assert.equal(patch, await git(copy, "diff", "--cached"));
  } finally {
    await ctx.cleanup();
  }
});
