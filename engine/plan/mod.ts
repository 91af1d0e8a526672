/**
 * Plan validation: from a JSON value to a `NormalizedPlan` whose every step
 * knows its tier, its kind and its checked parameters, or to the complete
 * list of problems (all of them, not the first), each an issue object with
 * the step, a JSON path into the plan and a stable code.
 *
 * The stages:
 * 1. `sanitize`: plain JSON data only (no cycles, functions, `__proto__`
 *    keys, nesting deeper than 64), copied so nothing can change under us.
 * 2. The top-level shape: an array of steps or `{define_operators, plan}`;
 *    anything else (a file list, an empty array, a single step) is refused
 *    with a message that shows what a plan looks like.
 * 3. `define_operators`, by the DSL's validator (`engine/edit/dsl_check.ts`); its
 *    shape is described in `schema.ts` for the JSON Schema.
 * 4. Each step, against the zod schema of its kind (`schema.ts`,
 *    `operators.ts`), with zod's issues translated (`zod_issues.ts`).
 *
 * Unknown parameters and fields are warnings (with a "did you mean"), so a
 * plan with a stray `"comment"` key still runs; everything else is an error.
 *
 * @module
 */

import { error, type Issue, warning } from "../base/issue.ts";
import {
  LEGACY_OP_NAMES,
  MAX_CODE_LENGTH,
  type OperatorKind,
  OPERATORS,
  TEMPLATE_NAMES,
} from "./operators.ts";
import {
  checkBuiltinParams,
  checkLocatorFiles,
  Collector,
  isObject,
  MAX_ISSUES,
  paramsAreObject,
} from "../ops/check.ts";
import { FRAGMENT_STEP_SCHEMA, templateStepSchema } from "./schema.ts";
import { sanitize } from "./sanitize.ts";
import { closestNames, didYouMean } from "../base/suggest.ts";
import { detectTier, type Tier } from "./tiers.ts";
import { describe, type Scope, translateZodIssues } from "../ops/zod_issues.ts";
import type { z } from "zod";
import { registry, validateDefinitions } from "../edit/dsl_check.ts";
import type { OperatorDefinition } from "../edit/dsl_types.ts";
import { checkExpansion } from "../edit/dsl_cost.ts";
import { limits } from "../base/limits.ts";

export { detectTier, type Tier } from "./tiers.ts";
export { OPERATORS, type OperatorSpec, SURGERY_OPS, TEMPLATE_NAMES } from "./operators.ts";
export { PLAN_SCHEMA, planJsonSchema } from "./schema.ts";
export type { OperatorDefinition } from "../edit/dsl_types.ts";

/** How a step is executed. */
export type StepKind = OperatorKind | "template" | "fragment";

/** A validated step. */
export interface NormalizedStep {
  /** 0-based position in the plan. */
  index: number;
  /** Seed 001 tier: 1 surgery, 2 template, 3 fragment, 0 otherwise. */
  tier: Tier;
  kind: StepKind;
  /** The operator name; the template name for tier 2; `"fragment"` for tier 3. */
  op: string;
  /**
   * The step's parameters as validated (declared keys only). For a fragment
   * step: `{fragment, action, target}`.
   */
  params: Record<string, unknown>;
  /** The step as written (a sanitized copy). */
  raw: unknown;
  /** JSON path of the step in the plan document: `[2]`, or `["plan", 2]` in the object format. */
  path: (string | number)[];
}

/** A plan ready to execute. */
export interface NormalizedPlan {
  definitions: OperatorDefinition[];
  steps: NormalizedStep[];
}

/** The result of `parsePlan`: a plan when there are no errors, and every issue found. */
export interface ParseResult {
  plan?: NormalizedPlan;
  issues: Issue[];
}

export { MAX_ISSUES };

/** Most steps a plan may have. */
export const MAX_STEPS = 10_000;

/** What a plan looks like, for messages about input that is not one. */
export const PLAN_SHAPE_HINT =
  'a plan is a JSON array of steps, e.g. [{"template": "replace_expression", "params": {"target": {"file": "src/a.py", "kind": "call", "name": "load"}, "expression": "load(path, strict=True)"}}], or an object {"define_operators": [...], "plan": [...]}';

