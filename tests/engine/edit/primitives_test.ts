import assert from "node:assert/strict";
import { PRIMITIVES } from "../../../engine/edit/primitives.ts";
import { IssueError } from "../../../engine/base/issue.ts";
import { assertPythonParses, PYTHON_SKIP, runPythonJson } from "../../_support/python.ts";
import { changedLines, contextWith, CORPUS_SKIP, corpusFile, textOf } from "./_edit_support.ts";

const MODELS = "requests/models.py";

async function onModels() {
  const text = await corpusFile("psf__requests-2931", MODELS);
  const { ctx } = await contextWith({ [MODELS]: text });
  return { ctx, text };
}

const method = (name: string, cls: string) => ({
  kind: "method",
  name,
  file: MODELS,
  parent: { kind: "class", name: cls },
});

Deno.test({
  name: "replace_node: a method of requests/models.py, written at column 0, lands at the method's place",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx, text } = await onModels();
    await PRIMITIVES.replace_node({
      locator: method("__repr__", "Response"),
      replacement:
        "def __repr__(self):\n    code = self.status_code\n\n    return '<Response [%s]>' % (code)\n",
    }, ctx);
    const after = await textOf(ctx, MODELS);
    assert.equal(
      after.length - text.length,
      "code = self.status_code\n\n        ".length - "self.status_code".length + 4,
    );
    assert.ok(
      after.includes("    def __repr__(self):\n        code = self.status_code\n\n        return '<Response"),
    );
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "replace_node: decorators stay unless the replacement brings its own",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx } = await onModels();
    await PRIMITIVES.replace_node({
      locator: method("ok", "Response"),
      replacement: "def ok(self):\n        return self.status_code < 400",
    }, ctx);
    let after = await textOf(ctx, MODELS);
    assert.ok(
      after.includes(
        "    @property\n    def ok(self):\n        return self.status_code < 400\n\n    @property",
      ),
    );
    await PRIMITIVES.replace_node({
      locator: method("ok", "Response"),
      replacement: "@cached\ndef ok(self):\n    return True",
    }, ctx);
    after = await textOf(ctx, MODELS);
    assert.ok(
      after.includes(
        "\n    @cached\n    def ok(self):\n        return True\n\n    @property\n    def is_redirect",
      ),
    );
    assert.ok(!after.includes("@property\n    @cached"));
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "replace_node: a function body (field block), first line stripped of its indentation",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx, text } = await onModels();
    await PRIMITIVES.replace_node({
      locator: { ...method("__bool__", "Response"), field: "body" },
      replacement: "if self.status_code is None:\n            return False\n        return self.ok",
    }, ctx);
    const after = await textOf(ctx, MODELS);
    assert.ok(after.includes(
      "    def __bool__(self):\n        if self.status_code is None:\n            return False\n        return self.ok\n\n    def __nonzero__",
    ));
    assert.equal(after.slice(0, 200), text.slice(0, 200));
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "replace_node: several matches without index is locator-ambiguous and edits nothing",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx, text } = await onModels();
    await assert.rejects(
      () =>
        PRIMITIVES.replace_node({
          locator: { kind: "method", name: "__repr__", file: MODELS },
          replacement: "x",
        }, ctx),
      (err: unknown) => err instanceof IssueError && err.issues[0].code === "locator-ambiguous",
    );
    assert.equal(await textOf(ctx, MODELS), text);
  },
});

Deno.test({
  name:
    "insert_after_node: a method after a method gets the file's one blank line; before a decorated one goes above @",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx } = await onModels();
    await PRIMITIVES.insert_after_node({
      locator: method("__repr__", "Response"),
      code: "def __str__(self):\n    return repr(self)\n",
    }, ctx);
    let after = await textOf(ctx, MODELS);
    assert.ok(after.includes(
      "        return '<Response [%s]>' % (self.status_code)\n\n    def __str__(self):\n        return repr(self)\n\n    def __bool__",
    ));
    await PRIMITIVES.insert_before_node({
      locator: method("ok", "Response"),
      code: "    def is_ok(self):\n        return self.ok",
    }, ctx);
    after = await textOf(ctx, MODELS);
    assert.ok(
      after.includes(
        "        return self.iter_content(128)\n\n    def is_ok(self):\n        return self.ok\n\n    @property\n    def ok",
      ),
    );
    await assertPythonParses(after);
  },
});

