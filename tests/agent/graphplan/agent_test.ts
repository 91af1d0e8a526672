import assert from "node:assert/strict";
import { join } from "node:path";
import { type Helper, HelperError } from "../../../agent/common/mod.ts";
import { snapshotTree } from "../../../agent/common/mod.ts";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import { AuthenticationError, type Model, ScriptedModel } from "../../../agent/model/mod.ts";
import { fakeHelper, git, planCommand, runAgent, setup, SUBMIT } from "./_agent_support.ts";
import { bigHeredoc } from "../env/_big_command.ts";

Deno.test("agent: explore → graph → plan → verify → execute → submit, on a real repository", async () => {
  const ctx = await setup();
  try {
    const model = new ScriptedModel([
      { content: "Let me find the order code.", command: "grep -rn 'def total' ." },
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { content: "Writing the plan.", command: planCommand(ctx.planPath) },
      { content: "Reviewing.", command: "git diff" },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(ctx.repo, []);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);

    assert.equal(result.exitStatus, "Submitted");
    assert.match(result.submission, /^diff --git a\/shop\/order\.py b\/shop\/order\.py/);
    assert.match(
      result.submission,
      /\+ {8}return sum\(item\.price \* item\.quantity for item in self\.items\)/,
    );
    assert.deepEqual(calls.map((c) => c.method), ["build_graph", "verify_plan", "execute_plan"]);
    assert.deepEqual(calls[0].params, { files: ["shop/order.py"] });
    assert.equal((calls[1].params.plan as { op: string }[])[0].op, "replace_node");
    assert.equal(helper.closed, true);

    // The prompts the model saw: the explore instructions, then the graph view and the catalog.
    const planPrompt = model.received[2].at(-1)!;
    assert.equal(planPrompt.role, "user");
    assert.match(planPrompt.content, /FILE: shop\/order\.py/);
    assert.match(planPrompt.content, /CLASS: Order \(lines 1-6\)/);
    assert.match(planPrompt.content, /replace_node \{locator, replacement\}/);
    assert.match(planPrompt.content, new RegExp(`cat > ${ctx.planPath} << 'PLAN_EOF'`));
    assert.match(model.received[3].at(-1)!.content, /REVIEW AND SUBMIT[\s\S]*\["shop\/order\.py"\]/);

    assert.equal(saved.info.exit_status, "Submitted");
    assert.equal(saved.info.submission, result.submission);
    assert.deepEqual(saved.info.phases.map((p) => `${p.name}:${p.status}`), [
      "explore:done",
      "graph:done",
      "plan:done",
      "verify:passed",
      "execute:done",
      "submit:ended",
    ]);
    assert.deepEqual((saved.info.plan as { plan_files: string[] }).plan_files, ["shop/order.py"]);
    assert.equal(saved.info.model_stats.calls, 5);
    // Every tool call was answered by a tool message with its id.
    const messages = saved.messages;
    for (const [i, message] of messages.entries()) {
      for (const call of message.tool_calls ?? []) {
        assert.ok(
          messages.slice(i + 1).some((m) => m.role === "tool" && m.tool_call_id === call.id),
          call.id,
        );
      }
    }
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: verification errors are fed back and the plan is revised", async () => {
  const ctx = await setup();
  try {
    const failing = {
      passed: false,
      errors: [{
        code: "locator-not-found",
        severity: "error",
        message: 'Cannot resolve locator: no method "totl" in "shop/order.py"',
        step: 0,
        layer: "0b",
        candidates: [{ file: "shop/order.py", line: 5, kind: "method", text: "def total(self):" }],
      }],
      warnings: [{ code: "scope-shadow", severity: "warning", message: 'Name "items" is also a parameter' }],
    };
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: planCommand(ctx.planPath).replace('"total"', '"totl"') },
      { command: planCommand(ctx.planPath) },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(ctx.repo, [failing]);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "Submitted");
    assert.deepEqual(calls.map((c) => c.method), [
      "build_graph",
      "verify_plan",
      "verify_plan",
      "execute_plan",
    ]);
    const feedback = model.received[2].at(-1)!.content;
    assert.match(feedback, /NOT applied/);
    assert.match(feedback, /error\[locator-not-found\]\[layer 0b\] Cannot resolve locator: no method "totl"/);
    assert.match(feedback, /shop\/order\.py:5 method: def total\(self\):/);
    assert.match(feedback, /Warnings[\s\S]*scope-shadow/);
    assert.match(feedback, /Revision 2 of 3/);
    assert.deepEqual(saved.info.phases.filter((p) => p.name === "verify").map((p) => p.status), [
      "failed",
      "passed",
    ]);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: exploration that never says READY_TO_PLAN falls back to the step loop", async () => {
  const ctx = await setup(["agent.max_explore_steps=2"]);
  try {
    const model = new ScriptedModel([
      { command: "ls" },
      { command: "cat shop/order.py" },
      {
        content: "Fixing directly.",
        command: "sed -i 's/item.price for/item.price * item.quantity for/' shop/order.py",
      },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(ctx.repo, []);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "FallbackSubmitted");
    assert.match(result.submission, /item\.price \* item\.quantity/);
    assert.deepEqual(calls, [], "the helper is never started");
    const fallback = saved.info.phases.find((p) => p.name === "fallback")!;
    assert.equal(fallback.reason, "no READY_TO_PLAN within 2 steps");
    assert.match(model.received[2].at(-1)!.content, /could not be used \(no READY_TO_PLAN within 2 steps\)/);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: no plan file after the nudges falls back; a plan in the message text is accepted", async () => {
  const ctx = await setup(["agent.max_plan_nudges=1"]);
  try {
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: "cat shop/order.py" },
      { command: "echo thinking" },
      { command: SUBMIT },
    ]);
    const { helper } = fakeHelper(ctx.repo, []);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "FallbackSubmitted");
    assert.equal(result.submission, "");
    const nudge = model.received[2].at(-1)!.content;
    assert.match(nudge, /no usable plan in .*edit_plan\.json yet \(the file does not exist\)/);
    assert.equal(
      saved.info.phases.find((p) => p.name === "fallback")!.reason,
      "no plan was written after 1 reminder",
    );
  } finally {
    await ctx.cleanup();
  }

  const inline = await setup();
  try {
    const plan =
      '```json\n[{"op": "replace_node", "params": {"locator": {"file": "shop/order.py"}, "replacement": "x"}}]\n```';
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { content: `The plan:\n${plan}`, command: "true" },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(inline.repo, []);
    const { saved } = await runAgent(inline.config, model, helper, inline.root);
    assert.deepEqual(calls.map((c) => c.method), ["build_graph", "verify_plan", "execute_plan"]);
    assert.equal(saved.info.phases.find((p) => p.name === "plan")!.source, "message");
  } finally {
    await inline.cleanup();
  }
});

