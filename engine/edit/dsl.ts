/**
 * The operator DSL (`define_operators`): operators written as data, checked
 * before anything runs, expanded to primitives and interpreted step by step.
 *
 * ```json
 * {"define": "add_cached_property",
 *  "params_schema": {"file": "string", "class_name": "string", "body": "string", "note": "string?"},
 *  "steps": [
 *    {"primitive": "locate", "params": {"locator": {"kind": "class", "name": "$class_name", "file": "$file"}},
 *     "bind": "cls"},
 *    {"if": "$cls.count == 1 and $cls.found",
 *     "then": {"primitive": "add_method", "params": {"file": "$file", "class_name": "$class_name",
 *                                                  "method_code": "$body"}},
 *     "else": {"primitive": "warn", "params": {"message": "no class $class_name"}}}]}
 * ```
 *
 * - A step is `{primitive, params, bind?}` (`op` is accepted for
 *   `primitive`) naming a primitive, a helper (`warn`, `import_status`,
 *   `class_body_anchor`), a built-in composed operator or another definition;
 *   or `{if, then, else?}` with a step or a list of steps in each branch.
 * - `params_schema` maps each parameter to a type (`string`, `number`,
 *   `integer`, `boolean`, `object`, `array`, `locator`, `any`); a trailing `?`
 *   makes it optional.
 * - Substitution: `$name` and `$name.field.sub` in any string inside
 *   `params` (objects and arrays included); a string that is exactly one
 *   reference keeps the value's type (an object stays an object). Fields are
 *   followed only into objects, so `"$file.bak"` of a string `file` is the
 *   file name followed by `.bak`. `$$` is a literal `$`. Values are inserted
 *   once, never re-substituted, so code passed as a parameter may contain `$`.
 * - `bind` stores a step's output; a composed step outputs
 *   `{outputs: {bind: output...}, last}`. A variable bound in a branch is
 *   visible after the `if` only when both branches bind it.
 * - `if` expressions: references, numbers, quoted strings, `true`, `false`,
 *   `null`, `== != > < >= <=`, `and or not` (also `&& || !`), parentheses;
 *   a bare value tests truthiness (0, "", null, false, [] and {} are false).
 *   Parsed by a small recursive-descent parser; nothing is ever `eval`ed.
 *
 * The module is split in three: the plan-time check (`dsl_check.ts`:
 * `validateDefinitions`, `registry`; what `engine/plan` imports), the
 * expressions and substitution both halves use (`dsl_expr.ts`), and here the
 * run-time half: `expandComposed` and `runComposed`, which re-check the
 * definitions they are given (once per list) before anything runs.
 *
 * @module
 */

import { error, type Issue, IssueError } from "../base/issue.ts";
import { BUILTIN_DEFINITIONS, HELPER_PRIMITIVES, normalizeComposedParams } from "./composed.ts";
import type { OperatorDefinition } from "./dsl_types.ts";
import type { OperatorFn, StepContext } from "./operator.ts";
import { checkBudget } from "../base/budget.ts";
import { limits, overLimit } from "../base/limits.ts";
import { substitutedSize } from "./dsl_cost.ts";
import { asList, registry, validateDefinitions } from "./dsl_check.ts";
import { evaluate, follow, parseExpression, REF, references, substitute, truthy } from "./dsl_expr.ts";
import { PRIMITIVES } from "./primitives.ts";

export type { DslCall, DslIf, DslStep, OperatorDefinition } from "./dsl_types.ts";
export { registry, validateDefinitions } from "./dsl_check.ts";
export { evaluate, parseExpression, references, substitute, truthy } from "./dsl_expr.ts";

/** A primitive step after expansion: params substituted, nested operators inlined. */
export type ExpandedStep =
  | { primitive: string; params: Record<string, unknown>; bind?: string }
  | { if: string; then: ExpandedStep[]; else: ExpandedStep[] };

function definitionOf(name: string, defs: readonly OperatorDefinition[]): OperatorDefinition {
  const def = registry(defs).get(name);
  if (!def) {
    throw new IssueError(error("unknown-operator", `Unknown operator "${name}"`, {
      hint: "define it in define_operators or use a primitive",
    }));
  }
  return def;
}

/** Errors of each definitions list already validated (a plan's composed steps share one list). */
const validated = new WeakMap<readonly OperatorDefinition[], Issue[]>();

function definitionErrors(defs: readonly OperatorDefinition[], builtin: boolean): Issue[] {
  let errors = validated.get(defs);
  if (!errors) {
    errors = validateDefinitions(defs, builtin ? { builtin: true } : {}).filter((issue) =>
      issue.severity === "error"
    );
    validated.set(defs, errors);
  }
  return errors;
}

function checked(name: string, params: Record<string, unknown>, defs: readonly OperatorDefinition[]) {
  const builtin = BUILTIN_DEFINITIONS.some((def) => def.define === name);
  const problems = builtin ? definitionErrors(BUILTIN_DEFINITIONS, true) : definitionErrors(defs, false);
  if (problems.length) throw new IssueError(problems);
  const def = definitionOf(name, defs);
  const normal = normalizeComposedParams(name, params);
  const missing: Issue[] = [];
  for (const [param, type] of Object.entries(def.params_schema ?? {})) {
    const value = normal[param];
    if (value === undefined) {
      if (!type.endsWith("?")) {
        missing.push(error("dsl-missing-param", `Operator "${name}" needs parameter "${param}"`, {
          path: ["params", param],
        }));
      }
    } else if (!typeMatches(value, type.replace(/\?$/, ""))) {
      missing.push(
        error(
          "param-invalid",
          `Parameter "${param}" of "${name}" must be of type ${type.replace(/\?$/, "")}`,
          {
            path: ["params", param],
          },
        ),
      );
    }
  }
  if (missing.length) throw new IssueError(missing);
  return { def, params: normal };
}

