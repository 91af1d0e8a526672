/**
 * Resolution: parent, field, nth_child and index (negative values too),
 * S-expression locators with predicates, the live tree, and every error path
 * with its candidates.
 */

import assert from "node:assert/strict";
import { type Issue, IssueError } from "../../../engine/base/issue.ts";
import {
  describeNode,
  locateRegion,
  locateResult,
  type Locator,
  nodeName,
  resolveLocator,
  resolveOne,
  resolveSome,
} from "../../../engine/locate/mod.ts";
import { attachTopLevelPredicates } from "../../../engine/locate/predicates.ts";
import { assertLines, fixtureStore, lineOf, tempStore } from "./_support.ts";

const PY = "sample.py";

/** The issues `promise` rejects with (it must reject with an IssueError). */
async function issuesOf(promise: Promise<unknown>): Promise<Issue[]> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof IssueError) return err.issues;
    throw err;
  }
  assert.fail("expected an IssueError");
}

async function oneIssue(promise: Promise<unknown>, code: string): Promise<Issue> {
  const issues = await issuesOf(promise);
  assert.equal(issues.length, 1, JSON.stringify(issues));
  assert.equal(issues[0].code, code, issues[0].message);
  return issues[0];
}

const text = (path: string) =>
  Deno.readTextFileSync(new URL(`../../fixtures/locate/${path}`, import.meta.url));

Deno.test("nth_child counts named children of a class body, negative from the end", async () => {
  const store = fixtureStore();
  const body = { file: PY, kind: "class", name: "Inventory", field: "body" };
  await assertLines(store, { ...body, nth_child: 0 }, ['"""A bag of items."""']);
  await assertLines(store, { ...body, nth_child: 1 }, ['kind = "inventory"']);
  await assertLines(store, { ...body, nth_child: 3 }, ["@property"]);
  await assertLines(store, { ...body, nth_child: -1 }, ["class Meta:"]);
  await assertLines(store, { ...body, nth_child: -2 }, ["def add(self, item"]);
  await assertLines(store, { ...body, nth_child: -6 }, ['"""A bag of items."""']);
  const issue = await oneIssue(resolveSome(store, { ...body, nth_child: 6 }), "locator-not-found");
  assert.match(
    issue.message,
    /nth_child 6 is out of range: block \(line 26\) in "sample\.py" has 6 named children/,
  );
  assert.deepEqual(issue.candidates!.map((c) => c.line), [26, 28, 30, 35, 39, 46]);
  assert.equal(issue.candidates![2].text, "def __init__(self, items=None):");
  await oneIssue(resolveSome(store, { ...body, nth_child: -7 }), "locator-not-found");
});