Deno.test("agent: a format error is answered and the run goes on", async () => {
  const ctx = await setup(["agent.max_explore_steps=3"]);
  try {
    const model = new ScriptedModel([
      { content: "I believe the bug is in order.py." },
      { tool_calls: [{ id: "bad", name: "bash", arguments: "{oops" }] },
      { command: SUBMIT },
    ]);
    const { helper } = fakeHelper(ctx.repo, []);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "Submitted");
    const afterNoCall = model.received[1].at(-1)!;
    assert.equal(afterNoCall.role, "user");
    assert.match(afterNoCall.content, /No tool call/);
    const afterBadJson = model.received[2].at(-1)!;
    assert.equal(afterBadJson.role, "tool");
    assert.equal(afterBadJson.tool_call_id, "bad");
    assert.match(afterBadJson.content, /not valid JSON/);
    assert.equal(saved.info.exit_status, "Submitted");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: the step limit ends the run with LimitsExceeded; a model error with its own status", async () => {
  const ctx = await setup(["agent.step_limit=2"]);
  try {
    const model = new ScriptedModel([{ command: "ls" }, { command: "ls" }, { command: "ls" }]);
    const { helper } = fakeHelper(ctx.repo, []);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "LimitsExceeded");
    assert.equal(model.stats.calls, 2);
    assert.equal(saved.info.exit_status, "LimitsExceeded");
    assert.match(saved.messages.at(-1)!.content, /step limit of 2 model calls reached/);
    assert.equal(saved.info.phases[0].status, "LimitsExceeded");

    const refusing: Model = {
      name: "openai/gpt-5-mini",
      stats: { cost: 0, calls: 0, input_tokens: 0, output_tokens: 0 },
      query: () => Promise.reject(new AuthenticationError("Authentication failed (HTTP 401: bad key)")),
    };
    const auth = await runAgent(ctx.config, refusing, helper, ctx.root);
    assert.equal(auth.result.exitStatus, "AuthenticationError");
    assert.equal(auth.saved.info.exit_status, "AuthenticationError");
    assert.match(String(auth.saved.info.error), /bad key/);
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: a plan that keeps failing verification ends in the fallback; a failed execution is fed back", async () => {
  const ctx = await setup(["agent.max_plan_revisions=2"]);
  try {
    const failing = {
      passed: false,
      errors: [{
        code: "syntax-error",
        severity: "error",
        message: "Replacement produces a syntax error",
        step: 0,
      }],
      warnings: [],
    };
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: planCommand(ctx.planPath) },
      { command: planCommand(ctx.planPath) },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(ctx.repo, [failing, failing]);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "FallbackSubmitted");
    assert.deepEqual(calls.map((c) => c.method), ["build_graph", "verify_plan", "verify_plan"]);
    assert.equal(saved.info.phases.at(-1)!.name, "fallback");
    assert.equal(saved.info.phases.at(-1)!.reason, "the plan failed verification 2 times");
  } finally {
    await ctx.cleanup();
  }

  const exec = await setup(["agent.max_plan_revisions=2"]);
  try {
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: planCommand(exec.planPath) },
      { command: planCommand(exec.planPath) },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(exec.repo, []);
    let executions = 0;
    const flaky: Helper = {
      call: (method, params) =>
        method === "execute_plan" && executions++ === 0
          ? Promise.resolve({
            success: false,
            rolled_back: true,
            failed_step: 0,
            errors: [{
              code: "kind-changed",
              severity: "error",
              message: "The edit changed the node's kind",
              step: 0,
            }],
            warnings: [],
            files_changed: [],
          })
          : helper.call(method, params),
      close: () => helper.close(),
    };
    const { result, saved } = await runAgent(exec.config, model, flaky, exec.root);
    assert.equal(result.exitStatus, "Submitted");
    assert.match(result.submission, /item\.quantity/);
    const feedback = model.received[2].at(-1)!.content;
    assert.match(feedback, /failed at step 0[\s\S]*rolled back[\s\S]*kind-changed/);
    assert.deepEqual(saved.info.phases.filter((p) => p.name === "execute").map((p) => p.status), [
      "rolled_back",
      "done",
    ]);
    assert.deepEqual(calls.map((c) => c.method), [
      "build_graph",
      "verify_plan",
      "verify_plan",
      "execute_plan",
    ]);
  } finally {
    await exec.cleanup();
  }
});

