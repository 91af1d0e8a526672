/**
 * The plan-time half of the operator DSL (the language is described in
 * `dsl.ts`): `validateDefinitions` checks `define_operators` before anything
 * runs, and `registry` lists the definitions a plan can call. The plan
 * (`engine/plan`) imports this half only; it reads the built-in programs
 * and the primitives' parameter lists as data and runs nothing.
 *
 * Validation reports, each with a JSON path: `dsl-invalid` (shape),
 * `dsl-duplicate`, `dsl-name-reserved`, `dsl-unknown-operator`,
 * `dsl-unknown-variable`, `dsl-missing-param`, `dsl-bad-expression`,
 * `dsl-recursion`, `dsl-bad-type`.
 *
 * @module
 */

import { error, type Issue, warning } from "../base/issue.ts";
import { BUILTIN_DEFINITIONS, HELPER_PARAMS, normalizeComposedParams } from "./composed.ts";
import type { OperatorDefinition } from "./dsl_types.ts";
import { exprRefs, parseExpression, references } from "./dsl_expr.ts";
import { PRIMITIVE_PARAMS } from "./primitives.ts";

type Path = (string | number)[];

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "locator", "any"]);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

function paramsSpec(name: string, defs: Map<string, OperatorDefinition>) {
  if (PRIMITIVE_PARAMS[name]) return PRIMITIVE_PARAMS[name];
  if (HELPER_PARAMS[name]) return HELPER_PARAMS[name];
  const def = defs.get(name);
  if (!def) return undefined;
  const required: string[] = [];
  const optional: string[] = [];
  for (const [param, type] of Object.entries(def.params_schema ?? {})) {
    (typeof type === "string" && type.endsWith("?") ? optional : required).push(param);
  }
  return { required, optional };
}

/** A step or a list of steps, as a list. */
export function asList(steps: unknown): unknown[] {
  return Array.isArray(steps) ? steps : [steps];
}

/** All definitions visible to `defs`: the built-ins plus `defs`. */
export function registry(defs: readonly OperatorDefinition[]): Map<string, OperatorDefinition> {
  const map = new Map<string, OperatorDefinition>();
  for (const def of BUILTIN_DEFINITIONS) map.set(def.define, def);
  const own = new Set<string>();
  for (const def of defs) {
    if (!def || typeof def !== "object" || typeof def.define !== "string" || own.has(def.define)) continue;
    own.add(def.define); // the first of duplicates wins (the others are reported)
    map.set(def.define, def);
  }
  return map;
}

/**
 * Check `define_operators` before anything runs: shape, names, variables,
 * operators, required parameters, `if` expressions and recursion. Paths start
 * with `basePath` (default `["define_operators"]`).
 */
