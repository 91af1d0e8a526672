import assert from "node:assert/strict";
import {
  findPlanInMessages,
  findPlanInText,
  findReadyFiles,
  findSubmission,
  isSubmitCommand,
  isValidPlan,
} from "../../../agent/graphplan/mod.ts";

const MARKER = "READY_TO_PLAN:";

Deno.test("READY_TO_PLAN: a JSON list after the marker, made repository-relative", () => {
  assert.deepEqual(
    findReadyFiles('READY_TO_PLAN: ["django/core/validators.py", "./django/forms/fields.py"]\n', MARKER),
    [
      "django/core/validators.py",
      "django/forms/fields.py",
    ],
  );
  assert.deepEqual(
    findReadyFiles('noise\nREADY_TO_PLAN: ["/testbed/astropy/io/fits/card.py"]', MARKER, { cwd: "/testbed" }),
    ["astropy/io/fits/card.py"],
  );
  // Not JSON: names on the rest of the line.
  assert.deepEqual(findReadyFiles("READY_TO_PLAN: [src/a.py, 'src/b.py']", MARKER), ["src/a.py", "src/b.py"]);
  assert.deepEqual(findReadyFiles('READY_TO_PLAN: ["a.py", "a.py"]', MARKER), ["a.py"]);
  assert.equal(findReadyFiles("READY_TO_PLAN: []", MARKER), null);
  assert.equal(findReadyFiles("still looking", MARKER), null);
});

Deno.test("plans: the seed's validity rule, in files and in message text", () => {
  assert.equal(isValidPlan([{ op: "replace_node", params: {} }]), true);
  assert.equal(isValidPlan({ define_operators: [], plan: [{ op: "x" }] }), true);
  assert.equal(isValidPlan([{ template: "guard_clause", params: {} }]), true);
  assert.equal(isValidPlan([]), false);
  assert.equal(isValidPlan({ steps: [] }), false);
  assert.equal(isValidPlan(["replace_node"]), false);

  const fenced =
    'Here is the plan:\n```json\n[{"op": "delete_node", "params": {"locator": {"file": "a.py"}}}]\n```\nDone.';
  assert.deepEqual(findPlanInText(fenced), [{ op: "delete_node", params: { locator: { file: "a.py" } } }]);
  const heredoc = 'cat > /tmp/edit_plan.json << \'PLAN_EOF\'\n[{"op": "add_import", "params": {}}]\nPLAN_EOF';
  assert.deepEqual(findPlanInText(heredoc), [{ op: "add_import", params: {} }]);
  assert.deepEqual(findPlanInText('I will use {"plan": [{"op": "x", "params": {}}]} now'), {
    plan: [{ op: "x", params: {} }],
  });
  assert.equal(findPlanInText("no plan [here] at all"), undefined);
});

Deno.test("submission: everything after a first line that is the marker", () => {
  const marker = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT";
  assert.equal(findSubmission(`${marker}\ndiff --git a/x b/x\n+y\n`, marker), "diff --git a/x b/x\n+y\n");
  assert.equal(findSubmission(`\n  ${marker}\n`, marker), "");
  assert.equal(findSubmission(`echo ${marker}\n`, marker), null);
  assert.equal(findSubmission(`output\n${marker}\n`, marker), null);
});

Deno.test("isSubmitCommand: a command that starts by echoing the marker, the old git tail included", () => {
  const marker = "COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT";
  for (
    const command of [
      `echo ${marker}`,
      `  echo '${marker}'\n`,
      `echo "${marker}" && git add -A && git diff --cached`,
      `echo ${marker}; git diff`,
      `echo ${marker}\ngit add -A`,
    ]
  ) assert.equal(isSubmitCommand(command, marker), true, command);
  for (
    const command of [
      `echo ${marker}_NOT`,
      `echo "${marker}'`,
      `python t.py && echo ${marker}`,
      `echo ${marker} | tee x`,
      `grep ${marker} log`,
    ]
  ) assert.equal(isSubmitCommand(command, marker), false, command);
  // A marker with regular-expression characters is matched literally.
  assert.equal(isSubmitCommand("echo DONE.", "DONE."), true);
  assert.equal(isSubmitCommand("echo DONEX", "DONE."), false);
});

Deno.test("findReadyFiles: quotes escaped as in JSON tool-call arguments are quotes", () => {
  assert.deepEqual(findReadyFiles('READY_TO_PLAN: [\\"a.py\\", \\"pkg/b.py\\"]', MARKER), [
    "a.py",
    "pkg/b.py",
  ]);
  assert.deepEqual(findReadyFiles('READY_TO_PLAN: [\\\\"a.py\\\\"]', MARKER), ["a.py"]);
  assert.deepEqual(findReadyFiles("READY_TO_PLAN: [\\'a.py\\', b.py]", MARKER), ["a.py", "b.py"]);
});

Deno.test("findPlanInMessages: newest first, tool outputs and the commands of tool calls included", () => {
  const older = [{ op: "delete_node", params: { locator: { file: "old.py" } } }];
  const newer = [{ op: "delete_node", params: { locator: { file: "new.py" } } }];
  const messages = [
    { content: JSON.stringify(older) },
    {
      content: "I wrote it",
      tool_calls: [{ command: `cat > p.json <<'PLAN_EOF'\n${JSON.stringify(newer)}\nPLAN_EOF` }],
    },
    { content: "<returncode>0</returncode>\n<output>\nnothing here\n</output>" },
  ];
  assert.deepEqual(findPlanInMessages(messages), newer);
  assert.deepEqual(findPlanInMessages(messages.slice(0, 1)), older);
  assert.equal(findPlanInMessages(messages, 1), undefined);
});
