/**
 * Re-indentation of code with continuation lines, found by the issue-17 gold
 * sweep (`replace_node` of whole definitions from real files): a signature
 * continued on the next row kept the body inside the function, and a
 * concatenation of one-line strings (`"a\n"` then `"b"`) is code, not a
 * protected multi-line string.
 */

import assert from "node:assert/strict";
import { reindent } from "../../../engine/edit/indent.ts";
import { assertPythonParses } from "../../_support/python.ts";

const py = { unit: "    ", eol: "\n", language: "python" as const };

Deno.test("reindent: a def whose signature continues on the next row keeps its body inside (relative shape)", async () => {
  const snippet = "def m(self, a,\n      b):\n    x = 2\n    return x";
  const out = await reindent(snippet, { ...py, indent: "    " });
  assert.equal(out, "    def m(self, a,\n          b):\n        x = 2\n        return x");
  await assertPythonParses(`class A:\n${out}\n`);
});

Deno.test("reindent: the same def copied from the file with its first row stripped (shape 3)", async () => {
  const snippet = "def m(self, a,\n          b):\n        x = 2\n        return x";
  assert.equal(
    await reindent(snippet, { ...py, indent: "    " }),
    "    def m(self, a,\n          b):\n        x = 2\n        return x",
  );
});

Deno.test("reindent: rows of a string concatenation are re-indented like code", async () => {
  const snippet = 'def m(self):\n    raise E(\n        "a\\n"\n        "c")';
  const out = await reindent(snippet, { ...py, indent: "    " });
  assert.equal(out, '    def m(self):\n        raise E(\n            "a\\n"\n            "c")');
  // a real multi-line string inside a concatenation is still kept verbatim
  const kept = await reindent('x = (\n    "a"\n    """b\n  c""")', { ...py, indent: "    " });
  assert.equal(kept, '    x = (\n        "a"\n        """b\n  c""")');
});

Deno.test("reindent: an inline snippet copied from its place keeps its aligned continuation rows", async () => {
  // shutil.py: the message's second string is aligned under the call's bracket, at column 25
  const snippet = "\"bad value for 'compress': {0!r}, or compression format \"\n" +
    '                         "not supported"';
  const out = await reindent(snippet, { ...py, indent: "        ", inlineFirst: true });
  assert.equal(out, snippet);
  await assertPythonParses(`def f():\n    if x:\n        raise ValueError(${out}.format(c))\n`);
  // the same in a tab-indented file: the rows' own whitespace is kept, not converted
  const tabbed = '"a "\n\t\t\t "b"';
  assert.equal(await reindent(tabbed, { ...py, unit: "\t", indent: "\t\t", inlineFirst: true }), tabbed);
  // a relative snippet (continuation not deeper than the line) is still re-indented
  assert.equal(
    await reindent('("a "\n "b")', { ...py, indent: "        ", inlineFirst: true }),
    '("a "\n        "b")',
  );
});