export function validateDefinitions(
  defs: unknown,
  options: { basePath?: Path; builtin?: boolean } = {},
): Issue[] {
  const base = options.basePath ?? ["define_operators"];
  const issues: Issue[] = [];
  if (!Array.isArray(defs)) {
    return [error("dsl-invalid", "define_operators must be an array of definitions", { path: base })];
  }
  const all = registry(options.builtin ? [] : defs as OperatorDefinition[]);
  const seen = new Set<string>();
  const calls = new Map<string, { callee: string; path: Path }[]>();
  defs.forEach((def, i) => {
    const path = [...base, i];
    if (!def || typeof def !== "object" || Array.isArray(def)) {
      issues.push(
        error("dsl-invalid", `Definition ${i} must be an object with "define" and "steps"`, { path }),
      );
      return;
    }
    const { define, params_schema: schema, steps } = def as Record<string, unknown>;
    if (typeof define !== "string" || !IDENT.test(define)) {
      issues.push(
        error("dsl-invalid", `Definition ${i} needs a "define" name made of letters, digits and "_"`, {
          path: [...path, "define"],
        }),
      );
      return;
    }
    if (seen.has(define)) {
      issues.push(
        error("dsl-duplicate", `Operator "${define}" is defined twice`, { path: [...path, "define"] }),
      );
    }
    seen.add(define);
    const builtin = BUILTIN_DEFINITIONS.some((b) => b.define === define);
    if (PRIMITIVE_PARAMS[define] || HELPER_PARAMS[define] || (builtin && !options.builtin)) {
      issues.push(error("dsl-name-reserved", `Operator name "${define}" is taken by a built-in operator`, {
        path: [...path, "define"],
        hint: "choose another name",
      }));
    }
    const scope = new Set<string>();
    let open = false;
    if (schema === undefined) {
      open = true;
      issues.push(
        warning(
          "dsl-no-params-schema",
          `Operator "${define}" has no params_schema: its variables are not checked`,
          {
            path,
          },
        ),
      );
    } else if (!schema || typeof schema !== "object" || Array.isArray(schema)) {
      issues.push(error("dsl-invalid", `params_schema of "${define}" must be an object of parameter types`, {
        path: [...path, "params_schema"],
      }));
      open = true;
    } else {
      for (const [param, type] of Object.entries(schema)) {
        scope.add(param);
        if (typeof type !== "string" || !TYPES.has(type.replace(/\?$/, ""))) {
          issues.push(
            error(
              "dsl-bad-type",
              `Parameter "${param}" of "${define}" has unknown type ${JSON.stringify(type)}`,
              {
                path: [...path, "params_schema", param],
                hint: `types: ${[...TYPES].join(", ")} (add "?" for optional)`,
              },
            ),
          );
        }
      }
    }
    if (steps === undefined || (Array.isArray(steps) && steps.length === 0)) {
      issues.push(error("dsl-invalid", `Operator "${define}" has no steps`, { path: [...path, "steps"] }));
      return;
    }
    const edges: { callee: string; path: Path }[] = [];
    calls.set(define, edges);
    checkSteps(asList(steps), [...path, "steps"], scope, {
      open,
      all,
      issues,
      edges,
      single: !Array.isArray(steps),
    });
  });
  for (const issue of findRecursion(calls)) issues.push(issue);
  return issues;
}

interface CheckState {
  open: boolean;
  all: Map<string, OperatorDefinition>;
  issues: Issue[];
  edges: { callee: string; path: Path }[];
  single?: boolean;
}

/** Check a list of steps; returns the variables bound by the end of it. */
function checkSteps(steps: unknown[], path: Path, scope: Set<string>, state: CheckState): Set<string> {
  let current = new Set(scope);
  steps.forEach((step, j) => {
    const here = state.single ? path : [...path, j];
    current = checkStep(step, here, current, { ...state, single: false });
  });
  return current;
}

function checkVariables(names: string[], scope: Set<string>, path: Path, state: CheckState): void {
  if (state.open) return;
  for (const name of new Set(names)) {
    if (!scope.has(name)) {
      state.issues.push(error("dsl-unknown-variable", `Unknown variable "$${name}"`, {
        path,
        hint: scope.size
          ? `known: ${[...scope].map((v) => `$${v}`).join(", ")}`
          : "declare it in params_schema",
      }));
    }
  }
}

