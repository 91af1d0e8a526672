/**
 * parsePlan: every step kind, tier detection (seed 001 task 4c), every error
 * kind with its code, step, JSON path and the seed's wording, and all
 * problems collected at once.
 */

import assert from "node:assert/strict";
import type { Issue } from "../../../engine/base/issue.ts";
import { detectTier, MAX_ISSUES, parsePlan, parsePlanText } from "../../../engine/plan/mod.ts";

const LOC = {
  file: "src/query.py",
  kind: "function",
  name: "defer",
  parent: { kind: "class", name: "QuerySet" },
};

function errorsOf(value: unknown): Issue[] {
  const { plan, issues } = parsePlan(value);
  assert.equal(plan, undefined, "expected the plan to be rejected");
  const errors = issues.filter((issue) => issue.severity === "error");
  assert.ok(errors.length > 0);
  return errors;
}

function only(value: unknown): Issue {
  const errors = errorsOf(value);
  assert.equal(errors.length, 1, JSON.stringify(errors, null, 1));
  return errors[0];
}

Deno.test("every step kind parses, with its tier, kind and path", () => {
  const plan = [
    { op: "replace_node", params: { locator: LOC, replacement: "def defer(self): ..." } },
    {
      op: "insert_after_node",
      params: { locator: { kind: "import", file: "src/query.py", index: -1 }, code: "import os" },
    },
    { op: "delete_node", params: { locator: LOC } },
    { op: "delete_node", params: { target: LOC } },
    { op: "rename_identifier", params: { target: LOC, new_name: "postpone" } },
    {
      op: "move_node",
      params: {
        target: LOC,
        destination: { file: "src/query.py", kind: "class", name: "Q" },
        position: "append_to_body",
      },
    },
    {
      op: "swap_nodes",
      params: { target: LOC, other: { file: "src/query.py", kind: "function", name: "only" } },
    },
    {
      op: "reorder_children",
      params: { target: { file: "src/query.py", kind: "class", name: "Q" }, order: [1, 0] },
    },
    { op: "add_method", params: { file: "src/query.py", class: "QuerySet", code: "def f(self):\n    pass" } },
    { op: "add_import", params: { file: "src/query.py", import_statement: "import os" } },
    {
      op: "add_class_attribute",
      params: { file: "src/query.py", class_name: "QuerySet", attribute: "x = 1" },
    },
    { op: "replace_code", params: { file: "src/query.py", pattern: "a", replacement: "b" } },
    {
      op: "insert_code",
      params: { file: "src/query.py", anchor_line: 3, position: "before", code: "x = 1" },
    },
    { op: "delete_lines", params: { file: "src/query.py", start_line: 3, end_line: 4 } },
    {
      op: "modify_function_signature",
      params: { file: "a.py", func_name: "f", old_signature: "(a)", new_signature: "(a, b)" },
    },
    { op: "rename_symbol", params: { file: "a.py", old_name: "x", new_name: "y" } },
    {
      op: "wrap_block",
      params: {
        file: "a.py",
        start_line: 1,
        end_line: 2,
        before_code: "try:",
        after_code: "finally:\n    pass",
      },
    },
    { op: "replace_function_body", params: { file: "a.py", func_name: "f", new_body: "return 1" } },
    { template: "guard_clause", params: { target: LOC, condition: "x is None", guard_body: "return" } },
    {
      fragment: {
        kind: "if_statement",
        properties: { condition: "x" },
        children: [{ kind: "return_statement" }],
      },
      action: "insert_before",
      target: LOC,
    },
    {
      op: "locate",
      params: { locator: { type: "sexp", file: "a.py", query: "(identifier) @id" } },
      description: "look",
    },
  ];
  const { plan: parsed, issues } = parsePlan(plan);
  assert.deepEqual(issues, []);
  assert.ok(parsed);
  assert.deepEqual(
    parsed.steps.map((step) => [step.index, step.tier, step.kind, step.op]),
    [
      [0, 0, "primitive", "replace_node"],
      [1, 0, "primitive", "insert_after_node"],
      [2, 1, "primitive", "delete_node"],
      [3, 1, "surgery", "delete_node"],
      [4, 1, "surgery", "rename_identifier"],
      [5, 1, "surgery", "move_node"],
      [6, 1, "surgery", "swap_nodes"],
      [7, 1, "surgery", "reorder_children"],
      [8, 0, "composed", "add_method"],
      [9, 0, "composed", "add_import"],
      [10, 0, "composed", "add_class_attribute"],
      [11, 0, "legacy", "replace_code"],
      [12, 0, "legacy", "insert_code"],
      [13, 0, "legacy", "delete_lines"],
      [14, 0, "legacy", "modify_function_signature"],
      [15, 0, "legacy", "rename_symbol"],
      [16, 0, "legacy", "wrap_block"],
      [17, 0, "legacy", "replace_function_body"],
      [18, 2, "template", "guard_clause"],
      [19, 3, "fragment", "fragment"],
      [20, 0, "primitive", "locate"],
    ],
  );
  assert.deepEqual(parsed.steps[12].params, plan[12].params);
  assert.deepEqual(parsed.steps[19].params, {
    fragment: plan[19].fragment,
    action: "insert_before",
    target: LOC,
  });
  assert.deepEqual(parsed.steps[18].params, plan[18].params);
  assert.deepEqual(parsed.steps[5].path, [5]);
  assert.deepEqual(parsed.steps[0].raw, plan[0]);
  assert.deepEqual(parsed.definitions, []);
});

