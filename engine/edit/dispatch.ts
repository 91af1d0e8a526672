/**
 * Step dispatch: a validated plan step (`engine/plan` `NormalizedStep`) to
 * the code that runs it, by the step's kind.
 *
 * - `primitive`: `PRIMITIVES` (`delete_node` with `target` too);
 * - `composed`: the DSL interpreter, for the built-ins (which are also the
 *   legacy `add_method`, `add_import`, `add_class_attribute`, both
 *   parameter spellings) and the plan's `define_operators`;
 * - `legacy`: `LEGACY_OPS`;
 * - `surgery`: `SURGERY_OPS` (tier 1);
 * - `template`: `TEMPLATES` (tier 2);
 * - `fragment`: the fragment serializer and runner (tier 3);
 * - `file`: `FILE_OPS` (create, delete, rename a file, set its mode).
 *
 * When the operator stops at a locator that does not resolve, the step's
 * other locator parameters are resolved too (`locator_sweep.ts`), so every
 * bad locator of the step is reported at once. Issues thrown by the
 * operator get the step number, their `path`
 * (relative to the step, `["params", "file"]`) becomes a path into the plan,
 * and overlong messages are cut (a value quoted from a hostile plan can be
 * megabytes long).
 *
 * @module
 */

import { checkBudget } from "../budget.ts";
import { clipMessage, error, type Issue, IssueError } from "../issue.ts";
import type { NormalizedPlan, NormalizedStep } from "../plan/mod.ts";
import { runComposed } from "./dsl.ts";
import { LEGACY_OPS } from "./legacy/mod.ts";
import type { OperatorFn, StepContext } from "./operator.ts";
import { PRIMITIVES } from "./primitives.ts";
import { runFragment } from "./fragments/mod.ts";
import { FILE_OPS } from "./file_ops.ts";
import { SURGERY_OPS } from "./surgery/mod.ts";
import { TEMPLATES } from "./templates/mod.ts";
import { isLocatorProblem, otherLocatorProblems } from "./locator_sweep.ts";

/** Run one validated step through `ctx`; returns the operator's output. */
export async function runStep(
  step: NormalizedStep,
  ctx: StepContext,
  plan?: NormalizedPlan,
): Promise<unknown> {
  try {
    checkBudget();
    return await dispatch(step, ctx, plan);
  } catch (err) {
    if (!(err instanceof IssueError)) throw err;
    const issues = [...err.issues];
    if (issues.some(isLocatorProblem) && step.params && typeof step.params === "object") {
      const base = step.kind === "fragment" ? [] : ["params"];
      issues.push(...await otherLocatorProblems(ctx.store, step.params, { reported: issues, base }));
    }
    throw new IssueError(issues.map((issue) => locate(issue, step, ctx)));
  }
}

function dispatch(step: NormalizedStep, ctx: StepContext, plan?: NormalizedPlan): Promise<unknown> {
  switch (step.kind) {
    case "primitive":
      return operator(PRIMITIVES, step)(step.params, ctx);
    case "surgery":
      return operator(SURGERY_RUNNERS, step)(step.params, ctx);
    case "composed":
      return runComposed(step.op, step.params, ctx, plan?.definitions ?? []);
    case "legacy":
      return operator(LEGACY_OPS, step)(step.params, ctx);
    case "template":
      return operator(TEMPLATE_RUNNERS, step)(step.params, ctx);
    case "fragment":
      return runFragment(step.params, ctx);
    case "file":
      return operator(FILE_RUNNERS, step)(step.params, ctx);
    default:
      return notImplemented(step, `Step kind '${String((step as { kind: unknown }).kind)}'`);
  }
}

const SURGERY_RUNNERS: Readonly<Record<string, OperatorFn>> = Object.fromEntries(
  Object.entries(SURGERY_OPS).map(([name, entry]) => [name, entry.run]),
);

const FILE_RUNNERS: Readonly<Record<string, OperatorFn>> = Object.fromEntries(
  Object.entries(FILE_OPS).map(([name, entry]) => [name, entry.run]),
);

const TEMPLATE_RUNNERS: Readonly<Record<string, OperatorFn>> = Object.fromEntries(
  Object.entries(TEMPLATES).map(([name, entry]) => [name, entry.run]),
);

function operator(table: Readonly<Record<string, OperatorFn>>, step: NormalizedStep): OperatorFn {
  if (!Object.hasOwn(table, step.op)) {
    throw new IssueError(error("unknown-operator", `Step ${step.index}: Unknown operator '${step.op}'`, {
      step: step.index,
      path: [...step.path, "op"],
    }));
  }
  return table[step.op];
}

function notImplemented(step: NormalizedStep, what: string): never {
  throw new IssueError(error("not-implemented", `${what} is not implemented yet`, {
    step: step.index,
    path: step.path,
    hint: "use a primitive (replace_node, insert_after_node, ...) or a legacy operator instead",
  }));
}

/** Give an operator's issue the step and a path into the plan. */
function locate(issue: Issue, step: NormalizedStep, ctx: StepContext): Issue {
  const path = issue.path;
  const inStep = path && ["params", "op", "target", "fragment", "action"].includes(String(path[0]));
  return {
    ...clipMessage(issue),
    step: issue.step ?? ctx.step,
    ...(inStep ? { path: [...step.path, ...path] } : {}),
  };
}
