/**
 * L0 syntax: the whole file re-parses (not the fragment alone) with no ERROR
 * node or MISSING token it did not have before the edit. This is the one
 * syntax post-check: the executor runs it on every step, verification on
 * every simulated step.
 *
 * ## "No new syntax problem"
 *
 * A file the grammar already fails on must stay editable where it parses,
 * so the rule is not "no ERROR node" but "no ERROR or MISSING node the file
 * did not have". The step's change is one span (common prefix and suffix
 * trimmed): problems before it keep their offsets, problems after it shift by
 * the change in length. An after-problem is old when a before-problem of the
 * same kind maps to the same offset; failing that, when a still unmatched
 * before-problem's mapped range overlaps or touches it (tree-sitter's error
 * recovery often grows or shrinks an ERROR node around an edit nearby). A
 * before-problem inside the replaced text maps to the whole text written in
 * its place: a problem the file had there may sit anywhere in it now (the
 * same broken declaration, indented).
 * Whatever remains is new and an error.
 *
 * In a file that was broken before, error recovery may swallow what an
 * edit broke into an ERROR node the file already had; `l0_broken.ts` then
 * looks at the bracket balance and parses the sound node around the edit
 * alone.
 *
 * In C and C++ an unknown macro before a declaration (`SPDLOG_INLINE
 * std::string f()`, `YAML_CPP_API int x;`) is a parse error for the grammar
 * but not for the compiler, which knows the macro: when both checks above
 * found something, they run again on the texts with such macros blanked
 * (`l0_macros.ts`), and only what they find then is the edit's. What is
 * still left there goes to the compiler when the file compiled on its own
 * before the edit (`l0_compiler.ts`): valid C++ the grammar misreads is
 * not the edit's fault.
 *
 * ## Beyond the grammar
 *
 * The grammar accepts more than the language: when the edit brings no new
 * grammar problem, L0 also refuses new statement-context errors
 * (`l0_context.ts`: `break` outside a loop, `f(a=1, b)`, ...) and, in Python,
 * syntax newer than the repository's declared target (`l0_target.ts`).
 *
 * @module
 */

import { error, type Issue } from "../../base/issue.ts";
import { type Document, editBetween } from "../../parse/documents.ts";
import { type SyntaxProblem, syntaxProblems } from "../../parse/mod.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { clip } from "./quote.ts";
import { newContextIssues } from "./l0_context.ts";
import { newTargetIssues } from "./l0_target.ts";
import { brokenFileProblems } from "./l0_broken.ts";
import { withoutMacros } from "./l0_macros.ts";
import { compilerClears } from "./l0_compiler.ts";

/** At most this many problems are listed per file. */
const LIMIT = 20;

/** L0: new syntax errors in the re-parsed file. */
export async function checkSyntax(
  change: Pick<FileChange, "path" | "before" | "after">,
  env: CheckEnv,
): Promise<Issue[]> {
  let problems = await withoutMacros(
    change.before,
    change.after,
    await grammarProblems(change.before, change.after),
    grammarProblems,
  );
  if (
    problems.length > 0 &&
    await compilerClears(
      change.path,
      env.store.workspace.root,
      change.before,
      change.after,
      problems.map((problem) => problem.startIndex),
    )
  ) {
    problems = [];
  }
  const issues = problems.slice(0, LIMIT).map((problem) => {
    const what = problem.kind === "missing"
      ? `missing "${clip(problem.text)}"`
      : `cannot parse "${clip(problem.text)}"`;
    return error(
      "syntax-error",
      `Edit leaves a syntax error in "${change.path}" at line ${problem.line}: ${what}`,
      {
        level: "L0",
        step: env.step,
        file: change.path,
        line: problem.line,
        hint: "the whole file must parse after the edit; check brackets, quotes and indentation",
      },
    );
  });
  if (issues.length > 0) return issues;
  const { path, before, after } = change;
  issues.push(...newContextIssues(path, before, after, env.step));
  issues.push(...newTargetIssues(path, before, after, { step: env.step, root: env.store.workspace.root }));
  return issues;
}

/** New problems by the error regions, then, in a file broken before, by `l0_broken.ts`. */
async function grammarProblems(before: Document, after: Document): Promise<SyntaxProblem[]> {
  const problems = newSyntaxProblems(before, after);
  if (problems.length > 0 || !before.tree.rootNode.hasError) return problems;
  return await brokenFileProblems(before, after);
}

/** The syntax problems of `after` that `before` did not have (see the module notes). */
export function newSyntaxProblems(before: Document, after: Document): SyntaxProblem[] {
  const found = syntaxProblems(after.tree);
  if (found.length === 0) return [];
  const old = syntaxProblems(before.tree);
  if (old.length === 0) return found;
  return unmatchedProblems(old, found, editBetween(before, after));
}

/** The problems of `found` (after an edit) no problem of `old` (before it) accounts for, `old` shifted by `edit`. */
function unmatchedProblems(
  old: SyntaxProblem[],
  found: SyntaxProblem[],
  edit: { startIndex: number; oldEndIndex: number; newEndIndex: number } | null,
): SyntaxProblem[] {
  const start = edit?.startIndex ?? 0;
  const oldEnd = edit?.oldEndIndex ?? 0;
  const shift = edit ? edit.newEndIndex - edit.oldEndIndex : 0;
  // an offset inside the replaced text maps to the whole text written there: to its start, or its end
  const map = (offset: number, inside: number) =>
    offset < start ? offset : offset >= oldEnd ? offset + shift : inside;
  const newEnd = oldEnd + shift;
  const mapped = old.map((problem) => ({
    kind: problem.kind,
    start: map(problem.startIndex, start),
    end: Math.max(map(problem.startIndex, start), map(problem.endIndex, newEnd)),
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
