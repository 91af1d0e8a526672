import assert from "node:assert/strict";
import {
  checkParamNames,
  expressionType,
  validateParam,
  validateParams,
} from "../../../engine/edit/params.ts";
import type { ParamKind } from "../../../engine/edit/catalog_types.ts";
import type { LanguageId } from "../../../engine/parse/mod.ts";

async function ok(kind: ParamKind, value: unknown, language: LanguageId = "python") {
  const issues = await validateParam(kind, value, { language, name: "p" });
  assert.deepEqual(issues, [], `${kind} ${JSON.stringify(value)} (${language}) should be valid`);
}

async function bad(kind: ParamKind, value: unknown, language: LanguageId = "python", pattern?: RegExp) {
  const issues = await validateParam(kind, value, { language, name: "p" });
  assert.ok(issues.length > 0, `${kind} ${JSON.stringify(value)} (${language}) should be rejected`);
  for (const issue of issues) {
    assert.equal(issue.severity, "error");
    if (kind !== "locator") {
      assert.equal(issue.code, "param-invalid");
      assert.deepEqual(issue.path, ["params", "p"]);
      assert.match(issue.message, /Parameter "p"/);
    }
  }
  if (pattern) assert.match(issues[0].message, pattern);
  return issues;
}

Deno.test("expression: one Python expression in any shape, nothing else", async () => {
  for (
    const value of [
      "x",
      "self.adapters.get(prefix)",
      "a + b * c",
      "a, b",
      "x for x in items",
      "lambda r: r.status_code",
      "value if value is not None else default",
      "{**session_setting}",
      "f(\n    a,\n    b,\n)",
      "await fetch(url)",
      "x  # why",
      "not (a and b)",
      "(yield)",
    ]
  ) await ok("expression", value);
  await bad("expression", "return x", "python", /must be an expression, got a statement: "return x"/);
  await bad("expression", "x = 1", "python", /got a statement/);
  await bad("expression", "a) + (b");
  await bad("expression", "a b");
  await bad("expression", "");
  await bad("expression", "import os", "python", /statement/);
  await bad("expression", "x\ny");
  await bad("expression", 42, "python", /must be a string, got number 42/);
});

Deno.test("expression: JavaScript and TypeScript", async () => {
  for (const value of ["a ?? b", "x => x * 2", "{ a: 1 }", "await fetch(url)", "`${a}b`", "a, b"]) {
    await ok("expression", value, "javascript");
  }
  await ok("expression", "value as string", "typescript");
  await ok("expression", "items!.length", "typescript");
  await bad("expression", "return x;", "javascript", /got a statement/);
  await bad("expression", "const y = 1", "javascript", /got a statement/);
  await bad("expression", "a); (b", "javascript");
  await bad("expression", "value as string", "javascript");
});

Deno.test("expressionType: reports the node type of the single expression", async () => {
  assert.equal(await expressionType("a + b", "python"), "binary_operator");
  assert.equal(await expressionType("a, b", "python"), "tuple");
  assert.equal(await expressionType("x for x in y", "python"), "generator_expression");
  assert.equal(await expressionType("a ? b : c", "typescript"), "ternary_expression");
  assert.equal(await expressionType("pass", "python"), undefined);
});

Deno.test("condition is an expression in its role", async () => {
  await ok("condition", "response.status_code >= 400 and not allow_redirects");
  await bad("condition", "if x:", "python", /must be a condition/);
  await ok("condition", "res.status >= 500 && retries > 0", "typescript");
});

Deno.test("identifier: valid names, reserved words named as such", async () => {
  await ok("identifier", "dict_class");
  await ok("identifier", "_private2");
  await ok("identifier", "$el", "javascript");
  await bad("identifier", "class", "python", /reserved word "class"/);
  await bad("identifier", "None", "python", /reserved word/);
  await bad("identifier", "2fast");
  await bad("identifier", "a.b");
  await bad("identifier", "function", "javascript", /reserved word/);
  await bad("identifier", "a-b", "typescript");
});

