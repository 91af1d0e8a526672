/**
 * Post-checks: what must hold for a step's new text before it may be
 * written. A check looks at one changed file (its document before the step
 * and after it) and returns issues; an error blocks the step, a warning is
 * reported. The list is pluggable: L0 (no new syntax problem) is built in,
 * the verification levels L1–L6 (`engine/verify/levels`) come through
 * `editLevelChecks` (L1–L2 errors, L3–L6 warnings).
 *
 * ## "No new syntax problem" (L0)
 *
 * A file the grammar already fails on must stay editable where it parses,
 * so the rule is not "no ERROR node" but "no ERROR or MISSING node the file
 * did not have". The step's change is one span (common prefix and suffix
 * trimmed): problems before it keep their offsets, problems after it shift by
 * the change in length. An after-problem is old when a before-problem of the
 * same kind maps to the same offset; failing that, when a still unmatched
 * before-problem's mapped range overlaps or touches it (tree-sitter's error
 * recovery often grows or shrinks an ERROR node around an edit nearby).
 * Whatever remains is new and an error.
 *
 * @module
 */

import { error, type Issue } from "../issue.ts";
import type { Document } from "../parse/documents.ts";
import { diffEdit } from "../parse/documents.ts";
import { type SyntaxProblem, syntaxProblems } from "../parse/mod.ts";
import type { StepContext } from "../edit/operator.ts";

/** One file a step changed. */
export interface FileChange {
  path: string;
  before: Document;
  after: Document;
}

/** A post-check: issues for one changed file (errors block the step). */
export type PostCheck = (change: FileChange, ctx: StepContext) => Issue[] | Promise<Issue[]>;

/** The post-checks every step gets unless the caller passes its own list. */
export function defaultPostChecks(): PostCheck[] {
  return [noNewSyntaxProblems, editLevelChecks];
}

/**
 * L1–L6 of the edit-level hierarchy (`runEditChecks`), given the step's
 * records for the file. Its own L0 finding is dropped: `noNewSyntaxProblems`
 * is L0 here. Loaded on first use, so commands that never edit don't pay for it.
 */
export async function editLevelChecks(change: FileChange, ctx: StepContext): Promise<Issue[]> {
  const { runEditChecks } = await import("../verify/levels/mod.ts");
  const records = ctx.records.filter((record) => record.file === change.path);
  const { errors, warnings } = await runEditChecks({ ...change, records }, {
    step: ctx.step,
    store: ctx.store,
  });
  return [...errors, ...warnings].filter((issue) => issue.level !== "L0").map(clipMessage);
}

/** Most characters of a check's message: one quoting a hostile plan's huge replacement stays readable. */
const MAX_MESSAGE = 1000;

function clipMessage(issue: Issue): Issue {
  if (issue.message.length <= MAX_MESSAGE) return issue;
  return { ...issue, message: `${issue.message.slice(0, MAX_MESSAGE - 3)}...` };
}

/** L0: the new text has no ERROR or MISSING node that the old text did not have. */
export function noNewSyntaxProblems(change: FileChange, ctx: StepContext): Issue[] {
  return newSyntaxProblems(change.before, change.after).map((problem) =>
    error(
      "syntax-error",
      problem.kind === "missing"
        ? `Edit leaves a syntax error in "${change.path}" at line ${problem.line}: missing "${problem.text}"`
        : `Edit introduces a syntax error in "${change.path}" at line ${problem.line}: "${problem.text}"`,
      {
        step: ctx.step,
        file: change.path,
        line: problem.line,
        level: "L0",
        hint: "check brackets, indentation and that the new code is complete",
      },
    )
  );
}

/** The syntax problems of `after` that `before` did not have (see the module notes). */
export function newSyntaxProblems(before: Document, after: Document): SyntaxProblem[] {
  const found = syntaxProblems(after.tree);
  if (found.length === 0) return [];
  const old = syntaxProblems(before.tree);
  if (old.length === 0) return found;
  const edit = diffEdit(before.file.text, after.file.text);
  const start = edit?.startIndex ?? 0;
  const oldEnd = edit?.oldEndIndex ?? 0;
  const shift = edit ? edit.newEndIndex - edit.oldEndIndex : 0;
  const map = (offset: number) => (offset < start ? offset : offset >= oldEnd ? offset + shift : start);
  const mapped = old.map((problem) => ({
    kind: problem.kind,
    start: map(problem.startIndex),
    end: Math.max(map(problem.startIndex), map(problem.endIndex)),
    used: false,
  }));
  const unmatched: SyntaxProblem[] = [];
  for (const problem of found) {
    const exact = mapped.find((m) => !m.used && m.kind === problem.kind && m.start === problem.startIndex);
    if (exact) exact.used = true;
    else unmatched.push(problem);
  }
  return unmatched.filter((problem) => {
    const near = mapped.find((m) => !m.used && m.start <= problem.endIndex && problem.startIndex <= m.end);
    if (near) near.used = true;
    return !near;
  });
}
