import assert from "node:assert/strict";
import { makeProposal, parseProposal, type Proposal } from "../../../agent/rfsn/proposal.ts";
import * as planner from "../../../agent/rfsn/planner.ts";

const VALID = {
  proposal_id: "0b7e6a52-8f4c-4c0e-9a57-2f6f1f1f1f1f",
  intent: "repair",
  hypothesis: "mean() divides by len([]) == 0",
  action_type: "edit_file",
  target: { path: "pkg/stats.py", symbol: "mean" },
  change_summary: "Return 0 for an empty list",
  expected_effect: { tests: ["tests/test_stats.py::test_mean_empty"], behavior: "mean([]) == 0" },
  risk_level: "low",
  rollback_plan: "Roll the transaction back",
  action: { type: "edit_file", plan: [{ template: "guard_clause", params: {} }], diff: null },
};

Deno.test("proposal: a complete proposal parses and is deeply frozen", () => {
  const parsed = parseProposal(VALID);
  assert.ok("proposal" in parsed);
  const proposal = parsed.proposal as Proposal;
  assert.ok(
    Object.isFrozen(proposal) && Object.isFrozen(proposal.target) && Object.isFrozen(proposal.action),
  );
  assert.throws(() => {
    (proposal.target as { path: string }).path = "elsewhere.py";
  }, TypeError);
  // The input is copied: changing it afterwards changes nothing.
  const input = structuredClone(VALID);
  const again = parseProposal(input);
  input.target.path = "x.py";
  assert.ok("proposal" in again && again.proposal.target.path === "pkg/stats.py");
});

Deno.test("proposal: every field is required, one issue per missing field with its path", () => {
  for (const field of Object.keys(VALID)) {
    const { [field]: _gone, ...rest } = VALID as Record<string, unknown>;
    const parsed = parseProposal(rest);
    assert.ok("issues" in parsed, field);
    assert.ok(parsed.issues.some((i) => i.code === "proposal-invalid" && i.path?.[0] === field), field);
  }
  const nested = parseProposal({ ...VALID, expected_effect: { tests: [] } });
  assert.ok("issues" in nested && nested.issues[0].path?.join(".") === "expected_effect.behavior");
});

Deno.test("proposal: unknown intents, empty hypotheses, a mismatched action and extra fields are refused", () => {
  const bad = [
    { ...VALID, intent: "hack" },
    { ...VALID, hypothesis: "  " },
    { ...VALID, action_type: "run_tests" },
    { ...VALID, surprise: 1 },
    { ...VALID, proposal_id: "not-a-uuid" },
    { ...VALID, action: { type: "edit_file", plan: null, diff: null } },
  ];
  for (const value of bad) assert.ok("issues" in parseProposal(value), JSON.stringify(value).slice(0, 80));
  // high is a valid value (so that the gate can name it when it refuses it).
  assert.ok("proposal" in parseProposal({ ...VALID, risk_level: "high" }));
});

Deno.test("planner generators make valid proposals of the seed's intents and action types", () => {
  const proposals = [
    planner.reproduce({ tests: ["tests/test_stats.py::test_mean_empty"] }),
    planner.localizeFile({ path: "pkg/stats.py", reason: "raised there" }),
    planner.searchRepo({ pattern: "ZeroDivisionError", reason: "no frame" }),
    planner.addGuard({
      path: "pkg/stats.py",
      symbol: "mean",
      hypothesis: "h",
      change_summary: "return 0 for []",
      change: { diff: "--- a/x\n+++ b/x\n" },
      tests: [],
    }),
    planner.fixLogicError({
      path: "pkg/stats.py",
      symbol: "spread",
      hypothesis: "h",
      change_summary: "c",
      change: { plan: [] },
      tests: [],
    }),
    planner.verifyTargeted({ tests: ["t.py::t"], after_fix: "guard added" }),
    planner.expandVerification({ test_paths: ["tests/test_stats.py"] }),
    planner.explainStuck({ reason: "budget", tried: ["guard (failed)"] }),
  ];
  assert.deepEqual(proposals.map((p) => [p.intent, p.action_type]), [
    ["test", "run_tests"],
    ["analyze", "read_file"],
    ["analyze", "search_repo"],
    ["repair", "edit_file"],
    ["repair", "edit_file"],
    ["test", "run_tests"],
    ["test", "run_tests"],
    ["analyze", "explain_stuck"],
  ]);
  assert.equal(proposals[4].risk_level, "medium");
  assert.deepEqual(
    proposals.map((p) => p.action.type === "run_tests" ? p.action.scope : null).filter(Boolean),
    [
      "reproduce",
      "targeted",
      "expanded",
    ],
  );
  assert.notEqual(proposals[0].proposal_id, planner.reproduce().proposal_id);
  assert.throws(() => makeProposal({ ...VALID, hypothesis: "" } as never), /hypothesis/);
});