Deno.test({
  name: "insert_after_node: a statement inside a body, explicit separator for a blank line",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx } = await onModels();
    await PRIMITIVES.insert_after_node({
      locator: { kind: "statement", file: MODELS, parent: method("__repr__", "Response") },
      code: "# unreachable",
      separator: "\n\n",
    }, ctx);
    const after = await textOf(ctx, MODELS);
    assert.ok(
      after.includes(
        "        return '<Response [%s]>' % (self.status_code)\n\n        # unreachable\n\n    def __bool__",
      ),
    );
    await assertPythonParses(after);
  },
});

Deno.test("insert: list elements get commas, inline and one per line", async () => {
  const source = "x = f(a, b)\ny = [\n    1,\n    2,\n]\nz = g(c)\n";
  const { ctx } = await contextWith({ "m.py": source });
  await PRIMITIVES.insert_after_node({
    locator: { type: "sexp", file: "m.py", query: '((identifier) @id (#eq? @id "a"))' },
    code: "a2",
  }, ctx);
  await PRIMITIVES.insert_before_node({
    locator: { type: "sexp", file: "m.py", query: '((identifier) @id (#eq? @id "a"))' },
    code: "a0",
  }, ctx);
  await PRIMITIVES.insert_after_node({
    locator: { type: "sexp", file: "m.py", query: '((identifier) @id (#eq? @id "b"))' },
    code: "b2",
  }, ctx);
  await PRIMITIVES.insert_after_node({
    locator: { type: "sexp", file: "m.py", query: "(list (integer) @n)", index: -1 },
    code: "3,",
  }, ctx);
  await PRIMITIVES.insert_before_node({
    locator: { type: "sexp", file: "m.py", query: "(list (integer) @n)", index: 0 },
    code: "0",
  }, ctx);
  await PRIMITIVES.insert_after_node({
    locator: { type: "sexp", file: "m.py", query: '((identifier) @id (#eq? @id "c"))' },
    code: "d",
    separator: " + ",
  }, ctx);
  assert.equal(
    await textOf(ctx, "m.py"),
    "x = f(a0, a, a2, b, b2)\ny = [\n    0,\n    1,\n    2,\n    3,\n]\nz = g(c + d)\n",
  );
});

Deno.test({
  name:
    "delete_node: a method with its blank lines, an argument, an imported name, the last statement → pass",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx, text } = await onModels();
    await PRIMITIVES.delete_node({ locator: method("__nonzero__", "Response") }, ctx);
    let after = await textOf(ctx, MODELS);
    assert.ok(after.includes("        return self.ok\n\n    def __iter__(self):"));
    assert.equal(changedLines(text, after).added, "");
    await PRIMITIVES.delete_node({
      locator: {
        type: "sexp",
        file: MODELS,
        query: '(import_from_statement name: (dotted_name) @n (#eq? @n "UnsupportedOperation"))',
      },
    }, ctx);
    after = await textOf(ctx, MODELS);
    assert.ok(after.includes("from io import BytesIO\nfrom .hooks import default_hooks\n"));
    await PRIMITIVES.delete_node({
      locator: { kind: "statement", file: MODELS, parent: method("__iter__", "Response"), index: -1 },
    }, ctx);
    after = await textOf(ctx, MODELS);
    assert.ok(
      after.includes(
        '    def __iter__(self):\n        """Allows you to use a response as an iterator."""\n\n    @property',
      ),
    );
    await assertPythonParses(after);
  },
});