Deno.test("the object format: define_operators and calls of the defined operator", () => {
  const doc = {
    define_operators: [{
      define: "add_cached_property",
      params_schema: {
        file: "string",
        class_name: "string",
        prop_name: "string",
        body: "string",
        note: "string?",
      },
      steps: [{
        primitive: "insert_after_node",
        params: {
          locator: { kind: "class", name: "$class_name", file: "$file", field: "body", nth_child: -1 },
          code: "\n    @cached_property\n    def $prop_name(self):\n$body",
        },
      }],
    }],
    plan: [
      {
        op: "add_import",
        params: { file: "query.py", import_statement: "from functools import cached_property" },
      },
      {
        op: "add_cached_property",
        params: { file: "query.py", class_name: "QuerySet", prop_name: "_key", body: "        return 1" },
      },
    ],
  };
  const { plan, issues } = parsePlan(doc);
  assert.deepEqual(issues, []);
  assert.ok(plan);
  assert.equal(plan.definitions.length, 1);
  assert.deepEqual(plan.steps.map((step) => [step.kind, step.op, step.path]), [
    ["composed", "add_import", ["plan", 0]],
    ["composed", "add_cached_property", ["plan", 1]],
  ]);

  const bad = errorsOf({
    ...doc,
    plan: [{ op: "add_cached_property", params: { file: "q.py", class_name: 3, prop_name: "p" } }],
  });
  assert.deepEqual(bad.map((issue) => [issue.code, issue.message, issue.path]), [
    [
      "wrong-type",
      "Step 0: Parameter 'class_name' of add_cached_property must be a string, got the number 3",
      [
        "plan",
        0,
        "params",
        "class_name",
      ],
    ],
    ["missing-parameter", "Step 0: Missing parameter 'body' for add_cached_property", [
      "plan",
      0,
      "params",
      "body",
    ]],
  ]);
});

Deno.test("tier detection follows seed 001", () => {
  assert.equal(detectTier({ op: "rename_identifier", params: {} }), 1);
  assert.equal(detectTier({ op: "delete_node", params: {} }), 1);
  assert.equal(detectTier({ template: "guard_clause", params: {} }), 2);
  assert.equal(detectTier({ fragment: {}, target: {} }), 3);
  assert.equal(detectTier({ op: "replace_node", params: {} }), 0);
  assert.equal(detectTier({ op: "replace_code", params: {} }), 0);
  assert.equal(detectTier("rename_identifier"), 0);
  assert.equal(detectTier(null), 0);
});