Deno.test("statements: a parseable block (return and await allowed), indented or not", async () => {
  await ok("statements", "return None");
  await ok("statements", "log.warning('x')\nraise");
  await ok("statements", "    if x:\n        return 1\n    return 2");
  await ok("statements", "result = await fetch(url)\nyield result");
  await bad("statements", "if x:\nreturn 1", "python", /must be statements/);
  await bad("statements", "   ");
  await bad("statements", "def f(:");
  await ok("statements", "return null;", "javascript");
  await ok("statements", "console.error(err);\nthrow err;", "typescript");
  await bad("statements", "if (x) {", "javascript");
});

Deno.test("type_annotation: a type in its role; JavaScript has none", async () => {
  await ok("type_annotation", "int");
  await ok("type_annotation", "Optional[Mapping[str, Any]]");
  await ok("type_annotation", '"Session"');
  await ok("type_annotation", "Record<string, number> | undefined", "typescript");
  await bad("type_annotation", "int = 3");
  await bad("type_annotation", "x: int");
  await bad("type_annotation", "number", "javascript", /JavaScript has no type annotations/);
  await bad("type_annotation", "string =", "typescript");
});

Deno.test("import_statement: exactly one import", async () => {
  await ok("import_statement", "from urllib.parse import urljoin");
  await ok("import_statement", "import os.path as osp");
  await ok("import_statement", "from __future__ import annotations");
  await ok("import_statement", 'import { join } from "node:path";', "typescript");
  await bad("import_statement", "import os\nimport sys", "python", /exactly one import statement/);
  await bad("import_statement", "os.path");
  await bad("import_statement", "from x import", "python");
  await bad("import_statement", 'const fs = require("fs");', "javascript");
});

Deno.test("decorator: an expression after @, with or without the @", async () => {
  await ok("decorator", "functools.lru_cache(maxsize=128)");
  await ok("decorator", "@property");
  await ok("decorator", "pytest.mark.parametrize('a', [1, 2])");
  await bad("decorator", "def f(): pass");
  await bad("decorator", "a b");
  await bad("decorator", "x\n@y");
});

Deno.test("position, boolean, string, names, parameters", async () => {
  await ok("position", "end");
  await ok("position", "start");
  await ok("position", "after:timeout");
  await bad("position", "after:", "python", /"end", "start" or "after:NAME"/);
  await bad("position", "middle");
  await ok("boolean", true);
  await bad("boolean", "true", "python", /true or false/);
  await ok("string", "anything at all");
  await bad("string", null, "python", /must be a string, got null/);
  await ok("names", ["a", "b"]);
  await ok("names", "a, b");
  await bad("names", ["a", "not valid"]);
  await bad("names", []);
  await ok("parameters", "self, a, b=1, *args, c, **kw");
  await ok("parameters", "a: number, b = 2, ...rest: string[]", "typescript");
  await bad("parameters", "a, , b");
});

Deno.test("locator: shape problems come from the locator parser with their path", async () => {
  await ok("locator", { file: "app/session.py", kind: "function", name: "retry_delay" });
  const issues = await bad("locator", { kind: "function", nme: "f" });
  assert.ok(issues.every((issue) => issue.code === "locator-invalid"));
  assert.ok(issues.some((issue) => issue.path?.join(".") === "params.p.nme"));
  assert.ok(issues.some((issue) => /missing "file"/.test(issue.message)));
  await bad("locator", "app/session.py:12");
});

Deno.test("checkParamNames and validateParams: unknown, missing, then each value", async () => {
  const specs = [
    { name: "target", kind: "locator" as const, required: true, description: "the node" },
    { name: "name", kind: "identifier" as const, required: true, description: "the name" },
    { name: "default", kind: "expression" as const, required: false, description: "the default" },
  ];
  const names = checkParamNames(specs, { target: { file: "a.py" }, defualt: "1" });
  assert.deepEqual(names.map((issue) => issue.code), ["param-unknown", "param-missing"]);
  assert.match(names[0].message, /Unknown parameter "defualt"/);
  assert.match(names[0].hint!, /target, name, default/);
  assert.match(names[1].message, /Missing parameter "name" \(identifier\)/);
  const issues = await validateParams(
    specs,
    { target: { file: "a.py" }, name: "for", default: "x = 1" },
    "python",
  );
  assert.deepEqual(issues.map((issue) => issue.path), [["params", "name"], ["params", "default"]]);
  assert.deepEqual(
    await validateParams(specs, { target: { file: "a.py" }, name: "n", default: "1" }, "python"),
    [],
  );
});
