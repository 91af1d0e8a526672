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
 * Validation (`validateDefinitions`) reports, each with a JSON path:
 * `dsl-invalid` (shape), `dsl-duplicate`, `dsl-name-reserved`,
 * `dsl-unknown-operator`, `dsl-unknown-variable`, `dsl-missing-param`,
 * `dsl-bad-expression`, `dsl-recursion`, `dsl-bad-type`.
 *
 * @module
 */

import { error, type Issue, IssueError, warning } from "../issue.ts";
import {
  BUILTIN_DEFINITIONS,
  HELPER_PARAMS,
  HELPER_PRIMITIVES,
  normalizeComposedParams,
} from "./composed.ts";
import type { OperatorDefinition } from "./dsl_types.ts";
import type { OperatorFn, StepContext } from "./operator.ts";
import { checkBudget } from "../budget.ts";
import { limits, overLimit } from "../limits.ts";
import { substitutedSize } from "./dsl_cost.ts";
import { PRIMITIVE_PARAMS, PRIMITIVES } from "./primitives.ts";

export type { DslCall, DslIf, DslStep, OperatorDefinition } from "./dsl_types.ts";

type Path = (string | number)[];

const TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "locator", "any"]);
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const REF = /\$\$|\$([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)/g;

// ---------------------------------------------------------------- expressions

type Expr =
  | { kind: "ref"; name: string; fields: string[] }
  | { kind: "lit"; value: unknown }
  | { kind: "not"; arg: Expr }
  | { kind: "bin"; op: string; left: Expr; right: Expr };

interface Token {
  type: "ref" | "num" | "str" | "word" | "op" | "(" | ")";
  text: string;
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  const re =
    /\s*(?:(\$[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|(-?\d+(?:\.\d+)?)|('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|([A-Za-z_]+)|(==|!=|>=|<=|&&|\|\||[<>!])|([()]))/y;
  let index = 0;
  while (index < source.length) {
    if (/^\s*$/.test(source.slice(index))) break;
    re.lastIndex = index;
    const match = re.exec(source);
    if (!match) throw new Error(`unexpected "${source.slice(index).trim().slice(0, 10)}"`);
    index = re.lastIndex;
    if (match[1]) tokens.push({ type: "ref", text: match[1] });
    else if (match[2]) tokens.push({ type: "num", text: match[2] });
    else if (match[3]) tokens.push({ type: "str", text: match[3] });
    else if (match[4]) tokens.push({ type: "word", text: match[4] });
    else if (match[5]) tokens.push({ type: "op", text: match[5] });
    else tokens.push({ type: match[6] as "(" | ")", text: match[6] });
  }
  return tokens;
}

/** Parse an `if` expression; throws an Error with a readable message when it is malformed. */
export function parseExpression(source: string): Expr {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const isWord = (word: string) => peek()?.type === "word" && peek().text === word;
  const isOp = (...ops: string[]) => peek()?.type === "op" && ops.includes(peek().text);
  const or = (): Expr => {
    let left = and();
    while (isWord("or") || isOp("||")) {
      pos++;
      left = { kind: "bin", op: "or", left, right: and() };
    }
    return left;
  };
  const and = (): Expr => {
    let left = not();
    while (isWord("and") || isOp("&&")) {
      pos++;
      left = { kind: "bin", op: "and", left, right: not() };
    }
    return left;
  };
  const not = (): Expr => {
    if (isWord("not") || isOp("!")) {
      pos++;
      return { kind: "not", arg: not() };
    }
    return comparison();
  };
  const comparison = (): Expr => {
    const left = operand();
    if (isOp("==", "!=", ">", "<", ">=", "<=")) {
      const op = tokens[pos++].text;
      return { kind: "bin", op, left, right: operand() };
    }
    return left;
  };
  const operand = (): Expr => {
    const token = tokens[pos++];
    if (!token) throw new Error("expression ends too early");
    switch (token.type) {
      case "ref": {
        const [name, ...fields] = token.text.slice(1).split(".");
        return { kind: "ref", name, fields };
      }
      case "num":
        return { kind: "lit", value: Number(token.text) };
      case "str":
        return { kind: "lit", value: token.text.slice(1, -1).replace(/\\(.)/g, "$1") };
      case "word":
        if (token.text === "true") return { kind: "lit", value: true };
        if (token.text === "false") return { kind: "lit", value: false };
        if (token.text === "null") return { kind: "lit", value: null };
        throw new Error(`unknown word "${token.text}" (variables start with "$", strings are quoted)`);
      case "(": {
        const inner = or();
        if (tokens[pos++]?.type !== ")") throw new Error(`missing ")"`);
        return inner;
      }
      default:
        throw new Error(`unexpected "${token.text}"`);
    }
  };
  if (tokens.length === 0) throw new Error("expression is empty");
  const expr = or();
  if (pos < tokens.length) throw new Error(`unexpected "${tokens[pos].text}"`);
  return expr;
}

function exprRefs(expr: Expr): string[] {
  switch (expr.kind) {
    case "ref":
      return [expr.name];
    case "lit":
      return [];
    case "not":
      return exprRefs(expr.arg);
    case "bin":
      return [...exprRefs(expr.left), ...exprRefs(expr.right)];
  }
}

/** Python-like truthiness. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

function lookup(env: Record<string, unknown>, name: string, fields: string[]): unknown {
  let value = env[name];
  for (const field of fields) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[field];
  }
  return value;
}

/** Evaluate a parsed expression against variables. */
export function evaluate(expr: Expr, env: Record<string, unknown>): unknown {
  switch (expr.kind) {
    case "ref":
      return lookup(env, expr.name, expr.fields);
    case "lit":
      return expr.value;
    case "not":
      return !truthy(evaluate(expr.arg, env));
    case "bin": {
      if (expr.op === "and") return truthy(evaluate(expr.left, env)) && truthy(evaluate(expr.right, env));
      if (expr.op === "or") return truthy(evaluate(expr.left, env)) || truthy(evaluate(expr.right, env));
      const a = evaluate(expr.left, env) ?? null;
      const b = evaluate(expr.right, env) ?? null;
      switch (expr.op) {
        case "==":
          return a === b || (a != null && b != null && JSON.stringify(a) === JSON.stringify(b));
        case "!=":
          return !(a === b || (a != null && b != null && JSON.stringify(a) === JSON.stringify(b)));
        case ">":
          return (a as number) > (b as number);
        case "<":
          return (a as number) < (b as number);
        case ">=":
          return (a as number) >= (b as number);
        default:
          return (a as number) <= (b as number);
      }
    }
  }
}

// ---------------------------------------------------------------- substitution

/** Variable names referenced by `$...` in a JSON-like value. */
export function references(value: unknown): string[] {
  if (typeof value === "string") {
    return [...value.matchAll(REF)].filter((m) => m[0] !== "$$").map((m) => m[1]);
  }
  if (Array.isArray(value)) return value.flatMap(references);
  if (value && typeof value === "object") return Object.values(value).flatMap(references);
  return [];
}

/**
 * Replace `$name(.field)*` references in `value` by their values from `env`.
 * Names not in `env` are kept verbatim (expansion leaves bound variables).
 */
export function substitute(value: unknown, env: Record<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = /^\$([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_]+)*)$/.exec(value);
    if (whole && whole[1] in env) {
      const { value: resolved, rest } = follow(env[whole[1]], whole[2]);
      if (rest === "") return resolved;
    }
    return value.replace(REF, (match, name: string, fields: string) => {
      if (match === "$$") return "$";
      if (!(name in env)) return match;
      const { value: resolved, rest } = follow(env[name], fields);
      return stringify(resolved) + rest;
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, env));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, env)]));
  }
  return value;
}

/** Follow `.a.b` into objects as far as they go; the unused part is returned as text. */
function follow(value: unknown, fields: string): { value: unknown; rest: string } {
  const parts = fields.split(".").slice(1);
  let current = value;
  let used = 0;
  for (const part of parts) {
    if (current === null || typeof current !== "object" || !(part in (current as object))) break;
    current = (current as Record<string, unknown>)[part];
    used++;
  }
  return { value: current, rest: parts.slice(used).map((part) => `.${part}`).join("") };
}

function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// ---------------------------------------------------------------- validation

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

function asList(steps: unknown): unknown[] {
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
    if (PRIMITIVES[define] || HELPER_PRIMITIVES[define] || (builtin && !options.builtin)) {
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
      hint: `primitives: ${Object.keys(PRIMITIVES).join(", ")}`,
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

// ---------------------------------------------------------------- expansion and execution

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