/** Validate a plan given as JSON text (a `json-invalid` issue when it does not parse). */
export function parsePlanText(text: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      issues: [
        error("json-invalid", `The plan is not valid JSON: ${(err as Error).message}`, {
          path: [],
          hint: PLAN_SHAPE_HINT,
        }),
      ],
    };
  }
  return parsePlan(value);
}

/** Validate a plan document (see the module notes). */
export function parsePlan(json: unknown): ParseResult {
  const clean = sanitize(json);
  if (clean.issues.length > 0) return { issues: clean.issues };
  const collector = new Collector();
  const plan = parseDocument(clean.value, collector);
  const issues = collector.done();
  return issues.some((issue) => issue.severity === "error") ? { issues } : { plan, issues };
}

type Json = unknown;
type Path = (string | number)[];

/** Stage 2: the top-level shape, then definitions and steps. */
function parseDocument(doc: Json, out: Collector): NormalizedPlan | undefined {
  let steps: Json;
  let stepsPath: Path;
  let definitions: OperatorDefinition[] = [];
  if (Array.isArray(doc)) {
    steps = doc;
    stepsPath = [];
  } else if (isObject(doc) && Object.hasOwn(doc, "plan")) {
    for (const key of Object.keys(doc)) {
      if (key !== "plan" && key !== "define_operators") {
        out.add(
          warning(
            "unknown-field",
            `Unknown top-level field '${key}' (a plan object has "define_operators" and "plan")`,
            {
              path: [key],
            },
          ),
        );
      }
    }
    stepsPath = ["plan"];
    steps = doc.plan;
    if (!Array.isArray(steps)) {
      out.add(error("wrong-type", `"plan" must be an array of steps, got ${describe(steps)}`, {
        path: ["plan"],
        hint: PLAN_SHAPE_HINT,
      }));
      return undefined;
    }
    if (Object.hasOwn(doc, "define_operators")) definitions = parseDefinitions(doc.define_operators, out);
  } else {
    out.add(notAPlan(doc));
    return undefined;
  }

  const list = steps as Json[];
  if (list.length === 0) {
    out.add(error("plan-invalid", `The plan has no steps: ${PLAN_SHAPE_HINT}`, { path: stepsPath }));
    return undefined;
  }
  if (list.every((item) => typeof item === "string")) {
    const sample = JSON.stringify((list[0] as string).slice(0, 60));
    out.add(error(
      "plan-invalid",
      `The plan is a list of strings (${sample}${
        list.length > 1 ? ", ..." : ""
      }), not of steps: ${PLAN_SHAPE_HINT}`,
      { path: stepsPath, hint: "a list of file names is not a plan: write the edits as steps" },
    ));
    return undefined;
  }
  if (list.length > MAX_STEPS) {
    out.add(
      error("plan-too-large", `The plan has ${list.length} steps, more than ${MAX_STEPS}`, {
        path: stepsPath,
      }),
    );
    return undefined;
  }

  const defined = new Map(definitions.map((def) => [def.define, def]));
  const normalized: NormalizedStep[] = [];
  for (let index = 0; index < list.length; index++) {
    const step = parseStep(list[index], index, [...stepsPath, index], defined, out);
    if (step) normalized.push(step);
  }
  // Before anything runs: what the composed operators expand to (steps, depth, parameter sizes).
  const composed = normalized.filter((step) => step.kind === "composed");
  if (composed.length > 0 && out.errorCount === 0) {
    out.add(
      ...checkExpansion(composed, registry(definitions), limits(), normalized.length - composed.length),
    );
  }
  return { definitions, steps: normalized };
}

