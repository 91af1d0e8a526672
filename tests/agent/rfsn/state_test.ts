import assert from "node:assert/strict";
import { failureSignature, StateTracker } from "../../../agent/rfsn/state.ts";
import type { Evidence } from "../../../agent/rfsn/evidence.ts";

const EVIDENCE: Evidence = {
  failing_tests: ["tests/test_stats.py::test_mean_empty"],
  exception_types: ["ZeroDivisionError"],
  frames: [{ file: "tests/test_stats.py", line: 9, func: "test_mean_empty" }, {
    file: "pkg/stats.py",
    line: 2,
    func: "mean",
  }],
  narrative: "ZeroDivisionError: division by zero",
};

Deno.test("state: the failure signature names the exception, the raising project frame and the tests", () => {
  assert.equal(
    failureSignature(EVIDENCE),
    "ZeroDivisionError|pkg/stats.py:2|tests/test_stats.py::test_mean_empty",
  );
});

Deno.test("state: two failures with the same signature call for a pivot; a different one starts over", () => {
  const state = new StateTracker();
  const fail = (signature: string) =>
    state.recordHypothesis({ hypothesis: "h", proposal_id: "p", outcome: "failed", signature });
  fail("A");
  assert.equal(state.shouldPivotToLocalization(), false);
  fail("B");
  assert.equal(state.consecutive_failures, 1);
  fail("B");
  assert.equal(state.shouldPivotToLocalization(), true);
  state.notePivot();
  assert.equal(state.shouldPivotToLocalization(), false);
  assert.deepEqual(state.pivots, { B: 1 });
  state.recordHypothesis({ hypothesis: "h", proposal_id: "p", outcome: "passed", signature: null });
  assert.equal(state.consecutive_failures, 0);
});

Deno.test("state: stuck on the iteration budget or on a signature that survives stuck_threshold pivots", () => {
  const budget = new StateTracker({ iteration_budget: 2 });
  budget.tick();
  assert.equal(budget.isStuck(), false);
  budget.tick();
  assert.match(budget.stuckReason()!, /Iteration budget exhausted: 2 of 2/);
  const loop = new StateTracker({ stuck_threshold: 2 });
  for (let pivot = 0; pivot < 2; pivot++) {
    assert.equal(loop.isStuck(), false);
    loop.recordHypothesis({ hypothesis: "h", proposal_id: "p", outcome: "failed", signature: "S" });
    loop.recordHypothesis({ hypothesis: "h", proposal_id: "p", outcome: "failed", signature: "S" });
    loop.notePivot();
  }
  assert.match(loop.stuckReason()!, /same failure keeps coming back after 2 pivots/);
});

Deno.test("state: risk budget counts medium proposals, never affords high; suspects ranked; JSON round trip", () => {
  const state = new StateTracker({ risk_budget: 1 });
  assert.equal(state.canAffordRisk("medium"), true);
  state.spendRisk("medium");
  assert.equal(state.canAffordRisk("medium"), false);
  assert.equal(state.canAffordRisk("low"), true);
  assert.equal(state.canAffordRisk("high"), false);
  state.addSuspectFile("pkg/util.py", 0.6, "on the traceback");
  state.addSuspectFile("pkg/stats.py", 0.9, "raised there");
  state.addSuspectFile("pkg/util.py", 0.95, "raised there now");
  assert.deepEqual(state.suspect_files.map((s) => [s.name, s.confidence]), [["pkg/util.py", 0.95], [
    "pkg/stats.py",
    0.9,
  ]]);
  state.recordEvidence(EVIDENCE);
  state.recordRejection({ proposal_id: null, type: "SCHEMA_VIOLATION", reason: "x" });
  const json = JSON.parse(JSON.stringify(state));
  assert.equal(json.failures.exception_types[0], "ZeroDivisionError");
  assert.equal(json.history.gate_rejections[0].type, "SCHEMA_VIOLATION");
  assert.equal(json.spent.risk, 1);
  assert.equal(json.convergence.consecutive_rejections, 1);
});
