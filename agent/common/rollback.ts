/**
 * The helper's `rollback` at the start of a run (a plan an earlier run left
 * unfinished is undone before anything else) and when a strategy's plan
 * failed without rolling back, and how a failed helper call reads as
 * issues. Neither throws.
 *
 * @module
 */

import type { Issue } from "../../engine/base/issue.ts";
import { type Helper, HelperError } from "./helper.ts";

/** Ask the helper to roll back a pending journal; never throws. */
export async function rollBack(helper: Helper): Promise<RollbackOutcome> {
  try {
    const report = await helper.call("rollback", {}) as Partial<RollbackOutcome>;
    return {
      success: report.success === true,
      restored: Array.isArray(report.restored) ? report.restored : [],
      errors: report.errors ?? [],
    };
  } catch (err) {
    return { success: false, restored: [], errors: helperIssues(err) };
  }
}

/** What the helper's `rollback` answered. */
export interface RollbackOutcome {
  success: boolean;
  restored: string[];
  errors: Issue[];
}

/** A failed helper call as issues: the helper's own, or one `helper-failed` with the error's message. */
export function helperIssues(err: unknown): Issue[] {
  if (err instanceof HelperError && err.issues.length > 0) return err.issues;
  return [{ code: "helper-failed", severity: "error", message: (err as Error).message }];
}
