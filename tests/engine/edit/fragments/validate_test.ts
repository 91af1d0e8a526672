import assert from "node:assert/strict";
import {
  checkFragment,
  type Fragment,
  serializeFragment,
  validateFragment,
} from "../../../../engine/edit/fragments/mod.ts";
import type { Issue } from "../../../../engine/base/issue.ts";

/** `[code, path]` of each issue, in order. */
function problems(issues: Issue[]): [string, (string | number)[] | undefined][] {
  return issues.map((issue) => [issue.code, issue.path]);
}

/** The one issue with `code`. */
function only(issues: Issue[], code: string): Issue {
  const found = issues.filter((issue) => issue.code === code);
  assert.equal(found.length, 1, `one "${code}" in ${JSON.stringify(issues, null, 1)}`);
  return found[0];
}

const IF_FRAGMENT: Fragment = {
  kind: "if_statement",
  properties: { condition: "value is None" },
  children: [
    { kind: "return_statement", properties: { value: "default" } },
    { kind: "elif_clause", properties: { condition: "value < 0" }, children: [{ kind: "pass_statement" }] },
    { kind: "else_clause", children: [{ kind: "break_statement" }] },
  ],
};

Deno.test("a valid fragment has no problems, structurally and in its source text", async () => {
  assert.deepEqual(validateFragment(IF_FRAGMENT), []);
  assert.deepEqual(await checkFragment(IF_FRAGMENT), []);
});

Deno.test("not an object, unknown fields, wrong container types: fragment-invalid", () => {
  assert.deepEqual(problems(validateFragment("if x: pass")), [["fragment-invalid", ["fragment"]]]);
  assert.deepEqual(problems(validateFragment([IF_FRAGMENT])), [["fragment-invalid", ["fragment"]]]);
  const stray = validateFragment({ kind: "pass_statement", property: {} });
  assert.deepEqual(problems(stray), [["fragment-invalid", ["fragment", "property"]]]);
  assert.match(stray[0].hint ?? "", /"properties"/);
  assert.deepEqual(
    problems(validateFragment({ kind: "return_statement", properties: "x" })),
    [["fragment-invalid", ["fragment", "properties"]]],
  );
  assert.deepEqual(
    problems(validateFragment({ kind: "while_statement", properties: { condition: "x" }, children: {} })),
    [["fragment-invalid", ["fragment", "children"]]],
  );
});

Deno.test("a missing kind and an unknown kind, with the closest kind suggested", () => {
  assert.deepEqual(problems(validateFragment({ properties: {} })), [["fragment-missing-kind", [
    "fragment",
    "kind",
  ]]]);
  const misspelt = only(validateFragment({ kind: "if_statment" }), "fragment-unknown-kind");
  assert.deepEqual(misspelt.path, ["fragment", "kind"]);
  assert.equal(misspelt.message, 'Unknown fragment kind "if_statment"');
  assert.match(misspelt.hint ?? "", /"if_statement"/);
  assert.match(
    only(validateFragment({ kind: "if_stmt" }), "fragment-unknown-kind").hint ?? "",
    /"if_statement"/,
  );
  assert.match(
    only(validateFragment({ kind: "function" }), "fragment-unknown-kind").hint ?? "",
    /"function_definition"/,
  );
  assert.match(
    only(validateFragment({ kind: "def" }), "fragment-unknown-kind").hint ?? "",
    /"function_definition"/,
  );
});

Deno.test("unknown properties are errors with the closest property suggested", () => {
  const issues = validateFragment({
    kind: "for_statement",
    properties: { target: "x", iterable: "xs", iterabel: "ys", color: "red" },
  });
  assert.deepEqual(problems(issues), [
    ["fragment-unknown-property", ["fragment", "properties", "iterabel"]],
    ["fragment-unknown-property", ["fragment", "properties", "color"]],
  ]);
  assert.match(issues[0].hint ?? "", /"iterable"/);
  assert.match(issues[1].hint ?? "", /"target", "iterable", "async"/);
  const leaf = only(
    validateFragment({ kind: "pass_statement", properties: { value: "1" } }),
    "fragment-unknown-property",
  );
  assert.match(leaf.hint ?? "", /takes none/);
});

Deno.test("missing required properties, each with its path; null counts as missing", () => {
  const issues = validateFragment({ kind: "function_definition", properties: { parameters: null } });
  assert.deepEqual(problems(issues), [
    ["fragment-missing-property", ["fragment", "properties", "name"]],
    ["fragment-missing-property", ["fragment", "properties", "parameters"]],
  ]);
  assert.equal(issues[0].message, '"function_definition" needs the property "name"');
  // Optional properties may be null.
  assert.deepEqual(validateFragment({ kind: "return_statement", properties: { value: null } }), []);
});

