/**
 * What a plan's composed operators cost once expanded, known before any of
 * them runs.
 *
 * A `define_operators` plan of a few hundred bytes can ask for an
 * exponential amount of work: `op0` calls `op1` twice, `op1` calls `op2`
 * twice, ... 17 levels give 131,072 primitive steps; a parameter passed as
 * `"$x$x$x$x"` four levels down is 256 copies of `x`. Recursion is refused by
 * the validator already; this module bounds the rest without expanding
 * anything:
 *
 * - **steps**: an operator's cost is the sum over its steps of 1 (the call
 *   itself) plus, for a call to a composed operator, that operator's cost;
 *   both branches of an `if` count. Computed once per operator (memoized),
 *   saturating just above the limit, so the check itself is linear in the
 *   size of the definitions.
 * - **depth**: composed operators calling composed operators.
 * - **parameter size**: the characters of each call's parameters after
 *   substitution, computed on sizes, not strings: a `$name` reference is
 *   worth the size of what it names. The walk follows the expansion, which
 *   the step limit (checked first) has already bounded. Variables bound at
 *   run time (`bind`) are unknown here; `substitutedSize` is checked again
 *   on the real values before each substitution when the operator runs.
 *
 * Each refusal names the limit, the operator chain that reached it and the
 * key that raises it.
 *
 * @module
 */

import type { Issue } from "../base/issue.ts";
import { type Limits, overLimit } from "../base/limits.ts";
import type { OperatorDefinition } from "./dsl_types.ts";