/** The issue for a top-level value that is not a plan, saying what it looks like instead. */
function notAPlan(doc: Json): Issue {
  if (isObject(doc)) {
    if (Object.hasOwn(doc, "op") || Object.hasOwn(doc, "template") || Object.hasOwn(doc, "fragment")) {
      return error("plan-invalid", `The plan is a single step, not an array of steps: wrap it in [ ]`, {
        path: [],
        hint: PLAN_SHAPE_HINT,
      });
    }
    const arrayKey = Object.keys(doc).find((key) => Array.isArray(doc[key]));
    if (arrayKey) {
      return error(
        "plan-invalid",
        `The plan object has no "plan" field (it has "${arrayKey}"): ${PLAN_SHAPE_HINT}`,
        { path: [], hint: `rename "${arrayKey}" to "plan" if it holds the steps` },
      );
    }
    return error("plan-invalid", `The plan object has no "plan" field: ${PLAN_SHAPE_HINT}`, { path: [] });
  }
  return error(
    "plan-invalid",
    `The plan must be an array of steps, got ${describe(doc)}: ${PLAN_SHAPE_HINT}`,
    {
      path: [],
    },
  );
}

/**
 * Stage 3: `define_operators`, checked by the DSL's own validator
 * (`validateDefinitions`: shape, names, variables, callees, recursion).
 * Returns the definitions when they are valid.
 */
function parseDefinitions(raw: Json, out: Collector): OperatorDefinition[] {
  const issues = validateDefinitions(raw, { basePath: ["define_operators"] });
  for (const issue of issues) out.add(issue);
  if (issues.some((issue) => issue.severity === "error")) return [];
  return raw as OperatorDefinition[];
}

/** Stage 4: one step. */
function parseStep(
  raw: Json,
  index: number,
  path: Path,
  defined: Map<string, OperatorDefinition>,
  out: Collector,
): NormalizedStep | undefined {
  const prefix = `Step ${index}`;
  if (!isObject(raw)) {
    out.add(error(
      "plan-invalid",
      `${prefix}: A step must be an object like {"op": NAME, "params": {...}}, got ${describe(raw)}`,
      { step: index, path, hint: PLAN_SHAPE_HINT },
    ));
    return undefined;
  }
  const tags = ["op", "template", "fragment"].filter((key) => Object.hasOwn(raw, key));
  if (tags.length === 0) {
    const guess = ["operator", "operation", "action", "name", "type", "tool"].find((key) =>
      typeof raw[key] === "string"
    );
    out.add(error("plan-invalid", `${prefix}: A step needs "op", "template" or "fragment"`, {
      step: index,
      path,
      hint: guess ? `name the operator in "op" (not "${guess}")` : PLAN_SHAPE_HINT,
    }));
    return undefined;
  }
  if (tags.length > 1) {
    out.add(error(
      "plan-invalid",
      `${prefix}: A step has exactly one of "op", "template" or "fragment", this one has ${
        tags.map((tag) => `"${tag}"`).join(" and ")
      }`,
      { step: index, path },
    ));
    return undefined;
  }
  const tier = detectTier(raw);
  if (tags[0] === "template") return parseTemplateStep(raw, index, path, tier, out);
  if (tags[0] === "fragment") return parseFragmentStep(raw, index, path, tier, out);

  const op = raw.op;
  if (typeof op !== "string") {
    out.add(error("wrong-type", `${prefix}: "op" must be an operator name, got ${describe(op)}`, {
      step: index,
      path: [...path, "op"],
    }));
    return undefined;
  }
  warnUnknownKeys(
    raw,
    ["op", "params", "description"],
    `${prefix}: Unknown field '%s' in the step`,
    index,
    path,
    out,
  );
  const spec = OPERATORS.get(op);
  const def = defined.get(op);
  if (!spec && !def) {
    out.add(unknownOperator(op, index, path, defined));
    return undefined;
  }
  const paramsPath = [...path, "params"];
  if (!Object.hasOwn(raw, "params")) {
    const declared = spec ? Object.keys(spec.params.shape) : Object.keys(def!.params_schema ?? {});
    const misplaced = declared.filter((key) => Object.hasOwn(raw, key));
    if (misplaced.length > 0) {
      out.add(error(
        "plan-invalid",
        `${prefix}: The parameters of ${op} belong in "params": move ${
          misplaced.map((key) => `'${key}'`).join(", ")
        } into "params"`,
        { step: index, path: paramsPath },
      ));
      return undefined;
    }
  }
  const params = raw.params ?? {};
  const scope: Scope = { prefix, owner: op, step: index, base: paramsPath, params: true };
  if (spec) {
    const checked = checkBuiltinParams(spec, params, scope, out);
    if (!checked) return undefined;
    const kind: StepKind = op === "delete_node" && checked.target !== undefined ? "surgery" : spec.kind;
    return { index, tier, kind, op, params: checked, raw, path };
  }
  const checked = checkDefinedParams(def!, params, scope, out);
  if (!checked) return undefined;
  return { index, tier, kind: "composed", op, params: checked, raw, path };
}

