import assert from "node:assert/strict";
import {
  checkFragment,
  escapeDocstring,
  type Fragment,
  FRAGMENT_KINDS,
  serializeFragment,
  validateFragment,
} from "../../../../engine/edit/fragments/mod.ts";
import { type Node, parse, syntaxProblems } from "../../../../engine/parse/mod.ts";
import {
  assertPythonParses,
  PYTHON_SKIP,
  pythonSyntaxErrors,
  runPythonJson,
} from "../../../_support/python.ts";

/** One fragment per kind, each with every property its kind takes (or a realistic subset). */
const SAMPLES: Record<string, Fragment> = {
  function_definition: {
    kind: "function_definition",
    properties: {
      name: "fetch",
      parameters: "self, url: str, *, timeout: float = 10.0",
      return_type: "t.Optional[bytes]",
      async: true,
      decorators: ["functools.lru_cache(maxsize=None)", "@staticmethod"],
      docstring: "Fetch a URL.\n\nReturns None on a timeout.",
    },
    children: [
      { kind: "return_statement", properties: { value: "await self._get(url, timeout=timeout)" } },
    ],
  },
  class_definition: {
    kind: "class_definition",
    properties: {
      name: "Cache",
      bases: ["Base", "t.Generic[T]", "metaclass=abc.ABCMeta"],
      decorators: ["dataclass(frozen=True)"],
      docstring: "A cache.",
    },
    children: [
      { kind: "assignment", properties: { target: "size", annotation: "int", value: "0" } },
      {
        kind: "function_definition",
        properties: { name: "clear", parameters: "self" },
        children: [{ kind: "expression_statement", properties: { expression: "self._data.clear()" } }],
      },
    ],
  },
  if_statement: {
    kind: "if_statement",
    properties: { condition: "value is None and not strict" },
    children: [
      { kind: "return_statement", properties: { value: "default" } },
      { kind: "elif_clause", properties: { condition: "isinstance(value, str)" }, children: [] },
      {
        kind: "elif_clause",
        properties: { condition: "value == 0" },
        children: [{ kind: "raise_statement", properties: { exception: "ValueError('zero')" } }],
      },
      { kind: "else_clause", children: [{ kind: "pass_statement" }] },
    ],
  },
  elif_clause: { kind: "elif_clause", properties: { condition: "x > 1" } },
  else_clause: { kind: "else_clause", children: [{ kind: "return_statement" }] },
  for_statement: {
    kind: "for_statement",
    properties: { target: "key, value", iterable: "sorted(mapping.items())" },
    children: [
      {
        kind: "if_statement",
        properties: { condition: "key.startswith('_')" },
        children: [{ kind: "continue_statement" }],
      },
      { kind: "else_clause", children: [{ kind: "break_statement" }] },
    ],
  },
  while_statement: {
    kind: "while_statement",
    properties: { condition: "queue" },
    children: [
      { kind: "assignment", properties: { target: "item", value: "queue.pop()" } },
      { kind: "else_clause" },
    ],
  },
  with_statement: {
    kind: "with_statement",
    properties: { items: [{ expression: "open(path, 'rb')", as: "handle" }, { expression: "lock" }] },
    children: [{ kind: "assignment", properties: { target: "data", value: "handle.read()" } }],
  },
  try_statement: {
    kind: "try_statement",
    children: [
      { kind: "assignment", properties: { target: "value", value: "int(text)" } },
      {
        kind: "except_clause",
        properties: { exception: "(TypeError, ValueError)", as: "exc" },
        children: [{ kind: "raise_statement", properties: { exception: "ConfigError(text)", cause: "exc" } }],
      },
      { kind: "except_clause" },
      { kind: "else_clause", children: [{ kind: "return_statement", properties: { value: "value" } }] },
      {
        kind: "finally_clause",
        children: [{ kind: "expression_statement", properties: { expression: "close()" } }],
      },
    ],
  },
  except_clause: { kind: "except_clause", properties: { exception: "KeyError" } },
  finally_clause: { kind: "finally_clause", children: [{ kind: "pass_statement" }] },
  return_statement: { kind: "return_statement", properties: { value: "a, b" } },
  raise_statement: { kind: "raise_statement", properties: { exception: "KeyError(name)", cause: "None" } },
  assignment: { kind: "assignment", properties: { target: "self.items[0]", value: "[1, 2]" } },
  augmented_assignment: {
    kind: "augmented_assignment",
    properties: { target: "total", operator: "+=", value: "len(batch)" },
  },
  expression_statement: {
    kind: "expression_statement",
    properties: { expression: "logger.info('done %s', n)" },
  },
  import_statement: { kind: "import_statement", properties: { module: "os.path", as: "osp" } },
  import_from_statement: {
    kind: "import_from_statement",
    properties: { module: "..utils", names: ["helper", { name: "Other", as: "O" }] },
  },
  assert_statement: {
    kind: "assert_statement",
    properties: { condition: "n >= 0", message: "f'bad n: {n}'" },
  },
  pass_statement: { kind: "pass_statement" },
  comment: { kind: "comment", properties: { text: " Retry once." } },
  break_statement: { kind: "break_statement" },
  continue_statement: { kind: "continue_statement" },
};

