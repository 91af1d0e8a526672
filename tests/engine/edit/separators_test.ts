import assert from "node:assert/strict";
import { deletionEdit, deletionTarget, listContext } from "../../../engine/edit/separators.ts";
import { applyEdits } from "../../../engine/edit/text_edit.ts";
import { type LanguageId, type Node, parse } from "../../../engine/parse/mod.ts";

/** The first node of `type` whose text is `text`, in document order. */
function find(root: Node, type: string, text: string): Node {
  const found = root.descendantsOfType(type).find((node) => node?.text === text);
  if (!found) throw new Error(`no ${type} "${text}"`);
  return found;
}

async function remove(language: LanguageId, source: string, type: string, text: string): Promise<string> {
  const tree = await parse(language, source);
  const node = deletionTarget(find(tree.rootNode, type, text));
  const out = applyEdits(source, [deletionEdit(source, node, language)]);
  tree.delete();
  return out;
}

Deno.test("separators: Python arguments, parameters, elements and pairs lose their comma", async () => {
  assert.equal(await remove("python", "f(a, b, c)\n", "identifier", "b"), "f(a, c)\n");
  assert.equal(await remove("python", "f(a, b, c)\n", "identifier", "c"), "f(a, b)\n");
  assert.equal(await remove("python", "f(a, b, c)\n", "identifier", "a"), "f(b, c)\n");
  assert.equal(await remove("python", "f(a)\n", "identifier", "a"), "f()\n");
  assert.equal(await remove("python", "x = [1, 2,]\n", "integer", "2"), "x = [1,]\n");
  assert.equal(await remove("python", "x = (1,)\n", "integer", "1"), "x = ()\n");
  assert.equal(await remove("python", "d = {'a': 1, 'b': 2}\n", "pair", "'b': 2"), "d = {'a': 1}\n");
  assert.equal(
    await remove("python", "def f(self, x=1, *, y):\n    pass\n", "default_parameter", "x=1"),
    "def f(self, *, y):\n    pass\n",
  );
  assert.equal(await remove("python", "f(a, key=2)\n", "keyword_argument", "key=2"), "f(a)\n");
});

Deno.test("separators: one element per line loses its whole line", async () => {
  const source = "x = [\n    1,\n    2,\n    3,\n]\n";
  assert.equal(await remove("python", source, "integer", "2"), "x = [\n    1,\n    3,\n]\n");
  assert.equal(await remove("python", source, "integer", "3"), "x = [\n    1,\n    2,\n]\n");
  assert.equal(await remove("python", "f(\n    a,\n    b\n)\n", "identifier", "b"), "f(\n    a\n)\n");
});

Deno.test("separators: imported names; the only name takes its statement along", async () => {
  const source = "import os\nfrom x import a, b, c\nfrom y import z\nprint(1)\n";
  assert.equal(
    await remove("python", source, "dotted_name", "b"),
    "import os\nfrom x import a, c\nfrom y import z\nprint(1)\n",
  );
  assert.equal(
    await remove("python", source, "dotted_name", "z"),
    "import os\nfrom x import a, b, c\nprint(1)\n",
  );
  assert.equal(
    await remove("python", source, "dotted_name", "os"),
    "from x import a, b, c\nfrom y import z\nprint(1)\n",
  );
  assert.equal(
    await remove("python", "from x import (\n    a,\n    b,\n)\n", "dotted_name", "a"),
    "from x import (\n    b,\n)\n",
  );
});

Deno.test("separators: an imported name addressed by its identifier takes its comma (kind identifier locator)", async () => {
  // requests-2317 drops `builtin_str` from `from .compat import ..., urlparse, builtin_str`: the
  // `identifier` is the whole `dotted_name` element, so the comma before it goes too.
  const source = "from .compat import cookielib, urlparse, builtin_str\nfrom y import z\n";
  assert.equal(
    await remove("python", source, "identifier", "builtin_str"),
    "from .compat import cookielib, urlparse\nfrom y import z\n",
  );
  assert.equal(
    await remove("python", source, "identifier", "cookielib"),
    "from .compat import urlparse, builtin_str\nfrom y import z\n",
  );
  assert.equal(
    await remove("python", source, "identifier", "z"),
    "from .compat import cookielib, urlparse, builtin_str\n",
  );
  // An argument identifier was already an element: unchanged.
  assert.equal(await remove("python", "f(a, b)\n", "identifier", "b"), "f(a)\n");
});

Deno.test("separators: statements go with their line; an emptied Python block gets pass", async () => {
  const source = "def f():\n    x = 1\n    return x\n\n\ndef g():\n    return 2\n";
  assert.equal(
    await remove("python", source, "expression_statement", "x = 1"),
    "def f():\n    return x\n\n\ndef g():\n    return 2\n",
  );
  assert.equal(
    await remove("python", source, "return_statement", "return 2"),
    "def f():\n    x = 1\n    return x\n\n\ndef g():\n    pass\n",
  );
  // A whole function: its lines and the blank lines above it (the gap below stays).
  assert.equal(
    await remove(
      "python",
      "import os\n\n\ndef f():\n    pass\n\n\ndef g():\n    pass\n",
      "function_definition",
      "def f():\n    pass",
    ),
    "import os\n\n\ndef g():\n    pass\n",
  );
});

Deno.test("separators: decorated definitions are deleted with their decorators", async () => {
  const source =
    "class A:\n    x = 1\n\n    @property\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n";
  const tree = await parse("python", source);
  const fn = tree.rootNode.descendantsOfType("function_definition")[0]!;
  const target = deletionTarget(fn);
  assert.equal(target.type, "decorated_definition");
  assert.equal(
    applyEdits(source, [deletionEdit(source, target, "python")]),
    "class A:\n    x = 1\n\n    def g(self):\n        pass\n",
  );
});

Deno.test("separators: JS array elements, object properties, import specifiers", async () => {
  assert.equal(await remove("javascript", "const a = [1, 2, 3];\n", "number", "2"), "const a = [1, 3];\n");
  assert.equal(await remove("javascript", "const o = {a: 1, b};\n", "pair", "a: 1"), "const o = {b};\n");
  assert.equal(
    await remove("javascript", 'import { a, b } from "x";\nf();\n', "import_specifier", "a"),
    'import { b } from "x";\nf();\n',
  );
  assert.equal(
    await remove("javascript", 'import { a } from "x";\nf();\n', "import_specifier", "a"),
    "f();\n",
  );
  assert.equal(
    await remove("javascript", 'import d, { a } from "x";\nf();\n', "import_specifier", "a"),
    'import d from "x";\nf();\n',
  );
  assert.equal(
    await remove("javascript", "function f() {\n  g();\n}\n", "expression_statement", "g();"),
    "function f() {\n}\n",
  );
});

Deno.test("separators: listContext sees commas past comments", async () => {
  const tree = await parse("python", "f(a,  # first\n  b)\n");
  const b = find(tree.rootNode, "identifier", "b");
  assert.equal(listContext(b)?.previous?.text, "a");
});
