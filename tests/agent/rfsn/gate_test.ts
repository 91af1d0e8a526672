import assert from "node:assert/strict";
import { type GateContext, validateProposal } from "../../../agent/rfsn/gate.ts";
import { StateTracker } from "../../../agent/rfsn/state.ts";
import * as planner from "../../../agent/rfsn/planner.ts";
import { candidate, GUARD_DIFF, STATS, statsDiff, TESTS, testsDiff } from "./_fixtures.ts";

function context(state = localizedState(), extra: Partial<GateContext> = {}): GateContext {
  const files: Record<string, string> = { "pkg/stats.py": STATS, "tests/test_stats.py": TESTS };
  return { state, readFile: (path) => Promise.resolve(files[path] ?? null), ...extra };
}

function localizedState(): StateTracker {
  const state = new StateTracker();
  state.reproduction_confirmed = true;
  state.addSuspectFile("pkg/stats.py", 0.9, "raised there");
  return state;
}

Deno.test("gate: a guard on the localized file is accepted, its invariant report attached", async () => {
  const verdict = await validateProposal(candidate(GUARD_DIFF).proposal, context());
  assert.equal(verdict.accepted, true, verdict.reason);
  assert.equal(verdict.rejection_type, null);
  assert.equal(verdict.invariants?.admissible, true);
});

Deno.test("gate SCHEMA_VIOLATION: not a proposal, a missing field, high risk, an empty edit", async () => {
  const guard = candidate(GUARD_DIFF).proposal;
  const cases: [unknown, string][] = [
    ["edit everything", "proposal-invalid"],
    [{ ...guard, rollback_plan: undefined }, "proposal-invalid"],
    [{ ...guard, risk_level: "high" }, "risk-too-high"],
    [{ ...guard, action: { type: "edit_file", plan: [], diff: null } }, "edit-empty"],
  ];
  for (const [value, code] of cases) {
    const verdict = await validateProposal(value, context());
    assert.equal(verdict.rejection_type, "SCHEMA_VIOLATION", code);
    assert.equal(verdict.issues[0].code, code);
  }
});

Deno.test("gate ORDERING_VIOLATION: no patch before localization, no expand before a targeted pass", async () => {
  const early = await validateProposal(candidate(GUARD_DIFF).proposal, context(new StateTracker()));
  assert.equal(early.rejection_type, "ORDERING_VIOLATION");
  assert.equal(early.issues[0].code, "patch-before-localization");
  assert.equal(early.required_phase, "REPRODUCE");
  const expand = planner.expandVerification({ test_paths: ["tests/test_stats.py"] });
  const refused = await validateProposal(expand, context());
  assert.equal(refused.rejection_type, "ORDERING_VIOLATION");
  assert.equal(refused.required_phase, "VERIFY");
  const state = localizedState();
  state.targeted_passed = true;
  assert.equal((await validateProposal(expand, context(state))).accepted, true);
});

Deno.test("gate BOUNDS_VIOLATION: too many lines or files, or a medium risk past the budget", async () => {
  const big = await validateProposal(
    candidate(GUARD_DIFF).proposal,
    context(undefined, { bounds: { max_files: 3, max_lines: 1 } }),
  );
  assert.equal(big.rejection_type, "BOUNDS_VIOLATION");
  assert.match(big.reason, /changes 2 lines, at most 1 allowed/);
  const twoFiles = GUARD_DIFF +
    testsDiff("def test_mean():", "def test_mean_one():\n    assert mean([1]) == 1\n\n\ndef test_mean():");
  const wide = await validateProposal(
    candidate(twoFiles).proposal,
    context(undefined, { bounds: { max_files: 1, max_lines: 50 } }),
  );
  assert.equal(wide.issues[0].code, "bounds-files");
  const state = new StateTracker({ risk_budget: 0 });
  state.addSuspectFile("pkg/stats.py", 0.9, "x");
  const medium = planner.fixLogicError({
    path: "pkg/stats.py",
    symbol: "spread",
    hypothesis: "h",
    change_summary: "c",
    change: { diff: statsDiff("max(values) - min(values)", "(max(values) - min(values)) if values else 0") },
    tests: [],
  });
  const spent = await validateProposal(medium, context(state));
  assert.equal(spent.rejection_type, "BOUNDS_VIOLATION");
  assert.equal(spent.issues[0].code, "risk-budget-exhausted");
});

Deno.test("gate INVARIANT_VIOLATION: an edit that weakens a test is refused and says how", async () => {
  const weak = testsDiff("    assert mean([]) == 0\n", "    assert mean([]) in (0, None)\n");
  const verdict = await validateProposal(candidate(weak).proposal, context());
  assert.equal(verdict.rejection_type, "INVARIANT_VIOLATION");
  assert.deepEqual(verdict.issues.map((i) => [i.code, i.file, i.line]), [[
    "assertion-loosened",
    "tests/test_stats.py",
    9,
  ]]);
  const allowed = await validateProposal(
    candidate(weak).proposal,
    context(undefined, { policy: { mode: "report", allow: [] } }),
  );
  assert.equal(allowed.accepted, true);
  assert.equal(allowed.issues[0].code, "assertion-loosened");
  assert.equal(allowed.issues[0].severity, "warning");
});
