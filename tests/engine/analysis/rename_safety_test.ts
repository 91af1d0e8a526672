import assert from "node:assert/strict";
import type { Document } from "../../../engine/parse/documents.ts";
import { parse } from "../../../engine/parse/mod.ts";
import { bindingCollisions, checkNewName } from "../../../engine/analysis/rename_safety.ts";
import { occurrencesOf } from "../../../engine/analysis/scope.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { corpusFile } from "../verify/levels/_support.ts";

const ignore = CORPUS_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping rename tests: ${CORPUS_SKIP}`);

async function rewriteDoc(): Promise<Document> {
  const { path, text } = await corpusFile("pytest-dev__pytest-11143", "src/_pytest/assertion/rewrite.py");
  const tree = await parse("python", text);
  return {
    file: { path, absPath: `/tmp/${path}`, language: "python", text, bom: false, eol: "\n", mode: null },
    tree,
  };
}

/** The binding identifier of `name` on the line containing `anchor`. */
function bindingNode(doc: Document, anchor: string, name: string) {
  const from = doc.file.text.indexOf(anchor);
  assert.ok(from >= 0, anchor);
  return occurrencesOf(doc, name, { from, to: from + anchor.length })[0].node;
}

function codes(issues: { code: string; severity: string }[]): string[] {
  return issues.map((issue) => `${issue.severity}:${issue.code}`);
}

Deno.test("rename: checkNewName refuses invalid identifiers and keywords", () => {
  assert.deepEqual(checkNewName("normalized_value", "python"), []);
  assert.deepEqual(checkNewName("match", "python"), []); // a soft keyword is a valid name
  assert.deepEqual(codes(checkNewName("class", "python")), ["error:rename-keyword"]);
  assert.deepEqual(codes(checkNewName("1abc", "python")), ["error:rename-invalid-name"]);
  assert.deepEqual(codes(checkNewName("a-b", "python")), ["error:rename-invalid-name"]);
  assert.deepEqual(checkNewName("$el", "javascript"), []);
  assert.deepEqual(codes(checkNewName("let", "typescript")), ["error:rename-keyword"]);
  assert.deepEqual(codes(checkNewName("fn", "rust")), ["error:rename-keyword"]);
  assert.deepEqual(checkNewName("empty?", "ruby"), []);
});

Deno.test({
  name: "rename: a fresh name in a function has no collisions",
  ignore,
  async fn() {
    const doc = await rewriteDoc();
    assert.deepEqual(bindingCollisions(doc, bindingNode(doc, "    depth = 0", "depth"), "nesting"), []);
  },
});

Deno.test({
  name: "rename: a name already bound in the same scope collides (a parameter, a loop variable)",
  ignore,
  async fn() {
    const doc = await rewriteDoc();
    const depth = bindingNode(doc, "    depth = 0", "depth");
    assert.deepEqual(codes(bindingCollisions(doc, depth, "src")), ["error:rename-collision"]);
    assert.deepEqual(codes(bindingCollisions(doc, depth, "tokens")), ["error:rename-collision"]);
  },
});

Deno.test({
  name: "rename: capturing an existing use of an outer name is a collision",
  ignore,
  async fn() {
    const doc = await rewriteDoc();
    // `tokenize` (a module import) is used inside _get_assertion_exprs
    const issues = bindingCollisions(doc, bindingNode(doc, "    depth = 0", "depth"), "tokenize");
    assert.deepEqual(codes(issues), ["error:rename-collision"]);
    assert.match(issues[0].message, /existing use of "tokenize"/);
    // renaming the module import `tokenize` to `source` would be captured by the loop variable `source`
    const module = bindingCollisions(doc, bindingNode(doc, "import tokenize", "tokenize"), "source");
    assert.deepEqual(codes(module), ["error:rename-collision"]);
  },
});

Deno.test({
  name: "rename: shadowing a builtin or an outer name, or being shadowed, is a warning",
  ignore,
  async fn() {
    const doc = await rewriteDoc();
    const depth = bindingNode(doc, "    depth = 0", "depth");
    assert.deepEqual(codes(bindingCollisions(doc, depth, "vars")), ["warning:rename-shadows"]);
    // `len` is used in the function: renaming to it would capture those uses
    assert.deepEqual(codes(bindingCollisions(doc, depth, "len")), ["error:rename-collision"]);
    // a module import renamed to a name some function binds locally
    const issues = bindingCollisions(doc, bindingNode(doc, "import struct", "struct"), "ret");
    assert.ok(codes(issues).includes("warning:rename-shadowed"), JSON.stringify(issues));
  },
});
