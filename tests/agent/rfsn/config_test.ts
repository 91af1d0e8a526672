import assert from "node:assert/strict";
import { type ConfigError, loadConfig } from "../../../agent/config.ts";
import { renderTemplate, templateVariables } from "../../../agent/template.ts";

Deno.test("config: the default strategy is graphplan with the gate reporting; --strategy rfsn merges config/rfsn.yaml", async () => {
  const plain = await loadConfig();
  assert.equal(plain.agent.strategy, "graphplan");
  assert.deepEqual(plain.gate, { mode: "report", allow: [] });
  assert.equal(plain.rfsn, undefined);
  const rfsn = await loadConfig(["agent.strategy=rfsn", "rfsn.risk_budget=1", "gate.allow=[test-xfailed]"]);
  assert.equal(rfsn.gate.mode, "refuse");
  assert.deepEqual(rfsn.gate.allow, ["test-xfailed"]);
  assert.equal(rfsn.rfsn?.risk_budget, 1, "a user override wins over rfsn.yaml");
  assert.equal(rfsn.rfsn?.iteration_budget, 50);
  assert.deepEqual(rfsn.rfsn?.bounds, { max_files: 3, max_lines: 80 });
});

Deno.test("config: unknown gate codes, modes and rfsn keys are errors naming the key", async () => {
  await assert.rejects(
    loadConfig(["gate.allow=[everything]"]),
    (err: ConfigError) => err.problems[0].key === "gate.allow.0",
  );
  await assert.rejects(
    loadConfig(["gate.mode=warn"]),
    (err: ConfigError) => err.problems[0].key === "gate.mode",
  );
  await assert.rejects(
    loadConfig(["agent.strategy=rfsn", "rfsn.budget=3"]),
    (err: ConfigError) => err.problems[0].key === "rfsn.budget" && err.problems[0].message === "Unknown key",
  );
});

Deno.test("config: the PATCH prompt uses exactly the variables the rfsn strategy passes", async () => {
  const config = await loadConfig(["agent.strategy=rfsn"]);
  const template = config.rfsn!.templates.patch;
  const passed = [
    "task",
    "failure",
    "failing_tests",
    "suspect",
    "source",
    "max_files",
    "max_lines",
    "history",
  ];
  assert.deepEqual(templateVariables(template).toSorted(), passed.toSorted());
  const text = renderTemplate(template, Object.fromEntries(passed.map((name) => [name, `<${name}>`])));
  assert.match(text, /Change at most <max_files> file\(s\) and <max_lines> lines/);
});
