/**
 * The proposal: the only thing the planner produces (seed 004). Every field
 * is required; a parsed proposal is deeply frozen, so nothing downstream
 * (scoring, the gate, the controller) can change what was proposed.
 *
 * `action` carries what the action needs and must match `action_type`:
 * `run_tests` the node ids or the command and its scope (reproduce,
 * targeted, expanded), `read_file` a path and optional
 * line range, `search_repo` a pattern, `edit_file` a GraphPlan plan document
 * (any tier) or a unified diff, `explain_stuck` the explanation.
 *
 * @module
 */

import * as z from "zod";
import { error, type Issue } from "../../engine/base/issue.ts";

/** Why a proposal is made (seed 004). */
export const INTENTS = ["repair", "refactor", "feature", "test", "analyze"] as const;
/** What a proposal asks the controller to do. */
export const ACTION_TYPES = ["run_tests", "read_file", "search_repo", "edit_file", "explain_stuck"] as const;
/** Risk levels; `high` exists so that it can be named when it is refused. */
export const RISK_LEVELS = ["low", "medium", "high"] as const;

const text = z.string().trim().min(1);

const ActionSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("run_tests"),
    tests: z.array(text),
    command: z.string().nullable(),
    /** `reproduce` the failure, the `targeted` tests after a fix, or the `expanded` suite. */
    scope: z.enum(["reproduce", "targeted", "expanded"]),
  }),
  z.strictObject({
    type: z.literal("read_file"),
    path: text,
    start_line: z.number().int().positive().nullable(),
    end_line: z.number().int().positive().nullable(),
  }),
  z.strictObject({ type: z.literal("search_repo"), pattern: text, path: z.string().nullable() }),
  z.strictObject({
    type: z.literal("edit_file"),
    plan: z.unknown().nullable(),
    diff: z.string().nullable(),
  }).refine((a) => (a.plan === null) !== (a.diff === null), {
    message: 'An edit_file action carries exactly one of "plan" and "diff"',
  }),
  z.strictObject({ type: z.literal("explain_stuck"), explanation: text }),
]);

/** The schema of a proposal (zod). */
export const ProposalSchema = z.strictObject({
  proposal_id: z.uuid(),
  intent: z.enum(INTENTS),
  /** One falsifiable sentence. */
  hypothesis: text,
  action_type: z.enum(ACTION_TYPES),
  target: z.strictObject({ path: text, symbol: z.string().nullable() }),
  change_summary: text,
  expected_effect: z.strictObject({ tests: z.array(text), behavior: text }),
  risk_level: z.enum(RISK_LEVELS),
  rollback_plan: text,
  action: ActionSchema,
}).refine((p) => p.action.type === p.action_type, {
  message: 'The action\'s "type" must equal "action_type"',
  path: ["action", "type"],
});

/** A proposal (deeply frozen once parsed). */
export type Proposal = Readonly<z.infer<typeof ProposalSchema>>;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * Validate `value` as a proposal: the frozen proposal, or the schema's
 * problems as issues (code `proposal-invalid`, `path` into the proposal).
 */
export function parseProposal(value: unknown): { proposal: Proposal } | { issues: Issue[] } {
  const result = ProposalSchema.safeParse(value);
  if (!result.success) {
    return {
      issues: result.error.issues.map((issue) =>
        error(
          "proposal-invalid",
          `Invalid proposal${issue.path.length ? ` at "${issue.path.join(".")}"` : ""}: ${issue.message}`,
          { path: issue.path.filter((p): p is string | number => typeof p !== "symbol") },
        )
      ),
    };
  }
  return { proposal: deepFreeze(structuredClone(result.data)) };
}

/** Build a proposal from its fields with a fresh id; throws on a field the schema refuses (a planner bug). */
export function makeProposal(fields: Omit<z.input<typeof ProposalSchema>, "proposal_id">): Proposal {
  const parsed = parseProposal({ proposal_id: crypto.randomUUID(), ...fields });
  if ("issues" in parsed) throw new Error(parsed.issues.map((i) => i.message).join("; "));
  return parsed.proposal;
}
