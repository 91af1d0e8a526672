/**
 * Translating zod's validation issues into GraphPlan issue objects: the
 * seed's wording (`Step 3: Missing parameter 'pattern' for replace_code`),
 * a stable code, the step and the JSON path into the plan. Raw zod text
 * never reaches a user.
 *
 * @module
 */

import type { z } from "zod";
import { error, type Issue } from "../base/issue.ts";
import { isIssueCode } from "../base/issue_codes.ts";
import { closestNames, didYouMean } from "../base/suggest.ts";

/** Where the validated value sits in the plan, for messages and paths. */
export interface Scope {
  /** Message prefix: `Step 2` or `define_operators[0]`. */
  prefix: string;
  /** What the value belongs to, for messages: an operator name, `the step`. */
  owner: string;
  /** 0-based step, when the value is (part of) a step. */
  step?: number;
  /** JSON path of the validated value from the plan's root. */
  base: (string | number)[];
  /** Whether the validated value is a params object (its keys are parameters). */
  params: boolean;
  /** The schema the value was validated with (to suggest the field meant by an unknown one). */
  schema?: z.ZodType;
}

type ZodIssue = z.core.$ZodIssue;
type Path = (string | number)[];

/** Issue objects for zod issues raised validating `value` (located by `scope`). */
export function translateZodIssues(issues: readonly ZodIssue[], value: unknown, scope: Scope): Issue[] {
  const out: Issue[] = [];
  for (const issue of issues) for (const item of translateOne(issue, [], value, scope)) out.push(item);
  return dedupe(out);
}

function translateOne(issue: ZodIssue, prefixPath: Path, root: unknown, scope: Scope): Issue[] {
  const rel: Path = [...prefixPath, ...(issue.path as Path)];
  const actual = valueAt(root, rel);
  const details = { step: scope.step, path: [...scope.base, ...rel] };
  const subject = subjectOf(rel, scope);
  switch (issue.code) {
    case "invalid_type": {
      if (actual === undefined) {
        const { word, label } = nameOf(rel, scope);
        if (label !== "") {
          return [
            error(
              "missing-parameter",
              `${scope.prefix}: Missing ${word} '${label}' for ${scope.owner}`,
              details,
            ),
          ];
        }
      }
      return [
        error(
          "wrong-type",
          `${scope.prefix}: ${subject} must be ${expectedText(issue.expected)}, got ${describe(actual)}`,
          details,
        ),
      ];
    }
    case "invalid_value": {
      const options = issue.values.map((v) => JSON.stringify(v));
      const must = options.length === 1 ? `be ${options[0]}` : `be one of ${options.join(", ")}`;
      return [
        error("invalid-value", `${scope.prefix}: ${subject} must ${must}, got ${describe(actual)}`, details),
      ];
    }
    case "too_small": {
      const origin = issue.origin;
      const min = Number(issue.minimum);
      const text = origin === "string"
        ? min <= 1 ? "must not be empty" : `must have at least ${min} characters`
        : origin === "array" || origin === "set"
        ? min <= 1 ? "must not be empty" : `must have at least ${min} items`
        : `must be at least ${min}, got ${describe(actual)}`;
      return [error("invalid-value", `${scope.prefix}: ${subject} ${text}`, details)];
    }
    case "too_big": {
      const max = Number(issue.maximum);
      const text = issue.origin === "string"
        ? `must have at most ${max} characters`
        : issue.origin === "array"
        ? `must have at most ${max} items`
        : `must be at most ${max}, got ${describe(actual)}`;
      return [error("invalid-value", `${scope.prefix}: ${subject} ${text}`, details)];
    }
    case "unrecognized_keys":
      return issue.keys.map((key) => {
        const { word, label } = nameOf(rel, scope);
        const message = label === ""
          ? `${scope.prefix}: Unknown ${scope.params ? "parameter" : "field"} '${key}' for ${scope.owner}`
          : `${scope.prefix}: Unknown field '${key}' in ${word} '${label}' of ${scope.owner}`;
        const hint = didYouMean(closestNames(key, scope.schema ? keysAt(scope.schema, rel) : [], 2));
        return error("unknown-field", message, { ...details, path: [...details.path, key], hint });
      });
    case "invalid_union":
      return translateUnion(issue, rel, root, scope);
    case "custom": {
      const given = issue.params?.code;
      const code = typeof given === "string" && isIssueCode(given) ? given : "invalid-value";
      const text = issue.message && !issue.message.startsWith("Invalid") ? issue.message : "is invalid";
      return [error(code, `${scope.prefix}: ${subject} ${text}, got ${describe(actual)}`, details)];
    }
    case "invalid_format":
      return [
        error(
          "invalid-value",
          `${scope.prefix}: ${subject} has the wrong format, got ${describe(actual)}`,
          details,
        ),
      ];
    case "not_multiple_of":
      return [
        error(
          "invalid-value",
          `${scope.prefix}: ${subject} must be a multiple of ${issue.divisor}, got ${describe(actual)}`,
          details,
        ),
      ];
    case "invalid_key":
    case "invalid_element":
      return issue.issues.flatMap((inner) => translateOne(inner, rel, root, scope));
    default:
      return [error("invalid-value", `${scope.prefix}: ${subject} is invalid`, details)];
  }
}

