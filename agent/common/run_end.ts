/**
 * How a run ends early or on purpose, for every strategy: leaving a
 * strategy's loop is an exception carrying why. The model submitted
 * ({@linkcode Submitted}), a limit ran out ({@linkcode LimitsExceeded}, with
 * {@linkcode exceededLimit} deciding which), the run was asked to stop
 * ({@linkcode Interrupted}), or the answers could not be acted on
 * ({@linkcode FormatErrorLimit}); model errors (bad key, context window)
 * pass through with their own exit status.
 *
 * @module
 */

import type { Config } from "../config.ts";
import type { ModelStats } from "../model/mod.ts";

/** The model submitted: the run is over. */
export class Submitted extends Error {
  readonly submission: string;
  constructor(submission: string) {
    super("Submitted");
    this.name = "Submitted";
    this.submission = submission;
  }
}

/** A step, cost or time limit ran out. */
export class LimitsExceeded extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "LimitsExceeded";
  }
}

/**
 * The run was asked to stop (SIGINT, SIGTERM): thrown at the next safe
 * point, never while the helper is applying a plan.
 */
export class Interrupted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "Interrupted";
  }
}

/** Too many answers in a row could not be acted on. */
export class FormatErrorLimit extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "FormatError";
  }
}

/**
 * Which of the run's limits (`agent.step_limit` model calls, `agent.cost_limit`
 * dollars, `agent.wall_time_limit` seconds; 0 = none) has run out for
 * `stats` after `elapsed` seconds, as the reason {@linkcode LimitsExceeded}
 * carries, or null. Both strategies stop on it before a model call.
 */
export function exceededLimit(
  agent: Pick<Config["agent"], "step_limit" | "cost_limit" | "wall_time_limit">,
  stats: ModelStats,
  elapsed: number,
): string | null {
  const { step_limit, cost_limit, wall_time_limit } = agent;
  if (step_limit > 0 && stats.calls >= step_limit) return `step limit of ${step_limit} model calls reached`;
  if (cost_limit > 0 && stats.cost >= cost_limit) {
    return `cost limit of $${cost_limit} reached ($${stats.cost.toFixed(4)} spent)`;
  }
  if (wall_time_limit > 0 && elapsed >= wall_time_limit) {
    return `wall time limit of ${wall_time_limit} s reached`;
  }
  return null;
}
