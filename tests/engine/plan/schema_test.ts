/**
 * The JSON Schema of plans (`graphplan schema`): its shape, its agreement
 * with parsePlan judged by an independent validator (Python's
 * `jsonschema`, draft 2020-12), and the CLI.
 */

import assert from "node:assert/strict";
import { OPERATORS, parsePlan, planJsonSchema } from "../../../engine/plan/mod.ts";
import { PYTHON, runPythonJson } from "../../_support/python.ts";
import { skipReason } from "../../_support/skips.ts";
import { runCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const LOC = { file: "a.py", kind: "function", name: "f" };

function hasJsonschema(): boolean {
  if (!PYTHON) return false;
  const out = new Deno.Command(PYTHON, { args: ["-c", "import jsonschema"] }).outputSync();
  return out.success;
}

const JSONSCHEMA_SKIP = skipReason(
  hasJsonschema() ? undefined : "python3 with the jsonschema package not found",
);

Deno.test("the schema names both plan formats and shares the step and locator definitions", () => {
  const schema = planJsonSchema() as {
    $schema: string;
    anyOf: { type: string; items?: { $ref: string }; properties?: Record<string, unknown> }[];
    $defs: Record<string, { anyOf?: { title?: string }[] }>;
  };
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.deepEqual(schema.anyOf.map((branch) => branch.type), ["array", "object"]);
  assert.deepEqual(schema.anyOf[0].items, { $ref: "#/$defs/step" });
  assert.ok(schema.$defs.locator && schema.$defs.fragment && schema.$defs.step);
  const titles = schema.$defs.step.anyOf!.map((branch) => branch.title);
  assert.deepEqual(titles, [...OPERATORS.keys(), "template", "fragment", "custom operator"]);
  // Generating it leaves zod's registry as it was: a second run is identical.
  assert.deepEqual(planJsonSchema(), schema);
});

Deno.test({
  name: "the JSON Schema and parsePlan agree on valid and invalid plans (jsonschema as the oracle)",
  ignore: !!JSONSCHEMA_SKIP,
  async fn() {
    const plans: unknown[] = [
      [{ op: "replace_code", params: { file: "a.py", pattern: "x", replacement: "y" } }],
      [{ op: "insert_code", params: { file: "a.py", anchor_line: 2, position: "after", code: "x = 1" } }],
      [{
        op: "replace_node",
        params: { locator: { ...LOC, parent: { kind: "class", name: "A" } }, replacement: "y" },
      }],
      [{ op: "locate", params: { locator: { type: "sexp", file: "a.py", query: "(identifier) @id" } } }],
      [{ op: "add_method", params: { file: "a.py", class: "A", code: "def f(self): pass" } }],
      [{ op: "add_method", params: { file: "a.py", class_name: "A", method_code: "def f(self): pass" } }],
      [{ op: "delete_node", params: { target: LOC } }],
      [{ op: "move_node", params: { target: LOC, destination: LOC, position: "after" } }],
      [{ template: "guard_clause", params: { target: LOC, condition: "x" } }],
      [{
        fragment: { kind: "if_statement", children: [{ kind: "pass_statement" }] },
        action: "replace",
        target: LOC,
      }],
      {
        define_operators: [{
          define: "noop",
          params_schema: { file: "string" },
          steps: [{ primitive: "locate", params: { locator: LOC } }],
        }],
        plan: [{ op: "noop", params: { file: "a.py" } }],
      },
      // Invalid:
      ["src/foo.py"],
      [],
      [{ op: "insert_code", params: { file: "a.py", anchor_line: 0, position: "after", code: "x" } }],
      [{ op: "insert_code", params: { file: "a.py", anchor_line: 1, position: "middle", code: "x" } }],
      [{ op: "replace_code", params: { file: "a.py", pattern: "x" } }],
      [{ op: "add_method", params: { file: "a.py", code: "x" } }],
      [{ op: "delete_node", params: {} }],
      [{ op: "replace_node", params: { locator: { kind: "function" }, replacement: "y" } }],
      [{ template: "no_such_template", params: { target: LOC } }],
      [{ fragment: { kind: "if_statement" }, action: "explode", target: LOC }],
      { plan: "x" },
    ];
    const verdicts = await runPythonJson<boolean[]>(
      `import json, sys, jsonschema
data = json.load(sys.stdin)
validator = jsonschema.Draft202012Validator(data["schema"])
print(json.dumps([validator.is_valid(p) for p in data["plans"]]))`,
      { schema: planJsonSchema(), plans },
    );
    plans.forEach((plan, i) => {
      const parsed = parsePlan(plan).plan !== undefined;
      assert.equal(
        verdicts[i],
        parsed,
        `plan ${i}: jsonschema says ${verdicts[i]}, parsePlan says ${parsed}: ${JSON.stringify(plan)}`,
      );
    });
  },
});

Deno.test("graphplan schema prints the schema; --json the same; --check validates a plan", SLOW, async () => {
  const run = (args: string[], stdin?: string) => runCli(["schema", ...args], { stdin });
  const plain = await run([]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(JSON.parse(plain.stdout), planJsonSchema());
  const json = await run(["--json"]);
  assert.equal(json.stdout, plain.stdout);
  const check = await run(["--check", "-", "--json"], JSON.stringify(["src/foo.py"]));
  assert.equal(check.code, 1);
  const report = JSON.parse(check.stdout);
  assert.equal(report.passed, false);
  assert.equal(report.errors[0].code, "plan-invalid");
  const ok = await run(["--check", "-"], JSON.stringify([{ op: "delete_node", params: { locator: LOC } }]));
  assert.equal(ok.code, 0);
  assert.equal(ok.stdout.trim(), "Plan is valid: 1 step(s)");
});
