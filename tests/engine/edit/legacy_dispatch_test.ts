/**
 * engine/ops/dispatch.ts: validated steps of every kind reach their
 * implementation; issues come back with the step and a path into the plan;
 * and a whole plan runs through the real executor.
 */

import assert from "node:assert/strict";
import { runStep } from "../../../engine/ops/dispatch.ts";
import { executePlan } from "../../../engine/exec/mod.ts";
import { type NormalizedPlan, parsePlan } from "../../../engine/plan/mod.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { assertPythonParses } from "../../_support/python.ts";
import { corpusFile, makeRepo, rejection } from "./_legacy_support.ts";
// Journals go to this test process's private state directory (set once for every test file of the process).
import "../exec/_support.ts";

const AUTH = "requests/auth.py";

function planOf(value: unknown): NormalizedPlan {
  const { plan, issues } = parsePlan(value);
  assert.ok(plan, JSON.stringify(issues));
  return plan;
}

Deno.test({
  name: "runStep: legacy, composed (legacy spellings), primitive and delete_node-as-surgery steps",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const { before } = await corpusFile("psf__requests-1766", AUTH);
    const repo = await makeRepo({ [AUTH]: before });
    try {
      const plan = planOf([
        {
          op: "replace_code",
          params: { file: AUTH, pattern: "qop=auth, nc", replacement: 'qop="auth", nc' },
        },
        { op: "add_import", params: { file: AUTH, import_statement: "import sys" } },
        {
          op: "add_method",
          params: {
            file: AUTH,
            class: "HTTPProxyAuth",
            code: "def __repr__(self):\n    return 'HTTPProxyAuth'",
          },
        },
        {
          op: "replace_node",
          params: {
            locator: {
              file: AUTH,
              kind: "function",
              name: "__init__",
              parent: { kind: "class", name: "HTTPBasicAuth" },
            },
            replacement:
              "def __init__(self, username, password):\n        self.username = username\n        self.password = password\n        self.realm = None",
          },
        },
        { op: "delete_node", params: { target: { file: AUTH, kind: "class", name: "AuthBase" } } },
      ]);
      assert.deepEqual(plan.steps.map((step) => step.kind), [
        "legacy",
        "composed",
        "composed",
        "primitive",
        "surgery",
      ]);
      let text = before;
      for (const step of plan.steps) {
        const ctx = repo.ctx(step.index);
        await runStep(step, ctx, plan);
        text = await repo.text(ctx, AUTH);
        for (const change of await ctx.changedFiles()) repo.store.set(change.after);
      }
      assert.ok(text.includes(`base += ', qop="auth", nc=%s, cnonce="%s"' % (ncvalue, cnonce)`));
      assert.ok(text.includes("from .utils import parse_dict_header\nimport sys\n"));
      assert.ok(
        text.includes("        return r\n\n    def __repr__(self):\n        return 'HTTPProxyAuth'\n"),
      );
      assert.ok(text.includes("        self.password = password\n        self.realm = None\n"));
      assert.ok(!text.includes("class AuthBase"));
      await assertPythonParses(text);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test("runStep: an operator from define_operators runs with the plan's definitions", async () => {
  const repo = await makeRepo({ "m.py": "class A:\n    x = 1\n" });
  try {
    const plan = planOf({
      define_operators: [{
        define: "add_flag",
        params_schema: { file: "string", name: "string" },
        steps: [{
          primitive: "insert_after_node",
          params: {
            locator: { file: "$file", kind: "class", name: "A", field: "body", nth_child: -1 },
            code: "$name = True",
          },
        }],
      }],
      plan: [{ op: "add_flag", params: { file: "m.py", name: "enabled" } }],
    });
    const ctx = repo.ctx();
    await runStep(plan.steps[0], ctx, plan);
    assert.equal(await repo.text(ctx, "m.py"), "class A:\n    x = 1\n    enabled = True\n");
  } finally {
    await repo.cleanup();
  }
});

Deno.test("runStep: tier-1 surgery, tier-2 templates and tier-3 fragments reach their implementations", async () => {
  const repo = await makeRepo({ "m.py": "def f(x):\n    return 1\n" });
  try {
    const target = { file: "m.py", kind: "function", name: "f" };
    const plan = planOf({
      plan: [
        { op: "rename_identifier", params: { target, new_name: "g" } },
        { template: "guard_clause", params: { target, condition: "x is None", guard_body: "return 0" } },
        {
          fragment: { kind: "pass_statement" },
          action: "insert_before",
          target: { file: "m.py", kind: "statement", parent: target, index: -1 },
        },
      ],
    });
    const texts = [];
    for (const step of plan.steps) {
      const ctx = repo.ctx(step.index);
      await runStep(step, ctx, plan);
      texts.push(await repo.text(ctx, "m.py"));
    }
    assert.deepEqual(texts, [
      "def g(x):\n    return 1\n",
      "def f(x):\n    if x is None:\n        return 0\n    return 1\n",
      "def f(x):\n    pass\n    return 1\n",
    ]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("runStep: an operator's issue gets the step and a path into the plan", async () => {
  const repo = await makeRepo({ "m.py": "x = 1\n" });
  try {
    const plan = planOf({
      plan: [
        { op: "insert_code", params: { file: "m.py", anchor_line: 1, position: "after", code: "y = 2" } },
        { op: "insert_code", params: { file: "m.py", anchor_line: 9, position: "after", code: "z = 3" } },
      ],
    });
    const { issues } = await rejection(() => runStep(plan.steps[1], repo.ctx(1), plan));
    assert.deepEqual([issues[0].code, issues[0].step, issues[0].path, issues[0].file], [
      "line-out-of-range",
      1,
      ["plan", 1, "params", "anchor_line"],
      "m.py",
    ]);
  } finally {
    await repo.cleanup();
  }
});

Deno.test("executePlan with runStep: a plan is written as a whole, or not at all", async () => {
  const source = "def f(a):\n    return a\n\n\ndef g():\n    return f(1)\n";
  const repo = await makeRepo({ "m.py": source });
  try {
    const run = (value: unknown) => {
      const plan = planOf(value);
      return executePlan(repo.store, plan.steps, { runStep: (step, ctx) => runStep(step, ctx, plan) });
    };
    const failed = await run([
      { op: "rename_symbol", params: { file: "m.py", old_name: "f", new_name: "h" } },
      { op: "replace_code", params: { file: "m.py", pattern: "return nothing", replacement: "pass" } },
    ]);
    assert.equal(failed.success, false);
    assert.equal(failed.rolled_back, true);
    assert.equal(failed.failed_step, 1);
    assert.equal(failed.errors[0].code, "pattern-not-found");
    assert.equal(await Deno.readTextFile(`${repo.dir}/m.py`), source);

    const passed = await run([
      { op: "rename_symbol", params: { file: "m.py", old_name: "f", new_name: "h" } },
      {
        op: "modify_function_signature",
        params: { file: "m.py", func_name: "h", old_signature: "(a)", new_signature: "(a, b=0)" },
      },
    ]);
    assert.equal(passed.success, true, JSON.stringify(passed.errors));
    assert.deepEqual(passed.files_changed, ["m.py"]);
    assert.equal(
      await Deno.readTextFile(`${repo.dir}/m.py`),
      "def h(a, b=0):\n    return a\n\n\ndef g():\n    return h(1)\n",
    );
  } finally {
    await repo.cleanup();
  }
});