/**
 * A union failed: report the branch that came closest (fewest problems,
 * a branch whose literal tag did not match counts as far away). When the
 * value has the wrong type for every branch, say what types would do.
 */
function translateUnion(
  issue: ZodIssue & { code: "invalid_union" },
  rel: Path,
  root: unknown,
  scope: Scope,
): Issue[] {
  const branches = issue.errors.filter((branch) => branch.length > 0);
  if (branches.length === 0) {
    return [
      error("invalid-value", `${scope.prefix}: ${subjectOf(rel, scope)} is invalid`, {
        step: scope.step,
        path: [...scope.base, ...rel],
      }),
    ];
  }
  const rootTypeErrors = branches.every((branch) =>
    branch.length === 1 && branch[0].code === "invalid_type" && branch[0].path.length === 0
  );
  const actual = valueAt(root, rel);
  if (rootTypeErrors && actual !== undefined) {
    const expected = [
      ...new Set(branches.map((branch) => expectedText((branch[0] as { expected: string }).expected))),
    ];
    return [
      error(
        "wrong-type",
        `${scope.prefix}: ${subjectOf(rel, scope)} must be ${expected.join(" or ")}, got ${describe(actual)}`,
        { step: scope.step, path: [...scope.base, ...rel] },
      ),
    ];
  }
  const cost = (branch: ZodIssue[]) =>
    branch.reduce((sum, inner) => {
      const tagMismatch = inner.code === "invalid_value" && inner.path.length === 1 &&
        valueAt(root, [...rel, ...(inner.path as Path)]) !== undefined;
      const wholeWrong = inner.code === "invalid_type" && inner.path.length === 0;
      return sum + (tagMismatch || wholeWrong ? 100 : 1);
    }, 0);
  const best = [...branches].sort((a, b) => cost(a) - cost(b))[0];
  return best.flatMap((inner) => translateOne(inner, rel, root, scope));
}

/** `Parameter 'anchor_line' of insert_code`, `Field 'action' of the step`, `The params of X`. */
function subjectOf(rel: Path, scope: Scope): string {
  const { word, label } = nameOf(rel, scope);
  if (label === "") return scope.params ? `The params of ${scope.owner}` : `The value for ${scope.owner}`;
  return `${word[0].toUpperCase()}${word.slice(1)} '${label}' of ${scope.owner}`;
}

/** The word and dotted label of a path: `parameter`, `locator.parent.name`. */
function nameOf(rel: Path, scope: Scope): { word: string; label: string } {
  let segments = rel;
  let word = "field";
  if (scope.params) word = "parameter";
  else if (rel[0] === "params") {
    word = "parameter";
    segments = rel.slice(1);
  }
  return { word, label: pathLabel(segments) };
}

/** `locator.parent.name`, `order[2]`. */
export function pathLabel(segments: readonly (string | number)[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out;
}

function expectedText(expected: string): string {
  switch (expected) {
    case "string":
      return "a string";
    case "number":
      return "a number";
    case "int":
    case "integer":
      return "an integer";
    case "boolean":
      return "true or false";
    case "object":
    case "record":
      return "an object";
    case "array":
      return "an array";
    case "null":
      return "null";
    default:
      return `of type ${expected}`;
  }
}

/** A short description of a value for messages (long strings are cut). */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    if (value.length > 60) {
      return `a string of ${value.length} characters ${JSON.stringify(value.slice(0, 40) + "...")}`;
    }
    return `the string ${JSON.stringify(value)}`;
  }
  if (typeof value === "number") return Number.isFinite(value) ? `the number ${value}` : String(value);
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    return value.length === 0 ? "an empty array" : `an array of ${value.length} items`;
  }
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** The value at `path` inside `root`, reading own properties only. */
export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function dedupe(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.code}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface Def {
  type?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  getter?: () => z.ZodType;
  in?: z.ZodType;
}

/** The field names of the object(s) `schema` allows at `path` (unions: of every option). */
export function keysAt(schema: z.ZodType, path: Path, depth = 0): string[] {
  if (depth > 50) return [];
  const def = (schema as unknown as { _zod?: { def?: Def } })._zod?.def ?? {};
  const next = (inner: z.ZodType | undefined, rest = path) => inner ? keysAt(inner, rest, depth + 1) : [];
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
      return next(def.innerType);
    case "lazy":
      return next(def.getter?.());
    case "pipe":
      return next(def.in);
    case "union":
      return [...new Set((def.options ?? []).flatMap((option) => next(option)))];
    case "array":
      return typeof path[0] === "number" ? next(def.element, path.slice(1)) : [];
    case "object":
      if (path.length === 0) return Object.keys(def.shape ?? {});
      return next(def.shape?.[String(path[0])], path.slice(1));
    default:
      return [];
  }
}
