/**
 * Re-running a plan on requests' auth.py: every step kind finds its code
 * already in place the same way (an `already-present` warning, nothing
 * changed) instead of inserting it twice: a fragment, the insertion
 * primitives, a template, the legacy insert_code and replace_code.
 * CPython parses the result; the second run leaves the file byte for byte.
 *
 * @module
 */

import assert from "node:assert/strict";
import { repeatedAt } from "../../../engine/edit/already_present.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { assertPythonParses } from "../../_support/python.ts";
import { applyAt, tempRepo } from "../../_support/plans.ts";
import { corpusFile } from "./_edit_support.ts";

const AUTH = "requests/auth.py";
const DIGEST = { file: AUTH, kind: "method", name: "build_digest_header" };
const BASIC = { file: AUTH, kind: "class", name: "HTTPBasicAuth" };

const PLAN = [
  // tier 3: a fragment appended to a class body
  {
    fragment: {
      kind: "function_definition",
      properties: { name: "__repr__", parameters: "self" },
      children: [{ kind: "return_statement", properties: { value: "'<HTTPBasicAuth %s>' % self.username" } }],
    },
    action: "append_to_body",
    target: BASIC,
  },
  // tier 3: a statement before another
  {
    fragment: {
      kind: "expression_statement",
      properties: { expression: "self.chal.setdefault('qop', None)" },
    },
    action: "insert_before",
    target: { file: AUTH, kind: "if", name: "algorithm is None", parent: DIGEST },
  },
  // tier 0: the insertion primitive
  {
    op: "insert_after_node",
    params: {
      locator: { file: AUTH, kind: "assignment", name: "self.last_nonce", parent: DIGEST },
      code: "self.nonce_seen = True",
    },
  },
  // tier 2: a template
  {
    template: "guard_clause",
    params: { target: DIGEST, condition: "not self.chal", guard_body: "return None" },
  },
  // tier 0: the legacy operators, by line and by pattern
  { op: "insert_code", params: { file: AUTH, anchor_line: 1, position: "after", code: "# auth handlers" } },
  {
    op: "replace_code",
    params: {
      file: AUTH,
      pattern: "        self.pos = None\n",
      replacement: "        self.pos = None\n        self.attempts = 0\n",
    },
  },
];

Deno.test({
  name: "a plan applied twice: the second run changes nothing and every step says already-present",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const before = await corpusFile("psf__requests-1766", AUTH);
    const dir = await tempRepo({ [AUTH]: before });
    try {
      const first = await applyAt(dir, PLAN);
      assert.equal(first.success, true, JSON.stringify(first.errors));
      assert.equal(first.warnings.filter((issue) => issue.code === "already-present").length, 0);
      const once = await Deno.readTextFile(`${dir}/${AUTH}`);
      await assertPythonParses(once);
      assert.notEqual(once, before);
      const second = await applyAt(dir, PLAN);
      assert.equal(second.success, true, JSON.stringify(second.errors));
      assert.equal(await Deno.readTextFile(`${dir}/${AUTH}`), once, "the second run changed the file");
      const present = second.warnings.filter((issue) => issue.code === "already-present");
      assert.deepEqual(present.map((issue) => issue.step), [0, 1, 2, 3, 4, 5]);
      for (const issue of present) assert.ok(issue.line && issue.file === AUTH, JSON.stringify(issue));
      assert.equal(once.match(/def __repr__/g)?.length, 1);
      assert.equal(once.match(/self\.attempts = 0/g)?.length, 1);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("repeatedAt: the same lines at the same indentation, above or below; not across a dedent", () => {
  const text = "def f(xs):\n    for x in xs:\n        return x\n    y = 1\n";
  const at = text.indexOf("    y = 1");
  assert.equal(repeatedAt(text, { start: at, end: at, replacement: "    y = 1\n" }), 4);
  assert.equal(repeatedAt(text, { start: at, end: at, replacement: "        return x\n" }), 3);
  assert.equal(repeatedAt(text, { start: at, end: at, replacement: "    return x\n" }), undefined);
  assert.equal(repeatedAt(text, { start: at, end: at, replacement: "\n    z = 2\n" }), undefined);
  // inline insertions (a list element) are not judged
  assert.equal(repeatedAt("f(a, b)\n", { start: 4, end: 4, replacement: " a," }), undefined);
  // a replacement adding lines already there is a repeat; one extending an expression is not
  const assign = "x = 1\ny = 2\nz = x + 1\n";
  assert.equal(repeatedAt(assign, { start: 0, end: 5, replacement: "x = 1\ny = 2" }), 1);
  const x = assign.indexOf("x + 1");
  assert.equal(repeatedAt(assign, { start: x, end: x + 1, replacement: "x + 1" }), undefined);
});
