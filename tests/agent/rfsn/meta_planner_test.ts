import assert from "node:assert/strict";
import { type Feedback, MetaPlanner, type Next, SAFE_MODE_AFTER } from "../../../agent/rfsn/meta_planner.ts";
import { StateTracker } from "../../../agent/rfsn/state.ts";
import type { Evidence } from "../../../agent/rfsn/evidence.ts";
import { type TestFileRule, testFileRule } from "../../../engine/gate/test_files.ts";
import type { Proposal } from "../../../agent/rfsn/proposal.ts";
import { candidate, GUARD_DIFF } from "./_fixtures.ts";

const BOUNDS = { max_files: 3, max_lines: 80 };
const TEST = "tests/test_stats.py::test_mean_empty";

function evidence(line = 2, type = "ZeroDivisionError"): Evidence {
  return {
    failing_tests: [TEST],
    exception_types: [type],
    frames: [{ file: "tests/test_stats.py", line: 9, func: "test_mean_empty" }, {
      file: "pkg/stats.py",
      line,
      func: "mean",
    }],
    narrative: `${type}: division by zero`,
  };
}

function proposalOf(next: Next): Proposal {
  assert.equal(next.kind, "proposal", JSON.stringify(next));
  return (next as { proposal: Proposal }).proposal;
}

function tests(proposal: Proposal, failed: number, ev?: Evidence): Feedback {
  return {
    proposal,
    success: true,
    tests_failed: failed,
    output: failed ? "1 failed" : "1 passed",
    evidence: ev,
  };
}

function ok(proposal: Proposal): Feedback {
  return { proposal, success: true, tests_failed: null, output: "" };
}

/** Drive a planner from REPRODUCE to PATCH on the stats failure. */
function toPatch(options: { state?: StateTracker } = {}): MetaPlanner {
  const meta = new MetaPlanner(options.state ?? new StateTracker(), { bounds: BOUNDS, tests: [TEST] });
  const reproduce = proposalOf(meta.next());
  assert.equal(reproduce.action_type, "run_tests");
  assert.equal(reproduce.intent, "test");
  meta.observe(tests(reproduce, 1, evidence()));
  assert.equal(meta.phase, "LOCALIZE");
  const read = proposalOf(meta.next());
  assert.deepEqual(read.action, {
    type: "read_file",
    path: "pkg/stats.py",
    start_line: null,
    end_line: null,
  });
  meta.observe(ok(read));
  assert.equal(meta.phase, "PATCH");
  return meta;
}

Deno.test("meta-planner: REPRODUCE → LOCALIZE → PATCH → VERIFY → EXPAND → success", () => {
  const meta = toPatch();
  assert.equal(meta.state.reproduction_confirmed, true);
  assert.equal(meta.state.suspect_files[0].name, "pkg/stats.py");
  assert.deepEqual(meta.next(), { kind: "patch", phase: "PATCH", scope: BOUNDS });
  meta.observe(ok(candidate(GUARD_DIFF).proposal));
  assert.equal(meta.phase, "VERIFY");
  const verify = proposalOf(meta.next());
  assert.deepEqual(verify.action, { type: "run_tests", tests: [TEST], command: null, scope: "targeted" });
  meta.observe(tests(verify, 0));
  assert.equal(meta.phase, "EXPAND");
  assert.equal(meta.state.targeted_passed, true);
  const expand = proposalOf(meta.next());
  assert.deepEqual(expand.action, {
    type: "run_tests",
    tests: ["tests/test_stats.py"],
    command: null,
    scope: "expanded",
  });
  meta.observe(tests(expand, 0));
  assert.deepEqual(meta.next(), {
    kind: "done",
    outcome: "success",
    reason: "targeted and expanded tests pass",
  });
  assert.deepEqual(meta.transitions.map((t) => t.to), ["LOCALIZE", "PATCH", "VERIFY", "EXPAND"]);
  assert.equal(meta.state.hypotheses_tried.at(-1)?.outcome, "passed");
});

Deno.test("meta-planner: a failed verification goes back to PATCH; two with the same symptom pivot to LOCALIZE", () => {
  const meta = toPatch();
  for (let attempt = 0; attempt < 2; attempt++) {
    meta.next();
    meta.observe(ok(candidate(GUARD_DIFF).proposal));
    const verify = proposalOf(meta.next());
    meta.observe(tests(verify, 1, evidence()));
    assert.equal(meta.phase, attempt === 0 ? "PATCH" : "LOCALIZE");
  }
  assert.deepEqual(meta.state.hypotheses_tried.map((h) => h.outcome), ["failed", "failed"]);
  assert.equal(meta.transitions.at(-1)?.reason, "2 patch failures with the same symptom");
  assert.equal(Object.values(meta.state.pivots)[0], 1);
});

