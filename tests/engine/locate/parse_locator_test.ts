/**
 * Locator shape validation: every problem is a `locator-invalid` issue with
 * its JSON path, all collected; the zod schema agrees on what is valid.
 */

import assert from "node:assert/strict";
import * as z from "zod";
import { type Issue, IssueError } from "../../../engine/base/issue.ts";
import { describeLocator, parseLocator } from "../../../engine/locate/mod.ts";
import { LOCATOR_SCHEMA, PARENT_LOCATOR_SCHEMA } from "../../../engine/locate/schema.ts";

function issues(value: unknown, path: (string | number)[] = [], requireFile = true): Issue[] {
  try {
    parseLocator(value, path, { requireFile });
  } catch (err) {
    if (err instanceof IssueError) return err.issues;
    throw err;
  }
  return [];
}

Deno.test("valid locators pass through unchanged", () => {
  const structured = {
    file: "src/a.py",
    kind: "method",
    name: "defer",
    parent: { kind: "class", name: "QuerySet", index: 0 },
    field: "body",
    nth_child: -1,
    index: 0,
  };
  assert.deepEqual(parseLocator(structured), structured);
  const sexp = { type: "sexp", file: "a.py", query: '(identifier) @id (#eq? @id "x")', capture: "id" };
  assert.deepEqual(parseLocator(sexp), sexp);
  // A leading "@" on the capture is accepted.
  assert.equal((parseLocator({ ...sexp, capture: "@id" }) as { capture: string }).capture, "id");
  assert.deepEqual(parseLocator({ file: "a.py" }), { file: "a.py" });
});

Deno.test("not an object", () => {
  for (const value of [null, [], "a.py", 3, undefined]) {
    const [issue] = issues(value, ["params", "locator"]);
    assert.equal(issue.code, "locator-invalid");
    assert.deepEqual(issue.path, ["params", "locator"]);
    assert.match(issue.message, /^Locator must be an object, got /);
  }
});

Deno.test("unknown fields, with a did-you-mean and the structured/sexp mix-ups", () => {
  let [issue] = issues({ file: "a.py", kind: "function", nme: "f" });
  assert.equal(issue.message, 'Unknown locator field "nme"');
  assert.deepEqual(issue.path, ["nme"]);
  assert.match(issue.hint!, /did you mean "name"\?/);
  [issue] = issues({ file: "a.py", query: "(call) @c" });
  assert.equal(issue.hint, '"query" needs "type": "sexp"');
  [issue] = issues({ type: "sexp", file: "a.py", query: "(call) @c", name: "f" });
  assert.match(issue.hint!, /"name" belongs to structured locators/);
  [issue] = issues({ type: "regex", file: "a.py" });
  assert.deepEqual(issue.path, ["type"]);
  assert.match(issue.message, /must be "sexp" or absent, got "regex"/);
});

Deno.test("wrong types are all reported, each with its path", () => {
  const found = issues({ file: "a.py", kind: 3, name: "", index: "1", nth_child: 1.5, field: null }, [
    2,
    "params",
    "locator",
  ]);
  assert.deepEqual(found.map((i) => i.path), [
    [2, "params", "locator", "kind"],
    [2, "params", "locator", "name"],
    [2, "params", "locator", "field"],
    [2, "params", "locator", "nth_child"],
    [2, "params", "locator", "index"],
  ]);
  assert.ok(found.every((i) => i.code === "locator-invalid" && i.severity === "error"));
  assert.equal(found[4].message, 'Locator field "index" must be an integer, got "1"');
  assert.equal(found[0].message, 'Locator field "kind" must be a non-empty string, got 3');
});

Deno.test("file: required at the top, inherited by parents", () => {
  let [issue] = issues({ kind: "class" }, ["target"]);
  assert.equal(issue.message, 'Locator is missing "file"');
  assert.deepEqual(issue.path, ["target", "file"]);
  assert.deepEqual(issues({ kind: "class" }, [], false), []);
  assert.deepEqual(issues({ file: "a.py", kind: "method", parent: { kind: "class" } }), []);
  [issue] = issues({ file: "a.py", parent: { parent: { kind: "x", index: -0.5 } } }, ["l"]);
  assert.deepEqual(issue.path, ["l", "parent", "parent", "index"]);
  [issue] = issues({ type: "sexp", file: "a.py" });
  assert.equal(issue.message, 'Locator is missing "query"');
});

Deno.test("describeLocator reads like the messages", () => {
  assert.equal(
    describeLocator(
      parseLocator({ file: "a.py", kind: "method", name: "f", parent: { kind: "class", name: "A" } }),
    ),
    'method "f" inside class "A"',
  );
  assert.equal(describeLocator(parseLocator({ file: "a.py", name: "f", index: -1 })), 'symbol "f", index -1');
  assert.equal(
    describeLocator(parseLocator({ type: "sexp", file: "a.py", query: "(call) @c", field: "arguments" })),
    'query "(call) @c", field "arguments"',
  );
});

Deno.test("LOCATOR_SCHEMA accepts and rejects what parseLocator does", () => {
  const cases: unknown[] = [
    { file: "a.py", kind: "function", name: "f" },
    { file: "a.py", kind: "method", parent: { kind: "class", name: "A", parent: { kind: "module" } } },
    { file: "a.py", kind: "class", field: "body", nth_child: -1, index: 0 },
    { type: "sexp", file: "a.py", query: "(call) @c", capture: "c", index: 2 },
    {
      type: "sexp",
      file: "a.py",
      query: "(call) @c",
      parent: { type: "sexp", query: "(class_definition) @k" },
    },
    { file: "a.py" },
    { kind: "function" },
    { file: "a.py", kind: "function", nme: "f" },
    { file: "a.py", index: "1" },
    { file: "a.py", nth_child: 0.5 },
    { file: "a.py", query: "(call) @c" },
    { type: "sexp", file: "a.py" },
    { type: "sexp", file: "a.py", query: "(call) @c", kind: "call" },
    { type: "other", file: "a.py" },
    { file: "a.py", parent: { file: 3 } },
    { file: "a.py", parent: "class A" },
    { file: "", kind: "class" },
    [],
    null,
  ];
  for (const value of cases) {
    const ours = issues(value).length === 0;
    const zod = LOCATOR_SCHEMA.safeParse(value).success;
    assert.equal(zod, ours, `disagree on ${JSON.stringify(value)}: parseLocator ${ours}, zod ${zod}`);
  }
  assert.ok(PARENT_LOCATOR_SCHEMA.safeParse({ kind: "class" }).success);
});

Deno.test("LOCATOR_SCHEMA converts to JSON Schema (recursive parent included)", () => {
  const schema = z.toJSONSchema(LOCATOR_SCHEMA, { unrepresentable: "any" });
  const text = JSON.stringify(schema);
  assert.match(text, /"sexp"/);
  assert.match(text, /nth_child/);
  assert.match(text, /"\$ref"/);
});