function typeMatches(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
    case "locator":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    default:
      return true;
  }
}

/**
 * Expand operator `name` with `params` into primitive steps: parameters
 * substituted, nested composed operators inlined, `if`s kept (their
 * conditions depend on outputs known only when run; references to bound
 * variables stay verbatim).
 */
export function expandComposed(
  name: string,
  params: Record<string, unknown>,
  defs: readonly OperatorDefinition[] = [],
): ExpandedStep[] {
  const { def, params: normal } = checked(name, params, defs);
  const all = registry(defs);
  const expand = (steps: unknown, env: Record<string, unknown>, depth: number): ExpandedStep[] =>
    asList(steps).flatMap((raw): ExpandedStep[] => {
      const step = raw as Record<string, unknown>;
      if ("if" in step) {
        return [{
          if: substituteExpression(step.if as string, env),
          then: expand(step.then, env, depth),
          else: step.else === undefined ? [] : expand(step.else, env, depth),
        }];
      }
      const callee = (step.primitive ?? step.op) as string;
      const callParams = substitute(step.params ?? {}, env) as Record<string, unknown>;
      const nested = all.get(callee);
      if (nested && depth < limits().max_nesting_depth) {
        return expand(nested.steps, normalizeComposedParams(callee, callParams), depth + 1);
      }
      return [{ primitive: callee, params: callParams, ...(step.bind ? { bind: step.bind as string } : {}) }];
    });
  return expand(def.steps, normal, 0);
}

/**
 * Refuse a call whose parameters would grow past `max_param_bytes` once
 * `env` is substituted (run-time values included), before building them.
 */
function checkSubstitutedSize(
  caller: string,
  callee: string,
  params: unknown,
  env: Record<string, unknown>,
): void {
  const max = limits().max_param_bytes;
  const sizes: Record<string, number> = {};
  for (const name of references(params)) {
    if (Object.hasOwn(env, name)) sizes[name] ??= substitutedSize(env[name], {}, max + 1);
  }
  if (substitutedSize(params, sizes, max) > max) {
    throw new IssueError(overLimit(
      "param-too-large",
      "max_param_bytes",
      `Parameters of "${callee}" in "${caller}" grow to more than ${max} characters once variables are substituted`,
    ));
  }
}

/** Put known scalar values into an `if` expression as literals; other references stay. */
function substituteExpression(source: string, env: Record<string, unknown>): string {
  return source.replace(REF, (match, name: string, fields: string) => {
    if (match === "$$" || !(name in env)) return match;
    const { value, rest } = follow(env[name], fields);
    if (rest !== "" || (value !== null && typeof value === "object")) return match;
    return value === undefined ? "null" : JSON.stringify(value);
  });
}

/** Output of a composed operator: every bound output, and the last step's. */
export interface ComposedOutput {
  outputs: Record<string, unknown>;
  last: unknown;
}

/**
 * Run operator `name` (a definition in `defs` or a built-in) through `ctx`:
 * each primitive edits the overlay, so the next one resolves its locators
 * against the result. Validation errors are thrown before any step runs.
 */
export async function runComposed(
  name: string,
  params: Record<string, unknown>,
  ctx: StepContext,
  defs: readonly OperatorDefinition[] = [],
): Promise<ComposedOutput> {
  const { def, params: normal } = checked(name, params, defs);
  const all = registry(defs);
  const run = async (definition: OperatorDefinition, args: Record<string, unknown>, depth: number) => {
    const env: Record<string, unknown> = { ...args };
    const outputs: Record<string, unknown> = {};
    let last: unknown = undefined;
    const exec = async (steps: unknown): Promise<void> => {
      for (const raw of asList(steps)) {
        const step = raw as Record<string, unknown>;
        if ("if" in step) {
          const branch = truthy(evaluate(parseExpression(step.if as string), env)) ? step.then : step.else;
          if (branch !== undefined) await exec(branch);
          continue;
        }
        checkBudget();
        const callee = (step.primitive ?? step.op) as string;
        checkSubstitutedSize(definition.define, callee, step.params ?? {}, env);
        const callParams = substitute(step.params ?? {}, env) as Record<string, unknown>;
        const fn: OperatorFn | undefined = PRIMITIVES[callee] ?? HELPER_PRIMITIVES[callee];
        if (fn) {
          last = await fn(callParams, ctx);
          ctx.releaseSuperseded(); // the primitive is done with the documents its edits replaced
        } else {
          const { max_nesting_depth } = limits();
          if (depth >= max_nesting_depth) {
            throw new IssueError(overLimit(
              "plan-too-deep",
              "max_nesting_depth",
              `Operators nest deeper than ${max_nesting_depth} levels at "${callee}"`,
            ));
          }
          last = await run(all.get(callee)!, normalizeComposedParams(callee, callParams), depth + 1);
        }
        if (typeof step.bind === "string") {
          env[step.bind] = last;
          outputs[step.bind] = last;
        }
      }
    };
    await exec(definition.steps);
    return { outputs, last };
  };
  return await run(def, normal, 0);
}