/** Validate the params of a `define_operators` operator against its `params_schema`. */
function checkDefinedParams(
  def: OperatorDefinition,
  params: Json,
  scope: Scope,
  out: Collector,
): Record<string, unknown> | undefined {
  if (!paramsAreObject(def.define, params, scope, out)) return undefined;
  const before = out.errorCount;
  const schema = def.params_schema ?? {};
  for (const [name, declared] of Object.entries(schema)) {
    const optional = declared.endsWith("?");
    const type = optional ? declared.slice(0, -1) : declared;
    const value = params[name];
    const path = [...scope.base, name];
    if (value === undefined && optional) continue;
    if (value === undefined) {
      out.add(error("missing-parameter", `${scope.prefix}: Missing parameter '${name}' for ${def.define}`, {
        step: scope.step,
        path,
      }));
      continue;
    }
    if (typeof value === "string" && value.length > MAX_CODE_LENGTH) {
      out.add(error(
        "invalid-value",
        `${scope.prefix}: Parameter '${name}' of ${def.define} must have at most ${MAX_CODE_LENGTH} characters`,
        { step: scope.step, path },
      ));
      continue;
    }
    const expected = TYPE_CHECKS[type.toLowerCase()];
    if (expected && !expected.test(value)) {
      out.add(error(
        "wrong-type",
        `${scope.prefix}: Parameter '${name}' of ${def.define} must be ${expected.text}, got ${
          describe(value)
        }`,
        { step: scope.step, path },
      ));
    }
  }
  for (const key of Object.keys(params)) {
    if (Object.hasOwn(schema, key)) continue;
    out.add(
      warning(
        "unknown-parameter",
        `${scope.prefix}: Unknown parameter '${key}' for ${def.define} (ignored)`,
        {
          step: scope.step,
          path: [...scope.base, key],
          hint: didYouMean(closestNames(key, Object.keys(schema), 2)),
        },
      ),
    );
  }
  return out.errorCount > before ? undefined : params;
}

const TYPE_CHECKS: Record<string, { text: string; test: (value: unknown) => boolean }> = {
  string: { text: "a string", test: (v) => typeof v === "string" },
  str: { text: "a string", test: (v) => typeof v === "string" },
  code: { text: "a string", test: (v) => typeof v === "string" },
  number: { text: "a number", test: (v) => typeof v === "number" && Number.isFinite(v) },
  int: { text: "an integer", test: (v) => Number.isInteger(v) },
  integer: { text: "an integer", test: (v) => Number.isInteger(v) },
  boolean: { text: "true or false", test: (v) => typeof v === "boolean" },
  bool: { text: "true or false", test: (v) => typeof v === "boolean" },
  locator: { text: "a locator object", test: (v) => isObject(v) },
  object: { text: "an object", test: (v) => isObject(v) },
  dict: { text: "an object", test: (v) => isObject(v) },
  array: { text: "an array", test: (v) => Array.isArray(v) },
  list: { text: "an array", test: (v) => Array.isArray(v) },
};

/** `Step 3: Unknown operator 'edit_file'`, with the closest names as a hint. */
function unknownOperator(
  op: string,
  index: number,
  path: Path,
  defined: Map<string, OperatorDefinition>,
): Issue {
  const shown = op.length > 80 ? `${op.slice(0, 77)}...` : op;
  let hint: string | undefined;
  if (TEMPLATE_NAMES.includes(op) && !OPERATORS.has(op)) {
    hint = `'${op}' is a template: write {"template": "${op}", "params": {"target": LOCATOR, ...}}`;
  } else {
    hint = didYouMean(closestNames(op, [...OPERATORS.keys(), ...defined.keys()]));
  }
  return error("unknown-operator", `Step ${index}: Unknown operator '${shown}'`, {
    step: index,
    path: [...path, "op"],
    hint: hint ??
      `operators: ${[...OPERATORS.keys()].join(", ")}${
        defined.size > 0 ? `, ${[...defined.keys()].join(", ")}` : ""
      }`,
  });
}

