import assert from "node:assert/strict";
import { join } from "node:path";
import {
  applyOverride,
  ConfigError,
  defaultConfigData,
  isOverride,
  loadConfig,
  mergeConfig,
  TEMPLATE_NAMES,
  validateConfig,
} from "../../agent/config.ts";
import { renderTemplate, templateVariables } from "../../agent/template.ts";

async function withFile(text: string, body: (path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "gp_config_" });
  try {
    const path = join(dir, "user.yaml");
    await Deno.writeTextFile(path, text);
    await body(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("config: the defaults validate and carry the seed's limits", async () => {
  const config = await loadConfig();
  assert.equal(config.agent.max_explore_steps, 30);
  assert.equal(config.agent.max_plan_revisions, 3);
  assert.equal(config.agent.max_plan_nudges, 5);
  assert.equal(config.agent.step_limit, 250);
  assert.equal(config.agent.cost_limit, 3.0);
  // A directory of its own per run (agent/run_dir.ts): two runs at once never share a plan.
  assert.equal(config.agent.plan_path, "{{run_dir}}/edit_plan.json");
  assert.equal(config.model.name, "openai/gpt-5-mini");
  assert.equal(config.environment.type, "local");
  assert.deepEqual(Object.keys(config.templates).sort(), [...TEMPLATE_NAMES].sort());
});

Deno.test("config: a user file merges key by key; lists and scalars replace", async () => {
  await withFile(
    `agent:
  step_limit: 100
model:
  name: anthropic/claude-sonnet-4-5
  extra: {thinking: {type: enabled, budget_tokens: 2048}}
environment:
  type: docker
  image: swebench/sweb.eval.x86_64.django_1776_django-11099:latest
  cwd: /testbed
  env: {EXTRA: "1"}
  run_args: [--memory, 8g]
templates:
  system: You are terse.
`,
    async (path) => {
      const config = await loadConfig([path]);
      assert.equal(config.agent.step_limit, 100);
      assert.equal(config.agent.max_explore_steps, 30, "untouched keys keep their defaults");
      assert.equal(config.model.name, "anthropic/claude-sonnet-4-5");
      assert.deepEqual(config.model.extra, { thinking: { type: "enabled", budget_tokens: 2048 } });
      assert.equal(config.environment.env.PAGER, "cat", "mappings merge");
      assert.equal(config.environment.env.EXTRA, "1");
      assert.deepEqual(config.environment.run_args, ["--memory", "8g"]);
      assert.equal(config.templates.system, "You are terse.");
      assert.match(config.templates.plan, /operator_catalog/, "other templates stay");
    },
  );
});

Deno.test("config: key.path=value overrides are read as YAML and applied in order", async () => {
  await withFile("agent: {step_limit: 100}\n", async (path) => {
    const config = await loadConfig([
      path,
      "agent.step_limit=42",
      "agent.cost_limit=0.5",
      "model.base_url=http://localhost:8000/v1",
      "model.name=openai/qwen",
      "model.cost_tracking=ignore",
      "model.temperature=0",
      "environment.env.DEBUG=1",
      "environment.run_args=[--network, none]",
      "environment.cwd=",
    ]);
    assert.equal(config.agent.step_limit, 42, "later wins over the file");
    assert.equal(config.agent.cost_limit, 0.5);
    assert.equal(config.model.base_url, "http://localhost:8000/v1");
    assert.equal(config.model.temperature, 0);
    assert.equal(config.environment.env.DEBUG, "1", "env values become strings");
    assert.deepEqual(config.environment.run_args, ["--network", "none"]);
    assert.equal(config.environment.cwd, "");
  });
  assert.equal(isOverride("agent.step_limit=3"), true);
  assert.equal(isOverride("configs/swebench.yaml"), false);
  assert.equal(isOverride("./a=b.yaml"), false);
});

Deno.test("config: validation errors name every bad key", async () => {
  await assert.rejects(
    loadConfig(["agent.step_limit=many", "model.nmae=x", "environment.type=docker", "model.name=gpt-5"]),
    (err: Error) => {
      assert.ok(err instanceof ConfigError);
      const keys = err.problems.map((problem) => problem.key).sort();
      assert.deepEqual(keys, ["agent.step_limit", "environment.image", "model.name", "model.nmae"]);
      assert.match(err.message, /"agent\.step_limit": .*expected number/);
      assert.match(err.message, /"model\.nmae": Unknown key/);
      assert.match(err.message, /"environment\.image": Required when "type" is "docker"/);
      assert.match(err.message, /"model\.name": Expected "provider\/model"/);
      return true;
    },
  );
  assert.throws(() => validateConfig({ ...defaultConfigData(), extras: {} }), /"extras": Unknown key/);
  assert.throws(
    () => validateConfig(applyOverride(defaultConfigData(), "templates.plan=null")),
    /"templates\.plan":/,
  );
  assert.throws(
    () => validateConfig(applyOverride(defaultConfigData(), "environment.type=kubernetes")),
    /"environment\.type"/,
  );
});

Deno.test("config: unreadable and unparsable files are clear errors", async () => {
  await assert.rejects(
    loadConfig(["/nonexistent/graphplan.yaml"]),
    /Cannot read "\/nonexistent\/graphplan\.yaml"/,
  );
  await withFile("agent:\n  step_limit: [1, 2\n", async (path) => {
    await assert.rejects(
      loadConfig([path]),
      (err: Error) =>
        err instanceof ConfigError && /Cannot parse ".*user\.yaml" at line \d/.test(err.message),
    );
  });
  await withFile("- a list\n", async (path) => {
    await assert.rejects(loadConfig([path]), /must hold a mapping/);
  });
  await withFile("", async (path) => {
    assert.equal((await loadConfig([path])).agent.step_limit, 250, "an empty file changes nothing");
  });
});

Deno.test("config: merging never changes its inputs", () => {
  const base = { a: { b: 1, c: [1, 2] } };
  const merged = mergeConfig(base, { a: { c: [3] } });
  assert.deepEqual(merged, { a: { b: 1, c: [3] } });
  assert.deepEqual(base, { a: { b: 1, c: [1, 2] } });
});

/** The variables each default template is documented (in graphplan.yaml) to receive. */
const TEMPLATE_VARS: Record<string, Record<string, unknown>> = {
  system: {},
  instance: { task: "Fix the bug", cwd: "/testbed" },
  explore: { max_explore_steps: 30, ready_marker: "READY_TO_PLAN:" },
  graph_view: { graph_view: "FILE: a.py" },
  plan: {
    operator_catalog: "replace_node: ...",
    plan_path: "/tmp/edit_plan.json",
    files: ["a.py"],
    accept_diff: true,
  },
  nudge: { plan_path: "/tmp/edit_plan.json", attempt: 2, max_attempts: 5, reason: "the file is missing" },
  verify_feedback: {
    errors: "- e",
    warnings: "",
    attempt: 1,
    max_attempts: 3,
    plan_path: "/tmp/edit_plan.json",
  },
  confirm_warnings: { warnings: "- w", plan_path: "/tmp/edit_plan.json", confirm: "CONFIRM" },
  lifted: { steps: "- step 0 (tier 2): modify_condition <- hunk 0 of a.py", plan: "[]" },
  lift_feedback: { errors: "- e", attempt: 2, max_attempts: 3, plan_path: "/tmp/edit_plan.json" },
  execute_failure: { failed_step: 0, errors: "- e", attempt: 1, max_attempts: 3, plan_path: "/tmp/p.json" },
  submit: { files_changed: ["a.py"], warnings: "", submit_marker: "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  fallback: { reason: "verification failed 3 times", submit_marker: "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  observation: { output: "x", returncode: 0, timed_out: false, timeout: 120, truncated: false },
  format_error: { error: "No tool call", submit_marker: "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  limits_exceeded: { reason: "step limit 250 reached" },
  patch_rejected: { problems: "- no hunk", submit_marker: "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
  gate_refused: { problems: "- test-skipped", submit_marker: "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT" },
};

Deno.test("config: every default template renders with its documented variables, and uses all of them", async () => {
  const config = await loadConfig();
  for (const name of TEMPLATE_NAMES) {
    const vars = TEMPLATE_VARS[name];
    assert.ok(vars, `documented variables for "${name}"`);
    const text = renderTemplate(config.templates[name], vars, { name: `templates.${name}` });
    assert.ok(text.trim().length > 0);
    assert.deepEqual(templateVariables(config.templates[name]).sort(), Object.keys(vars).sort(), name);
  }
  const plan = renderTemplate(config.templates.plan, { ...TEMPLATE_VARS.plan, files: ["a.py", "b/c.py"] });
  assert.match(plan, /cat > \/tmp\/edit_plan\.json << 'PLAN_EOF'/);
  assert.match(plan, /Only the files \["a\.py", "b\/c\.py"\] may be edited/);
  const submit = renderTemplate(config.templates.submit, TEMPLATE_VARS.submit);
  // Submitting is saying the marker; the patch is computed by GraphPlan, so no prompt asks
  // the model to stage anything in the user's index.
  assert.match(submit, /^ {4}echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT$/m);
  for (const [name, template] of Object.entries(config.templates)) {
    assert.doesNotMatch(template, /git add|--cached/, `templates.${name}`);
  }
});

Deno.test("environment.helper_limits: checked against the helper's limit keys and passed as --limit/--timeout", async () => {
  const { limitArgs } = await import("../../agent/common/mod.ts");
  const config = await loadConfig([
    "environment.helper_limits.timeout=5",
    "environment.helper_limits.max_expanded_steps=20000",
  ]);
  assert.deepEqual(config.environment.helper_limits, { timeout: 5, max_expanded_steps: 20000 });
  assert.deepEqual(limitArgs(config.environment.helper_limits), [
    "--timeout",
    "5",
    "--limit",
    "max_expanded_steps=20000",
  ]);
  assert.deepEqual((await loadConfig()).environment.helper_limits, {});
  await assert.rejects(loadConfig(["environment.helper_limits.max_bananas=1"]), /helper_limits/);
});

Deno.test("config: verification.strict_codes must be kebab-case issue codes", async () => {
  const config = await loadConfig(["verification.strict=true", "verification.strict_codes=[unbound-name]"]);
  assert.equal(config.verification.strict, true);
  assert.deepEqual(config.verification.strict_codes, ["unbound-name"]);
  await assert.rejects(
    () => loadConfig(["verification.strict_codes=[Unbound Name]"]),
    /verification\.strict_codes/,
  );
});

Deno.test("config: an unknown key names the known key it is closest to, at any depth", async () => {
  const cases: [string, RegExp][] = [
    ["agent.cost_limt=2", /"agent\.cost_limt": Unknown key \(did you mean "agent\.cost_limit"\?\)/],
    ["environment.imgae=x", /"environment\.imgae": Unknown key \(did you mean "environment\.image"\?\)/],
    ["templates.plann=x", /"templates\.plann": Unknown key \(did you mean "templates\.plan"\?\)/],
    ["mdoel.name=x", /"mdoel": Unknown key \(did you mean "model"\?\)/],
  ];
  for (const [spec, message] of cases) await assert.rejects(loadConfig([spec]), message, spec);
  // Nothing near: no guess.
  await assert.rejects(loadConfig(["agent.zzzzzz=1"]), (err: Error) => {
    assert.match(err.message, /"agent\.zzzzzz": Unknown key$/);
    return true;
  });
});

Deno.test("config: rfsn keys set for the graphplan strategy are checked against rfsn's defaults, not refused", async () => {
  // A file or override shared by both strategies: before, the missing rfsn defaults were a wall of
  // "expected number, received undefined" for keys the user never wrote.
  const config = await loadConfig(["rfsn.test_command=pytest -x"]);
  assert.equal(config.agent.strategy, "graphplan");
  assert.equal(config.rfsn?.test_command, "pytest -x");
  // Only the rfsn section: rfsn.yaml's gate and verification settings are not the graphplan strategy's.
  const plain = await loadConfig([]);
  assert.deepEqual(config.gate, plain.gate);
  assert.deepEqual(config.verification, plain.verification);
  await assert.rejects(loadConfig(["rfsn.test_comand=pytest"]), (err: ConfigError) => {
    assert.deepEqual(err.problems.map((problem) => problem.key), ["rfsn.test_comand"]);
    return true;
  });
  // Without any rfsn key, the graphplan config has no rfsn section.
  assert.equal((await loadConfig([])).rfsn, undefined);
});
