/**
 * Strictness in the agent (`verification` in the config), with the scripted
 * model: a verified plan whose warnings mean broken code (an unbound name)
 * is shown to the model once before it runs, and the model answers CONFIRM
 * or revises it; with `verification.strict` the same warning is an error
 * the real helper (an in-process session) reports, fed back like any other.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { type Helper, HelperError } from "../../../agent/common/mod.ts";
import { ScriptedModel } from "../../../agent/model/mod.ts";
import { handleRequest, Session } from "../../../engine/helper/mod.ts";
import { fakeHelper, planCommand, runAgent, setup, SUBMIT } from "./_agent_support.ts";

/** The fix with a typo: `quantiy` is bound nowhere (an L3 `unbound-name` warning). */
const TYPO = (planPath: string) => planCommand(planPath).replace("item.quantity", "quantiy");

const UNBOUND = {
  code: "unbound-name",
  severity: "warning",
  message: 'Name "quantiy" is not bound where it is used in "shop/order.py"',
  step: 0,
  level: "L3",
  file: "shop/order.py",
  line: 6,
};

Deno.test("agent: a plan with an unbound-name warning is shown back once; CONFIRM runs it as it is", async () => {
  const ctx = await setup();
  try {
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: TYPO(ctx.planPath) },
      { content: "The warning is expected.", command: "echo CONFIRM" },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(ctx.repo, [{ passed: true, errors: [], warnings: [UNBOUND] }]);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "Submitted");
    assert.deepEqual(calls.map((c) => c.method), ["build_graph", "verify_plan", "execute_plan"]);
    assert.equal(calls[1].params.strict, undefined, "not strict: the helper is asked for warnings");
    assert.deepEqual(calls[2].params.plan, calls[1].params.plan, "the confirmed plan is the verified one");
    const prompt = model.received[2].at(-1)!.content;
    assert.match(prompt, /NOT been applied yet/);
    assert.match(prompt, /warning\[unbound-name\]\[L3\] shop\/order\.py:6: Name "quantiy" is not bound/);
    assert.match(prompt, /Revise, or answer CONFIRM/);
    assert.deepEqual(saved.info.phases.map((p) => `${p.name}:${p.status}`), [
      "explore:done",
      "graph:done",
      "plan:done",
      "verify:passed",
      "confirm:confirmed",
      "execute:done",
      "submit:ended",
    ]);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: the model revises instead; the new plan is verified and run, and no second confirmation is asked", async () => {
  const ctx = await setup();
  try {
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: TYPO(ctx.planPath) },
      { content: "Right, a typo.", command: planCommand(ctx.planPath) },
      { command: SUBMIT },
    ]);
    // The revised plan still warns (another code path): it runs without asking again.
    const { helper, calls } = fakeHelper(ctx.repo, [
      { passed: true, errors: [], warnings: [UNBOUND] },
      { passed: true, errors: [], warnings: [{ ...UNBOUND, message: 'Name "other" is not bound' }] },
    ]);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "Submitted");
    assert.deepEqual(calls.map((c) => c.method), [
      "build_graph",
      "verify_plan",
      "verify_plan",
      "execute_plan",
    ]);
    assert.match(JSON.stringify(calls[1].params.plan), /quantiy/);
    assert.match(JSON.stringify(calls[3].params.plan), /item\.quantity/);
    assert.deepEqual(
      saved.info.phases.filter((p) => p.name !== "explore").map((p) => `${p.name}:${p.status}`),
      [
        "graph:done",
        "plan:done",
        "verify:passed",
        "confirm:revised",
        "verify:passed",
        "execute:done",
        "submit:ended",
      ],
    );
  } finally {
    await ctx.cleanup();
  }
});

/** The engine's helper in this process: the same methods a container's helper answers. */
function sessionHelper(
  repo: string,
): Helper & { calls: { method: string; params: Record<string, unknown> }[] } {
  const session = Session.open(repo);
  const calls: { method: string; params: Record<string, unknown> }[] = [];
  return {
    calls,
    async call(method, params) {
      calls.push({ method, params });
      const response = await handleRequest(session, method, params);
      if ("error" in response) throw new HelperError(`Helper refused "${method}"`, response.error.issues);
      return response.result;
    },
    close: () => session.close(),
  };
}

Deno.test("agent: with verification.strict the real helper fails the unbound name; the model revises it", async () => {
  const ctx = await setup(["verification.strict=true"]);
  try {
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: TYPO(ctx.planPath) },
      { command: planCommand(ctx.planPath) },
      { command: SUBMIT },
    ]);
    const helper = sessionHelper(ctx.repo);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "Submitted");
    assert.match(
      result.submission,
      /\+ {8}return sum\(item\.price \* item\.quantity for item in self\.items\)/,
    );
    const verifies = helper.calls.filter((c) => c.method === "verify_plan");
    assert.deepEqual(verifies[0].params.strict, ctx.config.verification.strict_codes);
    const feedback = model.received[2].at(-1)!.content;
    assert.match(feedback, /NOT applied/);
    assert.match(feedback, /error\[unbound-name\]\[L3\] shop\/order\.py:6: .*"quantiy"/);
    assert.match(feedback, /an error under --strict/);
    assert.deepEqual(saved.info.phases.filter((p) => p.name === "verify").map((p) => p.status), [
      "failed",
      "passed",
    ]);
    assert.ok(!saved.info.phases.some((p) => p.name === "confirm"), "strict: errors, no confirmation round");
    assert.equal(Deno.readTextFileSync(join(ctx.repo, "shop", "order.py")).includes("quantiy"), false);
  } finally {
    await ctx.cleanup();
  }
});