function checkStep(step: unknown, path: Path, scope: Set<string>, state: CheckState): Set<string> {
  const { issues } = state;
  if (!step || typeof step !== "object" || Array.isArray(step)) {
    issues.push(
      error("dsl-invalid", `A step must be an object: {primitive, params} or {if, then, else}`, { path }),
    );
    return scope;
  }
  const record = step as Record<string, unknown>;
  if ("if" in record) {
    if (typeof record.if !== "string") {
      issues.push(
        error("dsl-bad-expression", `"if" must be an expression string`, { path: [...path, "if"] }),
      );
    } else {
      try {
        checkVariables(exprRefs(parseExpression(record.if)), scope, [...path, "if"], state);
      } catch (err) {
        issues.push(
          error(
            "dsl-bad-expression",
            `Cannot parse "if" expression ${JSON.stringify(record.if)}: ${(err as Error).message}`,
            {
              path: [...path, "if"],
            },
          ),
        );
      }
    }
    if (record.then === undefined) {
      issues.push(error("dsl-invalid", `"if" step needs "then"`, { path }));
      return scope;
    }
    const thenScope = checkSteps(asList(record.then), [...path, "then"], scope, {
      ...state,
      single: !Array.isArray(record.then),
    });
    const elseScope = record.else === undefined
      ? scope
      : checkSteps(asList(record.else), [...path, "else"], scope, {
        ...state,
        single: !Array.isArray(record.else),
      });
    return new Set([...thenScope].filter((name) => elseScope.has(name)));
  }
  const name = record.primitive ?? record.op;
  if (typeof name !== "string") {
    issues.push(error("dsl-invalid", `A step needs "primitive" (an operator name) or "if"`, { path }));
    return scope;
  }
  const namePath = [...path, "primitive" in record ? "primitive" : "op"];
  const spec = paramsSpec(name, state.all);
  if (!spec) {
    issues.push(error("dsl-unknown-operator", `Unknown operator "${name}"`, {
      path: namePath,
      hint: `primitives: ${Object.keys(PRIMITIVE_PARAMS).join(", ")}`,
    }));
  } else if (state.all.has(name)) {
    state.edges.push({ callee: name, path: namePath });
  }
  const params = record.params ?? {};
  if (!params || typeof params !== "object" || Array.isArray(params)) {
    issues.push(error("dsl-invalid", `"params" must be an object`, { path: [...path, "params"] }));
  } else {
    for (const [key, value] of Object.entries(params)) {
      checkVariables(references(value), scope, [...path, "params", key], state);
    }
    if (spec) {
      const given = params as Record<string, unknown>;
      const normal = state.all.has(name) ? normalizeComposedParams(name, given) : given;
      for (const required of spec.required) {
        const present = normal[required] !== undefined ||
          (required === "locator" && normal.target !== undefined);
        if (!present) {
          issues.push(error("dsl-missing-param", `Operator "${name}" needs parameter "${required}"`, {
            path: [...path, "params"],
          }));
        }
      }
    }
  }
  if (record.bind !== undefined) {
    if (typeof record.bind !== "string" || !IDENT.test(record.bind)) {
      issues.push(error("dsl-invalid", `"bind" must be a variable name`, { path: [...path, "bind"] }));
      return scope;
    }
    return new Set([...scope, record.bind]);
  }
  return scope;
}

function findRecursion(calls: Map<string, { callee: string; path: Path }[]>): Issue[] {
  const issues: Issue[] = [];
  const reported = new Set<string>();
  // A depth-first walk with an explicit stack (a chain of thousands of operators must not overflow
  // the call stack); each operator is finished once, so the walk is linear in the calls. An edge
  // back to an operator still on the path closes a cycle.
  const done = new Set<string>();
  const onPath = new Map<string, number>();
  const path: string[] = [];
  const frames: { name: string; edge: number }[] = [];
  for (const root of calls.keys()) {
    if (done.has(root)) continue;
    frames.push({ name: root, edge: 0 });
    onPath.set(root, 0);
    path.push(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const edges = calls.get(frame.name) ?? [];
      if (frame.edge >= edges.length) {
        frames.pop();
        path.pop();
        onPath.delete(frame.name);
        done.add(frame.name);
        continue;
      }
      const edge = edges[frame.edge++];
      const at = onPath.get(edge.callee);
      if (at !== undefined) {
        const cycle = [...path.slice(at), edge.callee];
        const key = [...new Set(cycle)].sort().join(",");
        if (!reported.has(key)) {
          reported.add(key);
          issues.push(error("dsl-recursion", `Operator "${frame.name}" calls itself: ${cycle.join(" → ")}`, {
            path: edge.path,
            hint: "operators may call other operators, never themselves directly or indirectly",
          }));
        }
        continue;
      }
      if (done.has(edge.callee) || !calls.has(edge.callee)) continue;
      onPath.set(edge.callee, path.length);
      path.push(edge.callee);
      frames.push({ name: edge.callee, edge: 0 });
    }
  }
  return issues;
}
