/**
 * L0 syntax: the whole file re-parses (not the fragment alone) with no ERROR
 * node or MISSING token it did not have before the edit. Problems the file
 * already had are matched by kind and text and forgiven.
 *
 * @module
 */

import { error, type Issue } from "../../issue.ts";
import { syntaxProblems } from "../../parse/mod.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { clip } from "./quote.ts";

/** At most this many problems are listed per file. */
const LIMIT = 20;

/** L0: new syntax errors in the re-parsed file. */
export function checkSyntax(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  const after = change.after.tree;
  if (!after.rootNode.hasError) return Promise.resolve([]);
  const known = new Map<string, number>();
  for (const problem of syntaxProblems(change.before.tree, 200)) {
    const key = `${problem.kind}\u0000${problem.text}`;
    known.set(key, (known.get(key) ?? 0) + 1);
  }
  const issues: Issue[] = [];
  for (const problem of syntaxProblems(after, 200)) {
    const key = `${problem.kind}\u0000${problem.text}`;
    const left = known.get(key) ?? 0;
    if (left > 0) {
      known.set(key, left - 1);
      continue;
    }
    const what = problem.kind === "missing"
      ? `missing "${clip(problem.text)}"`
      : `cannot parse "${clip(problem.text)}"`;
    issues.push(error("syntax-error", `Edit leaves a syntax error in "${change.path}": ${what}`, {
      level: "L0",
      step: env.step,
      file: change.path,
      line: problem.line,
      hint: "the whole file must parse after the edit; check brackets, quotes and indentation",
    }));
    if (issues.length >= LIMIT) break;
  }
  return Promise.resolve(issues);
}