Deno.test("an assignment needs a value unless it is an annotated declaration, which serializes without one", () => {
  assert.deepEqual(problems(validateFragment({ kind: "assignment", properties: { target: "x" } })), [
    ["fragment-missing-property", ["fragment", "properties", "value"]],
  ]);
  const declaration = { kind: "assignment", properties: { target: "orig_stream", annotation: "TextIO" } };
  assert.deepEqual(validateFragment(declaration), []);
  assert.equal(serializeFragment(declaration, { indent: "    " }), "    orig_stream: TextIO");
});

Deno.test("properties of the wrong JSON type: fragment-property-type", () => {
  const issues = validateFragment({
    kind: "function_definition",
    properties: { name: "f", parameters: 3, async: "yes", decorators: "property", docstring: ["a"] },
  });
  assert.deepEqual(problems(issues), [
    ["fragment-property-type", ["fragment", "properties", "parameters"]],
    ["fragment-property-type", ["fragment", "properties", "async"]],
    ["fragment-property-type", ["fragment", "properties", "decorators"]],
    ["fragment-property-type", ["fragment", "properties", "docstring"]],
  ]);
  assert.deepEqual(
    problems(validateFragment({ kind: "with_statement", properties: { items: [] } })),
    [["fragment-property-type", ["fragment", "properties", "items"]]],
  );
  assert.deepEqual(
    problems(validateFragment({ kind: "with_statement", properties: { items: [{ expr: "x" }] } })),
    [
      ["fragment-unknown-property", ["fragment", "properties", "items", 0, "expr"]],
      ["fragment-missing-property", ["fragment", "properties", "items", 0, "expression"]],
    ],
  );
});

Deno.test("names, modules, operators and imported names are checked", () => {
  const issues = [
    ...validateFragment({ kind: "class_definition", properties: { name: "class" } }),
    ...validateFragment({ kind: "import_statement", properties: { module: "os..path" } }),
    ...validateFragment({ kind: "import_from_statement", properties: { module: "...", names: ["*", "x"] } }),
    ...validateFragment({
      kind: "augmented_assignment",
      properties: { target: "n", operator: "=+", value: "1" },
    }),
    ...validateFragment({ kind: "except_clause", properties: { exception: "E", as: "not valid" } }),
  ];
  assert.deepEqual(problems(issues), [
    ["param-invalid", ["fragment", "properties", "name"]],
    ["param-invalid", ["fragment", "properties", "module"]],
    ["param-invalid", ["fragment", "properties", "names", 0]],
    ["param-invalid", ["fragment", "properties", "operator"]],
    ["param-invalid", ["fragment", "properties", "as"]],
  ]);
  // `+` is accepted for `+=`, a relative module and `*` alone too.
  assert.deepEqual(
    validateFragment({
      kind: "augmented_assignment",
      properties: { target: "n", operator: "+", value: "1" },
    }),
    [],
  );
  assert.deepEqual(
    validateFragment({ kind: "import_from_statement", properties: { module: ".", names: ["*"] } }),
    [],
  );
});

Deno.test("a leaf with children: fragment-leaf-children", () => {
  const issues = validateFragment({
    kind: "return_statement",
    properties: { value: "x" },
    children: [{ kind: "pass_statement" }],
  });
  assert.deepEqual(problems(issues), [["fragment-leaf-children", ["fragment", "children"]]]);
  // An empty list is no children.
  assert.deepEqual(validateFragment({ kind: "pass_statement", children: [] }), []);
});

Deno.test("children a kind does not allow: fragment-child-not-allowed", () => {
  const issues = validateFragment({
    kind: "for_statement",
    properties: { target: "x", iterable: "xs" },
    children: [{ kind: "pass_statement" }, { kind: "elif_clause", properties: { condition: "y" } }],
  });
  assert.deepEqual(problems(issues), [["fragment-child-not-allowed", ["fragment", "children", 1, "kind"]]]);
  assert.match(issues[0].hint ?? "", /"else_clause"/);
  const inBody = validateFragment({
    kind: "function_definition",
    properties: { name: "f", parameters: "" },
    children: [{ kind: "finally_clause" }],
  });
  assert.deepEqual(problems(inBody), [["fragment-child-not-allowed", ["fragment", "children", 0, "kind"]]]);
});

