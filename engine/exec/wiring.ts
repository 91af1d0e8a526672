/**
 * The seam between the executor and the rest of the engine: how a plan
 * document becomes steps (`engine/plan/mod.ts` `parsePlan`) and how a step
 * reaches its operator (`engine/edit/dispatch.ts` `runStep`). The executor,
 * the CLI and the helper only import this file, and tests inject their own
 * parser and dispatch through the same two types.
 *
 * SEAM: until `engine/plan/mod.ts` and `engine/edit/dispatch.ts` load
 * (they are being written), `parsePlanSteps` only checks the top-level shape
 * (an array, or an object with a `plan` array) and `defaultRunStep` refuses
 * every step with `operator-unavailable`. Wiring them: import `parsePlan`
 * and `runStep` here and use them in these two functions.
 *
 * @module
 */

import { error, fail, type Issue } from "../issue.ts";
import type { StepContext } from "../edit/operator.ts";

/** A plan step as the executor passes it to the dispatcher (a `NormalizedStep` for real plans). */
export type PlanStep = unknown;

/** A plan document turned into steps, with every issue found (errors mean: do not execute). */
export interface ParsedSteps {
  steps: PlanStep[];
  /** The plan's `define_operators`, for the dispatcher. */
  definitions: unknown[];
  issues: Issue[];
}

/** Turns a plan document into steps. */
export type PlanParser = (json: unknown) => ParsedSteps;

/** Turn a plan document into its steps (see the seam note). */
export function parsePlanSteps(json: unknown): ParsedSteps {
  const doc = json as { plan?: unknown; define_operators?: unknown } | null;
  const steps = Array.isArray(json)
    ? json
    : doc && typeof doc === "object" && Array.isArray(doc.plan)
    ? doc.plan
    : null;
  if (!steps) {
    return {
      steps: [],
      definitions: [],
      issues: [
        error("plan-invalid", 'A plan is an array of steps or an object with a "plan" array', { path: [] }),
      ],
    };
  }
  const definitions = Array.isArray(doc?.define_operators) ? doc.define_operators : [];
  return { steps, definitions, issues: [] };
}

/** Run one step through the operator dispatch. */
export function defaultRunStep(step: PlanStep, ctx: StepContext): Promise<unknown> {
  const op = step && typeof step === "object" ? (step as { op?: unknown }).op : undefined;
  fail("operator-unavailable", `Operator dispatch is not wired yet: cannot run step ${ctx.step} ("${op}")`, {
    step: ctx.step,
  });
}