Deno.test("delete_node: the only statement of a Python block leaves pass; all: true deletes every match", async () => {
  const source = "def f():\n    return 1\n\n\nprint(1)\nprint(2)\nx = 3\n";
  const { ctx } = await contextWith({ "m.py": source });
  await PRIMITIVES.delete_node({ locator: { kind: "return_statement", file: "m.py" } }, ctx);
  assert.equal(await textOf(ctx, "m.py"), "def f():\n    pass\n\n\nprint(1)\nprint(2)\nx = 3\n");
  const out = await PRIMITIVES.delete_node({
    locator: {
      type: "sexp",
      file: "m.py",
      query: '(expression_statement (call function: (identifier) @f (#eq? @f "print"))) @s',
      capture: "s",
    },
    all: true,
  }, ctx);
  assert.deepEqual((out as { deleted: number }).deleted, 2);
  assert.equal(await textOf(ctx, "m.py"), "def f():\n    pass\n\n\nx = 3\n");
});

Deno.test("wrap_node: try/except around a statement, one level deeper, in a tab-indented CRLF file", async () => {
  const source = "def f(v):\r\n\tx = int(v)\r\n\treturn x\r\n";
  const { ctx } = await contextWith({ "t.py": source });
  await PRIMITIVES.wrap_node({
    locator: { kind: "statement", file: "t.py", index: 0 },
    before: "try:\n    ",
    after: "\nexcept ValueError:\n    x = 0",
  }, ctx);
  const after = await textOf(ctx, "t.py");
  assert.equal(
    after,
    "def f(v):\r\n\ttry:\r\n\t\tx = int(v)\r\n\texcept ValueError:\r\n\t\tx = 0\r\n\treturn x\r\n",
  );
  await assertPythonParses(after);
});

Deno.test({
  name: "wrap_node: a multi-line statement with indent_body, and an inline expression",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx } = await onModels();
    await PRIMITIVES.wrap_node({
      locator: { kind: "statement", file: MODELS, parent: method("is_redirect", "Response"), index: -1 },
      before: "with lock:",
      after: "",
      indent_body: 2,
    }, ctx);
    let after = await textOf(ctx, MODELS);
    assert.ok(
      after.includes(
        "        with lock:\n          return ('location' in self.headers and self.status_code in REDIRECT_STATI)\n",
      ),
    );
    await PRIMITIVES.wrap_node({
      locator: {
        type: "sexp",
        file: MODELS,
        query: "(return_statement (call) @c)",
        parent: method("__iter__", "Response"),
      },
      before: "list(",
      after: ")",
    }, ctx);
    after = await textOf(ctx, MODELS);
    assert.ok(after.includes("        return list(self.iter_content(128))\n"));
    await assertPythonParses(after);
  },
});

Deno.test("replace_all_matching: renames code, skips strings and comments, follows f-string interpolations", async () => {
  const source = [
    "def total(items):",
    '    """Sum of total items."""',
    "    # total so far",
    "    total_ = sum(items)",
    '    print(f"{total(items)} total")',
    "    return total",
    "",
  ].join("\n");
  const { ctx } = await contextWith({ "r.py": source });
  const out = await PRIMITIVES.replace_all_matching({
    locator: { type: "sexp", file: "r.py", query: '((identifier) @id (#eq? @id "total"))' },
    replacement: "grand_total",
    filter: "not_in_string_or_comment",
  }, ctx);
  assert.deepEqual(out, { file: "r.py", replaced: 3 });
  assert.equal(
    await textOf(ctx, "r.py"),
    source.replace("def total", "def grand_total").replace("{total(", "{grand_total(").replace(
      "return total",
      "return grand_total",
    ),
  );
});

Deno.test("replace_all_matching: a replacement that still matches fails the postcondition", async () => {
  const { ctx } = await contextWith({ "r.py": "x = 1\ny = x\n" });
  await assert.rejects(
    () =>
      PRIMITIVES.replace_all_matching({
        locator: { type: "sexp", file: "r.py", query: '((identifier) @id (#eq? @id "x"))' },
        replacement: "x",
      }, ctx),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "postcondition-failed",
  );
});

