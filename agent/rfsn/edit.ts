/**
 * An `edit_file` change made into the plan the controller runs. A plan
 * document (any tier) is taken as it is; a unified diff is lifted by the
 * helper (`lift`) into a structural plan, kept only when the lift succeeds
 * and its in-memory replay reproduces the diff byte for byte. Either plan
 * then has a dry run (`execute_plan` with `dry_run`, under the configured
 * strictness), which verifies it and gives the diff it will make and the
 * files it will change; nothing is written.
 *
 * A diff that creates, deletes or renames a file is lifted like any other:
 * those are whole-file steps of the plan (`create_file`, `delete_file`,
 * `rename_file`), verified and journaled, and a file the edit creates is
 * removed again when the edit is reverted (`pre_image.ts`). There is
 * deliberately no fallback to `git apply` for a diff that cannot be lifted
 * (a binary change): the planner is told why and can propose another.
 *
 * @module
 */

import { type Helper, HelperError } from "../common/helper.ts";
import type { LiftReport } from "../common/lift_report.ts";
import { detectTier } from "../../engine/plan/tiers.ts";

/** The change of an `edit_file` action: exactly one of the two is set. */
export interface EditChange {
  plan: unknown;
  diff: string | null;
}

/** An edit ready to run, as the trajectory records it. */
export interface PreparedEdit {
  /** `plan`: the proposal's own plan; `lifted`: lifted from its diff. */
  source: "plan" | "lifted";
  plan: unknown;
  /** The tier of each step of the plan. */
  tiers: number[];
  /** Lifted only: which hunk became which steps, and whether the replay was exact. */
  hunks?: LiftReport["hunks"];
  exact?: boolean;
  /** The dry run's unified diff. */
  diff: string;
  /** The files the plan changes. */
  files: string[];
  /** The lift's and the dry run's warnings. */
  warnings: string[];
}

interface DryRun {
  success: boolean;
  diff?: string;
  files_changed?: string[];
  errors: { message: string }[];
  warnings?: { message: string }[];
}

function messages(issues: readonly { message: string }[] | undefined): string[] {
  return (issues ?? []).map((issue) => issue.message);
}

function stepsOf(plan: unknown): unknown[] {
  if (Array.isArray(plan)) return plan;
  const inner = (plan as { plan?: unknown } | null)?.plan;
  return Array.isArray(inner) ? inner : [];
}

/**
 * Make `change` into a verified plan and its dry run, or say why it cannot
 * be (`problems`, one sentence each). A helper error (a malformed request)
 * or an unreachable helper is a problem too, never an exception.
 */
export async function prepareEdit(
  helper: Helper,
  change: EditChange,
  options: { strict?: readonly string[] } = {},
): Promise<{ edit: PreparedEdit } | { problems: string[] }> {
  const strict = options.strict?.length ? { strict: options.strict } : {};
  try {
    let plan = change.plan;
    let lifted: LiftReport | undefined;
    if (change.diff !== null) {
      lifted = await helper.call("lift", { diff: change.diff }) as LiftReport;
      if (!lifted.success) {
        const why = messages(lifted.errors);
        if (why.length === 0 && !lifted.exact) {
          why.push("the lifted plan does not reproduce the diff exactly");
        }
        return {
          problems: [
            `Edit not applied: the diff could not be lifted into a verified plan: ${why.join("; ")}`,
          ],
        };
      }
      plan = lifted.plan;
    }
    const dry = await helper.call("execute_plan", { plan, dry_run: true, ...strict }) as DryRun;
    if (!dry.success) {
      return {
        problems: [`Edit not applied: the plan failed verification: ${messages(dry.errors).join("; ")}`],
      };
    }
    return {
      edit: {
        source: lifted ? "lifted" : "plan",
        plan,
        tiers: stepsOf(plan).map((step) => detectTier(step)),
        ...(lifted ? { hunks: lifted.hunks, exact: lifted.exact } : {}),
        diff: dry.diff ?? "",
        files: dry.files_changed ?? [],
        warnings: [...messages(lifted?.warnings), ...messages(dry.warnings)],
      },
    };
  } catch (err) {
    if (!(err instanceof HelperError)) throw err;
    return { problems: [`Edit not applied: the helper refused it: ${(err as Error).message}`] };
  }
}
