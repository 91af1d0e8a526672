/**
 * The locator type and its shape validation (`parseLocator`). Whether a kind,
 * field or query exists in the file's language is checked at resolution,
 * where the language is known.
 *
 * @module
 */

import { error, type Issue, IssueError } from "../base/issue.ts";

/** What structured and S-expression locators share: the file and the refinements. */
export interface LocatorBase {
  /** Repository-relative file; a `parent` inherits its locator's file. */
  file?: string;
  /** Keep only matches inside a node this locator matches. */
  parent?: Locator;
  /** Navigate to this tree-sitter field of each match (`body`, `parameters`, ...). */
  field?: string;
  /** Select the Nth named child of each match (comments skipped; -1 = last). */
  nth_child?: number;
  /** Keep one match (0-based; -1 = last). */
  index?: number;
}

/** `{file, kind, name, parent, field, nth_child, index}`. */
export interface StructuredLocator extends LocatorBase {
  type?: undefined;
  /** A normalized kind (`function`, `class`, ...) or a node type of the language. */
  kind?: string;
  /** The symbol name (see `names.ts` for what it matches per kind). */
  name?: string;
}

/** `{type: "sexp", file, query, capture}`. */
export interface SexpLocator extends LocatorBase {
  type: "sexp";
  /** A tree-sitter query, predicates included (`(#eq? @id "foo")`). */
  query: string;
  /** The capture whose nodes are the matches (default: `target`, else the query's first capture). */
  capture?: string;
}

/** A locator: how a plan addresses AST nodes. */
export type Locator = StructuredLocator | SexpLocator;

const COMMON_FIELDS = ["file", "parent", "field", "nth_child", "index"];
const STRUCTURED_FIELDS = [...COMMON_FIELDS, "kind", "name"];
const SEXP_FIELDS = ["type", ...COMMON_FIELDS, "query", "capture"];

/** Options of `parseLocator`. */
export interface ParseLocatorOptions {
  /** Whether `file` is required (default true; a `parent` never requires it). */
  requireFile?: boolean;
}

/**
 * Validate an untrusted value (parsed JSON) as a locator, collecting every
 * shape problem as a `locator-invalid` issue with its JSON `path` (`path`
 * prefixes them, e.g. `[2, "params", "locator"]`). Throws an `IssueError`.
 */
export function parseLocator(
  value: unknown,
  path: (string | number)[] = [],
  options: ParseLocatorOptions = {},
): Locator {
  const issues: Issue[] = [];
  const locator = check(value, path, options.requireFile ?? true, issues);
  if (issues.length > 0 || !locator) throw new IssueError(issues);
  return locator;
}

function check(
  value: unknown,
  path: (string | number)[],
  requireFile: boolean,
  issues: Issue[],
): Locator | null {
  const problem = (at: (string | number)[], message: string, hint?: string) =>
    issues.push(error("locator-invalid", message, { path: at, ...(hint ? { hint } : {}) }));
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problem(
      path,
      `Locator must be an object, got ${describe(value)}`,
      'e.g. {"file": "a.py", "kind": "function", "name": "f"}',
    );
    return null;
  }
  const record = value as Record<string, unknown>;
  const isSexp = record.type === "sexp";
  if (record.type !== undefined && !isSexp) {
    problem([...path, "type"], `Locator "type" must be "sexp" or absent, got ${describe(record.type)}`);
  }
  const allowed = isSexp ? SEXP_FIELDS : STRUCTURED_FIELDS;
  for (const key of Object.keys(record)) {
    if (key === "type" || allowed.includes(key)) continue;
    const other = isSexp ? STRUCTURED_FIELDS : SEXP_FIELDS;
    const hint = other.includes(key)
      ? isSexp
        ? `"${key}" belongs to structured locators (without "type": "sexp")`
        : `"${key}" needs "type": "sexp"`
      : `valid fields: ${allowed.join(", ")}${suggest(key, allowed)}`;
    problem([...path, key], `Unknown locator field "${key}"`, hint);
  }
  const out: Record<string, unknown> = isSexp ? { type: "sexp" } : {};
  const string = (key: string, required: boolean) => {
    const v = record[key];
    if (v === undefined) {
      if (required) problem([...path, key], `Locator is missing "${key}"`, hintFor(key));
      return;
    }
    if (typeof v !== "string" || v.trim() === "") {
      problem([...path, key], `Locator field "${key}" must be a non-empty string, got ${describe(v)}`);
      return;
    }
    out[key] = v;
  };
  const integer = (key: string) => {
    const v = record[key];
    if (v === undefined) return;
    if (typeof v !== "number" || !Number.isInteger(v)) {
      problem(
        [...path, key],
        `Locator field "${key}" must be an integer, got ${describe(v)}`,
        "0-based; negative values count from the end (-1 = last)",
      );
      return;
    }
    out[key] = v;
  };
  string("file", requireFile);
  if (isSexp) {
    string("query", true);
    string("capture", false);
    if (typeof out.capture === "string") out.capture = (out.capture as string).replace(/^@/, "");
  } else {
    string("kind", false);
    string("name", false);
  }
  string("field", false);
  integer("nth_child");
  integer("index");
  if (record.parent !== undefined) {
    const parent = check(record.parent, [...path, "parent"], false, issues);
    if (parent) out.parent = parent;
  }
  return out as unknown as Locator;
}

function hintFor(key: string): string | undefined {
  if (key === "file") return "give the file path relative to the repository root";
  if (key === "query") return 'e.g. "(identifier) @id (#eq? @id \\"foo\\")"';
  return undefined;
}

/** A value for a message: JSON, cut short. */
function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

function suggest(key: string, allowed: string[]): string {
  const near = allowed.find((a) => a.startsWith(key) || key.startsWith(a) || editDistance(a, key) <= 2);
  return near ? ` (did you mean "${near}"?)` : "";
}

/** Levenshtein distance (small strings only). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * A short description of a locator for messages: `method "add" inside
 * class "Inventory"`, `query "(identifier) @id"`.
 */
export function describeLocator(locator: Locator): string {
  let text: string;
  if (locator.type === "sexp") {
    const query = locator.query.length > 60 ? `${locator.query.slice(0, 57)}...` : locator.query;
    text = `query ${JSON.stringify(query)}${locator.capture ? ` @${locator.capture}` : ""}`;
  } else {
    text = locator.kind ?? (locator.name !== undefined ? "symbol" : "file");
    if (locator.name !== undefined) text += ` "${locator.name}"`;
  }
  if (locator.parent) text += ` inside ${describeLocator(locator.parent)}`;
  if (locator.field !== undefined) text += `, field "${locator.field}"`;
  if (locator.nth_child !== undefined) text += `, nth_child ${locator.nth_child}`;
  if (locator.index !== undefined) text += `, index ${locator.index}`;
  return text;
}
