import assert from "node:assert/strict";
import { detectIndentUnit, protectedRows, reindent } from "../../../engine/edit/indent.ts";
import { assertPythonParses, PYTHON_SKIP } from "../../_support/python.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../../_support/corpus.ts";

const py = { unit: "    ", eol: "\n", language: "python" as const };

const METHOD = [
  "def area(self):",
  "    total = 0",
  "",
  "    for side in self.sides:",
  "        total += side",
  "    return total",
].join("\n");

const EXPECTED = [
  "    def area(self):",
  "        total = 0",
  "",
  "        for side in self.sides:",
  "            total += side",
  "        return total",
].join("\n");

Deno.test("reindent: a snippet at column 0 moves to the anchor's indentation, blank lines stay empty", async () => {
  assert.equal(await reindent(METHOD + "\n", { ...py, indent: "    " }), EXPECTED);
});

Deno.test("reindent: absolute indentation (common indent removed) gives the same result", async () => {
  const absolute = METHOD.split("\n").map((line) => (line ? "        " + line : "   ")).join("\n");
  assert.equal(await reindent(absolute, { ...py, indent: "    " }), EXPECTED);
});

Deno.test("reindent: a first line stripped of its indentation (copied from the file) is recognised", async () => {
  const stripped = METHOD.split("\n").map((line, i) => (i > 0 && line ? "    " + line : line)).join("\n");
  assert.equal(await reindent(stripped, { ...py, indent: "    " }), EXPECTED);
  // A body: first line inline at the block's start, the rest absolute at 8.
  const body = "x = compute()\n        if x:\n            return x\n        return None";
  assert.equal(
    await reindent(body, { ...py, indent: "        ", inlineFirst: true }),
    "x = compute()\n        if x:\n            return x\n        return None",
  );
  // The same body written relative to column 0.
  assert.equal(
    await reindent("x = compute()\nif x:\n    return x\nreturn None", {
      ...py,
      indent: "        ",
      inlineFirst: true,
    }),
    "x = compute()\n        if x:\n            return x\n        return None",
  );
});

Deno.test("reindent: a tab-indented file gets tabs, levels kept, CRLF line endings", async () => {
  const out = await reindent(METHOD, { unit: "\t", eol: "\r\n", language: "python", indent: "\t" });
  assert.equal(
    out,
    "\tdef area(self):\r\n\t\ttotal = 0\r\n\r\n\t\tfor side in self.sides:\r\n\t\t\ttotal += side\r\n\t\treturn total",
  );
});

Deno.test("reindent: a tab-indented snippet in a space-indented file gets spaces", async () => {
  const out = await reindent("if a:\n\tif b:\n\t\tpass", { ...py, indent: "    " });
  assert.equal(out, "    if a:\n        if b:\n            pass");
});

Deno.test("reindent: multi-line string interiors keep their bytes, docstrings are re-indented", async () => {
  const snippet = [
    "def usage(self):",
    '    """Explain.',
    "",
    "    More text.",
    '    """',
    '    text = """first',
    "  second",
    '"""',
    "    return text",
  ].join("\n");
  const out = await reindent(snippet, { ...py, indent: "        " });
  assert.equal(
    out,
    [
      "        def usage(self):",
      '            """Explain.',
      "",
      "            More text.",
      '            """',
      '            text = """first',
      "  second",
      '"""',
      "            return text",
    ].join("\n"),
  );
  assert.deepEqual([...await protectedRows(snippet, "python")].sort(), [6, 7]);
  await assertPythonParses(`class A:\n    class B:\n${out}\n`);
});

Deno.test("reindent: JS template literal lines are not shifted", async () => {
  const out = await reindent("function f() {\n  return `a\n  b`;\n}", {
    unit: "  ",
    eol: "\n",
    language: "javascript",
    indent: "  ",
  });
  assert.equal(out, "  function f() {\n    return `a\n  b`;\n  }");
});

Deno.test("detectIndentUnit: tabs, two spaces, four spaces", () => {
  assert.equal(detectIndentUnit("if x:\n\ty = 1\n\tif z:\n\t\tw\n"), "\t");
  assert.equal(detectIndentUnit("function f() {\n  if (x) {\n    y();\n  }\n}\n"), "  ");
  assert.equal(detectIndentUnit("x = 1\n"), "    ");
});

Deno.test({
  name: "detectIndentUnit: every corpus Python file is 4-space or tab indented",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const files = await corpusBeforeFiles(".py");
    const units = new Map<string, number>();
    for (const file of files) {
      const unit = detectIndentUnit(file.text);
      units.set(unit, (units.get(unit) ?? 0) + 1);
    }
    // Nearly all real Python code uses four spaces.
    assert.ok((units.get("    ") ?? 0) > files.length * 0.9, JSON.stringify([...units]));
  },
});

if (PYTHON_SKIP) console.log(`indent_test: python oracle skipped: ${PYTHON_SKIP}`);
if (CORPUS_SKIP) console.log(`indent_test: corpus test skipped: ${CORPUS_SKIP}`);

Deno.test("reindent: an indented first line placed inline keeps the snippet's own relative structure", async () => {
  const out = await reindent("    if x:\n        y()\n    z()", {
    ...py,
    indent: "        ",
    inlineFirst: true,
  });
  assert.equal(out, "if x:\n            y()\n        z()");
});

Deno.test("reindent: 4-space code in a 2-space file is converted level by level", async () => {
  const out = await reindent("if (a) {\n    if (b) {\n        f();\n    }\n}", {
    unit: "  ",
    eol: "\n",
    language: "javascript",
    indent: "  ",
  });
  assert.equal(out, "  if (a) {\n    if (b) {\n      f();\n    }\n  }");
});

Deno.test("reindent: the module documentation's worked example", async () => {
  const snippet =
    'def area(self):\n        """Area.\n\n        In square units."""\n        s = """a\n  b"""\n        return s';
  assert.equal(
    await reindent(snippet, { ...py, indent: "    " }),
    '    def area(self):\n        """Area.\n\n        In square units."""\n        s = """a\n  b"""\n        return s',
  );
});

Deno.test("reindent: a hanging continuation does not fool the step detection", async () => {
  const snippet = "def f(self):\n    x = g(a,\n      b)\n    return x";
  assert.equal(
    await reindent(snippet, { unit: "  ", eol: "\n", language: "python", indent: "" }),
    "def f(self):\n  x = g(a,\n    b)\n  return x",
  );
  assert.equal(await reindent(snippet, { ...py, indent: "    " }), snippet.replace(/^/gm, "    "));
});
