/**
 * A locator that finds nothing at step N but matched the file as it was
 * before the plan: an earlier step changed what it names (a plan editing
 * the same node twice, a rename followed by a step using the old name).
 * The `locator-not-found` issue then says which step changed the file, so
 * the writer knows to drop or merge the step rather than hunt for a typo.
 *
 * @module
 */

import type { Issue } from "../../base/issue.ts";
import { type Locator, resolveLocator } from "../../locate/mod.ts";
import type { DocumentStore } from "../../parse/documents.ts";
import type { NormalizedStep } from "../../plan/mod.ts";

/** The value at `path` below the step's own path (`[1, "params", "target"]` → `step.params.target`). */
function locatorAt(step: NormalizedStep, path: readonly (string | number)[]): unknown {
  if (path.length < step.path.length || step.path.some((part, i) => path[i] !== part)) return undefined;
  let value: unknown = { params: step.params };
  for (const part of path.slice(step.path.length)) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string | number, unknown>)[part];
  }
  return value;
}

/**
 * `issue` with a hint naming the earlier step that changed its file, when
 * it is a `locator-not-found` whose locator matches in `base` (the files
 * before the plan); else `issue` unchanged. `lastStep`: the step that last
 * changed each file so far.
 */
export async function explainStaleLocator(
  issue: Issue,
  step: NormalizedStep,
  base: DocumentStore,
  lastStep: ReadonlyMap<string, number>,
): Promise<Issue> {
  if (issue.code !== "locator-not-found" || !issue.file || !issue.path) return issue;
  const changedBy = lastStep.get(issue.file);
  if (changedBy === undefined) return issue;
  const locator = locatorAt(step, issue.path);
  if (!locator || typeof locator !== "object") return issue;
  let line: number | undefined;
  try {
    const { nodes } = await resolveLocator(base, locator as Locator);
    if (nodes.length === 0) return issue;
    line = nodes[0].startPosition.row + 1;
  } catch {
    return issue;
  }
  const note = `it matched "${issue.file}" before the plan (line ${line}), but step ${changedBy} changed ` +
    `that file and each step sees the code as the steps before it left it: drop this step if step ` +
    `${changedBy} already made the change, or write the locator for the code after it`;
  return { ...issue, hint: issue.hint ? `${note}; ${issue.hint}` : note };
}
