/**
 * Step dispatch: a validated plan step (`engine/plan` `DispatchStep`) to
 * the code that runs it, by the step's kind.
 *
 * - an `op` step (`primitive`, `surgery`, `composed`, `legacy`, `file`):
 *   its descriptor's `run` in the registry (`registry.ts`; `delete_node`
 *   with `target` is a surgery step running the primitive); a `composed`
 *   step naming an operator of the plan's `define_operators` runs through
 *   the DSL interpreter;
 * - `template`: `TEMPLATES` (tier 2);
 * - `fragment`: the fragment serializer and runner (tier 3).
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

import { checkBudget } from "../base/budget.ts";
import { clipMessage, error, type Issue, IssueError } from "../base/issue.ts";
import { runComposed } from "../edit/dsl.ts";
import type { OperatorDefinition } from "../edit/dsl_types.ts";
import type { OperatorFn, StepContext } from "../edit/operator.ts";
import { runFragment } from "../edit/fragments/mod.ts";
import { TEMPLATES } from "../edit/templates/mod.ts";
import { isLocatorProblem, otherLocatorProblems } from "../edit/locator_sweep.ts";
import type { OperatorKind } from "./operator.ts";
import { OPERATORS } from "./registry.ts";

/**
 * A validated step as the dispatcher reads it: the shape of `engine/plan`'s
 * `DispatchStep` (declared here so the registry does not import the plan,
 * which reads the registry).
 */
export interface DispatchStep {
  /** 0-based position in the plan. */
  index: number;
  kind: OperatorKind | "template" | "fragment";
  /** The operator name; the template name for tier 2; `"fragment"` for tier 3. */
  op: string;
  params: Record<string, unknown>;
  /** JSON path of the step in the plan document. */
  path: (string | number)[];
}

/** What of a plan the dispatcher reads: the operators it defines. */
export interface DispatchPlan {
  definitions: OperatorDefinition[];
}

/** Run one validated step through `ctx`; returns the operator's output. */
export async function runStep(
  step: DispatchStep,
  ctx: StepContext,
  plan?: DispatchPlan,
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

function dispatch(step: DispatchStep, ctx: StepContext, plan?: DispatchPlan): Promise<unknown> {
  switch (step.kind) {
    case "composed":
      if (!OPERATORS.has(step.op)) return runComposed(step.op, step.params, ctx, plan?.definitions ?? []);
      return operator(OP_RUNNERS, step)(step.params, ctx);
    case "primitive":
    case "surgery":
    case "legacy":
    case "file":
      return operator(OP_RUNNERS, step)(step.params, ctx);
    case "template":
      return operator(TEMPLATE_RUNNERS, step)(step.params, ctx);
    case "fragment":
      return runFragment(step.params, ctx);
    default:
      return notImplemented(step, `Step kind '${String((step as { kind: unknown }).kind)}'`);
  }
}

/** The code of every built-in `op`, from the registry. */
export const OP_RUNNERS: Readonly<Record<string, OperatorFn>> = Object.fromEntries(
  [...OPERATORS.values()].map((entry) => [entry.name, entry.run]),
);

const TEMPLATE_RUNNERS: Readonly<Record<string, OperatorFn>> = Object.fromEntries(
  Object.entries(TEMPLATES).map(([name, entry]) => [name, entry.run]),
);

function operator(table: Readonly<Record<string, OperatorFn>>, step: DispatchStep): OperatorFn {
  if (!Object.hasOwn(table, step.op)) {
    throw new IssueError(error("unknown-operator", `Step ${step.index}: Unknown operator '${step.op}'`, {
      step: step.index,
      path: [...step.path, "op"],
    }));
  }
  return table[step.op];
}

function notImplemented(step: DispatchStep, what: string): never {
  throw new IssueError(error("not-implemented", `${what} is not implemented yet`, {
    step: step.index,
    path: step.path,
    hint: "use a primitive (replace_node, insert_after_node, ...) or a legacy operator instead",
  }));
}

/** Give an operator's issue the step and a path into the plan. */
function locate(issue: Issue, step: DispatchStep, ctx: StepContext): Issue {
  const path = issue.path;
  const inStep = path && ["params", "op", "target", "fragment", "action"].includes(String(path[0]));
  return {
    ...clipMessage(issue),
    step: issue.step ?? ctx.step,
    ...(inStep ? { path: [...step.path, ...path] } : {}),
  };
}