Deno.test("nth_child skips comments and never returns punctuation", async () => {
  const { store, dir } = await tempStore({
    "m.py": "def f(a, b):\n    x = a\n    # middle\n    y = b\n    # trailing\n    return x + y\n",
    "m.js": "call(1, /* c */ 2);\n",
  });
  try {
    await assertLines(store, { file: "m.py", kind: "function", name: "f", field: "body", nth_child: 1 }, [
      "y = b",
    ]);
    await assertLines(store, { file: "m.py", kind: "function", name: "f", field: "body", nth_child: -1 }, [
      "return x + y",
    ]);
    const params = await resolveLocator(store, {
      file: "m.py",
      kind: "function",
      field: "parameters",
      nth_child: -1,
    });
    assert.equal(params.nodes[0].text, "b");
    const args = await resolveLocator(store, {
      file: "m.js",
      kind: "call",
      field: "arguments",
      nth_child: 1,
    });
    assert.equal(args.nodes[0].text, "2");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("index picks one match, negative from the end; out of range lists every match", async () => {
  const store = fixtureStore();
  const returns = { file: PY, kind: "return" };
  await assertLines(store, returns, [
    'return line.strip().split(",")',
    "return items[:limit]",
    "return len(",
    "return None",
  ]);
  await assertLines(store, { ...returns, index: 0 }, ['return line.strip().split(",")']);
  await assertLines(store, { ...returns, index: 2 }, ["return len("]);
  await assertLines(store, { ...returns, index: -1 }, ["return None"]);
  await assertLines(store, { ...returns, index: -4 }, ['return line.strip().split(",")']);
  const issue = await oneIssue(resolveSome(store, { ...returns, index: 4 }), "locator-not-found");
  assert.match(issue.message, /index 4 is out of range: 4 nodes match return in "sample\.py"/);
  assert.equal(issue.candidates!.length, 4);
  assert.deepEqual(issue.candidates![3], {
    file: PY,
    line: 48,
    kind: "return",
    text: "return None",
    parent: "method add",
  });
  // resolveLocator reports "nothing" as an empty list.
  assert.deepEqual((await resolveLocator(store, { ...returns, index: -5 })).nodes, []);
});

Deno.test("resolveOne: several matches without index is locator-ambiguous listing each candidate", async () => {
  const store = fixtureStore();
  const issue = await oneIssue(
    resolveOne(store, { file: PY, kind: "function", name: "add" }, { path: [3, "params", "locator"] }),
    "locator-ambiguous",
  );
  assert.equal(
    issue.message,
    'Cannot resolve locator: 2 nodes match function "add" in "sample.py", add "index"',
  );
  assert.deepEqual(issue.path, [3, "params", "locator"]);
  assert.deepEqual(issue.candidates, [
    // each with the definition around it: what "parent" would name to tell them apart
    {
      file: PY,
      line: 39,
      kind: "method",
      text: "def add(self, item: Item) -> None:",
      parent: "class Inventory",
    },
    { file: PY, line: 47, kind: "method", text: "def add(self):", parent: "class Meta" },
  ]);
  const { node } = await resolveOne(store, { file: PY, kind: "function", name: "add", index: 1 });
  assert.equal(node.startPosition.row + 1, lineOf(text(PY), "def add(self):"));
});

Deno.test("not found: the message names what was searched and candidates list near misses", async () => {
  const store = fixtureStore();
  // A typo: same kind, similar names first.
  let issue = await oneIssue(
    resolveSome(store, {
      file: PY,
      kind: "method",
      name: "ad",
      parent: { kind: "class", name: "Inventory" },
    }),
    "locator-not-found",
  );
  assert.equal(
    issue.message,
    'Cannot resolve locator: no method "ad" inside class "Inventory" in "sample.py"',
  );
  assert.equal(issue.file, PY);
  assert.deepEqual(issue.candidates!.slice(0, 2).map((c) => c.text), [
    "def add(self, item: Item) -> None:",
    "def add(self):",
  ]);
  // The right name in the wrong class: the same kind and name outside the parent comes first.
  issue = await oneIssue(
    resolveSome(store, { file: PY, kind: "method", name: "size", parent: { kind: "class", name: "Meta" } }),
    "locator-not-found",
  );
  assert.deepEqual(issue.candidates![0], {
    file: PY,
    line: 36,
    kind: "method",
    text: "def size(self):",
    parent: "class Inventory",
  });
  // The right name with the wrong kind.
  issue = await oneIssue(
    resolveSome(store, { file: PY, kind: "function", name: "Inventory" }),
    "locator-not-found",
  );
  assert.deepEqual(issue.candidates![0], {
    file: PY,
    line: 25,
    kind: "class",
    text: "class Inventory(object):",
  });
  // A kind with nothing in the file.
  issue = await oneIssue(resolveSome(store, { file: PY, kind: "lambda" }), "locator-not-found");
  assert.equal(issue.message, 'Cannot resolve locator: no lambda in "sample.py"');
  assert.deepEqual(issue.candidates, []);
});

Deno.test("not found: a one-letter name inside the wanted one does not outrank a one-letter typo", async () => {
  // sympy-13480's `cotm` after a step renamed it `cothm`: `m` and `x` were listed, `cothm` was not.
  const { store, dir } = await tempStore({
    "m.py": [
      "def a(x, m):",
      "    return x + m",
      "def b(x, m):",
      "    return x * m",
      "def c(x, m):",
      "    return x - m",
      "def d(x, m):",
      "    return x / m",
      "def coth(m):",
      "    cothm = m",
      "    if cothm is None:",
      "        return cot(m)",
      "",
    ].join("\n"),
  });
  try {
    const issue = await oneIssue(
      resolveSome(store, { file: "m.py", kind: "identifier", name: "cotm" }),
      "locator-not-found",
    );
    const texts = issue.candidates!.map((c) => c.text);
    assert.ok(texts.includes("cothm"), JSON.stringify(texts));
    assert.ok(texts.includes("cot"), JSON.stringify(texts));
    assert.ok(texts.indexOf("cothm") < texts.indexOf("m"), JSON.stringify(texts));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("not found: at most two near misses of one name, so repeated uses do not crowd out the next name", async () => {
  // sympy-13480's hyperbolic.py: five uses of `coth` (distance 1 from `cotm`) came before the `cothm` meant.
  const { store, dir } = await tempStore({
    "m.py": [...Array.from({ length: 6 }, (_, i) => `y${i} = coth(${i})`), "cothm = coth(7)", ""].join("\n"),
  });
  try {
    const issue = await oneIssue(
      resolveSome(store, { file: "m.py", kind: "identifier", name: "cotm" }),
      "locator-not-found",
    );
    assert.deepEqual(issue.candidates!.map((c) => c.text).slice(0, 3), ["coth", "coth", "cothm"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("not found: an argument named by its text is a positional one, listed first with a hint to use index", async () => {
  // sympy-23534: `symbols(name, **args)` needs `cls=cls` after `name`; the model wrote {"kind": "argument", "name": "name"}.
  const { store, dir } = await tempStore({
    "m.py":
      "def other(name):\n    return h(name)\n\n\ndef symbols(names, **args):\n    for name in names:\n        out.append(symbols(name, **args))\n",
  });
  try {
    const issue = await oneIssue(
      resolveSome(store, {
        file: "m.py",
        kind: "argument",
        name: "name",
        parent: { kind: "call", name: "symbols", parent: { kind: "function", name: "symbols" } },
      }),
      "locator-not-found",
    );
    assert.deepEqual(issue.candidates![0], {
      file: "m.py",
      line: 7,
      kind: "argument",
      text: "name",
      parent: "function symbols",
    });
    assert.match(issue.hint!, /^a positional argument has no name: drop "name" and choose it with "index"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a parent that matches nothing fails with the parent's near misses", async () => {
  const store = fixtureStore();
  const issue = await oneIssue(
    resolveSome(
      store,
      { file: PY, kind: "method", name: "add", parent: { kind: "class", name: "Inventry" } },
      {
        path: ["locator"],
      },
    ),
    "locator-not-found",
  );
  assert.match(
    issue.message,
    /^Cannot resolve locator: its parent matches nothing: no class "Inventry" in "sample\.py"$/,
  );
  assert.deepEqual(issue.path, ["locator", "parent"]);
  assert.equal(issue.candidates![0].text, "class Inventory(object):");
});

Deno.test("method and field parents mean the direct class; other parents any descendant", async () => {
  const { store, dir } = await tempStore({
    "m.py": [
      "class Outer:",
      "    x = 1",
      "    def run(self):",
      "        class Local:",
      "            y = 2",
      "            def run(self):",
      "                pass",
      "        return Local",
      "    class Inner:",
      "        def run(self):",
      "            pass",
      "",
    ].join("\n"),
  });
  try {
    const outer = { kind: "class", name: "Outer" };
    await assertLines(
      store,
      { file: "m.py", kind: "method", parent: outer },
      [/^ {4}def run/],
    );
    await assertLines(store, { file: "m.py", kind: "field", parent: outer }, ["x = 1"]);
    await assertLines(store, { file: "m.py", kind: "function", name: "run", parent: outer }, [
      /^ {4}def run/,
      /^ {12}def run/,
      /^ {8}def run/,
    ]);
    await assertLines(store, { file: "m.py", kind: "method", parent: { kind: "class", name: "Inner" } }, [
      /^ {8}def run/,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("parameter and argument parents mean the function's own parameters, the call's own arguments", async () => {
  const { store, dir } = await tempStore({
    "m.py": "def f(a, *rest):\n    g = lambda b: b\n    return h(k(1), 2, key=3)\n",
  });
  try {
    const params = await resolveLocator(store, {
      file: "m.py",
      kind: "parameter",
      parent: { kind: "function", name: "f" },
    });
    assert.deepEqual(params.nodes.map((n) => n.text), ["a", "*rest"]);
    const inside = await resolveLocator(store, {
      file: "m.py",
      kind: "parameter",
      parent: { kind: "return" },
    });
    assert.deepEqual(inside.nodes.map((n) => n.text), []);
    const all = await resolveLocator(store, { file: "m.py", kind: "parameter" });
    assert.deepEqual(all.nodes.map((n) => n.text), ["a", "*rest", "b"]);
    const args = await resolveLocator(store, {
      file: "m.py",
      kind: "argument",
      parent: { kind: "call", name: "h" },
    });
    assert.deepEqual(args.nodes.map((n) => n.text), ["k(1)", "2", "key=3"]);
    const keyword = await resolveLocator(store, { file: "m.py", kind: "argument", name: "key" });
    assert.deepEqual(keyword.nodes.map((n) => n.text), ["key=3"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("field navigates to a named field; fields with several children give several nodes", async () => {
  const store = fixtureStore();
  const cond = await resolveLocator(store, { file: PY, kind: "if", field: "condition" });
  assert.deepEqual(cond.nodes.map((n) => n.text), ["not line"]);
  const ret = await resolveLocator(store, {
    file: PY,
    kind: "method",
    name: "add",
    index: 0,
    field: "return_type",
  });
  assert.deepEqual(ret.nodes.map((n) => n.text), ["None"]);
  const names = await resolveLocator(store, { file: PY, kind: "import", name: "collections", field: "name" });
  assert.deepEqual(names.nodes.map((n) => n.text), ["OrderedDict", "defaultdict as dd"]);
  const supers = await resolveLocator(store, {
    file: PY,
    kind: "class",
    name: "Inventory",
    field: "superclasses",
  });
  assert.deepEqual(supers.nodes.map((n) => n.text), ["(object)"]);
});

Deno.test("field errors: unknown to the language is invalid, absent from the node is not found", async () => {
  const store = fixtureStore();
  let issue = await oneIssue(
    resolveSome(store, { file: PY, kind: "function", name: "load", field: "bdy" }),
    "locator-invalid",
  );
  assert.equal(
    issue.message,
    'Unknown field "bdy" for python: function "load" (line 11) has fields "name", "parameters", "body"',
  );
  issue = await oneIssue(
    resolveSome(store, { file: PY, kind: "function", name: "load", field: "return_type" }),
    "locator-not-found",
  );
  assert.match(
    issue.message,
    /has no field "return_type" in "sample\.py": it has fields "name", "parameters", "body"/,
  );
  assert.deepEqual(issue.candidates!.map((c) => c.line), [11]);
});

Deno.test("kind: normalized names, raw node types, and errors listing the valid kinds", async () => {
  const store = fixtureStore();
  await assertLines(store, { file: PY, kind: "while_statement" }, ["while inventory.size"]);
  await assertLines(store, { file: PY, kind: "function_definition", name: "main" }, ["def main("]);
  let issue = await oneIssue(resolveSome(store, { file: PY, kind: "function_def" }), "locator-invalid");
  assert.match(
    issue.message,
    /^Unknown kind "function_def" for python \("sample\.py"\): valid kinds are method, function, /,
  );
  assert.match(issue.hint!, /"function_definition"/);
  assert.deepEqual(issue.path, ["kind"]);
  issue = await oneIssue(resolveSome(store, { file: PY, kind: "trait" }), "locator-invalid");
  assert.match(issue.message, /^Kind "trait" does not exist in python/);
  // Hidden (underscore) grammar rules are not node types.
  await oneIssue(resolveSome(store, { file: PY, kind: "_simple_statement" }), "locator-invalid");
});

Deno.test("name on a kind without names is refused", async () => {
  const store = fixtureStore();
  let issue = await oneIssue(
    resolveSome(store, { file: PY, kind: "statement", name: "x" }),
    "locator-invalid",
  );
  assert.equal(
    issue.message,
    'Locator field "name" does not apply to kind "statement": its nodes have no name',
  );
  assert.deepEqual(issue.path, ["name"]);
  issue = await oneIssue(resolveSome(store, { file: PY, kind: "return", name: "x" }), "locator-invalid");
  assert.match(issue.message, /does not apply to kind "return"/);
});

Deno.test("if, elif and while answer to their condition, for to its loop variables, as kind or node type", async () => {
  const store = fixtureStore();
  const { nodes } = await resolveSome(store, { file: PY, kind: "if" });
  const condition = nodes[0].childForFieldName("condition")!.text;
  for (const kind of ["if", "if_statement"]) {
    const found = await resolveSome(store, { file: PY, kind, name: condition });
    assert.deepEqual(found.nodes.map((node) => node.id), [nodes[0].id]);
  }
  await oneIssue(resolveSome(store, { file: PY, kind: "if", name: "x" }), "locator-not-found");
});

Deno.test("no kind: a name searches definitions; nothing at all is the file's root", async () => {
  const store = fixtureStore();
  await assertLines(store, { file: PY, name: "Inventory" }, ["class Inventory("]);
  await assertLines(store, { file: PY, name: "add" }, ["def add(self, item", "def add(self):"]);
  const root = await resolveOne(store, { file: PY });
  assert.equal(root.node.type, "module");
  await assertLines(store, { file: PY, nth_child: -1 }, ["def main("]);
  const issue = await oneIssue(
    resolveSome(store, { file: PY, name: "nothing_like_it" }),
    "locator-not-found",
  );
  assert.match(issue.message, /no symbol "nothing_like_it" in "sample\.py"/);
});

Deno.test("sexp locators: predicates, capture defaults, index and parent", async () => {
  const store = fixtureStore();
  const sexp = (query: string, rest: Partial<Locator> = {}): Locator => ({
    type: "sexp",
    file: PY,
    query,
    ...rest,
  });
  // The seed's spelling: a top-level predicate after the pattern.
  await assertLines(store, sexp('(identifier) @id (#eq? @id "inventory")', { capture: "id" }), [
    "inventory = Inventory(",
    "while inventory.size",
    "print(osp.join",
  ]);
  await assertLines(store, sexp('((identifier) @id (#eq? @id "dd"))'), [
    "from collections",
    "self.counts = dd",
  ]);
  await assertLines(
    store,
    sexp('(call function: (identifier) @fn (#match? @fn "^(len|print)$")) @call', { capture: "@call" }),
    [
      "return len(",
      "print(osp.join",
    ],
  );
  await assertLines(
    store,
    sexp('(call function: (identifier) @fn) @call (#any-of? @fn "open" "dd")', { capture: "fn" }),
    [
      "with open(",
      "self.counts = dd",
    ],
  );
  // "target" is the default capture when present, else the first capture.
  await assertLines(store, sexp("(class_definition name: (identifier) @name) @target"), [
    "class Inventory(",
    "class Meta:",
  ]);
  await assertLines(store, sexp("(decorator (identifier) @d)"), ["@property"]);
  // index and parent apply as for structured locators.
  await assertLines(store, sexp("(return_statement) @r", { index: -1 }), ["return None"]);
  await assertLines(store, sexp("(return_statement) @r", { parent: { kind: "class", name: "Inventory" } }), [
    "return len(",
    "return None",
  ]);
  await assertLines(store, {
    file: PY,
    kind: "call",
    parent: { type: "sexp", query: '(function_definition name: (identifier) @n (#eq? @n "main")) @target' },
  }, [
    "inventory = Inventory(",
    "inventory = Inventory(",
    "inventory = Inventory(",
    "print(osp",
    "print(osp",
  ]);
  const none = await resolveLocator(store, sexp('((identifier) @id (#eq? @id "absent"))'));
  assert.deepEqual(none.nodes, []);
  const issue = await oneIssue(
    resolveSome(store, sexp('((identifier) @id (#eq? @id "absent"))')),
    "locator-not-found",
  );
  assert.match(issue.message, /^Cannot resolve locator: no query .* in "sample\.py"$/);
});

Deno.test("sexp errors: a bad query, an unknown capture, no capture", async () => {
  const store = fixtureStore();
  let issue = await oneIssue(
    resolveSome(store, { type: "sexp", file: PY, query: "(identifer) @id" }),
    "locator-invalid",
  );
  assert.match(issue.message, /^Invalid S-expression query for python: .*identifer/);
  assert.deepEqual(issue.path, ["query"]);
  issue = await oneIssue(
    resolveSome(store, { type: "sexp", file: PY, query: "(identifier @id" }),
    "locator-invalid",
  );
  assert.match(issue.message, /^Invalid S-expression query for python: /);
  issue = await oneIssue(
    resolveSome(store, { type: "sexp", file: PY, query: "(call) @c", capture: "x" }),
    "locator-invalid",
  );
  assert.equal(issue.message, 'Unknown capture "@x": the query captures "@c"');
  assert.deepEqual(issue.path, ["capture"]);
  issue = await oneIssue(resolveSome(store, { type: "sexp", file: PY, query: "(call)" }), "locator-invalid");
  assert.equal(issue.message, "The query captures nothing");
});

Deno.test("attachTopLevelPredicates leaves well-formed queries alone", () => {
  assert.equal(
    attachTopLevelPredicates('((identifier) @id (#eq? @id "x"))'),
    '((identifier) @id (#eq? @id "x"))',
  );
  assert.equal(
    attachTopLevelPredicates('(identifier) @id (#eq? @id "x")'),
    '((identifier) @id (#eq? @id "x"))',
  );
  assert.equal(
    attachTopLevelPredicates(
      '(call) @c\n(identifier) @id (#match? @id "^(a|b)\\"$") ; comment (#eq? @x "y")',
    ),
    '(call) @c\n((identifier) @id (#match? @id "^(a|b)\\"$"))',
  );
});

Deno.test("resolution reads the live document: overlay edits and disk changes", async () => {
  const { store, dir } = await tempStore({ "m.py": "class A:\n    def f(self):\n        pass\n" });
  try {
    const overlay = store.overlay();
    const doc = await overlay.get("m.py");
    overlay.set(await overlay.reparse(doc, doc.file.text + "\n    def g(self):\n        return 1\n"));
    await assertLines(overlay, { file: "m.py", kind: "method", parent: { kind: "class", name: "A" } }, [
      "def f(",
      "def g(",
    ]);
    // The base store never saw the overlay's edit.
    await assertLines(store, { file: "m.py", kind: "method" }, ["def f("]);
    await Deno.writeTextFile(
      `${dir}/m.py`,
      "def h():\n    pass\n\nclass A:\n    def f(self):\n        pass\n",
    );
    await assertLines(store, { file: "m.py", kind: "method", name: "f" }, ["def f("]);
    const { node } = await resolveOne(store, { file: "m.py", kind: "method", name: "f" });
    assert.equal(node.startPosition.row + 1, 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("file: defaultFile, a missing file, a parent in another file", async () => {
  const store = fixtureStore();
  const { nodes } = await resolveLocator(store, { kind: "class", name: "Meta" }, { defaultFile: PY });
  assert.equal(nodes.length, 1);
  let issue = await oneIssue(resolveSome(store, { kind: "class" }, { path: ["target"] }), "locator-invalid");
  assert.deepEqual(issue.path, ["target", "file"]);
  issue = await oneIssue(
    resolveSome(store, { file: PY, kind: "method", parent: { file: "sample.js", kind: "class" } }),
    "locator-invalid",
  );
  assert.match(
    issue.message,
    /^A parent locator must be in its locator's file: "sample\.js" is not "sample\.py"$/,
  );
  await resolveSome(store, {
    file: PY,
    kind: "method",
    parent: { file: "./sample.py", kind: "class", index: 0 },
  });
  const missing = await issuesOf(resolveSome(store, { file: "nope.py", kind: "class" }));
  assert.equal(missing[0].code, "file-not-found");
});

Deno.test("locateResult, locateRegion and describeNode", async () => {
  const { store, dir } = await tempStore({ "u.py": '# café ☕ 𝄞\ndef f():\n    return "é"\n' });
  try {
    const { doc, nodes } = await resolveSome(store, { file: "u.py", kind: "function" });
    assert.deepEqual(locateResult(doc, nodes), {
      found: true,
      count: 1,
      file: "u.py",
      nodes: [{
        start_line: 2,
        end_line: 3,
        kind: "function",
        type: "function_definition",
        text_preview: "def f():",
      }],
    });
    assert.deepEqual(locateResult(doc, []), { found: false, count: 0, file: "u.py", nodes: [] });
    const region = locateRegion(doc, nodes[0]);
    // UTF-16 offsets: 𝄞 is two code units, é and ☕ one each.
    assert.equal(region.start_byte, doc.file.text.indexOf("def f"));
    assert.equal(region.start_byte, 12);
    assert.notEqual(region.start_byte, new TextEncoder().encode("# café ☕ 𝄞\n").length);
    assert.equal(region.end_byte, doc.file.text.length - 1);
    assert.equal(region.text, 'def f():\n    return "é"');
    assert.deepEqual([region.start_line, region.end_line], [2, 3]);
    assert.deepEqual(describeNode(nodes[0], "u.py"), {
      file: "u.py",
      line: 2,
      kind: "function",
      text: "def f():",
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("nodeName: definitions, calls by last identifier, imports by module", async () => {
  const store = fixtureStore();
  const name = async (locator: Locator) => {
    const { doc, node } = await resolveOne(store, locator);
    return nodeName(node, doc.file.language);
  };
  assert.equal(await name({ file: PY, kind: "method", name: "size" }), "size");
  assert.equal(await name({ file: PY, kind: "call", name: "os.environ.get" }), "get");
  assert.equal(await name({ file: PY, kind: "import", name: "dd" }), "collections");
  assert.equal(await name({ file: PY, kind: "if" }), undefined);
  assert.equal(await name({ file: "sample.go", kind: "method", name: "Get" }), "Get");
  assert.equal(await name({ file: "sample.cpp", kind: "method", name: "add" }), "add");
  assert.equal(await name({ file: "sample.rs", kind: "impl", name: "Display" }), "Item");
  assert.equal(await name({ file: "sample.php", kind: "parameter", name: "path" }), "$path");
  assert.equal(await name({ file: "sample.js", kind: "function", name: "helper" }), "helper");
});
