/**
 * The work budget of one request: a deadline, checked where the engine's
 * work is divisible (before each plan step, each primitive of a composed
 * operator, each edit, and inside tree-sitter queries through their progress
 * callback). When it has passed, `checkBudget` throws a `budget-exceeded`
 * issue: a step that throws it fails like any failed step, so an executing
 * plan rolls back and a verification stops, and the helper session answers
 * the next request as usual.
 *
 * Like the limits, the budget is process-wide: `withBudget` sets it around
 * one request (the helper serves one at a time) and restores the previous
 * one after.
 *
 * @module
 */

import { IssueError } from "./issue.ts";
import { limits, overLimit } from "./limits.ts";

/** A deadline for one request. */
export interface Budget {
  /** Seconds allowed (for messages). */
  seconds: number;
  /** `performance.now()` after which the work stops. */
  deadline: number;
  /** Set once the deadline has been seen passed. */
  exceeded: boolean;
}

let current: Budget | undefined;

/**
 * Run `fn` with a budget of `seconds` (default: the `timeout` limit; 0 or
 * less: no budget). Nested calls keep the earlier deadline when it is sooner.
 */
export async function withBudget<T>(seconds: number | undefined, fn: () => Promise<T>): Promise<T> {
  const allowed = seconds ?? limits().timeout;
  const previous = current;
  if (allowed > 0 && Number.isFinite(allowed)) {
    const deadline = performance.now() + allowed * 1000;
    if (!previous || deadline < previous.deadline) current = { seconds: allowed, deadline, exceeded: false };
  }
  try {
    return await fn();
  } finally {
    current = previous;
  }
}

/** Seconds left of the budget in force (undefined without one; 0 once spent). */
export function remainingSeconds(): number | undefined {
  if (!current) return undefined;
  return Math.max(0, (current.deadline - performance.now()) / 1000);
}

/** Whether the budget in force has run out. */
export function budgetExceeded(): boolean {
  if (!current) return false;
  if (!current.exceeded && performance.now() > current.deadline) current.exceeded = true;
  return current.exceeded;
}

/** Throw `budget-exceeded` when the budget in force has run out. */
export function checkBudget(): void {
  if (budgetExceeded()) throw new IssueError(budgetIssue());
}

/** Whether `err` is the `budget-exceeded` stop `checkBudget` throws. */
export function isBudgetStop(err: unknown): boolean {
  return err instanceof IssueError && err.issues.some((issue) => issue.code === "budget-exceeded");
}

/** The issue for a request whose budget ran out. */
export function budgetIssue(): ReturnType<typeof overLimit> {
  const seconds = current?.seconds ?? limits().timeout;
  return overLimit(
    "budget-exceeded",
    "timeout",
    `The request ran out of its work budget of ${seconds} s: nothing was written`,
    { hint: "split the plan into smaller ones or narrow the query" },
  );
}