Deno.test("ordering: body before clauses, elif before else, else and finally last and once", () => {
  const issues = validateFragment({
    kind: "if_statement",
    properties: { condition: "a" },
    children: [
      { kind: "else_clause" },
      { kind: "elif_clause", properties: { condition: "b" } },
      { kind: "pass_statement" },
      { kind: "else_clause" },
    ],
  });
  assert.deepEqual(problems(issues), [
    ["fragment-child-order", ["fragment", "children", 1]],
    ["fragment-child-order", ["fragment", "children", 2]],
    ["fragment-child-order", ["fragment", "children", 3]],
  ]);
  assert.equal(issues[0].message, '"elif_clause" cannot follow "else_clause" in "if_statement"');
  assert.equal(issues[2].message, '"if_statement" takes at most one "else_clause"');
  const tryIssues = validateFragment({
    kind: "try_statement",
    children: [{ kind: "pass_statement" }, { kind: "finally_clause" }, { kind: "except_clause" }],
  });
  assert.deepEqual(problems(tryIssues), [["fragment-child-order", ["fragment", "children", 2]]]);
});

Deno.test("a try needs an except or a finally, and an else needs an except", () => {
  assert.deepEqual(problems(validateFragment({ kind: "try_statement" })), [
    ["fragment-try-handlers", ["fragment", "children"]],
  ]);
  assert.deepEqual(
    problems(
      validateFragment({
        kind: "try_statement",
        children: [{ kind: "else_clause" }, { kind: "finally_clause" }],
      }),
    ),
    [["fragment-try-handlers", ["fragment", "children"]]],
  );
  assert.deepEqual(validateFragment({ kind: "try_statement", children: [{ kind: "finally_clause" }] }), []);
});

Deno.test("properties that need another: fragment-property-conflict", () => {
  assert.deepEqual(problems(validateFragment({ kind: "raise_statement", properties: { cause: "e" } })), [
    ["fragment-property-conflict", ["fragment", "properties", "cause"]],
  ]);
  assert.deepEqual(problems(validateFragment({ kind: "except_clause", properties: { as: "e" } })), [
    ["fragment-property-conflict", ["fragment", "properties", "as"]],
  ]);
});

Deno.test("source text is parsed in its grammatical role, the error at the property's path", async () => {
  const fragment = {
    kind: "if_statement",
    properties: { condition: "ok" },
    children: [
      { kind: "pass_statement" },
      { kind: "elif_clause", properties: { condition: "ok" } },
      { kind: "elif_clause", properties: { condition: "x = 1" } },
    ],
  };
  const issues = await checkFragment(fragment);
  assert.deepEqual(problems(issues), [["param-invalid", [
    "fragment",
    "children",
    2,
    "properties",
    "condition",
  ]]]);
  assert.match(issues[0].message, /"condition"/);

  const roles = await checkFragment({
    kind: "function_definition",
    properties: { name: "f", parameters: "self,, x", return_type: "return x", decorators: ["@"] },
    children: [
      { kind: "assignment", properties: { target: "f()", value: "1" } },
      { kind: "for_statement", properties: { target: "a, b", iterable: "import os" } },
      { kind: "with_statement", properties: { items: [{ expression: "open(p)", as: "1" }] } },
      { kind: "class_definition", properties: { name: "C", bases: ["Base", "x ="] } },
    ],
  });
  assert.deepEqual(problems(roles), [
    ["param-invalid", ["fragment", "properties", "parameters"]],
    ["param-invalid", ["fragment", "properties", "return_type"]],
    ["param-invalid", ["fragment", "properties", "decorators", 0]],
    ["param-invalid", ["fragment", "children", 0, "properties", "target"]],
    ["param-invalid", ["fragment", "children", 1, "properties", "iterable"]],
    ["param-invalid", ["fragment", "children", 2, "properties", "items", 0, "as"]],
    ["param-invalid", ["fragment", "children", 3, "properties", "bases", 1]],
  ]);
});

Deno.test("every problem is collected in one pass, structural ones first", async () => {
  const issues = await checkFragment({
    kind: "try_statement",
    children: [
      { kind: "if_statement", properties: { condition: "x = 1", colour: 1 } },
      { kind: "returnn" },
      { kind: "else_clause" },
    ],
  });
  assert.deepEqual(problems(issues), [
    ["fragment-unknown-property", ["fragment", "children", 0, "properties", "colour"]],
    ["fragment-unknown-kind", ["fragment", "children", 1, "kind"]],
    ["fragment-try-handlers", ["fragment", "children"]],
    ["param-invalid", ["fragment", "children", 0, "properties", "condition"]],
  ]);
});

Deno.test("text smuggling a second statement out of its property is refused as a whole", async () => {
  const issues = await checkFragment({
    kind: "function_definition",
    properties: { name: "f", parameters: "x):\n    pass\ndef g(" },
  });
  assert.deepEqual(problems(issues), [["fragment-syntax", ["fragment"]]]);
  assert.match(issues[0].message, /2 statements instead of one/);
});
