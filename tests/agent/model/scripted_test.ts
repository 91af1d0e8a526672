import assert from "node:assert/strict";
import { join } from "node:path";
import { createModel, loadScript, ModelError, ScriptedModel } from "../../../agent/model/mod.ts";

const SCRIPT = `# A demo run: look, read, plan, submit.
- content: Let me see the repository.
  command: ls -la
- commands: ["grep -rn 'def parse' src", "sed -n '1,20p' src/parser.py"]
- content: I am sure the fix is right.
- tool_calls:
    - {id: broken, name: bash, arguments: "{not json"}
- command: echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git diff
  usage: {input_tokens: 120, output_tokens: 30}
`;

Deno.test("scripted: replays turns from a YAML file, format errors included", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_scripted_" });
  try {
    const path = join(dir, "demo.yaml");
    await Deno.writeTextFile(path, SCRIPT);
    const model = await createModel({ name: "scripted/demo", script: path });
    assert.ok(model instanceof ScriptedModel);
    assert.equal(model.name, "scripted/demo");

    const first = await model.query([{ role: "user", content: "task" }]);
    assert.equal(first.content, "Let me see the repository.");
    assert.deepEqual(first.actions.map((a) => a.command), ["ls -la"]);
    assert.equal(first.actions[0].id, first.message.tool_calls?.[0].id);

    const second = await model.query([]);
    assert.deepEqual(second.actions.map((a) => a.command), [
      "grep -rn 'def parse' src",
      "sed -n '1,20p' src/parser.py",
    ]);
    assert.notEqual(second.actions[0].id, second.actions[1].id);

    assert.match((await model.query([])).formatError!, /No tool call/);
    const broken = await model.query([]);
    assert.match(broken.formatError!, /not valid JSON/);
    assert.equal(broken.message.tool_calls?.[0].id, "broken");

    const last = await model.query([]);
    assert.match(last.actions[0].command, /^echo COMPLETE_TASK/);
    assert.deepEqual(model.stats, { cost: 0, calls: 5, input_tokens: 120, output_tokens: 30 });
    assert.equal(model.remaining, 0);
    await assert.rejects(
      model.query([]),
      (err: Error) => err instanceof ModelError && /no turn 6/.test(err.message),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scripted: keeps a copy of every conversation it was shown", async () => {
  const model = new ScriptedModel([{ command: "ls" }, { command: "pwd" }]);
  const messages = [{ role: "user" as const, content: "first" }];
  await model.query(messages);
  messages.push({ role: "user", content: "second" });
  await model.query(messages);
  assert.deepEqual(model.received.map((m) => m.length), [1, 2]);
});

Deno.test("scripted: JSON scripts load; bad scripts are clear errors", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_scripted_" });
  try {
    const json = join(dir, "turns.json");
    await Deno.writeTextFile(json, JSON.stringify({ turns: [{ command: "ls" }] }));
    assert.deepEqual(await loadScript(json), [{ command: "ls" }]);
    const bad = join(dir, "bad.yaml");
    await Deno.writeTextFile(bad, "just: a mapping\n");
    await assert.rejects(loadScript(bad), /is not a list of turns/);
    await assert.rejects(loadScript(join(dir, "missing.yaml")), /Cannot read model script/);
    await assert.rejects(createModel({ name: "scripted/demo" }), /needs "model.script"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
