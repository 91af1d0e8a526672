import assert from "node:assert/strict";
import { makeRepo, snapshot } from "./_support.ts";
import { runTestStep } from "./_test_operator.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { executePlan, hasPendingJournal, type PostCheck } from "../../../engine/exec/mod.ts";
import { setThrowAfterStep } from "../../../engine/exec/test_hooks.ts";
import { warning } from "../../../engine/base/issue.ts";

const SERVICE = Deno.readTextFileSync(
  new URL("../../fixtures/sample_project/app/service.py", import.meta.url).pathname,
);
const MODELS = Deno.readTextFileSync(
  new URL("../../fixtures/sample_project/app/models.py", import.meta.url).pathname,
);

const STEPS = [
  // Edits that leave every name bound (a renamed class its importers still use fails the plan as dangling).
  { op: "replace", file: "app/service.py", old: "class OrderService:", new: "class OrderService(object):" },
  { op: "replace", file: "app/models.py", old: "Domain models:", new: "Domain models of the shop:" },
  { op: "replace", file: "app/service.py", old: "import", new: "import  " },
];

Deno.test("a throw after earlier steps were written rolls the plan back before it surfaces", async () => {
  for (const step of [0, 1, 2]) {
    const dir = makeRepo({ "app/service.py": SERVICE, "app/models.py": MODELS });
    const before = snapshot(dir);
    const ws = Workspace.open(dir);
    setThrowAfterStep(step);
    try {
      await assert.rejects(
        executePlan(new DocumentStore(ws), STEPS, { runStep: runTestStep }),
        (err: Error) => {
          assert.match(err.message, new RegExp(`^Step ${step} failed unexpectedly`));
          assert.match(err.message, /every file of the plan was restored/);
          assert.ok(err.cause instanceof RangeError);
          return true;
        },
      );
    } finally {
      setThrowAfterStep(undefined);
    }
    assert.deepEqual(snapshot(dir), before, `a throw after step ${step}`);
    assert.equal(hasPendingJournal(ws), false, "no journal is left pending");
    const again = await executePlan(new DocumentStore(ws), STEPS, { runStep: runTestStep });
    assert.equal(again.success, true, "the next plan is not refused as journal-pending");
  }
});

Deno.test("a step whose checks report 200,000 warnings does not crash the plan half-applied", async () => {
  const dir = makeRepo({ "app/service.py": SERVICE, "app/models.py": MODELS });
  const flood: PostCheck = (change) =>
    Promise.resolve(
      change.path === "app/models.py"
        ? Array.from({ length: 200_000 }, (_, i) => warning("no-op-edit", `Warning ${i}`))
        : [],
    );
  const result = await executePlan(new DocumentStore(Workspace.open(dir)), [...STEPS, { op: "fail" }], {
    runStep: runTestStep,
    checks: [flood],
  });
  assert.equal(result.success, false);
  assert.equal(result.rolled_back, true);
  assert.equal(result.failed_step, 3);
  assert.equal(Deno.readTextFileSync(`${dir}/app/service.py`), SERVICE);
  assert.equal(Deno.readTextFileSync(`${dir}/app/models.py`), MODELS);
});