Deno.test("meta-planner: an expanded run that finds a regression goes back to PATCH", () => {
  const meta = toPatch();
  meta.next();
  meta.observe(ok(candidate(GUARD_DIFF).proposal));
  meta.observe(tests(proposalOf(meta.next()), 0));
  const expand = proposalOf(meta.next());
  meta.observe(
    tests(expand, 1, { ...evidence(6, "ValueError"), failing_tests: ["tests/test_stats.py::test_mean"] }),
  );
  assert.equal(meta.phase, "PATCH");
  assert.equal(meta.state.targeted_passed, false);
});

Deno.test("meta-planner: STUCK when the failure is never reproduced, with one explain_stuck proposal", () => {
  const meta = new MetaPlanner(new StateTracker(), { bounds: BOUNDS, max_phase_attempts: 2 });
  for (let i = 0; i < 2; i++) meta.observe(tests(proposalOf(meta.next()), 0));
  const explain = proposalOf(meta.next());
  assert.equal(explain.action_type, "explain_stuck");
  assert.match(
    (explain.action as { explanation: string }).explanation,
    /No progress in phase REPRODUCE after 2 attempts/,
  );
  assert.equal(meta.next().kind, "done");
  assert.deepEqual(meta.next(), {
    kind: "done",
    outcome: "stuck",
    reason: "No progress in phase REPRODUCE after 2 attempts",
  });
});

Deno.test("meta-planner: STUCK on the iteration budget and on a failure pattern that survives pivots", () => {
  const budget = new MetaPlanner(new StateTracker({ iteration_budget: 1 }), { bounds: BOUNDS });
  budget.next();
  assert.equal(proposalOf(budget.next()).action_type, "explain_stuck");
  const meta = toPatch({ state: new StateTracker({ stuck_threshold: 1 }) });
  for (let attempt = 0; attempt < 2; attempt++) {
    meta.next();
    meta.observe(ok(candidate(GUARD_DIFF).proposal));
    meta.observe(tests(proposalOf(meta.next()), 1, evidence()));
  }
  const explain = proposalOf(meta.next());
  assert.equal(explain.action_type, "explain_stuck");
  assert.match(explain.hypothesis, /same failure keeps coming back after 1 pivots/);
  assert.match((explain.action as { explanation: string }).explanation, /Tried: .*\(failed\)/);
});

Deno.test("meta-planner rejections: SCHEMA → compliance mode, ORDERING → the named phase, BOUNDS → smaller scope, INVARIANT → safe mode", () => {
  const schema = toPatch();
  schema.reject({ type: "SCHEMA_VIOLATION", reason: "x", proposal_id: null });
  assert.equal(schema.mode, "compliance");
  const analyze = proposalOf(schema.next());
  assert.equal(analyze.intent, "analyze");
  schema.observe(ok(analyze));
  assert.equal(schema.mode, "normal");
  assert.equal(schema.next().kind, "patch");

  const ordering = toPatch();
  ordering.reject({ type: "ORDERING_VIOLATION", reason: "x", proposal_id: null, required_phase: "LOCALIZE" });
  assert.equal(ordering.phase, "LOCALIZE");

  const bounds = toPatch();
  bounds.reject({ type: "BOUNDS_VIOLATION", reason: "x", proposal_id: null });
  assert.deepEqual(bounds.next(), { kind: "patch", phase: "PATCH", scope: { max_files: 1, max_lines: 40 } });

  const invariant = toPatch();
  invariant.reject({ type: "INVARIANT_VIOLATION", reason: "x", proposal_id: null });
  assert.equal(invariant.mode, "safe");
  assert.equal(proposalOf(invariant.next()).intent, "analyze");
});

