import assert from "node:assert/strict";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { verifyPlan } from "../../../../engine/verify/mod.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus, materialize } from "../../../_support/corpus.ts";

const ignore = CORPUS_SKIP !== undefined;
const FILE = "sympy/matrices/expressions/matexpr.py";
const derivative = {
  file: FILE,
  kind: "method",
  name: "_eval_derivative",
  parent: { kind: "class", name: "MatrixElement" },
};

async function verifySympy12419(plan: unknown[]) {
  const instance = (await loadCorpus()).find((item) => item.instance_id === "sympy__sympy-12419")!;
  const dir = await materialize(instance);
  try {
    return await verifyPlan(new DocumentStore(Workspace.open(dir)), plan);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A guard in `_eval_derivative` above the `if self.args[0] != v.args[0]` check, returning `body`. */
const guard = (body: string) => ({
  template: "guard_clause",
  params: {
    target: { file: FILE, kind: "if", parent: derivative, index: 2 },
    condition: "self.args[1:] == v.args[1:]",
    guard_body: body,
  },
});

Deno.test({
  name:
    "use before binding: a read of KroneckerDelta above the method's own import fails with both lines (sympy-12419)",
  ignore,
  async fn() {
    // the method imports KroneckerDelta locally at line 378, so the name is local to the whole method
    const result = await verifySympy12419([guard("return KroneckerDelta(self.args[1], v.args[1])")]);
    assert.equal(result.passed, false);
    const found = result.errors.filter((issue) => issue.code === "use-before-binding");
    assert.equal(found.length, 1);
    assert.equal(found[0].line, 376);
    assert.equal(found[0].step, 0);
    assert.match(
      found[0].message,
      /"KroneckerDelta" is read at line 376 before "MatrixElement\._eval_derivative" binds it at line 381/,
    );
  },
});

Deno.test({
  name: "use before binding: judged on the final file: a later step binding above the read repairs it",
  ignore,
  async fn() {
    // step 0 reads `delta` (unbound after it), step 1 binds it above the read: the final method is fine
    const bind = {
      fragment: { kind: "assignment", properties: { target: "delta", value: "S.One" } },
      action: "insert_before",
      target: { file: FILE, kind: "if", parent: derivative, index: 0 },
    };
    const repaired = await verifySympy12419([guard("return delta"), bind]);
    assert.deepEqual(repaired.errors, []);
    // the same binding placed below the read leaves the read before it
    const below = {
      ...bind,
      action: "insert_after",
      target: { file: FILE, kind: "if", parent: derivative, index: 2 },
    };
    const broken = await verifySympy12419([guard("return delta"), below]);
    assert.deepEqual(broken.errors.map((issue) => `${issue.step} ${issue.code}`), ["1 use-before-binding"]);
  },
});
