/**
 * What a plan with slips gets back, on requests' auth.py: "did you mean"
 * for a misspelt field, locator field, kind or file; one rule for `name`
 * on conditionals; a reserved word is not an unbound name; the hint for
 * text that is not a plan shows a plan that validates.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parsePlan, parsePlanText, PLAN_SHAPE_HINT } from "../../../engine/plan/mod.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { tempRepo, verifyAt } from "../../_support/plans.ts";
import { corpusFile } from "../edit/_edit_support.ts";

const AUTH = "requests/auth.py";
const ignore = CORPUS_SKIP !== undefined;
const DIGEST = { file: AUTH, kind: "method", name: "build_digest_header" };

async function issuesOf(plan: unknown) {
  const dir = await tempRepo({ [AUTH]: await corpusFile("psf__requests-1766", AUTH) });
  try {
    const result = await verifyAt(dir, plan);
    return [...result.errors, ...result.warnings];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "did you mean: a template parameter, a locator field, a kind, a file",
  ignore,
  async fn() {
    const issues = await issuesOf([
      {
        template: "guard_clause",
        params: { target: DIGEST, conditon: "not self.chal", guard_body: "return" },
      },
      { op: "replace_node", params: { locator: { ...DIGEST, nme: "x" }, replacement: "pass" } },
      {
        op: "replace_node",
        params: { locator: { file: AUTH, kind: "index", index: 0 }, replacement: "x[1]" },
      },
      {
        op: "replace_node",
        params: { locator: { file: AUTH, kind: "functio", name: "_basic_auth_str" }, replacement: "x" },
      },
      {
        op: "replace_node",
        params: { locator: { ...DIGEST, file: "requests/auht.py" }, replacement: "pass" },
      },
      { op: "replace_code", params: { file: "request/auth.py", pattern: "nonce", replacement: "n" } },
    ]);
    const hintFor = (step: number, code: string) =>
      issues.find((issue) => issue.step === step && issue.code === code)?.hint;
    assert.equal(hintFor(0, "unknown-field"), 'did you mean "condition"?');
    assert.equal(hintFor(1, "unknown-field"), 'did you mean "name"?');
    assert.match(hintFor(2, "locator-invalid") ?? "", /^did you mean "subscript"\?/);
    assert.match(hintFor(3, "locator-invalid") ?? "", /^did you mean "function"\?/);
    assert.equal(hintFor(4, "file-not-found"), 'did you mean "requests/auth.py"?');
    assert.equal(hintFor(5, "file-not-found"), 'did you mean "requests/auth.py"?');
  },
});

Deno.test({
  name: "locators: kind if, elif_clause and while all take a name (their condition), on real code",
  ignore,
  async fn() {
    // each target must resolve to exactly one node: modify_condition refuses anything else
    const targets = [
      { kind: "if", name: "hash_utf8 is None" },
      { kind: "if_statement", name: "hash_utf8 is None" },
      { kind: "elif_clause", name: "_algorithm == 'SHA'" },
      { kind: "if", name: "_algorithm == 'MD5' or _algorithm == 'MD5-SESS'" },
    ];
    for (const target of targets) {
      const issues = await issuesOf([{
        template: "modify_condition",
        params: { target: { ...target, file: AUTH, parent: DIGEST }, condition: "nonce is None" },
      }]);
      assert.deepEqual(issues.filter((issue) => issue.severity === "error"), [], JSON.stringify(target));
    }
    const wrong = await issuesOf([{
      template: "modify_condition",
      params: { target: { file: AUTH, kind: "if", name: "nonce" }, condition: "x" },
    }]);
    assert.deepEqual(wrong.map((issue) => issue.code), ["locator-not-found"]);
  },
});

Deno.test({
  name: "a reserved word the grammar reads as a name is an error, not an unbound-name warning",
  ignore,
  async fn() {
    // tree-sitter-python parses `not if` without an ERROR node; CPython does not
    const issues = await issuesOf([{
      op: "replace_node",
      params: {
        locator: { file: AUTH, kind: "if", name: "entdig", parent: DIGEST },
        replacement: "if not if:\n    pass",
      },
    }]);
    assert.equal(
      issues.some((issue) => issue.code === "unbound-name" && issue.message.includes('"if"')),
      false,
    );
    assert.ok(issues.some((issue) => issue.code === "reserved-word-as-name" && issue.severity === "error"));
  },
});

Deno.test("the hint for text that is not a plan shows a template step, and that example validates", () => {
  const { issues } = parsePlanText('[{"template": "guard_clause", ');
  assert.equal(issues[0].code, "json-invalid");
  assert.equal(issues[0].hint, PLAN_SHAPE_HINT);
  const example = /e\.g\. (\[.*\]), or an object/.exec(PLAN_SHAPE_HINT)![1];
  const parsed = parsePlan(JSON.parse(example));
  assert.deepEqual(parsed.issues, []);
  assert.equal(JSON.parse(example)[0].template, "replace_expression");
});
