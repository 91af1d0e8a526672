/**
 * The proposal gate: the authority every proposal passes before the
 * controller runs it. The planner cannot bypass it; it can only learn from its refusals.
 *
 * Checks, in order, the first failing one deciding the rejection type:
 * 1. schema (`SCHEMA_VIOLATION`): the proposal parses (`proposal.ts`), its
 *    risk is not `high`, an edit carries a non-empty change;
 * 2. ordering (`ORDERING_VIOLATION`): no edit before localization has a
 *    suspect, no expanded test run before the targeted tests passed;
 * 3. bounds (`BOUNDS_VIOLATION`): an edit changes at most `max_files` files
 *    and `max_lines` lines; a medium risk fits the risk budget;
 * 4. invariants (`INVARIANT_VIOLATION`): no test weakening (the engine's
 *    gate, `engine/gate/`), under the configured policy.
 *
 * An edit is judged by its unified diff: the proposal's own, or for a plan
 * the diff of the helper's dry run, which the caller passes in.
 *
 * @module
 */

import { error, type Issue } from "../../engine/base/issue.ts";
import { diffFacts } from "./diff_facts.ts";
import type { Phase, RejectionType } from "./phases.ts";
import { parseProposal, type Proposal } from "./proposal.ts";
import type { StateTracker } from "./state.ts";
import {
  checkInvariants,
  DEFAULT_POLICY,
  type GatePolicy,
  type InvariantReport,
} from "../../engine/gate/mod.ts";

/** Limits on one edit. */
export interface GateBounds {
  max_files: number;
  max_lines: number;
}

/** The default bounds: a small, focused change. */
export const DEFAULT_BOUNDS: GateBounds = { max_files: 3, max_lines: 80 };

/** What the gate judges a proposal against. */
export interface GateContext {
  state: StateTracker;
  bounds?: GateBounds;
  policy?: GatePolicy;
  /** The repository's current file text, null when absent (for the invariant check). */
  readFile: (path: string) => Promise<string | null>;
  /** An edit's unified diff (the proposal's own, or its plan's dry run); null when it could not be made. */
  diff?: string | null;
}

/** The gate's answer. */
export interface GateVerdict {
  accepted: boolean;
  rejection_type: RejectionType | null;
  /** One sentence: why it was refused, or "accepted". */
  reason: string;
  issues: Issue[];
  /** For a refusal on ordering: the phase the planner must go back to. */
  required_phase?: Phase;
  proposal: Proposal | null;
  invariants?: InvariantReport;
}

function refuse(
  type: RejectionType,
  issues: Issue[],
  proposal: Proposal | null,
  extra: Partial<GateVerdict> = {},
): GateVerdict {
  return {
    accepted: false,
    rejection_type: type,
    reason: issues.map((issue) => issue.message).join("; "),
    issues,
    proposal,
    ...extra,
  };
}

/** Validate a proposal (any value: it may not even be one): schema, ordering, bounds, invariants, in that order. */
export async function validateProposal(value: unknown, context: GateContext): Promise<GateVerdict> {
  const parsed = parseProposal(value);
  if ("issues" in parsed) return refuse("SCHEMA_VIOLATION", parsed.issues, null);
  const proposal = parsed.proposal;
  const action = proposal.action;
  const diff = action.type === "edit_file" ? (action.diff ?? context.diff ?? null) : null;
  const refusal = schemaRefusal(proposal, diff) ?? orderingRefusal(proposal, context.state) ??
    boundsRefusal(proposal, diff, context);
  if (refusal) return refusal;
  if (!diff) return { accepted: true, rejection_type: null, reason: "accepted", issues: [], proposal };
  return await invariantsVerdict(proposal, diff, context);
}

/** 1. Schema: a risk of `high` is never accepted, an edit must change something. */
function schemaRefusal(proposal: Proposal, diff: string | null): GateVerdict | undefined {
  if (proposal.risk_level === "high") {
    return refuse("SCHEMA_VIOLATION", [
      error("risk-too-high", 'Proposal refused: risk level "high" is never accepted', {
        path: ["risk_level"],
        hint: "split the change into low- or medium-risk steps",
      }),
    ], proposal);
  }
  if (proposal.action.type === "edit_file" && !diff?.trim()) {
    return refuse("SCHEMA_VIOLATION", [
      error("edit-empty", "Edit proposal refused: its change produces no diff", {
        path: ["action"],
        hint: "give a plan that verifies and changes something, or a unified diff",
      }),
    ], proposal);
  }
  return undefined;
}

/** 2. Ordering: no edit before a suspect is localized, no expanded test run before the targeted tests pass. */
function orderingRefusal(proposal: Proposal, state: StateTracker): GateVerdict | undefined {
  const action = proposal.action;
  if (action.type === "edit_file" && !state.localized) {
    return refuse(
      "ORDERING_VIOLATION",
      [
        error("patch-before-localization", "Edit refused: no suspect has been localized yet", {
          hint: "localize the fault (read the file of the traceback) before patching",
        }),
      ],
      proposal,
      { required_phase: state.reproduction_confirmed ? "LOCALIZE" : "REPRODUCE" },
    );
  }
  if (action.type === "run_tests" && action.scope === "expanded" && !state.targeted_passed) {
    return refuse(
      "ORDERING_VIOLATION",
      [
        error("expand-before-targeted", "Expanded test run refused: the targeted tests have not passed yet", {
          hint: "run the failing tests first",
        }),
      ],
      proposal,
      { required_phase: "VERIFY" },
    );
  }
  return undefined;
}

/** 3. Bounds: an edit's files and lines within `context.bounds`, a medium risk within the risk budget. */
function boundsRefusal(
  proposal: Proposal,
  diff: string | null,
  context: GateContext,
): GateVerdict | undefined {
  const bounds = context.bounds ?? DEFAULT_BOUNDS;
  if (diff) {
    const facts = diffFacts(diff);
    const problems: Issue[] = [];
    if (facts.files.length > bounds.max_files) {
      problems.push(
        error(
          "bounds-files",
          `Edit refused: it changes ${facts.files.length} files, at most ${bounds.max_files} allowed`,
          {
            hint: "change fewer files",
          },
        ),
      );
    }
    if (facts.lines_changed > bounds.max_lines) {
      problems.push(
        error(
          "bounds-lines",
          `Edit refused: it changes ${facts.lines_changed} lines, at most ${bounds.max_lines} allowed`,
          {
            hint: "make a smaller change",
          },
        ),
      );
    }
    if (problems.length > 0) return refuse("BOUNDS_VIOLATION", problems, proposal);
  }
  const { state } = context;
  if (!state.canAffordRisk(proposal.risk_level)) {
    return refuse("BOUNDS_VIOLATION", [
      error(
        "risk-budget-exhausted",
        `Proposal refused: the risk budget of ${state.budgets.risk_budget} medium-risk proposals is spent`,
        {
          path: ["risk_level"],
          hint: "propose a low-risk change",
        },
      ),
    ], proposal);
  }
  return undefined;
}

/** 4. Invariants: the engine's test-weakening gate on the edit's diff, under the configured policy. */
async function invariantsVerdict(
  proposal: Proposal,
  diff: string,
  context: GateContext,
): Promise<GateVerdict> {
  const invariants = await checkInvariants(diff, {
    readFile: context.readFile,
    policy: context.policy ?? DEFAULT_POLICY,
  });
  if (invariants.refused) return refuse("INVARIANT_VIOLATION", invariants.errors, proposal, { invariants });
  return {
    accepted: true,
    rejection_type: null,
    reason: "accepted",
    issues: invariants.warnings,
    proposal,
    invariants,
  };
}
