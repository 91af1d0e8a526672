/**
 * L0 statement context outside every function, where only the node around
 * the change and its ancestors are judged (`around` in
 * `statement_context.ts`): a statement written in place of a `pass` in a
 * module-level block (a class body, a loop, a `with`, a `try`) of a file
 * holding large literals, and an argument written into a module-level call,
 * are refused exactly when CPython's `compile()` refuses the new file (and
 * accepted the old one). The verdicts that depend on the ancestors (a
 * `return` in a class body, `break` in a loop's `else`) and those of the
 * ancestors themselves (an argument list's order, a block left empty) are
 * both covered.
 */

import assert from "node:assert/strict";
import { contextViolations } from "../../../../engine/analysis/statement_context.ts";
import { newContextIssues } from "../../../../engine/verify/levels/l0_context.ts";
import { type Document, DocumentStore } from "../../../../engine/parse/documents.ts";
import { syntaxProblems } from "../../../../engine/parse/mod.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { PYTHON_SKIP, pythonCompileErrors } from "../../../_support/python.ts";
import { CONTEXT_STATEMENTS, fillHole } from "../../../_support/context_snippets.ts";

/** Blocks outside every function; `{S}` is where the statement goes (a `pass` before the change). */
const BLOCKS = [
  "{S}",
  "class A:\n    X = 1\n    {S}",
  "class A:\n    class B:\n        {S}",
  "for i in x:\n    {S}",
  "while x:\n    pass\nelse:\n    {S}",
  "for i in x:\n    pass\nelse:\n    {S}",
  "class A:\n    for i in x:\n        {S}",
  "if x:\n    {S}",
  "with y:\n    {S}",
  "try:\n    {S}\nexcept E:\n    pass",
  "class A:\n    def f(self):\n        x = 1\n    {S}",
];

/** Calls at module level whose last argument (at `{S}`) is written by the change (an ancestor's verdict). */
const CALLS = [
  ["f(a=1, {S})", ["b", "c=2", "*d", "**e", "a=3"]],
  ["f(**k, {S})", ["b", "*d", "c=2"]],
  ["x = g(1, key=2, {S})", ["z", "(1, 2)", "other=3"]],
] as const;

const PAD = (name: string) =>
  `${name} = {\n${
    Array.from({ length: 100 }, (_, k) => `    "k${k}": ("v${k}", [${k}, ${k + 1}]),\n`).join("")
  }}\n`;

/** The before and after texts of one case: large literals around the changed statement. */
function texts(block: string, placeholder: string, written: string): { before: string; after: string } {
  const wrap = (inner: string) => `import os\n${PAD("HEAD")}\n${inner}\n${PAD("TAIL")}`;
  return { before: wrap(fillHole(block, placeholder)), after: wrap(fillHole(block, written)) };
}

Deno.test({
  name:
    "L0 context outside functions: a change in a module-level block or call is refused exactly when CPython refuses it",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const cases: { what: string; before: string; after: string }[] = [];
    for (const block of BLOCKS) {
      for (const statement of CONTEXT_STATEMENTS) {
        cases.push({
          what: `${JSON.stringify(statement)} in ${JSON.stringify(block)}`,
          ...texts(block, "pass", statement),
        });
      }
    }
    for (const [call, args] of CALLS) {
      for (const arg of args) {
        cases.push({ what: `${JSON.stringify(arg)} in ${JSON.stringify(call)}`, ...texts(call, "y", arg) });
      }
    }
    const dir = await Deno.makeTempDir({ prefix: "graphplan-l0-around-" });
    // each block's old text is shared by all its cases: compiled and parsed once
    const unique = [...new Set(cases.flatMap((c) => [c.before, c.after]))];
    const compiled = await pythonCompileErrors(unique);
    const verdict = new Map(unique.map((text, k) => [text, compiled[k]]));
    const befores = new Map<string, Document>();
    const store = new DocumentStore(Workspace.open(dir));
    const mismatches: string[] = [];
    let judged = 0;
    let refused = 0;
    for (const item of cases) {
      const [oldError, newError] = [verdict.get(item.before), verdict.get(item.after)];
      if (!befores.has(item.before)) {
        await Deno.writeTextFile(`${dir}/m${befores.size}.py`, item.before);
        befores.set(item.before, await store.get(`m${befores.size}.py`));
      }
      const before = befores.get(item.before)!;
      const path = before.file.path;
      const after = await store.reparse(before, item.after);
      // only what the grammar parses and the old text compiles is L0 context's to judge
      if (oldError !== null || syntaxProblems(after.tree).length > 0) continue;
      judged++;
      const issues = newContextIssues(path, before, after, 0);
      if (newError !== null) refused++;
      if ((issues.length > 0) !== (newError !== null)) {
        mismatches.push(
          `${item.what}: GraphPlan ${JSON.stringify(issues.map((i) => i.code))}, CPython ${newError}`,
        );
      }
    }
    await Deno.remove(dir, { recursive: true });
    assert.deepEqual(mismatches, []);
    assert.ok(judged > 250 && refused > 150, `${judged} judged, ${refused} refused`);
  },
});

Deno.test("L0 context outside functions: `around` judges the node's subtree and its ancestors only", async () => {
  const text = "f(a=1, b)\nclass A:\n    return\n    x = [1, 2]\n    g(k=1, {'s': v})\n";
  const store = new DocumentStore(Workspace.open(await Deno.makeTempDir({ prefix: "graphplan-l0-around-" })));
  const dir = store.workspace.root;
  await Deno.writeTextFile(`${dir}/m.py`, text);
  const root = (await store.get("m.py")).tree.rootNode;
  const at = (snippet: string, type: string) => {
    let node = root.descendantForIndex(text.indexOf(snippet));
    while (node && node.type !== type) node = node.parent;
    return node!;
  };
  const codes = (around: ReturnType<typeof at>) =>
    contextViolations(root, "python", { around }).map((v) => v.code);
  // the whole file has three findings; a node sees those of its ancestors and of its subtree
  assert.deepEqual(contextViolations(root, "python").map((v) => v.code), [
    "argument-order",
    "return-outside-function",
    "argument-order",
  ]);
  assert.deepEqual(codes(at("[1, 2]", "list")), []);
  assert.deepEqual(codes(at("'s'", "string")), ["argument-order"]);
  assert.deepEqual(codes(at("b)", "identifier")), ["argument-order"]);
  assert.deepEqual(codes(at("class A", "class_definition")), ["return-outside-function", "argument-order"]);
  await Deno.remove(dir, { recursive: true });
});
