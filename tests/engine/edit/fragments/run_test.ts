import assert from "node:assert/strict";
import { FRAGMENT_ACTIONS, runFragment } from "../../../../engine/edit/fragments/mod.ts";
import { IssueError } from "../../../../engine/base/issue.ts";
import { assertPythonParses, PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { changedLines, contextWith, CORPUS_SKIP, corpusFile, textOf } from "../_edit_support.ts";

const INSTANCE = "pallets__flask-4992";
const PATH = "src/flask/config.py";

/** A step context over the corpus file, and the file's text. */
async function flask() {
  const before = await corpusFile(INSTANCE, PATH);
  const { ctx } = await contextWith({ [PATH]: before });
  return { ctx, before };
}

/** The issue codes of a failing step. */
async function codesOf(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof IssueError) return err.issues.map((issue) => issue.code);
    throw err;
  }
  assert.fail("the step should have failed");
}

const method = (name: string, cls: string) => ({
  file: PATH,
  kind: "method",
  name,
  parent: { kind: "class", name: cls },
});

Deno.test({
  name: "replace: a return statement in a method, at its indentation (corpus)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { ctx, before } = await flask();
    const out = await runFragment({
      fragment: { kind: "return_statement", properties: { value: "rv if rv is not None else self" } },
      action: "replace",
      target: { file: PATH, kind: "return", parent: method("__get__", "ConfigAttribute"), index: -1 },
    }, ctx);
    const after = await textOf(ctx, PATH);
    const diff = changedLines(before, after);
    assert.equal(diff.removed, "");
    assert.equal(diff.added, " if rv is not None else self");
    assert.match(after, /\n {8}return rv if rv is not None else self\n/);
    assert.equal((out as { kind: string }).kind, "return_statement");
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "insert_before: an if statement before a loop, body one level deeper (corpus)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { ctx, before } = await flask();
    await runFragment({
      fragment: {
        kind: "if_statement",
        properties: { condition: "not mappings" },
        children: [{ kind: "return_statement", properties: { value: "True" } }],
      },
      action: "insert_before",
      target: { file: PATH, kind: "for", parent: method("from_mapping", "Config") },
    }, ctx);
    const after = await textOf(ctx, PATH);
    assert.ok(
      after.includes(
        "        mappings.update(kwargs)\n        if not mappings:\n            return True\n        for key, value in mappings.items():\n",
      ),
      changedLines(before, after).added,
    );
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "insert_after: a method after a method, with the class's blank line and a docstring (corpus)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { ctx } = await flask();
    await runFragment({
      fragment: {
        kind: "function_definition",
        properties: {
          name: "__delete__",
          parameters: "self, obj: t.Any",
          return_type: "None",
          docstring: 'Refuse to delete the "config" attribute.',
        },
        children: [{ kind: "raise_statement", properties: { exception: "AttributeError(self.__name__)" } }],
      },
      action: "insert_after",
      target: method("__set__", "ConfigAttribute"),
    }, ctx);
    const after = await textOf(ctx, PATH);
    assert.ok(
      after.includes(
        [
          "        obj.config[self.__name__] = value",
          "",
          "    def __delete__(self, obj: t.Any) -> None:",
          '        """Refuse to delete the "config" attribute."""',
          "        raise AttributeError(self.__name__)",
          "",
          "",
          "class Config(dict):",
        ].join("\n"),
      ),
    );
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "append_to_body: a method at the end of a class body (corpus)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { ctx, before } = await flask();
    await runFragment({
      fragment: {
        kind: "function_definition",
        properties: { name: "copy", parameters: "self", return_type: '"Config"' },
        children: [
          { kind: "assignment", properties: { target: "rv", value: "type(self)(self.root_path, self)" } },
          { kind: "return_statement", properties: { value: "rv" } },
        ],
      },
      action: "append_to_body",
      target: { file: PATH, kind: "class", name: "Config" },
    }, ctx);
    const after = await textOf(ctx, PATH);
    assert.ok(
      after.endsWith(
        '        return f"<{type(self).__name__} {dict.__repr__(self)}>"\n\n    def copy(self) -> "Config":\n        rv = type(self)(self.root_path, self)\n        return rv\n',
      ),
      changedLines(before, after).added,
    );
    assert.ok(after.indexOf("def copy") > after.indexOf("def __repr__"));
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "prepend_to_body: the first statement after a method's docstring (corpus)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { ctx } = await flask();
    await runFragment({
      fragment: {
        kind: "assert_statement",
        properties: { condition: "mapping is None or hasattr(mapping, 'items')", message: '"not a mapping"' },
      },
      action: "prepend_to_body",
      target: method("from_mapping", "Config"),
    }, ctx);
    const after = await textOf(ctx, PATH);
    assert.ok(
      after.includes(
        `        .. versionadded:: 0.11\n        """\n        assert mapping is None or hasattr(mapping, 'items'), "not a mapping"\n        mappings: t.Dict`,
      ),
    );
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "a clause fragment goes after a clause: a second except handler (corpus)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { ctx } = await flask();
    await runFragment({
      fragment: {
        kind: "except_clause",
        properties: { exception: "ValueError", as: "e" },
        children: [{ kind: "raise_statement", properties: { exception: "TypeError(str(e))", cause: "e" } }],
      },
      action: "insert_after",
      target: { file: PATH, kind: "except_clause", parent: method("from_file", "Config") },
    }, ctx);
    const after = await textOf(ctx, PATH);
    assert.ok(
      after.includes(
        "            raise\n        except ValueError as e:\n            raise TypeError(str(e)) from e\n\n        return self.from_mapping(obj)",
      ),
    );
    await assertPythonParses(after);
  },
});

