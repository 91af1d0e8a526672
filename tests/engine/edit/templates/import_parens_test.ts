/**
 * `parenthesize_import` on every backslash-continued `from ... import` of
 * the corpus's before files, with CPython's `ast` as the oracle: the
 * module's AST (names, order, aliases) is the same before and after, the
 * statement is parenthesized and without continuations, and no byte outside
 * it changed. Then the edge shapes: a continuation right after `import`,
 * CRLF lines, an import already in parentheses, a `*` import.
 */

import assert from "node:assert/strict";
import { resolveLocator } from "../../../../engine/locate/mod.ts";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../../../_support/corpus.ts";
import { contextWith, textOf } from "../_edit_support.ts";
import { apply, reject } from "./_support.ts";
import { TEMPLATES } from "../../../../engine/edit/templates/mod.ts";

const CONTINUED = /^from[ \t]+(\S+)[ \t]+import[ \t]+[^(\n#]*\\\r?\n/gm;

const SAME_AST = `
import ast, json, sys
out = []
for before, after in json.load(sys.stdin):
    out.append(ast.dump(ast.parse(before)) == ast.dump(ast.parse(after)))
print(json.dumps(out))
`;

Deno.test({
  name:
    "parenthesize_import: every backslash-continued corpus import keeps its AST, only its own bytes change",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const pairs: [string, string][] = [];
    const seen = new Set<string>();
    for (const { id, path, text } of await corpusBeforeFiles(".py")) {
      if (seen.has(text)) continue;
      seen.add(text);
      for (const match of text.matchAll(CONTINUED)) {
        const { ctx } = await contextWith({ [path]: text });
        const locator = { file: path, kind: "import", name: match[1] };
        const nodes = (await resolveLocator(ctx.store, locator as never)).nodes;
        const index = nodes.findIndex((node) => node.startIndex === match.index);
        assert.ok(index >= 0, `${id} ${path}: the import at offset ${match.index} is found`);
        const output = await TEMPLATES.parenthesize_import.run({ target: { ...locator, index } }, ctx);
        assert.equal((output as { changed: boolean }).changed, true);
        const after = await textOf(ctx, path);
        const oldEnd = nodes[index].endIndex;
        const newEnd = oldEnd + after.length - text.length;
        assert.equal(after.slice(0, match.index), text.slice(0, match.index), `${id} ${path}: bytes before`);
        assert.equal(after.slice(newEnd), text.slice(oldEnd), `${id} ${path}: bytes after`);
        const statement = after.slice(match.index, newEnd);
        assert.match(statement, /import \(/);
        assert.ok(statement.endsWith(")"), statement);
        assert.doesNotMatch(statement, /\\\r?\n/);
        pairs.push([text, after]);
      }
    }
    assert.ok(pairs.length >= 5, `${pairs.length} continued imports in the corpus`);
    const same = await runPythonJson<boolean[]>(SAME_AST, pairs);
    assert.deepEqual(same.map((ok, k) => ok ? "" : pairs[k][1].slice(0, 200)).filter(Boolean), []);
  },
});

Deno.test("parenthesize_import: a continuation right after import, CRLF lines, aliases", async () => {
  const after = await apply("parenthesize_import", "m.py", "from a.b import \\\n    c as d, e\nx = 1\n", {
    target: { file: "m.py", kind: "import", name: "a.b" },
  });
  assert.equal(after.text, "from a.b import (\n    c as d, e)\nx = 1\n");
  const crlf = await apply("parenthesize_import", "m.py", "from a import b, \\\r\n    c\r\n", {
    target: { file: "m.py", kind: "import", name: "a" },
  });
  assert.equal(crlf.text, "from a import (b,\r\n    c)\r\n");
  const oneLine = await apply("parenthesize_import", "m.py", "from . import x  # why\n", {
    target: { file: "m.py", kind: "import", name: "." },
  });
  assert.equal(oneLine.text, "from . import (x)  # why\n");
});

Deno.test("parenthesize_import: already in parentheses is already-present; a * import is refused", async () => {
  const source = "from a import (b,\n    c)\n";
  const again = await apply("parenthesize_import", "m.py", source, {
    target: { file: "m.py", kind: "import", name: "a" },
  });
  assert.equal(again.text, source);
  assert.equal(again.output.changed, false);
  assert.deepEqual(again.warnings.map((w) => w.code), ["already-present"]);
  const star = await reject("parenthesize_import", "m.py", "from a import *\n", {
    target: { file: "m.py", kind: "import", name: "a" },
  });
  assert.deepEqual(star.map((i) => i.code), ["template-precondition"]);
  const plain = await reject("parenthesize_import", "m.py", "import os\n", {
    target: { file: "m.py", kind: "import", name: "os" },
  });
  assert.deepEqual(plain.map((i) => i.code), ["template-precondition"]);
});

Deno.test("parenthesize_import: one_per_line lays names out vertically at the statement's depth, a trailing comment kept", async () => {
  const nested = await apply(
    "parenthesize_import",
    "m.py",
    "def f():\n  from a.b import c as d, \\\n    e\n  return d\n",
    { target: { file: "m.py", kind: "import", name: "a.b" }, one_per_line: true },
  );
  assert.equal(nested.text, "def f():\n  from a.b import (\n    c as d,\n    e,\n  )\n  return d\n");
  const commented = await apply("parenthesize_import", "m.py", "from a import b, \\\n    c  # why\n", {
    target: { file: "m.py", kind: "import", name: "a" },
    one_per_line: true,
  });
  assert.equal(commented.text, "from a import (\n    b,\n    c,\n)  # why\n");
});
