/**
 * Expansion limits: the hostile `define_operators` plans of issue 18 are
 * refused at layer 0, before anything runs, with an issue that names the
 * limit, the operator chain and the key that raises it.
 */

import assert from "node:assert/strict";
import { parsePlan } from "../../../engine/plan/mod.ts";
import { verifyPlan } from "../../../engine/verify/mod.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { configureLimits, restoreLimits } from "../../../engine/base/limits.ts";
import { makeRepo, snapshot } from "../exec/_support.ts";

const FILE = "app/service.py";
const SOURCE = "import os\n\n\nclass Service:\n    def run(self, x):\n        return x + 1\n";

/** `levels` operators, each calling the next `fanOut` times; the last runs `leaf`. */
function fanOutPlan(fanOut: number, levels: number, leaf: Record<string, unknown>, before: unknown[] = []) {
  const defs = [];
  for (let i = 0; i < levels; i++) {
    defs.push({
      define: `op${i}`,
      params_schema: { file: "string" },
      steps: Array.from({ length: fanOut }, () => ({ primitive: `op${i + 1}`, params: { file: "$file" } })),
    });
  }
  defs.push({ define: `op${levels}`, params_schema: { file: "string" }, steps: [leaf] });
  return { define_operators: defs, plan: [...before, { op: "op0", params: { file: FILE } }] };
}

const LOCATE = { primitive: "locate", params: { locator: { file: "$file", kind: "class" } } };
const INSERT = {
  op: "insert_code",
  params: { file: FILE, anchor_line: 1, position: "after", code: "import sys" },
};

Deno.test("fan-out plans are refused at layer 0 with the limit, the chain and the key", async (t) => {
  const cases = [
    { name: "2 calls x 17 levels", plan: fanOutPlan(2, 17, LOCATE), code: "plan-too-deep" },
    {
      name: "3 calls x 11 levels after insert_code",
      plan: fanOutPlan(3, 11, LOCATE, [INSERT]),
      code: "plan-too-large",
    },
    {
      name: "10 calls x 5 levels of warn",
      plan: fanOutPlan(10, 5, { primitive: "warn", params: { message: "hi" } }),
      code: "plan-too-large",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const { plan, issues } = parsePlan(c.plan);
      assert.equal(plan, undefined);
      const issue = issues.find((i) => i.severity === "error");
      assert.equal(issue?.code, c.code, JSON.stringify(issues));
      assert.equal(issue.layer, "0");
      assert.match(issue.message, /op0 → op1 → op2/);
      assert.match(issue.hint ?? "", c.code === "plan-too-deep" ? /max_nesting_depth/ : /max_expanded_steps/);
      assert.deepEqual(issue.path, ["plan", c.plan.plan.length - 1]);
    });
  }
});

Deno.test("verify refuses a fan-out plan without simulating it and writes nothing", async () => {
  const dir = makeRepo({ [FILE]: SOURCE });
  const before = snapshot(dir);
  const result = await verifyPlan(
    new DocumentStore(Workspace.open(dir)),
    fanOutPlan(3, 11, LOCATE, [INSERT]),
  );
  assert.equal(result.passed, false);
  assert.deepEqual(result.errors.map((e) => e.code), ["plan-too-large"]);
  assert.deepEqual(snapshot(dir), before);
});

Deno.test("the limits are configurable: the same plan passes under a raised step limit", () => {
  const plan = fanOutPlan(10, 3, LOCATE); // 2,111 steps: 1,110 calls of operators, 1,000 locates, the step
  const saved = configureLimits({ max_expanded_steps: 2_000 });
  try {
    assert.equal(parsePlan(plan).issues[0]?.code, "plan-too-large");
    configureLimits({ max_expanded_steps: 3_000 });
    assert.ok(parsePlan(plan).plan, "refused under a raised limit");
  } finally {
    restoreLimits(saved);
  }
});