const WHOLE_REF = /^\$([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)$/;
const REF = /\$\$|\$([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)/g;

/** A call of a composed operator in a plan: its step, name and parameters. */
export interface ComposedCall {
  index: number;
  path: (string | number)[];
  op: string;
  params: Record<string, unknown>;
}

interface Cost {
  /** Expanded steps (saturated at the limit + 1). */
  steps: number;
  /** Nesting depth below this operator (0: only primitives). */
  depth: number;
  /** The callee that accounts for the most steps, and the deepest one. */
  widest?: string;
  deepest?: string;
}

/** Characters `value` would have as JSON-ish text, with `$` references worth `sizes[name]`. */
export function substitutedSize(value: unknown, sizes: Record<string, number>, cap = Infinity): number {
  let total = 0;
  const visit = (item: unknown): void => {
    if (total > cap) return;
    if (typeof item === "string") {
      const whole = WHOLE_REF.exec(item);
      if (whole && Object.hasOwn(sizes, whole[1])) {
        total += sizes[whole[1]];
        return;
      }
      let rest = item.length;
      for (const match of item.matchAll(REF)) {
        if (match[0] === "$$" || !Object.hasOwn(sizes, match[1])) continue;
        rest += sizes[match[1]] - match[0].length;
      }
      total += rest;
    } else if (Array.isArray(item)) {
      total += 2;
      for (const element of item) visit(element);
    } else if (item && typeof item === "object") {
      total += 2;
      for (const [key, element] of Object.entries(item)) {
        total += key.length + 3;
        visit(element);
      }
    } else total += String(item).length;
  };
  visit(value);
  return total;
}

/** The size of each of `params`'s values (what a `$name` reference to it is worth). */
export function paramSizes(params: Record<string, unknown>): Record<string, number> {
  const sizes: Record<string, number> = {};
  for (const [name, value] of Object.entries(params)) sizes[name] = substitutedSize(value, {});
  return sizes;
}

function asList(steps: unknown): Record<string, unknown>[] {
  const list = Array.isArray(steps) ? steps : [steps];
  return list.filter((step): step is Record<string, unknown> => !!step && typeof step === "object");
}

function calleeOf(step: Record<string, unknown>): string | undefined {
  const callee = step.primitive ?? step.op;
  return typeof callee === "string" ? callee : undefined;
}

/**
 * Check the expansion of `calls` against `limits` (see the module notes).
 * `defs` are every definition visible (built-ins and the plan's own).
 */
export function checkExpansion(
  calls: readonly ComposedCall[],
  defs: ReadonlyMap<string, OperatorDefinition>,
  limits: Pick<Limits, "max_expanded_steps" | "max_nesting_depth" | "max_param_bytes">,
  primitiveSteps = 0,
): Issue[] {
  const stepCap = limits.max_expanded_steps + 1;
  const depthCap = limits.max_nesting_depth + 1;
  const memo = costs(calls.map((call) => call.op), defs, stepCap, depthCap);
  const cost = (name: string): Cost => memo.get(name) ?? { steps: 0, depth: 0 };
  const chain = (start: string, pick: (c: Cost) => string | undefined): string => {
    const names = [start];
    for (
      let name = pick(cost(start));
      name !== undefined && names.length <= depthCap;
      name = pick(cost(name))
    ) {
      names.push(name);
    }
    return names.join(" → ");
  };

  const issues: Issue[] = [];
  let total = primitiveSteps;
  for (const call of calls) {
    const { steps, depth } = cost(call.op);
    if (depth > limits.max_nesting_depth) {
      issues.push(overLimit(
        "plan-too-deep",
        "max_nesting_depth",
        `Step ${call.index} (${call.op}): composed operators nest more than ${limits.max_nesting_depth} levels deep: ${
          chain(call.op, (c) => c.deepest)
        }`,
        { step: call.index, path: call.path, layer: "0" },
      ));
      return issues;
    }
    total = Math.min(stepCap, total + 1 + steps);
    if (total > limits.max_expanded_steps) {
      issues.push(overLimit(
        "plan-too-large",
        "max_expanded_steps",
        `Step ${call.index} (${call.op}): the plan expands to more than ${limits.max_expanded_steps} steps once its composed operators are expanded: ${
          chain(call.op, (c) => c.widest)
        }`,
        { step: call.index, path: call.path, layer: "0" },
      ));
      return issues;
    }
  }
  for (const call of calls) {
    const over = paramOverflow(call.op, paramSizes(call.params), defs, limits.max_param_bytes);
    if (over) {
      issues.push(overLimit(
        "param-too-large",
        "max_param_bytes",
        `Step ${call.index} (${call.op}): parameters grow to more than ${limits.max_param_bytes} characters once variables are substituted: ${
          over.join(" → ")
        }`,
        { step: call.index, path: call.path, layer: "0" },
      ));
      return issues;
    }
  }
  return issues;
}

/** Every call of a definition's steps (both branches of each `if`), in order. */
function callsOf(def: OperatorDefinition): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (steps: unknown) => {
    for (const step of asList(steps)) {
      if ("if" in step) {
        walk(step.then);
        if (step.else !== undefined) walk(step.else);
      } else out.push(step);
    }
  };
  walk(def.steps);
  return out;
}

/**
 * The cost of every operator reachable from `roots`, bottom-up in one
 * iterative depth-first walk (no recursion: a chain of thousands of
 * definitions must not overflow the stack), saturating at the caps.
 */
function costs(
  roots: readonly string[],
  defs: ReadonlyMap<string, OperatorDefinition>,
  stepCap: number,
  depthCap: number,
): Map<string, Cost> {
  const memo = new Map<string, Cost>();
  const started = new Set<string>();
  const stack: [string, boolean][] = roots.filter((name) => defs.has(name)).map((name) => [name, false]);
  while (stack.length > 0) {
    const [name, ready] = stack.pop()!;
    if (memo.has(name)) continue;
    const calls = callsOf(defs.get(name)!);
    if (!ready) {
      if (started.has(name)) continue; // a cycle (the validator reports it): costs what is known
      started.add(name);
      stack.push([name, true]);
      for (const step of calls) {
        const callee = calleeOf(step);
        if (callee !== undefined && defs.has(callee) && !memo.has(callee)) stack.push([callee, false]);
      }
      continue;
    }
    const result: Cost = { steps: 0, depth: 0 };
    let widestSteps = -1;
    for (const step of calls) {
      result.steps = Math.min(stepCap, result.steps + 1);
      const callee = calleeOf(step);
      if (callee === undefined || !defs.has(callee)) continue;
      const inner = memo.get(callee) ?? { steps: 0, depth: 0 };
      result.steps = Math.min(stepCap, result.steps + inner.steps);
      if (inner.steps > widestSteps) [widestSteps, result.widest] = [inner.steps, callee];
      if (inner.depth + 1 > result.depth) {
        [result.depth, result.deepest] = [Math.min(depthCap, inner.depth + 1), callee];
      }
    }
    memo.set(name, result);
  }
  return memo;
}

/** The chain of calls whose substituted parameters exceed `max`, or undefined. */
function paramOverflow(
  name: string,
  sizes: Record<string, number>,
  defs: ReadonlyMap<string, OperatorDefinition>,
  max: number,
): string[] | undefined {
  const def = defs.get(name);
  if (!def) return undefined;
  const env = { ...sizes };
  let found: string[] | undefined;
  const walk = (steps: unknown): void => {
    for (const step of asList(steps)) {
      if (found) return;
      if ("if" in step) {
        walk(step.then);
        if (step.else !== undefined) walk(step.else);
        continue;
      }
      const callee = calleeOf(step);
      const params = (step.params && typeof step.params === "object" ? step.params : {}) as Record<
        string,
        unknown
      >;
      if (substitutedSize(params, env, max) > max) {
        found = [name, callee ?? "?"];
        return;
      }
      if (callee !== undefined && defs.has(callee)) {
        const inner: Record<string, number> = {};
        for (const [key, value] of Object.entries(params)) inner[key] = substitutedSize(value, env, max + 1);
        const deeper = paramOverflow(callee, inner, defs, max);
        if (deeper) found = [name, ...deeper];
      }
      if (typeof step.bind === "string") env[step.bind] = 0; // known only at run time (checked then)
    }
  };
  walk(def.steps);
  return found;
}