Deno.test("agent: a helper without verify_plan is verified by a dry run of execute_plan", async () => {
  const ctx = await setup();
  try {
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: planCommand(ctx.planPath) },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(ctx.repo, []);
    const inner = helper.call;
    helper.call = (method, params) => {
      if (method === "verify_plan") {
        return Promise.reject(
          new HelperError(`Helper refused "verify_plan"`, [
            { code: "method-unknown", severity: "error", message: 'Unknown method "verify_plan"' },
          ]),
        );
      }
      if (method === "execute_plan" && params.dry_run === true) {
        calls.push({ method: "execute_plan dry_run", params });
        return Promise.resolve({
          success: true,
          rolled_back: false,
          errors: [],
          warnings: [],
          files_changed: [],
        });
      }
      return inner(method, params);
    };
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "Submitted");
    assert.deepEqual(calls.map((c) => c.method), ["build_graph", "execute_plan dry_run", "execute_plan"]);
    const verify = saved.info.phases.find((p) => p.name === "verify")!;
    assert.equal(verify.status, "passed");
    assert.equal(verify.method, "execute_plan dry_run");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: a failed execution is called rolled back only when it was; a helper that died is asked to roll back", async () => {
  for (const rollbackWorks of [true, false]) {
    const ctx = await setup(["agent.max_plan_revisions=2"]);
    try {
      const model = new ScriptedModel([
        { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
        { command: planCommand(ctx.planPath) },
        { command: planCommand(ctx.planPath) },
        { command: SUBMIT },
      ]);
      const { helper, calls } = fakeHelper(ctx.repo, []);
      let executions = 0;
      const dying: Helper = {
        call: (method, params) => {
          if (method === "execute_plan" && executions++ === 0) {
            // The helper was killed mid-plan: no answer, nothing said about the files.
            return Promise.reject(new HelperError('Helper call "execute_plan" failed: the helper exited'));
          }
          if (method === "rollback") {
            calls.push({ method, params });
            return rollbackWorks
              ? Promise.resolve({
                success: true,
                nothing_to_do: false,
                restored: ["shop/order.py"],
                errors: [],
              })
              : Promise.reject(
                new HelperError('Helper refused "rollback"', [{
                  code: "rollback-conflict",
                  severity: "error",
                  message: 'File "shop/order.py" changed on disk after GraphPlan wrote it: not restored',
                }]),
              );
          }
          return helper.call(method, params);
        },
        close: () => helper.close(),
      };
      const { result, saved } = await runAgent(ctx.config, model, dying, ctx.root);
      assert.ok(calls.some((call) => call.method === "rollback"), "the agent asked for a rollback");
      const execute = saved.info.phases.find((p) => p.name === "execute")!;
      const told = model.received[2].at(-1)!.content;
      if (rollbackWorks) {
        assert.equal(execute.status, "rolled_back");
        assert.match(told, /rolled back/);
        assert.equal(result.exitStatus, "Submitted");
      } else {
        assert.equal(execute.status, "not_restored");
        assert.doesNotMatch(told, /rolled back|repository is unchanged/);
        assert.match(told, /could not be restored/);
        assert.equal(result.exitStatus, "FallbackSubmitted");
      }
    } finally {
      await ctx.cleanup();
    }
  }
});