const SMALL = [
  '"""Module docstring."""',
  "from __future__ import annotations",
  "",
  "",
  "@register",
  "def handler(event):",
  "    pass",
  "",
  "",
  "class Empty:",
  '    """Nothing yet."""',
  "",
].join("\n");

Deno.test("append_to_body replaces a lone pass; prepend_to_body in a module goes after the docstring and __future__", async () => {
  const { ctx } = await contextWith({ "app.py": SMALL });
  await runFragment({
    fragment: { kind: "expression_statement", properties: { expression: "print(event)" } },
    action: "append_to_body",
    target: { file: "app.py", kind: "function", name: "handler" },
  }, ctx);
  await runFragment({
    fragment: { kind: "import_statement", properties: { module: "logging" } },
    action: "prepend_to_body",
    target: { file: "app.py", kind: "module" },
  }, ctx);
  await runFragment({
    fragment: { kind: "assignment", properties: { target: "count", annotation: "int", value: "0" } },
    action: "append_to_body",
    target: { file: "app.py", kind: "class", name: "Empty" },
  }, ctx);
  const after = await textOf(ctx, "app.py");
  assert.equal(
    after,
    [
      '"""Module docstring."""',
      "from __future__ import annotations",
      "import logging",
      "",
      "",
      "@register",
      "def handler(event):",
      "    print(event)",
      "",
      "",
      "class Empty:",
      '    """Nothing yet."""',
      "    count: int = 0",
      "",
    ].join("\n"),
  );
  await assertPythonParses(after);
});

Deno.test("replace keeps a definition's decorators unless the fragment has its own", async () => {
  const fragment = (decorators?: string[]) => ({
    kind: "function_definition",
    properties: { name: "handler", parameters: "event, context=None", ...(decorators ? { decorators } : {}) },
    children: [{ kind: "return_statement", properties: { value: "event" } }],
  });
  const target = { file: "app.py", kind: "function", name: "handler" };
  const kept = await contextWith({ "app.py": SMALL });
  await runFragment({ fragment: fragment(), action: "replace", target }, kept.ctx);
  assert.ok(
    (await textOf(kept.ctx, "app.py")).includes(
      "@register\ndef handler(event, context=None):\n    return event\n",
    ),
  );
  const replaced = await contextWith({ "app.py": SMALL });
  await runFragment({ fragment: fragment(["route('/x')"]), action: "replace", target }, replaced.ctx);
  const after = await textOf(replaced.ctx, "app.py");
  assert.ok(after.includes("\n@route('/x')\ndef handler(event, context=None):\n"));
  assert.ok(!after.includes("@register"));
});

Deno.test("tabs and CRLF: the fragment uses the file's indentation unit and line ending", async () => {
  const source = "class A:\r\n\tdef f(self):\r\n\t\treturn 1\r\n";
  const { ctx } = await contextWith({ "tabs.py": source });
  await runFragment({
    fragment: {
      kind: "for_statement",
      properties: { target: "i", iterable: "range(3)" },
      children: [{ kind: "expression_statement", properties: { expression: "print(i)" } }],
    },
    action: "insert_before",
    target: { file: "tabs.py", kind: "return" },
  }, ctx);
  const after = await textOf(ctx, "tabs.py");
  assert.equal(
    after,
    "class A:\r\n\tdef f(self):\r\n\t\tfor i in range(3):\r\n\t\t\tprint(i)\r\n\t\treturn 1\r\n",
  );
});

