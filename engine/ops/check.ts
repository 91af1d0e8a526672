/**
 * The check of a built-in operator's params against its descriptor's zod
 * schema, shared by plan validation (`engine/plan`, every `op` step) and
 * the operators that re-check their params when called directly (the legacy
 * ones): zod's issues in the seed's wording (`zod_issues.ts`), the
 * alternative spellings of `oneOf` (exactly one, or equal values), unknown
 * keys as warnings with a "did you mean", and locator `file`s that would
 * leave the repository.
 *
 * @module
 */

import { error, type Issue, IssueError, warning } from "../base/issue.ts";
import { closestNames, didYouMean } from "../base/suggest.ts";
import type { OperatorSpec } from "./operator.ts";
import { pathProblem, requiredParams } from "./schema_parts.ts";
import { describe, type Scope, translateZodIssues } from "./zod_issues.ts";

/** Most issues reported for one plan; the rest are summarised in one more. */
export const MAX_ISSUES = 100;

type Json = unknown;
type Path = (string | number)[];

/**
 * Check the params of built-in operator `spec` and return them as validated
 * (for operators called directly, not through `parsePlan`). Throws an
 * `IssueError` with every problem.
 */
export function checkOperatorParams(
  spec: OperatorSpec,
  params: unknown,
  step?: number,
): Record<string, unknown> {
  const op = spec.name;
  const collector = new Collector();
  const scope: Scope = {
    prefix: step === undefined ? op : `Step ${step}`,
    owner: op,
    step,
    base: ["params"],
    params: true,
  };
  const out = checkBuiltinParams(spec, params, scope, collector);
  const errors = collector.done().filter((issue) => issue.severity === "error");
  if (errors.length > 0 || !out) {
    throw new IssueError(errors.length > 0 ? errors : [error("plan-invalid", `Invalid params for ${op}`)]);
  }
  return out;
}

/** Issues, capped at {@link MAX_ISSUES}; what is left over becomes one `too-many-issues` error. */
export class Collector {
  private readonly issues: Issue[] = [];
  private dropped = 0;

  /** Record issues (beyond the cap they are only counted). */
  add(...issues: Issue[]): void {
    for (const issue of issues) {
      if (this.issues.length < MAX_ISSUES) this.issues.push(issue);
      else this.dropped++;
    }
  }

  /** How many errors were recorded. */
  get errorCount(): number {
    return this.issues.filter((issue) => issue.severity === "error").length;
  }

  /** The issues, with one `too-many-issues` error when some were dropped. */
  done(): Issue[] {
    if (this.dropped === 0) return this.issues;
    return [
      ...this.issues,
      error("too-many-issues", `${this.dropped} more problems were found and not listed`, {
        hint: "fix the problems above and validate again",
      }),
    ];
  }
}

/** Whether `value` is a plain object (not null, not an array). */
export function isObject(value: Json): value is Record<string, Json> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `params` is an object; reports a `wrong-type` error when it is not. */
export function paramsAreObject(
  op: string,
  params: Json,
  scope: Scope,
  out: Collector,
): params is Record<string, Json> {
  if (isObject(params)) return true;
  out.add(
    error("wrong-type", `${scope.prefix}: The params of ${op} must be an object, got ${describe(params)}`, {
      step: scope.step,
      path: scope.base,
    }),
  );
  return false;
}

/** Validate the params of a built-in operator into `out`; undefined when there are errors. */
export function checkBuiltinParams(
  spec: OperatorSpec,
  params: Json,
  scope: Scope,
  out: Collector,
): Record<string, unknown> | undefined {
  if (!paramsAreObject(spec.name, params, scope, out)) return undefined;
  const before = out.errorCount;
  const declared = Object.keys(spec.params.shape);
  const legacyHint = spec.kind === "legacy" && Object.hasOwn(params, "locator")
    ? legacyLocatorHint(spec)
    : undefined;
  const result = spec.params.safeParse(params);
  if (!result.success) {
    const issues = translateZodIssues(result.error.issues, params, { ...scope, schema: spec.params });
    out.add(
      ...issues.map((
        issue,
      ) => (legacyHint && issue.code === "missing-parameter" ? { ...issue, hint: legacyHint } : issue)),
    );
  }
  for (const group of spec.oneOf ?? []) {
    const given = group.filter((key) => params[key] !== undefined);
    if (given.length === 0) {
      out.add(
        error("missing-parameter", `${scope.prefix}: Missing parameter '${group[0]}' for ${spec.name}`, {
          step: scope.step,
          path: [...scope.base, group[0]],
          hint: group.length > 1 ? `give one of ${group.map((key) => `"${key}"`).join(", ")}` : undefined,
        }),
      );
    } else if (given.length > 1 && new Set(given.map((key) => JSON.stringify(params[key]))).size > 1) {
      out.add(error(
        "conflicting-parameters",
        `${scope.prefix}: ${spec.name} takes one of ${
          given.map((key) => `'${key}'`).join(" and ")
        }, with different values given`,
        { step: scope.step, path: [...scope.base, given[1]], hint: "keep one of them" },
      ));
    }
  }
  for (const key of Object.keys(params)) {
    if (declared.includes(key)) continue;
    const suggestion = didYouMean(closestNames(key, declared, 2));
    const hint = key === "locator" && legacyHint ? legacyHint : suggestion;
    out.add(
      warning("unknown-parameter", `${scope.prefix}: Unknown parameter '${key}' for ${spec.name} (ignored)`, {
        step: scope.step,
        path: [...scope.base, key],
        hint: hint ?? `${spec.name} takes ${declared.map((name) => `"${name}"`).join(", ")}`,
      }),
    );
  }
  for (const [key, value] of Object.entries(params)) {
    if (key !== "file" && declared.includes(key)) checkLocatorFiles(value, [...scope.base, key], scope, out);
  }
  if (out.errorCount > before || !result.success) return undefined;
  return result.data as Record<string, unknown>;
}

/**
 * Refuse `file` fields of locators (at any depth: `parent` chains) that
 * would leave the repository, as `FILE_PATH` does for `file` parameters.
 */
export function checkLocatorFiles(value: Json, path: Path, scope: Scope, out: Collector): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => checkLocatorFiles(item, [...path, i], scope, out));
    return;
  }
  if (!isObject(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    if (key === "file" && typeof inner === "string") {
      const problem = pathProblem(inner);
      if (problem) {
        out.add(
          error(
            problem.code,
            `${scope.prefix}: Locator file ${describe(inner).replace(/^the string /, "")} ${problem.message}`,
            {
              step: scope.step,
              path: [...path, key],
            },
          ),
        );
      }
    } else {
      checkLocatorFiles(inner, [...path, key], scope, out);
    }
  }
}

/** The hint for a legacy operator given a `locator`: its primitive equivalent (seed 002 mapping). */
function legacyLocatorHint(spec: OperatorSpec): string {
  const op = spec.name;
  const equivalent: Record<string, string> = {
    replace_code: "replace_node",
    insert_code: "insert_before_node or insert_after_node",
    delete_lines: "delete_node",
    modify_function_signature: 'replace_node (locator with "field": "parameters")',
    rename_symbol: "replace_all_matching or rename_identifier",
    wrap_block: "wrap_node",
    replace_function_body: 'replace_node (locator with "field": "body")',
  };
  const required = requiredParams(spec).map((key) => `"${key}"`).join(", ");
  return `${op} is a legacy operator taking ${required}; to target a node by locator use ${
    equivalent[op] ?? "a primitive"
  }`;
}