Deno.test("agent: READY_TO_PLAN with escaped quotes; a plan found only in a tool output (cat) is used", async () => {
  const ctx = await setup(["agent.max_plan_nudges=0"]);
  try {
    const draft = join(ctx.root, "draft.json");
    const plan = /'PLAN_EOF'\n([\s\S]*)\nPLAN_EOF/.exec(planCommand(ctx.planPath))![1];
    await Deno.writeTextFile(draft, plan);
    const model = new ScriptedModel([
      // as in a tool call's JSON arguments: the quotes arrive escaped
      { content: 'READY_TO_PLAN: [\\"shop/order.py\\"]', command: "true" },
      // the plan went to the wrong file; the model shows it instead of writing plan_path
      { content: "Here is my plan.", command: `cat ${draft}` },
      { command: SUBMIT },
    ]);
    const { helper, calls } = fakeHelper(ctx.repo, []);
    const { saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.deepEqual(calls[0], { method: "build_graph", params: { files: ["shop/order.py"] } });
    assert.deepEqual(calls.map((c) => c.method), ["build_graph", "verify_plan", "execute_plan"]);
    assert.deepEqual(calls[1].params.plan, JSON.parse(plan));
    assert.equal(saved.info.phases.find((p) => p.name === "plan")!.source, "recent messages");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: with a baseline the submission is the run's own patch and the submit command's git tail is not run", async () => {
  const ctx = await setup();
  try {
    // The user's untracked file, there before the run.
    await Deno.writeTextFile(join(ctx.repo, "todo.txt"), "mine\n");
    const baseline = await snapshotTree(new LocalEnvironment({ cwd: ctx.repo }));
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: planCommand(ctx.planPath) },
      { command: "printf 'RATE = 1\\n' > shop/rates.py" },
      { command: SUBMIT },
    ]);
    const { helper } = fakeHelper(ctx.repo, []);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root, { baseline });

    assert.equal(result.exitStatus, "Submitted");
    const files = [...result.submission.matchAll(/^diff --git a\/(\S+) b\//gm)].map((m) => m[1]);
    assert.deepEqual(files, ["shop/order.py", "shop/rates.py"]);
    assert.equal(
      await git(ctx.repo, "status", "--porcelain"),
      " M shop/order.py\n?? shop/rates.py\n?? todo.txt\n",
    );
    assert.equal(
      saved.messages.at(-1)!.content,
      `COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n${result.submission}`,
    );
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: a baseline git cannot diff from is recorded, and the submit command's own output stands", async () => {
  const ctx = await setup();
  try {
    const model = new ScriptedModel([
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { command: planCommand(ctx.planPath) },
      { command: SUBMIT },
    ]);
    const { helper } = fakeHelper(ctx.repo, []);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root, {
      baseline: "0".repeat(40),
    });

    assert.equal(result.exitStatus, "Submitted");
    assert.match(String(saved.info.patch_error), /^Cannot compute the patch since "0{40}": /);
    // The command ran (the old way): its staged diff is the submission.
    assert.match(result.submission, /^diff --git a\/shop\/order\.py b\/shop\/order\.py/);
    assert.equal(await git(ctx.repo, "diff", "--cached", "--name-only"), "shop/order.py\n");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("agent: a 1 MB heredoc command (over the 128 KiB argument limit) runs and is observed, not a crash", async () => {
  const ctx = await setup();
  try {
    const notes = join(ctx.root, "notes.json");
    const { command, body } = bigHeredoc(1 << 20, notes);
    const model = new ScriptedModel([
      { content: "Writing my notes down first.", command },
      { content: "Let me find the order code.", command: "grep -rn 'def total' ." },
      { command: "echo 'READY_TO_PLAN: [\"shop/order.py\"]'" },
      { content: "Writing the plan.", command: planCommand(ctx.planPath) },
      { command: SUBMIT },
    ]);
    const { helper } = fakeHelper(ctx.repo, []);
    const { result, saved } = await runAgent(ctx.config, model, helper, ctx.root);
    assert.equal(result.exitStatus, "Submitted");
    assert.equal(await Deno.readTextFile(notes), body + "\n");
    const observation = saved.messages.find((m) => m.role === "tool")!;
    assert.match(observation.content, new RegExp(`${body.length + 1} ${notes}`));
  } finally {
    await ctx.cleanup();
  }
});