Deno.test("refusals: invalid fragment, unknown action, non-statement target, wrong language, clause misuse", async () => {
  const { ctx } = await contextWith({ "app.py": SMALL, "web.js": "export function f() {\n  return 1;\n}\n" });
  const target = { file: "app.py", kind: "function", name: "handler" };
  // Every fragment problem, with paths from the step.
  try {
    await runFragment({
      fragment: { kind: "if_statement", properties: { conditon: "x" } },
      action: "replace",
      target,
    }, ctx);
    assert.fail("should fail");
  } catch (err) {
    assert.ok(err instanceof IssueError);
    assert.deepEqual(err.issues.map((issue) => [issue.code, issue.path]), [
      ["fragment-unknown-property", ["fragment", "properties", "conditon"]],
      ["fragment-missing-property", ["fragment", "properties", "condition"]],
    ]);
  }
  assert.deepEqual(
    await codesOf(runFragment({ fragment: { kind: "pass_statement" }, action: "insert", target }, ctx)),
    ["fragment-action"],
  );
  // Problems of the step are collected together, before the target is looked up.
  try {
    await runFragment({ fragment: { kind: "pass_stmt" }, action: "insert_afterr" }, ctx);
    assert.fail("should fail");
  } catch (err) {
    assert.ok(err instanceof IssueError);
    assert.deepEqual(err.issues.map((issue) => [issue.code, issue.path]), [
      ["fragment-action", ["action"]],
      ["param-missing", ["target"]],
      ["fragment-unknown-kind", ["fragment", "kind"]],
    ]);
    assert.match(err.issues[0].hint ?? "", /"insert_after"/);
    assert.match(err.issues[2].hint ?? "", /"pass_statement"/);
  }
  assert.deepEqual(
    await codesOf(runFragment({
      fragment: { kind: "pass_statement" },
      action: "replace",
      target: { file: "app.py", kind: "identifier", name: "event", index: 0 },
    }, ctx)),
    ["fragment-target"],
  );
  assert.deepEqual(
    await codesOf(runFragment({
      fragment: { kind: "pass_statement" },
      action: "append_to_body",
      target: { file: "web.js", kind: "function", name: "f" },
    }, ctx)),
    ["language-unsupported"],
  );
  assert.deepEqual(
    await codesOf(runFragment({ fragment: { kind: "else_clause" }, action: "insert_after", target }, ctx)),
    ["fragment-target"],
  );
  assert.deepEqual(
    await codesOf(runFragment({
      fragment: { kind: "pass_statement" },
      action: "append_to_body",
      target: { file: "app.py", kind: "decorator", index: 0 },
    }, ctx)),
    ["fragment-target"],
  );
  // One-line bodies: no room for a multi-line fragment.
  const oneLine = await contextWith({ "one.py": "def f(): return 1\n" });
  const ifFragment = {
    kind: "if_statement",
    properties: { condition: "x" },
    children: [{ kind: "return_statement", properties: { value: "2" } }],
  };
  assert.deepEqual(
    await codesOf(runFragment({
      fragment: ifFragment,
      action: "append_to_body",
      target: { file: "one.py", kind: "function", name: "f" },
    }, oneLine.ctx)),
    ["fragment-target"],
  );
  assert.deepEqual(
    await codesOf(runFragment({
      fragment: ifFragment,
      action: "replace",
      target: { file: "one.py", kind: "return" },
    }, oneLine.ctx)),
    ["fragment-target"],
  );
  // A one-line fragment may replace it in place.
  await runFragment({
    fragment: { kind: "return_statement", properties: { value: "2" } },
    action: "replace",
    target: { file: "one.py", kind: "return" },
  }, oneLine.ctx);
  assert.equal(await textOf(oneLine.ctx, "one.py"), "def f(): return 2\n");
  assert.deepEqual(FRAGMENT_ACTIONS, [
    "replace",
    "insert_before",
    "insert_after",
    "append_to_body",
    "prepend_to_body",
  ]);
});

Deno.test({
  name:
    "comment: a comment line goes above a method at its indentation; CPython's ast does not change (corpus)",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const { ctx, before } = await flask();
    await runFragment({
      fragment: { kind: "comment", properties: { text: " Keys are upper case only." } },
      action: "insert_before",
      target: method("from_mapping", "Config"),
    }, ctx);
    const after = await textOf(ctx, PATH);
    assert.match(after, /\n {4}# Keys are upper case only\.\n(\s*\n)* {4}def from_mapping\(/);
    const dumps = await runPythonJson<string[]>(
      "import ast, json, sys\nprint(json.dumps([ast.dump(ast.parse(s)) for s in json.load(sys.stdin)]))",
      [before, after],
    );
    assert.equal(dumps[0], dumps[1]);
  },
});

Deno.test("comment: text with a line break is refused, nothing changes", async () => {
  const source = "def f():\n    return 1\n";
  const { ctx } = await contextWith({ "m.py": source });
  const codes = await codesOf(runFragment({
    fragment: { kind: "comment", properties: { text: " one\nx = 2" } },
    action: "insert_before",
    target: { file: "m.py", kind: "function", name: "f" },
  }, ctx));
  assert.deepEqual(codes, ["param-invalid"]);
  assert.equal(await textOf(ctx, "m.py"), source);
});