Deno.test("unknown operator: the seed's message, the closest names, step and path", () => {
  const issue = only([{ op: "replace_code", params: { file: "a.py", pattern: "x", replacement: "y" } }, {
    op: "replace_function",
    params: {},
  }]);
  assert.deepEqual(issue, {
    code: "unknown-operator",
    severity: "error",
    message: "Step 1: Unknown operator 'replace_function'",
    step: 1,
    path: [1, "op"],
    hint: 'did you mean "replace_function_body", "replace_code" or "replace_node"?',
  });
  assert.match(only([{ op: "transmogrify", params: {} }]).hint!, /^operators: replace_node, /);
  // A whole-file name the model guesses gets the whole-file steps.
  assert.match(only([{ op: "edit_file", params: {} }]).hint!, /did you mean "create_file"/);
  assert.match(
    only([{ op: "guard_clause", params: {} }]).hint!,
    /is a template: write \{"template": "guard_clause"/,
  );
  for (const name of ["constructor", "toString", "hasOwnProperty", "valueOf"]) {
    assert.equal(only([{ op: name, params: {} }]).code, "unknown-operator", name);
  }
});

Deno.test("missing and mistyped parameters, with the seed's wording and JSON paths", () => {
  const errors = errorsOf([
    { op: "replace_code", params: { file: "a.py", replacement: "y" } },
    { op: "insert_code", params: { file: "a.py", anchor_line: "12", position: "middle", code: 3 } },
    { op: "replace_node", params: { locator: { file: "a.py", kind: 7 }, replacement: "x" } },
    { op: "delete_lines", params: { file: "a.py", start_line: 0, end_line: 2.5 } },
  ]);
  assert.deepEqual(errors.map((issue) => [issue.code, issue.step, issue.path, issue.message]), [
    [
      "missing-parameter",
      0,
      [0, "params", "pattern"],
      "Step 0: Missing parameter 'pattern' for replace_code",
    ],
    [
      "wrong-type",
      1,
      [1, "params", "anchor_line"],
      `Step 1: Parameter 'anchor_line' of insert_code must be a number, got the string "12"`,
    ],
    [
      "invalid-value",
      1,
      [1, "params", "position"],
      `Step 1: Parameter 'position' of insert_code must be one of "before", "after", got the string "middle"`,
    ],
    [
      "wrong-type",
      1,
      [1, "params", "code"],
      "Step 1: Parameter 'code' of insert_code must be a string, got the number 3",
    ],
    [
      "wrong-type",
      2,
      [2, "params", "locator", "kind"],
      "Step 2: Parameter 'locator.kind' of replace_node must be a string, got the number 7",
    ],
    [
      "invalid-value",
      3,
      [3, "params", "start_line"],
      "Step 3: Parameter 'start_line' of delete_lines must be at least 1, got the number 0",
    ],
    [
      "wrong-type",
      3,
      [3, "params", "end_line"],
      "Step 3: Parameter 'end_line' of delete_lines must be an integer, got the number 2.5",
    ],
  ]);
  for (const issue of errors) assert.doesNotMatch(issue.message, /Invalid input|received|expected \w+,/);
});

Deno.test("locator problems: a missing file, an unknown field, not an object", () => {
  const errors = errorsOf([
    { op: "replace_node", params: { locator: { kind: "function", name: "f" }, replacement: "x" } },
    { op: "delete_node", params: { locator: { file: "a.py", kind: "function", nmae: "f" } } },
    { op: "locate", params: { locator: "function f" } },
  ]);
  assert.deepEqual(errors.map((issue) => [issue.code, issue.path]), [
    ["missing-parameter", [0, "params", "locator", "file"]],
    ["unknown-field", [1, "params", "locator", "nmae"]],
    ["wrong-type", [2, "params", "locator"]],
  ]);
  assert.equal(errors[0].message, "Step 0: Missing parameter 'locator.file' for replace_node");
  assert.equal(errors[1].message, "Step 1: Unknown field 'nmae' in parameter 'locator' of delete_node");
  assert.equal(
    errors[2].message,
    `Step 2: Parameter 'locator' of locate must be an object, got the string "function f"`,
  );
});

Deno.test("paths that leave the repository are refused in the plan already", () => {
  const errors = errorsOf([
    { op: "replace_code", params: { file: "../../etc/passwd", pattern: "root", replacement: "x" } },
    { op: "delete_lines", params: { file: "/etc/passwd", start_line: 1, end_line: 1 } },
    { op: "add_import", params: { file: "src/../../x.py", import_statement: "import os" } },
  ]);
  assert.deepEqual(errors.map((issue) => [issue.code, issue.path]), [
    ["path-outside-repo", [0, "params", "file"]],
    ["path-outside-repo", [1, "params", "file"]],
    ["path-outside-repo", [2, "params", "file"]],
  ]);
  assert.match(
    errors[1].message,
    /^Step 1: Parameter 'file' of delete_lines must be relative to the repository root/,
  );
});

Deno.test("alternative spellings: one is required, two different values conflict", () => {
  const missing = errorsOf([{ op: "add_method", params: { file: "a.py", code: "def f(self): pass" } }]);
  assert.deepEqual(missing.map((issue) => [issue.code, issue.message, issue.hint]), [[
    "missing-parameter",
    "Step 0: Missing parameter 'class_name' for add_method",
    'give one of "class_name", "class"',
  ]]);
  const conflict = only([{
    op: "add_method",
    params: { file: "a.py", class: "A", class_name: "B", code: "x" },
  }]);
  assert.equal(conflict.code, "conflicting-parameters");
  const sameTwice = parsePlan([{
    op: "add_method",
    params: { file: "a.py", class: "A", class_name: "A", code: "x" },
  }]);
  assert.ok(sameTwice.plan);
  const both = only([{ op: "delete_node", params: { locator: LOC, target: { ...LOC, name: "other" } } }]);
  assert.equal(both.code, "conflicting-parameters");
  const neither = only([{ op: "delete_node", params: {} }]);
  assert.equal(neither.message, "Step 0: Missing parameter 'locator' for delete_node");
});

Deno.test("unknown parameters and fields are warnings with a suggestion; the plan still parses", () => {
  const { plan, issues } = parsePlan([
    {
      op: "replace_code",
      params: { file: "a.py", pattern: "x", replacement: "y", replacment: "z" },
      why: "because",
    },
  ]);
  assert.ok(plan);
  assert.deepEqual(issues.map((issue) => [issue.severity, issue.code, issue.path, issue.hint]), [
    ["warning", "unknown-field", [0, "why"], 'a step has "op", "params", "description"'],
    ["warning", "unknown-parameter", [0, "params", "replacment"], 'did you mean "replacement"?'],
  ]);
  assert.deepEqual(plan.steps[0].params, { file: "a.py", pattern: "x", replacement: "y" });
});

Deno.test("a legacy operator given a locator points to its primitive equivalent", () => {
  const errors = errorsOf([{ op: "replace_code", params: { locator: LOC, replacement: "x" } }]);
  assert.deepEqual(errors.map((issue) => issue.path), [[0, "params", "file"], [0, "params", "pattern"]]);
  const issue = errors[0];
  assert.equal(issue.code, "missing-parameter");
  assert.equal(issue.message, "Step 0: Missing parameter 'file' for replace_code");
  assert.match(
    issue.hint!,
    /replace_code is a legacy operator taking "file", "pattern", "replacement"; to target a node by locator use replace_node/,
  );
});

Deno.test("steps that are not steps", () => {
  assert.deepEqual(
    errorsOf([42, "x", null, { params: {} }, { operation: "replace_code" }]).map((i) => [i.step, i.code]),
    [
      [0, "plan-invalid"],
      [1, "plan-invalid"],
      [2, "plan-invalid"],
      [3, "plan-invalid"],
      [4, "plan-invalid"],
    ],
  );
  assert.match(only([{ operation: "replace_code" }]).hint!, /name the operator in "op" \(not "operation"\)/);
  assert.equal(
    only([{ op: "replace_code", template: "guard_clause" }]).message,
    `Step 0: A step has exactly one of "op", "template" or "fragment", this one has "op" and "template"`,
  );
  assert.equal(
    only([{ op: "replace_code", file: "a.py", pattern: "x", replacement: "y" }]).message,
    `Step 0: The parameters of replace_code belong in "params": move 'file', 'pattern', 'replacement' into "params"`,
  );
  assert.equal(
    only([{ op: 7, params: {} }]).message,
    `Step 0: "op" must be an operator name, got the number 7`,
  );
  assert.equal(
    only([{ op: "locate", params: [1] }]).message,
    "Step 0: The params of locate must be an object, got an array of 1 items",
  );
});

Deno.test("templates and fragments: unknown names and shape errors", () => {
  const unknown = only([{ template: "guard_claus", params: { target: LOC } }]);
  assert.deepEqual([unknown.code, unknown.message, unknown.hint], [
    "unknown-template",
    "Step 0: Unknown template 'guard_claus'",
    'did you mean "guard_clause"?',
  ]);
  assert.match(
    only([{ template: "replace_code", params: {} }]).hint!,
    /is an operator: write \{"op": "replace_code"/,
  );
  // Template parameters are typed per template: every missing one is reported.
  const missing = errorsOf([{ template: "wrap_try_except", params: { exc_type: "ValueError" } }]);
  assert.deepEqual(missing.map((issue) => [issue.code, issue.path]), [
    ["missing-parameter", [0, "params", "target"]],
    ["missing-parameter", [0, "params", "handler"]],
  ]);
  assert.equal(missing[0].message, "Step 0: Missing parameter 'target' for wrap_try_except");
  const fragment = errorsOf([{ fragment: { properties: {} }, action: "append", target: LOC }]);
  assert.deepEqual(fragment.map((issue) => [issue.code, issue.path]), [
    ["missing-parameter", [0, "fragment", "kind"]],
    ["invalid-value", [0, "action"]],
  ]);
  assert.equal(fragment[0].message, "Step 0: Missing field 'fragment.kind' for the fragment step");
});

Deno.test("not a plan: file lists, empty arrays, scalars, objects without steps", () => {
  const files = only(["src/foo.py", "src/bar.py"]);
  assert.equal(files.code, "plan-invalid");
  assert.match(
    files.message,
    /^The plan is a list of strings \("src\/foo.py", \.\.\.\), not of steps: a plan is a JSON array of steps, e\.g\. \[\{"template": "replace_expression"/,
  );
  assert.match(only([]).message, /^The plan has no steps: a plan is a JSON array of steps/);
  assert.match(only({ plan: [] }).message, /^The plan has no steps/);
  assert.deepEqual(only({ plan: [] }).path, ["plan"]);
  assert.match(only(null).message, /^The plan must be an array of steps, got null: a plan is/);
  assert.match(only(42).message, /got the number 42/);
  assert.match(only('[{"op": 1}]').message, /got the string/);
  assert.match(
    only({ op: "replace_code", params: {} }).message,
    /single step, not an array of steps: wrap it in \[ \]/,
  );
  assert.match(only({ steps: [{ op: "x" }] }).hint!, /rename "steps" to "plan"/);
  assert.equal(only({ plan: "x" }).code, "wrong-type");
  assert.equal(
    only({ define_operators: {}, plan: [{ op: "locate", params: { locator: LOC } }] }).code,
    "dsl-invalid",
  );
});

Deno.test("define_operators problems come from the DSL validator with plan paths", () => {
  const errors = errorsOf({
    define_operators: [{ define: "add_method", steps: [{ primitive: "locate", params: { locator: LOC } }] }],
    plan: [{ op: "locate", params: { locator: LOC } }],
  });
  assert.deepEqual(errors.map((issue) => [issue.code, issue.path]), [["dsl-name-reserved", [
    "define_operators",
    0,
    "define",
  ]]]);
});

Deno.test("all problems are collected, in step order, up to a cap", () => {
  const errors = errorsOf([
    { op: "nope", params: {} },
    { op: "replace_code", params: {} },
    { template: "nope" },
    "x",
    { op: "insert_code", params: { file: "a.py", anchor_line: -1, position: "before", code: "x" } },
  ]);
  assert.deepEqual(errors.map((issue) => issue.step), [0, 1, 1, 1, 2, 3, 4]);
  const many = parsePlan(Array.from({ length: 500 }, () => ({ op: "nope", params: {} })));
  assert.equal(many.issues.length, MAX_ISSUES + 1);
  assert.equal(many.issues[MAX_ISSUES].code, "too-many-issues");
  assert.equal(many.issues[MAX_ISSUES].message, "400 more problems were found and not listed");
});

Deno.test("input that is not JSON data is refused cleanly", () => {
  const cyclic: Record<string, unknown> = { op: "locate" };
  cyclic.params = cyclic;
  assert.equal(only([cyclic]).code, "plan-not-json");
  assert.equal(only([{ op: "locate", params: { locator: () => 1 } }]).code, "plan-not-json");
  assert.equal(
    only([{ op: "locate", params: { locator: new Map() } }]).message,
    `The plan contains a Map at [0,"params","locator"]: a plan is plain JSON data`,
  );
  assert.equal(only([{ op: 10n }]).code, "plan-not-json");
  const polluted = JSON.parse('[{"op": "locate", "params": {"__proto__": {"locator": {"file": "a.py"}}}}]');
  assert.deepEqual(only(polluted), {
    code: "forbidden-key",
    severity: "error",
    message: `The plan contains the key "__proto__" at [0,"params"]: it is not allowed in a plan`,
    path: [0, "params", "__proto__"],
  });
  assert.equal(({} as Record<string, unknown>).locator, undefined);
  let deep: Record<string, unknown> = { file: "a.py", kind: "function" };
  for (let i = 0; i < 10_000; i++) deep = { file: "a.py", kind: "class", parent: deep };
  assert.equal(only([{ op: "locate", params: { locator: deep } }]).code, "plan-too-deep");
  assert.equal(
    only([{ op: "insert_code", params: { file: "a.py", anchor_line: NaN, position: "after", code: "x" } }])
      .message,
    "Step 0: Parameter 'anchor_line' of insert_code must be a number, got NaN",
  );
  assert.equal(
    only([{
      op: "insert_code",
      params: { file: "a.py", anchor_line: Infinity, position: "after", code: "x" },
    }]).code,
    "wrong-type",
  );
  const text = parsePlanText("[{op: replace_code}]");
  assert.equal(text.plan, undefined);
  assert.equal(text.issues[0].code, "json-invalid");
  assert.match(text.issues[0].message, /^The plan is not valid JSON: /);
});

Deno.test("locator files that leave the repository are refused too, parents and targets included", () => {
  const errors = errorsOf([
    { op: "replace_node", params: { locator: { file: "/etc/passwd", kind: "function" }, replacement: "x" } },
    {
      op: "locate",
      params: { locator: { file: "a.py", kind: "function", parent: { file: "../x.py", kind: "class" } } },
    },
    {
      template: "guard_clause",
      params: {
        target: { file: "../../etc/passwd", kind: "function" },
        condition: "x",
        guard_body: "return",
      },
    },
    { fragment: { kind: "pass_statement" }, action: "replace", target: { file: "/root/a.py" } },
  ]);
  assert.deepEqual(errors.map((issue) => [issue.code, issue.path]), [
    ["path-outside-repo", [0, "params", "locator", "file"]],
    ["path-outside-repo", [1, "params", "locator", "parent", "file"]],
    ["path-outside-repo", [2, "params", "target", "file"]],
    ["path-outside-repo", [3, "target", "file"]],
  ]);
  assert.equal(
    errors[0].message,
    `Step 0: Locator file "/etc/passwd" must be relative to the repository root, not absolute`,
  );
});
