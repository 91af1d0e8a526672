/**
 * Post-checks: what must hold for a step's new text before it may be
 * written. A check looks at one changed file (its document before the step
 * and after it) and returns issues; an error blocks the step, a warning is
 * reported. The list is pluggable; the default is the verification
 * hierarchy (`engine/verify/levels`): L0 (no new syntax problem) run directly,
 * so a bug in another level can never let a broken file through, then L1–L6
 * through `editLevelChecks` (L1–L2 errors, L3–L6 warnings).
 *
 * @module
 */

import { clipMessage, type Issue } from "../base/issue.ts";
import type { Document } from "../parse/documents.ts";
import type { StepContext } from "../edit/operator.ts";
import { checkSyntax } from "./levels/l0_syntax.ts";

export { newSyntaxProblems } from "./levels/l0_syntax.ts";

/**
 * One file a step changed (`StepContext.changedFiles`): a created file has
 * an empty `before`, a deleted one an empty `after`, so every check judges
 * a new file whole and a deleted one as all its code removed.
 */
export interface FileChange {
  path: string;
  before: Document;
  after: Document;
  /** The file did not exist before the step. */
  created?: boolean;
  /** The file does not exist after the step. */
  deleted?: boolean;
}

/** A post-check: issues for one changed file (errors block the step). */
export type PostCheck = (change: FileChange, ctx: StepContext) => Issue[] | Promise<Issue[]>;

/** The post-checks every step gets unless the caller passes its own list. */
export function defaultPostChecks(): PostCheck[] {
  return [noNewSyntaxProblems, editLevelChecks];
}

/**
 * L1–L6 of the edit-level hierarchy (`runEditChecks`), given the step's
 * records for the file (L0 is `noNewSyntaxProblems`). Loaded on first use, so
 * commands that never edit don't pay for it.
 */
export async function editLevelChecks(change: FileChange, ctx: StepContext): Promise<Issue[]> {
  const { EDIT_CHECKS, runEditChecks } = await import("./levels/mod.ts");
  const records = ctx.records.filter((record) => record.file === change.path);
  const { errors, warnings } = await runEditChecks(
    { ...change, records },
    { step: ctx.step, store: ctx.store },
    EDIT_CHECKS.slice(1),
  );
  return [...errors, ...warnings].map((issue) => clipMessage(issue));
}

/** L0: the new text has no ERROR or MISSING node that the old text did not have. */
export function noNewSyntaxProblems(change: FileChange, ctx: StepContext): Promise<Issue[]> {
  return checkSyntax(change, { step: ctx.step, store: ctx.store });
}
