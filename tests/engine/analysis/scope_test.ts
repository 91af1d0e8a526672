import assert from "node:assert/strict";
import type { Document } from "../../../engine/parse/documents.ts";
import { parse } from "../../../engine/parse/mod.ts";
import {
  moduleScope,
  occurrencesOf,
  PYTHON_BUILTINS,
  referencesTo,
  resolveName,
  roleOf,
  scopeChainAt,
} from "../../../engine/analysis/scope.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { corpusFile } from "../verify/levels/_support.ts";

async function pythonDoc(path: string, text: string): Promise<Document> {
  const tree = await parse("python", text);
  return {
    file: { path, absPath: `/tmp/${path}`, language: "python", text, bom: false, eol: "\n", mode: null },
    tree,
  };
}

/** The identifier node of the `nth` whole-word occurrence of `name` after `anchor`. */
function nameAfter(doc: Document, anchor: string, name: string) {
  const from = doc.file.text.indexOf(anchor);
  assert.ok(from >= 0, `anchor "${anchor}" not found`);
  const found = occurrencesOf(doc, name, { from, to: doc.file.text.length })[0];
  assert.ok(found, `"${name}" not found after "${anchor}"`);
  return found.node;
}

Deno.test({
  name: "scope: module bindings of requests/models.py include its imports, classes and constants",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { path, text } = await corpusFile("psf__requests-5414", "requests/models.py");
    const doc = await pythonDoc(path, text);
    const module = moduleScope(doc);
    assert.equal(module.bindings.get("datetime")?.[0].kind, "import");
    assert.equal(module.bindings.get("encodings")?.[0].module, "encodings.idna");
    assert.equal(module.bindings.get("RequestsJSONDecodeError")?.[0].imported, "JSONDecodeError");
    assert.equal(module.bindings.get("Response")?.[0].kind, "class");
    assert.equal(module.bindings.get("ITER_CHUNK_SIZE")?.[0].kind, "assignment");
    // methods bind in their class, not in the module
    assert.equal(module.bindings.has("prepare_method"), false);
    assert.equal(module.starImport, false);
  },
});

Deno.test({
  name: "scope: a class attribute is visible in the class body but not in its methods",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { path, text } = await corpusFile("psf__requests-5414", "requests/models.py");
    const edited = text.replace("        return self._next\n", "        return __attrs__\n");
    const doc = await pythonDoc(path, edited);
    const inMethod = nameAfter(doc, "def next(self):", "__attrs__");
    assert.equal(resolveName(doc, "__attrs__", inMethod).status, "missing");
    const chain = scopeChainAt(doc, inMethod);
    assert.deepEqual(chain.map((scope) => scope.kind), ["function", "class", "module"]);
    assert.equal(chain[1].bindings.has("__attrs__"), true);
    // the method's own parameter and the module's names resolve
    assert.equal(resolveName(doc, "self", inMethod).scope?.kind, "function");
    assert.equal(resolveName(doc, "REDIRECT_STATI", inMethod).scope?.kind, "module");
    assert.equal(resolveName(doc, "len", inMethod).status, "builtin");
  },
});

Deno.test({
  name: "scope: nonlocal names resolve to the enclosing function, later assignments count (rewrite.py)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { path, text } = await corpusFile("pytest-dev__pytest-11143", "src/_pytest/assertion/rewrite.py");
    const doc = await pythonDoc(path, text);
    const use = nameAfter(doc, "nonlocal depth, lines", "assert_lineno");
    const inner = scopeChainAt(doc, use)[0];
    assert.equal(inner.kind, "function");
    assert.ok(inner.nonlocals.has("assert_lineno"));
    const resolved = resolveName(doc, "assert_lineno", use);
    assert.equal(resolved.status, "bound");
    assert.equal(resolved.scope?.node.childForFieldName("name")?.text, "_get_assertion_exprs");
    // `tokens` is assigned after the nested function, in the enclosing one: still bound
    assert.equal(
      resolveName(doc, "tokens", use).scope?.node.childForFieldName("name")?.text,
      "_get_assertion_exprs",
    );
  },
});

