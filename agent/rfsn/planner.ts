/**
 * The proposal generators (seed 004's ProposalPlanner): one function per
 * kind of step, each returning a complete, frozen proposal grounded in the
 * evidence it is given. The planner never runs anything.
 *
 * @module
 */

import { makeProposal, type Proposal } from "./proposal.ts";

export { extractEvidence, extractTracebackFile, parseExceptionTypes, parseFailingTests } from "./evidence.ts";

/** What an edit proposal carries: a GraphPlan plan document or a unified diff. */
export type EditChange = { plan: unknown; diff?: undefined } | { diff: string; plan?: undefined };

/** Fields every edit generator takes. */
export interface EditInput {
  path: string;
  symbol: string | null;
  hypothesis: string;
  change_summary: string;
  change: EditChange;
  /** The tests expected to pass afterwards. */
  tests: string[];
  risk?: "low" | "medium";
}

const REVERT = "Roll the transaction back: the helper's journal restores every touched file byte for byte";

/** Run the failing test(s), or the given command, to capture the failure. */
export function reproduce(input: { tests?: string[]; command?: string } = {}): Proposal {
  const tests = input.tests ?? [];
  return makeProposal({
    intent: "test",
    hypothesis: tests.length
      ? `Running ${tests.join(" ")} reproduces the reported failure`
      : "Running the test suite reproduces the reported failure",
    action_type: "run_tests",
    target: { path: tests[0]?.split("::")[0] ?? ".", symbol: null },
    change_summary: "Run the tests without changing anything",
    expected_effect: { tests, behavior: "at least one test fails with the reported symptom" },
    risk_level: "low",
    rollback_plan: "Nothing to roll back: running tests changes no file",
    action: { type: "run_tests", tests, command: input.command ?? null, scope: "reproduce" },
  });
}

/** Read a suspect file (or a region of it). */
export function localizeFile(
  input: { path: string; reason: string; symbol?: string | null; start_line?: number; end_line?: number },
): Proposal {
  return makeProposal({
    intent: "analyze",
    hypothesis: `The fault is in "${input.path}": ${input.reason}`,
    action_type: "read_file",
    target: { path: input.path, symbol: input.symbol ?? null },
    change_summary: `Read "${input.path}"`,
    expected_effect: { tests: [], behavior: "the faulty code is identified" },
    risk_level: "low",
    rollback_plan: "Nothing to roll back: reading changes no file",
    action: {
      type: "read_file",
      path: input.path,
      start_line: input.start_line ?? null,
      end_line: input.end_line ?? null,
    },
  });
}

/** Search the repository for a pattern (an exception message, a name). */
export function searchRepo(input: { pattern: string; reason: string; path?: string }): Proposal {
  return makeProposal({
    intent: "analyze",
    hypothesis: `Searching for "${input.pattern}" finds the fault: ${input.reason}`,
    action_type: "search_repo",
    target: { path: input.path ?? ".", symbol: null },
    change_summary: `Search for "${input.pattern}"`,
    expected_effect: { tests: [], behavior: "a suspect file is found" },
    risk_level: "low",
    rollback_plan: "Nothing to roll back: searching changes no file",
    action: { type: "search_repo", pattern: input.pattern, path: input.path ?? null },
  });
}

function edit(input: EditInput, intent: "repair", what: string): Proposal {
  return makeProposal({
    intent,
    hypothesis: input.hypothesis,
    action_type: "edit_file",
    target: { path: input.path, symbol: input.symbol },
    change_summary: `${what}: ${input.change_summary}`,
    expected_effect: { tests: input.tests, behavior: input.change_summary },
    risk_level: input.risk ?? "low",
    rollback_plan: REVERT,
    action: { type: "edit_file", plan: input.change.plan ?? null, diff: input.change.diff ?? null },
  });
}

/** Add a defensive check (None, boundary, type) where the failure starts. */
export function addGuard(input: EditInput): Proposal {
  return edit(input, "repair", "Add a guard");
}

/** Fix a logic error. */
export function fixLogicError(input: EditInput): Proposal {
  return edit({ ...input, risk: input.risk ?? "medium" }, "repair", "Fix the logic");
}

/** Run the targeted tests after a fix. */
export function verifyTargeted(input: { tests: string[]; after_fix: string }): Proposal {
  return makeProposal({
    intent: "test",
    hypothesis: `After "${input.after_fix}", ${input.tests.join(" ") || "the failing tests"} pass`,
    action_type: "run_tests",
    target: { path: input.tests[0]?.split("::")[0] ?? ".", symbol: null },
    change_summary: "Run the previously failing tests",
    expected_effect: { tests: input.tests, behavior: "the targeted tests pass" },
    risk_level: "low",
    rollback_plan: "Nothing to roll back: running tests changes no file",
    action: { type: "run_tests", tests: input.tests, command: null, scope: "targeted" },
  });
}

/** Run the broader suite (the test files of the failing tests, or a path) for regressions. */
export function expandVerification(input: { test_paths: string[] }): Proposal {
  return makeProposal({
    intent: "test",
    hypothesis: `The fix breaks nothing else in ${input.test_paths.join(" ") || "the test suite"}`,
    action_type: "run_tests",
    target: { path: input.test_paths[0] ?? ".", symbol: null },
    change_summary: "Run the broader test suite",
    expected_effect: { tests: input.test_paths, behavior: "no test fails" },
    risk_level: "low",
    rollback_plan: "Nothing to roll back: running tests changes no file",
    action: { type: "run_tests", tests: input.test_paths, command: null, scope: "expanded" },
  });
}

/** Document why the planner cannot go on. */
export function explainStuck(input: { reason: string; tried: string[] }): Proposal {
  const explanation = `${input.reason}${
    input.tried.length ? `. Tried: ${input.tried.map((t) => `"${t}"`).join("; ")}` : ""
  }`;
  return makeProposal({
    intent: "analyze",
    hypothesis: `Progress is blocked: ${input.reason}`,
    action_type: "explain_stuck",
    target: { path: ".", symbol: null },
    change_summary: "Stop and explain why",
    expected_effect: { tests: [], behavior: "the run ends with an explanation" },
    risk_level: "low",
    rollback_plan: "Nothing to roll back",
    action: { type: "explain_stuck", explanation },
  });
}
