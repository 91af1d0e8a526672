/**
 * The steps of a plan as verification sees them: every step that validates
 * on its own, even when other steps of the plan do not (so one bad step
 * does not hide the problems of the rest), and the files each step names.
 *
 * @module
 */

import { type Issue, withContext } from "../../base/issue.ts";
import { type NormalizedPlan, type NormalizedStep, parsePlan } from "../../plan/mod.ts";

/** A plan document split into steps for verification. */
export interface VerifySteps {
  /** The operators the plan defines (for composed steps). */
  plan: NormalizedPlan;
  /** One slot per step as written: the validated step, or undefined when it has errors. */
  slots: (NormalizedStep | undefined)[];
  /** The schema issues of the whole document, with `layer: "0"`. */
  issues: Issue[];
}

/**
 * Validate `json` with `parsePlan`; when it has errors, re-validate each
 * step alone so the valid ones can still be simulated.
 */
export function verifySteps(json: unknown): VerifySteps {
  const parsed = parsePlan(json);
  const issues = withContext(parsed.issues, { layer: "0" });
  if (parsed.plan) return { plan: parsed.plan, slots: parsed.plan.steps, issues };
  const raw = rawSteps(json);
  const empty: NormalizedPlan = { definitions: [], steps: [] };
  if (!raw) return { plan: empty, slots: [], issues };
  const bad = new Set<number>();
  for (const issue of parsed.issues) {
    if (issue.severity !== "error") continue;
    // An error outside every step (the document, `define_operators`) leaves nothing to simulate.
    if (issue.step === undefined) return { plan: empty, slots: raw.steps.map(() => undefined), issues };
    bad.add(issue.step);
  }
  const slots: (NormalizedStep | undefined)[] = [];
  let definitions = empty.definitions;
  for (let index = 0; index < raw.steps.length; index++) {
    if (bad.has(index)) {
      slots.push(undefined);
      continue;
    }
    const one = raw.object
      ? { define_operators: raw.definitions, plan: [raw.steps[index]] }
      : [raw.steps[index]];
    const alone = parsePlan(one).plan;
    const step = alone?.steps[0];
    if (!alone || !step) {
      slots.push(undefined);
      continue;
    }
    definitions = alone.definitions;
    slots.push({ ...step, index, path: raw.object ? ["plan", index] : [index] });
  }
  const steps = slots.filter((step): step is NormalizedStep => step !== undefined);
  return { plan: { definitions, steps }, slots, issues };
}

function rawSteps(json: unknown): { steps: unknown[]; definitions?: unknown; object: boolean } | undefined {
  if (Array.isArray(json)) return { steps: json, object: false };
  if (json && typeof json === "object" && Array.isArray((json as { plan?: unknown }).plan)) {
    const doc = json as { plan: unknown[]; define_operators?: unknown };
    return { steps: doc.plan, definitions: doc.define_operators, object: true };
  }
  return undefined;
}

/** A string parameter of a step, or undefined. */
export function param(step: NormalizedStep, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = step.params[name];
    if (typeof value === "string") return value;
  }
  return undefined;
}

/** A number parameter of a step, or undefined. */
export function numberParam(step: NormalizedStep, name: string): number | undefined {
  const value = step.params[name];
  return typeof value === "number" ? value : undefined;
}

/**
 * The files a step names: its `file` parameter and the `file` of every
 * locator or target in it (give the step's params, or a raw step).
 */
export function stepFiles(step: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (value: unknown, depth: number) => {
    if (depth > 4 || value === null || typeof value !== "object") return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key === "file" && typeof item === "string" && !item.startsWith("$")) out.add(normalizePath(item));
      else visit(item, depth + 1);
    }
  };
  visit(step, 0);
  return out;
}

/** `./a/b.py` and `a//b.py` as `a/b.py` (the form `Workspace.resolve` returns). */
export function normalizePath(path: string): string {
  return path.split("/").filter((part) => part !== "" && part !== ".").join("/");
}