Deno.test("meta-planner: three refusals in a row enter safe mode; three more in safe mode are STUCK", () => {
  const meta = toPatch();
  for (let i = 0; i < SAFE_MODE_AFTER; i++) {
    assert.equal(meta.mode, "normal");
    meta.next();
    meta.reject({ type: "BOUNDS_VIOLATION", reason: "too big", proposal_id: null });
  }
  assert.equal(meta.mode, "safe");
  for (let i = 0; i < SAFE_MODE_AFTER; i++) {
    meta.reject({ type: "SCHEMA_VIOLATION", reason: "x", proposal_id: null });
  }
  assert.equal(meta.phase, "STUCK");
  assert.match(proposalOf(meta.next()).hypothesis, /refused 3 proposals in a row in safe mode/);
});

Deno.test("meta-planner: an edit that rolls back stays in PATCH; the traceback's frames rank the suspects", () => {
  const meta = toPatch();
  meta.next();
  meta.observe({
    proposal: candidate(GUARD_DIFF).proposal,
    success: false,
    tests_failed: null,
    output: "locator-not-found",
  });
  assert.equal(meta.phase, "PATCH");
  assert.equal(meta.state.hypotheses_tried[0].outcome, "rolled_back");
  assert.deepEqual(meta.state.suspect_symbols.map((s) => s.name), ["pkg/stats.py::mean"]);
});

Deno.test("meta-planner: LOCALIZE without a project frame searches for the exception", () => {
  const meta = new MetaPlanner(new StateTracker(), { bounds: BOUNDS });
  meta.observe(tests(proposalOf(meta.next()), 1, { ...evidence(), frames: [] }));
  const search = proposalOf(meta.next());
  assert.deepEqual(search.action, { type: "search_repo", pattern: "ZeroDivisionError", path: null });
  meta.observe({ ...ok(search), found_files: ["pkg/stats.py"] });
  assert.equal(proposalOf(meta.next()).action_type, "read_file");
});

Deno.test("meta-planner: the repository's test-file rule decides which traceback frames are tests", () => {
  // A callback in the test module check_foo.py fails, called from the source pkg/ops.py.
  const callback: Evidence = {
    failing_tests: ["tests/check_foo.py::test_apply_all"],
    exception_types: ["ZeroDivisionError"],
    frames: [
      { file: "tests/check_foo.py", line: 9, func: "test_apply_all" },
      { file: "pkg/ops.py", line: 4, func: "apply_all" },
      { file: "tests/check_foo.py", line: 5, func: "scale" },
    ],
    narrative: "ZeroDivisionError: division by zero",
  };
  const reproduced = (testFiles?: TestFileRule) => {
    const meta = new MetaPlanner(new StateTracker(), { bounds: BOUNDS, test_files: testFiles });
    meta.observe(tests(proposalOf(meta.next()), 1, callback));
    return meta;
  };
  const configured = reproduced(testFileRule("setup.cfg", ["check_*.py"]));
  assert.deepEqual(configured.state.suspect_files.map((s) => s.name), ["pkg/ops.py"]);
  assert.deepEqual(configured.state.suspect_symbols.map((s) => s.name), ["pkg/ops.py::apply_all"]);
  assert.deepEqual(proposalOf(configured.next()).action, {
    type: "read_file",
    path: "pkg/ops.py",
    start_line: null,
    end_line: null,
  });
  // With the default names, check_foo.py is taken for source and read first.
  const defaults = reproduced();
  assert.deepEqual(defaults.state.suspect_files.map((s) => s.name), ["tests/check_foo.py", "pkg/ops.py"]);
});

Deno.test("meta-planner: a test command that cannot run is STUCK naming rfsn.test_command, nothing reproduced", () => {
  const meta = new MetaPlanner(new StateTracker(), { bounds: BOUNDS, tests: [TEST] });
  const reproduce = proposalOf(meta.next());
  meta.observe({
    proposal: reproduce,
    success: false,
    tests_failed: null,
    not_run: "the command was not found (exit 127)",
    output: "bash: python3: command not found",
  });
  assert.equal(meta.state.reproduction_confirmed, false);
  assert.equal(meta.phase, "STUCK");
  assert.deepEqual(meta.transitions.map((t) => t.to), ["STUCK"]);
  const explain = proposalOf(meta.next());
  assert.equal(explain.action.type, "explain_stuck");
  const text = (explain.action as { explanation: string }).explanation;
  assert.match(text, /test command cannot run: the command was not found \(exit 127\)/);
  assert.match(text, /rfsn\.test_command/);
  const done = meta.next();
  assert.equal(done.kind, "done");
  assert.equal((done as { outcome: string }).outcome, "stuck");
});
