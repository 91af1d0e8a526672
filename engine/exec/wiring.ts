/**
 * The seam between the executor and the rest of the engine: a plan document
 * becomes validated steps (`engine/plan/mod.ts` `parsePlan`), and each step
 * reaches its operator through `engine/ops/dispatch.ts` `runStep`, bound to
 * its plan (for `define_operators`). The CLI and the helper only use this
 * file; tests inject their own `PlanParser` with a tiny operator set.
 *
 * Both modules are imported on first use, not at start-up: the helper's
 * `version`, `build_graph` and `rollback` (and `graphplan rollback`) never
 * pay for the plan schema and the operators, and keep working even if those
 * fail to load.
 *
 * @module
 */

import type { Issue } from "../base/issue.ts";
import type { StepContext } from "../edit/operator.ts";
import type { NormalizedStep } from "../plan/mod.ts";

/** A plan step as the executor passes it to the dispatcher (a `NormalizedStep` for real plans). */
export type PlanStep = unknown;

/** A plan document turned into steps, with every issue found (errors mean: do not execute). */
export interface ParsedSteps {
  steps: PlanStep[];
  issues: Issue[];
  /** Runs one of `steps` (bound to the plan, for its `define_operators`). */
  runStep: (step: PlanStep, ctx: StepContext) => Promise<unknown>;
}

/** Turns a plan document into steps and their runner. */
export type PlanParser = (json: unknown) => Promise<ParsedSteps>;

/** Validate a plan document with `parsePlan` and bind the dispatcher to it. */
export async function parsePlanSteps(json: unknown): Promise<ParsedSteps> {
  const [{ parsePlan }, { runStep }] = await Promise.all([
    import("../plan/mod.ts"),
    import("../ops/dispatch.ts"),
  ]);
  const { plan, issues } = parsePlan(json);
  return {
    steps: plan?.steps ?? [],
    issues,
    runStep: (step, ctx) => runStep(step as NormalizedStep, ctx, plan),
  };
}
