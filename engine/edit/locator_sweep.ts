/**
 * All bad locators of a step, not only the first: when an operator stops at
 * a locator that does not resolve, the step's other locator parameters
 * (`target`, `destination`, `other`, `locator`) are resolved too, so one
 * verification round reports every one of them.
 *
 * @module
 */

import { type Issue, IssueError } from "../base/issue.ts";
import { parseLocator, resolveOne } from "../locate/mod.ts";
import type { DocumentStore } from "../parse/documents.ts";

/** Parameters that hold locators, in any step kind. */
const LOCATOR_PARAMS = ["target", "destination", "other", "locator"];

/** Whether an issue is about a locator that did not resolve (or is malformed). */
export function isLocatorProblem(issue: Issue): boolean {
  return issue.code.startsWith("locator-");
}

/**
 * The problems of the locator parameters of `params` that `reported` does
 * not already cover (an issue covers the parameter its path starts with).
 * `base` is where `params` sits in the step (`["params"]`, or `[]` for a
 * fragment step). A locator without `file` takes the first locator's file,
 * else `params.file`, as the operators do.
 */
export async function otherLocatorProblems(
  store: DocumentStore,
  params: Record<string, unknown>,
  options: { reported: Issue[]; base: string[] },
): Promise<Issue[]> {
  const { reported, base } = options;
  const covered = new Set(
    reported.map((issue) => issue.path?.slice(base.length, base.length + 1)[0]).filter((key) =>
      key !== undefined
    ),
  );
  const present = LOCATOR_PARAMS.filter((key) => isObject(params[key]));
  const firstFile = present.map((key) => (params[key] as Record<string, unknown>).file)
    .find((file) => typeof file === "string");
  const defaultFile = typeof firstFile === "string"
    ? firstFile
    : typeof params.file === "string"
    ? params.file
    : undefined;
  const out: Issue[] = [];
  for (const key of present) {
    if (covered.has(key)) continue;
    const path = [...base, key];
    try {
      const locator = parseLocator(params[key], path, { requireFile: defaultFile === undefined });
      await resolveOne(store, locator, { path, ...(defaultFile !== undefined ? { defaultFile } : {}) });
    } catch (caught) {
      if (!(caught instanceof IssueError)) continue; // the operator's own error stands
      out.push(...caught.issues);
    }
  }
  return out;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