/** Where a kind's serialization is put to be a complete module: prefix lines and the indentation. */
function context(kind: string): { before: string; indent: string } {
  switch (kind) {
    case "elif_clause":
    case "else_clause":
      return { before: "if ready:\n    pass\n", indent: "" };
    case "except_clause":
    case "finally_clause":
      return { before: "try:\n    pass\n", indent: "" };
    case "break_statement":
    case "continue_statement":
      return { before: "for _ in range(3):\n", indent: "    " };
    case "return_statement":
      return { before: "def outer():\n", indent: "    " };
    case "function_definition":
    case "class_definition":
      return { before: "import abc, functools, typing as t\n", indent: "" };
    default:
      return { before: "", indent: "" };
  }
}

/** The statement or clause the serialized fragment became, by its start row. */
function nodeAtRow(root: Node, row: number): Node | undefined {
  let found: Node | undefined;
  const visit = (node: Node) => {
    if (found) return;
    if (node.startPosition.row === row && node.type !== "module" && node.type !== "block") {
      found = node;
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return found;
}

/** The node type a reparsed fragment shows: assignments sit in an expression_statement, decorated definitions in a decorated_definition. */
function effectiveKind(node: Node): string {
  if (node.type === "decorated_definition") return node.childForFieldName("definition")?.type ?? node.type;
  if (node.type === "expression_statement" && node.namedChildCount === 1) {
    const inner = node.namedChildren[0]!;
    if (inner.type === "assignment" || inner.type === "augmented_assignment") return inner.type;
  }
  return node.type;
}

Deno.test("every fragment kind has a sample, and every sample is valid", async () => {
  assert.deepEqual(Object.keys(SAMPLES).sort(), Object.keys(FRAGMENT_KINDS).sort());
  for (const [kind, fragment] of Object.entries(SAMPLES)) {
    assert.deepEqual(validateFragment(fragment), [], kind);
    assert.deepEqual(await checkFragment(fragment), [], kind);
  }
});

Deno.test({
  name: "every fragment kind round-trips: tree-sitter and CPython parse it, the top node has its kind",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const sources: string[] = [];
    for (const [kind, fragment] of Object.entries(SAMPLES)) {
      const { before, indent } = context(kind);
      const code = serializeFragment(fragment, { indent });
      const source = `${before}${code}\n`;
      sources.push(source);
      const tree = await parse("python", source);
      try {
        assert.deepEqual(syntaxProblems(tree), [], `${kind}:\n${source}`);
        const row = before.split("\n").length - 1;
        const node = nodeAtRow(tree.rootNode, row);
        assert.ok(node, `${kind}: nothing at row ${row}`);
        assert.equal(effectiveKind(node), kind, `${kind}:\n${source}`);
      } finally {
        tree.delete();
      }
    }
    const errors = await pythonSyntaxErrors(sources);
    errors.forEach((err, i) => assert.equal(err, null, `${Object.keys(SAMPLES)[i]}:\n${sources[i]}`));
  },
});
if (PYTHON_SKIP) console.log(`skipping CPython round trips: ${PYTHON_SKIP}`);

Deno.test("serialization: exact text of a nested fragment", () => {
  const code = serializeFragment(SAMPLES.try_statement, { indent: "        " });
  assert.equal(
    code,
    [
      "        try:",
      "            value = int(text)",
      "        except (TypeError, ValueError) as exc:",
      "            raise ConfigError(text) from exc",
      "        except:",
      "            pass",
      "        else:",
      "            return value",
      "        finally:",
      "            close()",
    ].join("\n"),
  );
});

Deno.test("serialization: an empty block gets pass, a docstring alone is a body", () => {
  assert.equal(
    serializeFragment({ kind: "while_statement", properties: { condition: "True" } }),
    "while True:\n    pass",
  );
  assert.equal(
    serializeFragment({
      kind: "class_definition",
      properties: { name: "E", bases: [], docstring: "Empty." },
    }),
    'class E:\n    """Empty."""',
  );
});

Deno.test("serialization: decorators, async, return type, definitions separated by a blank line", () => {
  const code = serializeFragment(SAMPLES.class_definition);
  assert.equal(
    code,
    [
      "@dataclass(frozen=True)",
      "class Cache(Base, t.Generic[T], metaclass=abc.ABCMeta):",
      '    """A cache."""',
      "    size: int = 0",
      "",
      "    def clear(self):",
      "        self._data.clear()",
    ].join("\n"),
  );
  const fn = serializeFragment(SAMPLES.function_definition).split("\n");
  assert.deepEqual(fn.slice(0, 3), [
    "@functools.lru_cache(maxsize=None)",
    "@staticmethod",
    "async def fetch(self, url: str, *, timeout: float = 10.0) -> t.Optional[bytes]:",
  ]);
});

Deno.test("serialization: the file's indentation unit and line ending", () => {
  const code = serializeFragment(SAMPLES.for_statement, { indent: "\t", unit: "\t", eol: "\r\n" });
  assert.equal(
    code,
    "\tfor key, value in sorted(mapping.items()):\r\n\t\tif key.startswith('_'):\r\n\t\t\tcontinue\r\n\telse:\r\n\t\tbreak",
  );
});

Deno.test("serialization: multi-line source text is indented, multi-line strings are kept verbatim", async () => {
  const fragment: Fragment = {
    kind: "function_definition",
    properties: { name: "f", parameters: "\n    a,\n    b,\n" },
    children: [
      { kind: "assignment", properties: { target: "options", value: "{\n    'a': 1,\n    'b': 2,\n}" } },
      { kind: "expression_statement", properties: { expression: 'print("""first\n  second\n""")' } },
    ],
  };
  const code = serializeFragment(fragment, { indent: "    " });
  assert.equal(
    code,
    [
      "    def f(",
      "        a,",
      "        b,",
      "    ):",
      "        options = {",
      "            'a': 1,",
      "            'b': 2,",
      "        }",
      '        print("""first',
      "  second",
      '""")',
    ].join("\n"),
  );
  await assertPythonParses(`class C:\n${code}\n`);
});

Deno.test("docstring escaping: a raw text with quotes, backslashes and control characters", () => {
  assert.equal(escapeDocstring('say "hi"'), 'say "hi\\"');
  assert.equal(escapeDocstring('"quoted" start'), '\\"quoted" start');
  assert.equal(escapeDocstring('a """ b'), 'a \\"\\"\\" b');
  assert.equal(escapeDocstring("C:\\path\\n"), "C:\\\\path\\\\n");
  assert.equal(escapeDocstring("bell\x07"), "bell\\x07");
});

Deno.test({
  name: "docstrings: CPython reads back the text given (cleaned as inspect.cleandoc does)",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const texts = [
      "Plain.",
      'Ends with a quote: "x"',
      'Has """ inside and \\ backslashes \\n, and \'single\' quotes.',
      "Multi-line.\n\nDetails:\n    indented item\n\tand a tab",
      '"Starts" with a quote',
      "Unicode: µ → ∑, control \x01 char",
      "Trailing newline\n",
    ];
    const sources = texts.map((docstring) =>
      serializeFragment({
        kind: "function_definition",
        properties: { name: "f", parameters: "", docstring },
      }, { indent: "    " })
    );
    const script = `
import ast, inspect, json, sys
out = []
for src in json.load(sys.stdin):
    tree = ast.parse("class C:\\n" + src + "\\n")
    out.append(ast.get_docstring(tree.body[0].body[0], clean=True))
print(json.dumps(out))
`;
    const got = await runPythonJson<string[]>(script, sources);
    const cleaned = await runPythonJson<string[]>(
      "import inspect, json, sys\nprint(json.dumps([inspect.cleandoc(t) for t in json.load(sys.stdin)]))",
      texts,
    );
    assert.deepEqual(got, cleaned);
  },
});
