/**
 * L1 and argument lists: a positional argument may become a keyword
 * argument and back (argument-list elements are one family), on a real
 * `re.compile(patStr, re.VERBOSE)` of sympy; what L1 still refuses reads
 * with the right article.
 *
 * @module
 */

import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../../_support/corpus.ts";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { corpusFile } from "../../edit/_edit_support.ts";
import { applyAt, tempRepo, verifyAt } from "../../../_support/plans.ts";
import { withArticle } from "../../../../engine/verify/levels/quote.ts";

const INSTANCE = "sympy__sympy-24102";
const FILE = "sympy/parsing/mathematica.py";
// `pat = re.compile(patStr, re.VERBOSE)` (line 329): the last of the file's seven `re.VERBOSE`
const VERBOSE = { file: FILE, kind: "attribute", name: "re.VERBOSE", index: -1 };

/** The keywords and positional-argument count of every `re.compile` call, by CPython's `ast`. */
const COMPILE_CALLS = `
import ast, json, sys
tree = ast.parse(json.load(sys.stdin))
out = []
for node in ast.walk(tree):
    if isinstance(node, ast.Call) and ast.unparse(node.func) == "re.compile":
        out.append({"line": node.lineno, "args": len(node.args), "keywords": {k.arg: ast.unparse(k.value) for k in node.keywords}})
print(json.dumps(out))
`;

Deno.test({
  name: "L1: re.compile(patStr, re.VERBOSE) -> flags=re.VERBOSE verifies, applies and CPython agrees",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const dir = await tempRepo({ [FILE]: await corpusFile(INSTANCE, FILE) });
    try {
      const plan = [{ op: "replace_node", params: { locator: VERBOSE, replacement: "flags=re.VERBOSE" } }];
      const verified = await verifyAt(dir, plan);
      assert.deepEqual(verified.errors, []);
      const applied = await applyAt(dir, plan);
      assert.equal(applied.success, true, JSON.stringify(applied.errors));
      const after = await Deno.readTextFile(`${dir}/${FILE}`);
      type Call = { line: number; args: number; keywords: Record<string, string> };
      const calls = await runPythonJson<Call[]>(COMPILE_CALLS, after);
      const flagged = calls.filter((call) => Object.keys(call.keywords).length > 0);
      assert.deepEqual(flagged, [{ line: 329, args: 1, keywords: { flags: "re.VERBOSE" } }]);
      assert.equal(
        calls.filter((call) => call.args === 2).length,
        6,
        "the other six calls keep both arguments",
      );
      // and back: the keyword argument becomes positional again
      const back = [{
        op: "replace_node",
        params: { locator: { file: FILE, kind: "argument", name: "flags" }, replacement: "re.VERBOSE" },
      }];
      assert.deepEqual((await verifyAt(dir, back)).errors, []);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "L1: a method replaced by an assignment is still refused, with 'an' where the word needs it",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const dir = await tempRepo({ [FILE]: await corpusFile(INSTANCE, FILE) });
    try {
      const method = { file: FILE, kind: "method", name: "_convert_function" };
      const plan = [{
        op: "replace_node",
        params: { locator: method, replacement: "_convert_function = None" },
      }];
      const kinds = (await verifyAt(dir, plan)).errors.filter((issue) => issue.code === "kind-changed");
      assert.equal(kinds.length, 1, JSON.stringify(kinds));
      assert.match(
        kinds[0].message,
        /^Edit replaces a "function_definition" with an "expression_statement" in /,
      );
      assert.equal(kinds[0].hint, "replace a function with a node of the same kind");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("withArticle: a/an by the sound of the word, quoted or not", () => {
  assert.equal(withArticle("expression"), "an expression");
  assert.equal(withArticle('"attribute"'), 'an "attribute"');
  assert.equal(withArticle("statement"), "a statement");
  assert.equal(withArticle('"unary_operator"'), 'a "unary_operator"');
  assert.equal(withArticle('"identifier"'), 'an "identifier"');
});