function parseTemplateStep(raw: Record<string, Json>, index: number, path: Path, tier: Tier, out: Collector) {
  const prefix = `Step ${index}`;
  const name = raw.template;
  if (typeof name !== "string") {
    out.add(error("wrong-type", `${prefix}: "template" must be a template name, got ${describe(name)}`, {
      step: index,
      path: [...path, "template"],
    }));
    return undefined;
  }
  if (!TEMPLATE_NAMES.includes(name)) {
    const shown = name.length > 80 ? `${name.slice(0, 77)}...` : name;
    const isOp = OPERATORS.has(name) || LEGACY_OP_NAMES.includes(name);
    out.add(error("unknown-template", `${prefix}: Unknown template '${shown}'`, {
      step: index,
      path: [...path, "template"],
      hint: isOp
        ? `'${name}' is an operator: write {"op": "${name}", "params": {...}}`
        : didYouMean(closestNames(name, TEMPLATE_NAMES)) ?? `templates: ${TEMPLATE_NAMES.join(", ")}`,
    }));
    return undefined;
  }
  warnUnknownKeys(
    raw,
    ["template", "params", "description"],
    `${prefix}: Unknown field '%s' in the step`,
    index,
    path,
    out,
  );
  const schema = templateStepSchema(name);
  const result = schema.safeParse(raw) as z.ZodSafeParseResult<{ params: Record<string, unknown> }>;
  const scope: Scope = { prefix, owner: name, step: index, base: path, params: false, schema };
  if (!result.success) {
    out.add(...translateZodIssues(result.error.issues, raw, scope));
    // A locator escaping the repository is worth saying even when other parameters are missing.
    const params = raw.params;
    if (params && typeof params === "object" && !Array.isArray(params)) {
      checkLocatorFiles(params as Record<string, unknown>, [...path, "params"], scope, out);
    }
    return undefined;
  }
  const before = out.errorCount;
  checkLocatorFiles(result.data.params, [...path, "params"], scope, out);
  if (out.errorCount > before) return undefined;
  const step: NormalizedStep = {
    index,
    tier,
    kind: "template",
    op: name,
    params: result.data.params as Record<string, unknown>,
    raw,
    path,
  };
  return step;
}

function parseFragmentStep(raw: Record<string, Json>, index: number, path: Path, tier: Tier, out: Collector) {
  const prefix = `Step ${index}`;
  warnUnknownKeys(
    raw,
    ["fragment", "action", "target", "description"],
    `${prefix}: Unknown field '%s' in the step`,
    index,
    path,
    out,
  );
  const result = FRAGMENT_STEP_SCHEMA.safeParse(raw);
  const scope: Scope = {
    prefix,
    owner: "the fragment step",
    step: index,
    base: path,
    params: false,
    schema: FRAGMENT_STEP_SCHEMA,
  };
  if (!result.success) {
    out.add(...translateZodIssues(result.error.issues, raw, scope));
    return undefined;
  }
  const before = out.errorCount;
  checkLocatorFiles(result.data.target, [...path, "target"], scope, out);
  if (out.errorCount > before) return undefined;
  const { fragment, action, target } = result.data;
  const step: NormalizedStep = {
    index,
    tier,
    kind: "fragment",
    op: "fragment",
    params: { fragment, action, target },
    raw,
    path,
  };
  return step;
}

function warnUnknownKeys(
  raw: Record<string, Json>,
  known: string[],
  template: string,
  index: number,
  path: Path,
  out: Collector,
): void {
  for (const key of Object.keys(raw)) {
    if (known.includes(key)) continue;
    out.add(warning("unknown-field", template.replace("%s", key), {
      step: index,
      path: [...path, key],
      hint: didYouMean(closestNames(key, known, 1)) ?? `a step has ${known.map((k) => `"${k}"`).join(", ")}`,
    }));
  }
}
