/**
 * The PLAN phase accepting a unified diff or SEARCH/REPLACE blocks
 * (`agent.plan_input`): the agent lifts the change through the helper's
 * `lift` method (the real engine, in process), shows the model the lifted
 * plan, verifies and executes it, and the trajectory records that the plan
 * was lifted and the tier of every step. With `plan_input: plan` a diff is
 * not accepted.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Helper, HelperError } from "../../../agent/common/mod.ts";
import { findChangeInText } from "../../../agent/graphplan/lift_input.ts";
import { ScriptedModel } from "../../../agent/model/mod.ts";
import { handleRequest, Session } from "../../../engine/helper/mod.ts";
import "../../engine/exec/_support.ts";
import { runAgent, setup, SUBMIT } from "./_agent_support.ts";

const SOURCE = "def total(items):\n    return sum(item.price for item in items)\n";
const FIXED = "def total(items):\n    return sum(item.price * item.quantity for item in items)\n";
const DIFF = [
  "--- a/shop.py",
  "+++ b/shop.py",
  "@@ -1,2 +1,2 @@",
  " def total(items):",
  "-    return sum(item.price for item in items)",
  "+    return sum(item.price * item.quantity for item in items)",
  "",
].join("\n");

/** The engine's own methods, in process, as the agent's helper. */
function engineHelper(repo: string): Helper & { methods: string[] } {
  const session = Session.open(repo);
  const methods: string[] = [];
  return {
    methods,
    async call(method, params) {
      methods.push(method);
      const response = await handleRequest(session, method, params);
      if ("error" in response) throw new HelperError(`helper ${method} failed`, response.error.issues);
      return response.result;
    },
    close: () => Promise.resolve(),
  };
}

async function run(overrides: string[], planText: string) {
  const { root, repo, planPath, config } = await setup(
    ["agent.max_plan_nudges=0", "agent.max_plan_revisions=1", ...overrides],
    { "shop.py": SOURCE },
  );
  const model = new ScriptedModel([
    { command: "echo 'READY_TO_PLAN: [\"shop.py\"]'" },
    { content: "The fix as a diff.", command: `cat > ${planPath} << 'PLAN_EOF'\n${planText}PLAN_EOF` },
    { command: SUBMIT },
    { command: SUBMIT },
  ]);
  const helper = engineHelper(repo);
  const { result, saved } = await runAgent(config, model, helper, root);
  const text = await Deno.readTextFile(join(repo, "shop.py"));
  await Deno.remove(root, { recursive: true });
  return { result, saved, text, helper };
}

Deno.test("agent: a diff in the plan file is lifted, shown to the model, verified and executed", async () => {
  const { result, saved, text, helper } = await run([], DIFF);
  assert.equal(result.exitStatus, "Submitted");
  assert.equal(text, FIXED);
  assert.deepEqual(helper.methods.filter((m) => m !== "build_graph"), [
    "lift",
    "verify_plan",
    "execute_plan",
  ]);
  const info = saved.info as unknown as {
    plan: { source: string; tiers: number[]; plan_steps: { template?: string }[] };
  };
  assert.equal(info.plan.source, "lifted");
  assert.deepEqual(info.plan.tiers, [2]);
  assert.equal(info.plan.plan_steps[0].template, "change_return_value");
  const messages = JSON.stringify(saved.messages);
  assert.match(messages, /lifted into this structural plan/);
  assert.match(messages, /step 0 \(tier 2\): change_return_value <- hunk 0 of shop\.py/);
});

Deno.test("agent: an apply_patch answer with a new test file is lifted and executed, the new file a create_file step", async () => {
  const patch = [
    "*** Begin Patch",
    "*** Update File: shop.py",
    "@@ def total(items):",
    "-    return sum(item.price for item in items)",
    "+    return sum(item.price * item.quantity for item in items)",
    "*** Add File: test_shop.py",
    "+from shop import total",
    "*** End Patch",
    "",
  ].join("\n");
  const { result, saved, text } = await run([], patch);
  assert.equal(result.exitStatus, "Submitted");
  assert.equal(text, FIXED);
  const info = saved.info as unknown as { plan: { source: string; plan_steps: { op?: string }[] } };
  assert.equal(info.plan.source, "lifted");
  assert.deepEqual(info.plan.plan_steps.map((step) => step.op).filter(Boolean), ["create_file"]);
  assert.match(JSON.stringify(saved.messages), /create_file <- hunk 1 of test_shop\.py/);
});

Deno.test("agent: a written JSON plan is recorded as written, with the tier of each step", async () => {
  const plan = JSON.stringify([{
    template: "replace_expression",
    params: {
      target: {
        file: "shop.py",
        kind: "attribute",
        name: "item.price",
        parent: { kind: "function", name: "total" },
      },
      expression: "item.price * item.quantity",
    },
  }]);
  const { text, saved } = await run([], plan + "\n");
  assert.equal(text, FIXED);
  const info = saved.info as unknown as { plan: { source: string; tiers: number[] } };
  assert.deepEqual([info.plan.source, info.plan.tiers], ["written", [2]]);
});

Deno.test("agent: with plan_input plan, a diff is not a plan and the agent falls back", async () => {
  const { result, saved, helper } = await run(["agent.plan_input=plan"], DIFF);
  assert.ok(!helper.methods.includes("lift"));
  assert.notEqual((saved.info as unknown as { plan?: { source?: string } }).plan?.source, "lifted");
  assert.match(result.exitStatus, /Fallback|Submitted/);
});

Deno.test("agent: a diff that does not apply is reported back, nothing is executed", async () => {
  const stale = DIFF.replace("-    return sum(item.price for", "-    return sum(item.cost for");
  const { saved, text, helper } = await run([], stale);
  assert.equal(text, SOURCE);
  assert.ok(!helper.methods.includes("execute_plan"));
  assert.match(JSON.stringify(saved.messages), /could not be lifted into a plan/);
});

Deno.test("findChangeInText: fenced and bare diffs, SEARCH/REPLACE blocks, plain prose", () => {
  assert.deepEqual(findChangeInText("Here:\n```diff\n" + DIFF + "```\n"), { diff: DIFF });
  assert.deepEqual(findChangeInText("Fix below.\n" + DIFF), { diff: DIFF });
  const blocks = "shop.py\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n";
  assert.deepEqual(findChangeInText(blocks), { search_replace: blocks });
  assert.equal(findChangeInText("I think the bug is in total()."), undefined);
  const patch = "*** Begin Patch\n*** Add File: x.py\n+X = 1\n*** End Patch\n";
  assert.deepEqual(findChangeInText(`Here is the patch:\n${patch}Done.`), {
    apply_patch: "*** Begin Patch\n*** Add File: x.py\n+X = 1\n*** End Patch",
  });
});