Deno.test({
  name: "scope: a name declared global in a function is bound module-wide (evalf.py)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { path, text } = await corpusFile("sympy__sympy-13372", "sympy/core/evalf.py");
    const edited = text.replace(
      "    global evalf_table\n",
      "    global evalf_table, evalf_hits\n    evalf_hits = 0\n",
    );
    const doc = await pythonDoc(path, edited);
    const elsewhere = nameAfter(doc, "rf = evalf_table[x.func]", "evalf_table");
    assert.equal(resolveName(doc, "evalf_table", elsewhere).status, "bound");
    assert.equal(resolveName(doc, "evalf_hits", elsewhere).status, "bound");
    assert.equal(resolveName(doc, "evalf_misses", elsewhere).status, "missing");
  },
});

Deno.test("scope: comprehension and lambda scopes do not leak, the first iterable is evaluated outside", async () => {
  const doc = await pythonDoc(
    "c.py",
    [
      "def f(items):",
      "    squares = [n * n for n in items if n]",
      "    fn = lambda k, *rest: k",
      "    return n, k, squares, fn",
      "",
    ].join("\n"),
  );
  const ret = doc.file.text.indexOf("return n");
  const node = (name: string, from: number) =>
    occurrencesOf(doc, name, { from, to: doc.file.text.length })[0].node;
  assert.equal(resolveName(doc, "n", node("n", ret)).status, "missing");
  assert.equal(resolveName(doc, "k", node("k", ret)).status, "missing");
  const inside = node("n", doc.file.text.indexOf("[n"));
  assert.equal(scopeChainAt(doc, inside)[0].kind, "comprehension");
  assert.equal(resolveName(doc, "n", inside).scope?.kind, "comprehension");
  const iterable = node("items", doc.file.text.indexOf("in items"));
  assert.equal(scopeChainAt(doc, iterable)[0].kind, "function");
  assert.equal(resolveName(doc, "rest", node("k", doc.file.text.indexOf(": k"))).scope?.kind, "lambda");
});

Deno.test("scope: a star import makes unbound names unknown, not missing", async () => {
  const doc = await pythonDoc("s.py", "from os.path import *\n\ndef f():\n    return join(a, b)\n");
  const use = occurrencesOf(doc, "join")[0].node;
  assert.equal(resolveName(doc, "join", use).status, "unknown");
  assert.equal(resolveName(doc, "print", use).status, "builtin");
});

Deno.test("scope: roles of attribute names, keyword names, parameters and targets", async () => {
  const doc = await pythonDoc(
    "r.py",
    "import os.path as osp\nfor a, (b, *c) in x:\n    y.attr = f(key=a)\ndef g(p, q: int = 1, *r, s, **t): pass\nwith open(p) as (h, i): pass\n",
  );
  const role = (name: string, nth = 0) => roleOf(occurrencesOf(doc, name)[nth].node);
  assert.equal(role("os"), "none");
  assert.equal(role("osp"), "none");
  for (const name of ["a", "b", "c", "p", "q", "r", "s", "t", "h", "i"]) {
    assert.equal(role(name), "binding", name);
  }
  assert.equal(role("x"), "reference");
  assert.equal(role("attr"), "none");
  assert.equal(role("key"), "none");
  assert.equal(role("a", 1), "reference");
  assert.equal(role("int"), "reference");
  assert.equal(moduleScope(doc).bindings.get("osp")?.[0].module, "os.path");
});

Deno.test({
  name: "scope: references of a binding skip shadowing locals and attribute names",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { path, text } = await corpusFile("psf__requests-5414", "requests/models.py");
    const doc = await pythonDoc(path, text);
    const binding = moduleScope(doc).bindings.get("codes")![0];
    const refs = referencesTo(doc, binding);
    assert.ok(refs.length >= 6);
    for (const ref of refs) assert.equal(ref.text, "codes");
  },
});

Deno.test("scope: the builtins table covers Python 3 builtins", () => {
  for (
    const name of [
      "print",
      "len",
      "isinstance",
      "ValueError",
      "ExceptionGroup",
      "aiter",
      "__name__",
      "NotImplemented",
    ]
  ) {
    assert.ok(PYTHON_BUILTINS.has(name), name);
  }
  assert.equal(PYTHON_BUILTINS.has("unicode"), false);
});
