/**
 * Running an S-expression locator's query within bounds.
 *
 * - Text: at most `MAX_QUERY_LENGTH` characters, nested at most
 *   `MAX_QUERY_DEPTH` parentheses deep (tree-sitter's query compiler is
 *   neither linear nor interruptible).
 * - Regex predicates (`#match?`, `#not-match?`, `#any-match?`,
 *   `#any-not-match?`) are taken away from web-tree-sitter, which would run
 *   them with the backtracking `RegExp`, and run here with the linear-time
 *   matcher of `linear_regex.ts` (renamed to `#gp-…` in the query text so
 *   tree-sitter leaves them to us). A pattern that matcher refuses
 *   (backreferences, lookaround) is a `locator-invalid` issue.
 * - The query runs with tree-sitter's `matchLimit` (`query_match_limit`) and
 *   a progress callback that stops it when the request's budget is spent;
 *   more than `max_captures` captures is also too costly. Each ends in a
 *   `query-too-costly` issue with a hint, never in a partial result.
 *
 * @module
 */

import type { Node, Query, QueryMatch } from "web-tree-sitter";
import { budgetExceeded, budgetIssue, checkBudget } from "../base/budget.ts";
import { error, type Issue, IssueError } from "../base/issue.ts";
import { limits, overLimit } from "../base/limits.ts";
import { compileLinearRegex, type LinearRegex, RegexSyntaxError } from "./linear_regex.ts";

/** Most characters of an S-expression query. */
export const MAX_QUERY_LENGTH = 20_000;

/** Deepest parenthesis nesting of an S-expression query. */
export const MAX_QUERY_DEPTH = 64;

const REGEX_PREDICATES = new Set(["match?", "not-match?", "any-match?", "any-not-match?"]);
const PREFIX = "gp-";

/**
 * Check the size of `source` and rename its regex predicates (outside
 * strings and comments) for `regexPredicates`. Returns the text to compile,
 * or a problem to report as `locator-invalid`.
 */
export function prepareQuery(source: string): { text: string } | { problem: string; costly?: boolean } {
  if (source.length > MAX_QUERY_LENGTH) {
    return {
      problem: `the query has ${source.length} characters, more than ${MAX_QUERY_LENGTH}`,
      costly: true,
    };
  }
  let out = "";
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') j += source[j] === "\\" ? 2 : 1;
      out += source.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === ";") {
      const nl = source.indexOf("\n", i);
      const end = nl === -1 ? source.length : nl;
      out += source.slice(i, end);
      i = end;
      continue;
    }
    if (c === "(" || c === "[") {
      depth++;
      if (depth > MAX_QUERY_DEPTH) {
        return { problem: `the query nests more than ${MAX_QUERY_DEPTH} levels deep`, costly: true };
      }
    } else if (c === ")" || c === "]") depth--;
    if (c === "#") {
      const name = /^#([A-Za-z0-9_?!-]+)/.exec(source.slice(i, i + 40))?.[1];
      if (name && REGEX_PREDICATES.has(name)) {
        out += `#${PREFIX}${name}`;
        i += name.length + 1;
        continue;
      }
    }
    out += c;
    i++;
  }
  return { text: out };
}

/** A regex predicate of one pattern, compiled for the linear matcher. */
interface RegexPredicate {
  capture: string;
  regex: LinearRegex;
  positive: boolean;
  all: boolean;
}

const compiledPredicates = new WeakMap<Query, RegexPredicate[][]>();

/**
 * The regex predicates of every pattern of `query`, compiled (once per
 * query). Throws `RegexSyntaxError` for a pattern the matcher refuses.
 */
function regexPredicates(query: Query): RegexPredicate[][] {
  let cached = compiledPredicates.get(query);
  if (cached) return cached;
  cached = [];
  for (let index = 0; index < query.patternCount(); index++) {
    const list: RegexPredicate[] = [];
    for (const predicate of query.predicatesForPattern(index)) {
      if (!predicate.operator.startsWith(PREFIX)) continue;
      const operator = predicate.operator.slice(PREFIX.length);
      const [capture, pattern] = predicate.operands as { type: string; name?: string; value?: string }[];
      if (predicate.operands.length !== 2 || capture?.type !== "capture" || pattern?.type !== "string") {
        throw new RegexSyntaxError(`#${operator} takes a capture and a string`);
      }
      list.push({
        capture: capture.name!,
        regex: compileLinearRegex(pattern.value!),
        positive: operator === "match?" || operator === "any-match?",
        all: !operator.startsWith("any-"),
      });
    }
    cached.push(list);
  }
  compiledPredicates.set(query, cached);
  return cached;
}

function passes(match: QueryMatch, predicates: RegexPredicate[]): boolean {
  for (const predicate of predicates) {
    const texts = match.captures.filter((c) => c.name === predicate.capture).map((c) => c.node.text);
    if (texts.length === 0) {
      if (predicate.positive) return false;
      continue;
    }
    const test = (text: string) => predicate.regex.test(text, checkBudget) === predicate.positive;
    if (!(predicate.all ? texts.every(test) : texts.some(test))) return false;
  }
  return true;
}

/** Details for the issues of `queryCaptures` (where the locator is). */
export interface QueryIssueDetails {
  file?: string;
  path?: (string | number)[];
}

/**
 * The nodes captured as `capture` by the matches of `query` under `root`
 * that pass their predicates, each once, within the limits of the module
 * notes. Throws an `IssueError` (`locator-invalid`, `query-too-costly`,
 * `budget-exceeded`).
 */
export function queryCaptures(
  query: Query,
  root: Node,
  capture: string,
  details: QueryIssueDetails = {},
): Node[] {
  let predicates: RegexPredicate[][];
  try {
    predicates = regexPredicates(query);
  } catch (err) {
    if (!(err instanceof RegexSyntaxError)) throw err;
    throw new IssueError(error("locator-invalid", `Invalid regex in the query: ${err.message}`, {
      ...details,
      hint: "#match? takes a regular expression without backreferences or lookaround (tree-sitter's syntax)",
    }));
  }
  const { query_match_limit, max_captures } = limits();
  let stopped = false;
  const matches = query.matches(
    root,
    {
      matchLimit: Math.max(1, Math.min(query_match_limit, 65_536)),
      progressCallback: () => {
        if (budgetExceeded()) stopped = true;
        return stopped;
      },
    } as Parameters<Query["matches"]>[1],
  );
  if (stopped || budgetExceeded()) throw new IssueError({ ...budgetIssue(), ...details });
  if (query.didExceedMatchLimit()) {
    throw new IssueError(tooCostly(
      `the query keeps more than ${query_match_limit} matches in progress at once`,
      "query_match_limit",
      details,
    ));
  }
  const seen = new Set<number>();
  const nodes: Node[] = [];
  let captured = 0;
  for (const match of matches) {
    captured += match.captures.length;
    if (captured > max_captures) {
      throw new IssueError(
        tooCostly(`the query captures more than ${max_captures} nodes`, "max_captures", details),
      );
    }
    if (!passes(match, predicates[match.patternIndex] ?? [])) continue;
    for (const { name, node } of match.captures) {
      if (name !== capture || seen.has(node.id)) continue;
      seen.add(node.id);
      nodes.push(node);
    }
  }
  return nodes.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
}

function tooCostly(
  what: string,
  key: "query_match_limit" | "max_captures",
  details: QueryIssueDetails,
): Issue {
  return overLimit("query-too-costly", key, `The S-expression query is too costly: ${what}`, {
    ...details,
    hint: "anchor the query on a named node (a function or class) and add a predicate on its name",
  });
}