Deno.test("a parameter doubled at every level is refused before it is built", () => {
  const defs = [];
  for (let i = 0; i < 12; i++) {
    defs.push({
      define: `grow${i}`,
      params_schema: { file: "string", code: "string" },
      steps: [{ primitive: `grow${i + 1}`, params: { file: "$file", code: "$code$code$code$code" } }],
    });
  }
  defs.push({
    define: "grow12",
    params_schema: { file: "string", code: "string" },
    steps: [{
      primitive: "insert_after_node",
      params: { locator: { file: "$file", kind: "import", index: 0 }, code: "$code" },
    }],
  });
  const plan = { define_operators: defs, plan: [{ op: "grow0", params: { file: FILE, code: "x = 1\n" } }] };
  const started = performance.now();
  const { issues } = parsePlan(plan);
  const issue = issues.find((i) => i.severity === "error");
  assert.equal(issue?.code, "param-too-large", JSON.stringify(issues));
  assert.match(issue.message, /grow0 → grow1/);
  assert.match(issue.hint ?? "", /max_param_bytes/);
  // 6 characters × 4^12 would be 100 MB: the check works on sizes, not strings.
  assert.ok(performance.now() - started < 5_000);
});

Deno.test("a chain of 3,000 definitions is refused for depth without overflowing the stack", () => {
  const defs = [];
  for (let i = 0; i < 3000; i++) {
    defs.push({
      define: `c${i}`,
      params_schema: { file: "string" },
      steps: [{ primitive: `c${i + 1}`, params: { file: "$file" } }],
    });
  }
  defs.push({ define: "c3000", params_schema: { file: "string" }, steps: [LOCATE] });
  const { issues } = parsePlan({ define_operators: defs, plan: [{ op: "c0", params: { file: FILE } }] });
  assert.equal(issues.find((i) => i.severity === "error")?.code, "plan-too-deep");
});

Deno.test("warnings are capped per code with a summary of how many more", async () => {
  const dir = makeRepo({ [FILE]: SOURCE });
  const saved = configureLimits({ max_issues_per_code: 100 });
  try {
    // 10 × 10 × 10 warn steps = 1,000 warnings of one code.
    const result = await verifyPlan(
      new DocumentStore(Workspace.open(dir)),
      fanOutPlan(10, 3, { primitive: "warn", params: { message: "hi" } }),
    );
    const warns = result.warnings.filter((w) => w.code === "dsl-warning");
    assert.equal(warns.length, 101);
    assert.match(warns[100].message, /^900 more "dsl-warning" warnings not shown \(1000 in all\)/);
  } finally {
    restoreLimits(saved);
  }
});

Deno.test("a parameter grown from a run-time output is refused before it is built, when the operator runs", async () => {
  const dir = makeRepo({ [FILE]: SOURCE });
  const before = snapshot(dir);
  const plan = {
    define_operators: [{
      define: "copy_class",
      params_schema: { file: "string" },
      steps: [
        {
          primitive: "locate_region",
          params: { locator: { file: "$file", kind: "class", name: "Service" } },
          bind: "region",
        },
        {
          primitive: "insert_after_node",
          params: {
            locator: { file: "$file", kind: "class", name: "Service" },
            code: "$region.text".repeat(20),
          },
        },
      ],
    }],
    plan: [{ op: "copy_class", params: { file: FILE } }],
  };
  const saved = configureLimits({ max_param_bytes: 500 });
  try {
    // The output is unknown before the run: layer 0 lets the plan through.
    assert.ok(parsePlan(plan).plan);
    const result = await verifyPlan(new DocumentStore(Workspace.open(dir)), plan);
    const issue = result.errors.find((e) => e.code === "param-too-large");
    assert.ok(issue, JSON.stringify(result.errors));
    assert.match(issue.message, /insert_after_node.*copy_class/);
  } finally {
    restoreLimits(saved);
  }
  assert.deepEqual(snapshot(dir), before);
});