Deno.test("locate and locate_region: outputs for DSL binding, nothing edited", async () => {
  const source = "class A:\n    def f(self):\n        return 'é'\n\n    def g(self):\n        pass\n";
  const { ctx } = await contextWith({ "a.py": source });
  const found = await PRIMITIVES.locate({ locator: { kind: "method", file: "a.py" } }, ctx) as {
    count: number;
    nodes: { start_line: number }[];
  };
  assert.equal(found.count, 2);
  assert.deepEqual(found.nodes.map((n) => n.start_line), [2, 5]);
  const none = await PRIMITIVES.locate({ locator: { kind: "method", name: "h", file: "a.py" } }, ctx) as {
    found: boolean;
  };
  assert.equal(none.found, false);
  const region = await PRIMITIVES.locate_region(
    { locator: { kind: "method", name: "f", file: "a.py" } },
    ctx,
  );
  assert.deepEqual(region, {
    start_byte: 13,
    end_byte: 44,
    start_line: 2,
    end_line: 3,
    text: "def f(self):\n        return 'é'",
  });
  assert.equal(ctx.records.length, 0);
});

Deno.test("non-ASCII text outside the edited region is unchanged byte for byte", async () => {
  const source = "# Ünïcödé ✓ 日本語\nclass A:\n    name = 'Zoë'\n\n    def f(self):\n        return '→'\n";
  const { ctx } = await contextWith({ "u.py": source });
  await PRIMITIVES.replace_node({
    locator: { kind: "method", name: "f", file: "u.py" },
    replacement: "def f(self):\n    return '←'",
  }, ctx);
  const after = await textOf(ctx, "u.py");
  assert.equal(after, source.replace("'→'", "'←'"));
  await assertPythonParses(after);
});

Deno.test("wrap_node: several consecutive sibling matches are wrapped as one block", async () => {
  const source = "def f(path):\n    fh = open(path)\n    data = fh.read()\n    return data\n";
  const { ctx } = await contextWith({ "w.py": source });
  await PRIMITIVES.wrap_node({
    locator: { kind: "statement", file: "w.py", parent: { kind: "function", name: "f" } },
    before: "if path:",
    after: "return None",
  }, ctx);
  const after = await textOf(ctx, "w.py");
  assert.equal(
    after,
    "def f(path):\n    if path:\n        fh = open(path)\n        data = fh.read()\n        return data\n    return None\n",
  );
  await assertPythonParses(after);
});

Deno.test({
  name: "insert_after_node: a multi-line string in the inserted code keeps its value (CPython oracle)",
  ignore: PYTHON_SKIP !== undefined,
  fn: async () => {
    const source = "class A:\n    def f(self):\n        return 1\n";
    const { ctx } = await contextWith({ "s.py": source });
    await PRIMITIVES.insert_after_node({
      locator: { kind: "method", name: "f", file: "s.py" },
      code:
        'def g(self):\n    """Doc line.\n\n    More.\n    """\n    text = """first\n  second\n\nthird"""\n    return text\n',
    }, ctx);
    const after = await textOf(ctx, "s.py");
    const values = await runPythonJson<string[]>(
      `import ast, json, sys
tree = ast.parse(json.load(sys.stdin))
print(json.dumps([n.value.value for n in ast.walk(tree) if isinstance(n, ast.Assign)]))`,
      after,
    );
    assert.deepEqual(values, ["first\n  second\n\nthird"]);
    assert.ok(after.includes('    def g(self):\n        """Doc line.\n\n        More.\n        """\n'));
  },
});

Deno.test("insert_after_node: a Python statement sharing its line with the block header is refused", async () => {
  const { ctx } = await contextWith({ "h.py": "class A: pass\n" });
  await assert.rejects(
    () =>
      PRIMITIVES.insert_after_node({ locator: { kind: "pass_statement", file: "h.py" }, code: "x = 1" }, ctx),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "anchor-on-header-line",
  );
});
