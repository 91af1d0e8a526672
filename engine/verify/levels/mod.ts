/**
 * The edit-level verification hierarchy L0–L6 (seed 001, task 1f): checks
 * the executor runs on every file a step changed, before it writes.
 *
 * | level | checks | severity |
 * |---|---|---|
 * | L0 | the whole file re-parses without new ERROR / MISSING nodes | error |
 * | L1 | a replaced node's kind is compatible with its replacement's | error |
 * | L2 | nothing outside the edit region changed structure | error |
 * | L3 | every name the edit introduces is bound where it is used; no use is left without its binding; no local is read before its binding | warning; a reserved word as a name: error; dangling uses, uses before binding: plan error |
 * | L4 | module-level symbols are imported; imports precede use; no import left unused | warning |
 * | L5 | a changed signature or a renamed/deleted method still fits its callers | warning |
 * | L6 | the edit is not degenerate (`pass` body, no-op) | warning |
 *
 * An error rolls the step back; warnings are reported. Dangling uses
 * (`l3_dangling.ts`) are warnings of the step and errors of the plan when
 * no later step repairs them (`judgeDangling`, run by verify and execute);
 * uses before binding (`l3_use_before_binding.ts`) are judged on the final
 * files only.
 * Every result is an issue object with `level`, `step`, `file` and `line`.
 *
 * @module
 */

import { checkBudget } from "../../base/budget.ts";
import type { EditRecord } from "../../edit/operator.ts";
import { type Issue, partition, warning } from "../../base/issue.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import { checkSyntax } from "./l0_syntax.ts";
import { checkKinds } from "./l1_kind.ts";
import { checkContainment } from "./l2_containment.ts";
import { checkReferences } from "./l3_references.ts";
import { checkImports } from "./l4_imports.ts";
import { checkInterface } from "./l5_interface.ts";
import { checkTriviality } from "./l6_triviality.ts";
import { clip } from "./quote.ts";

export {
  checkContainment,
  checkImports,
  checkInterface,
  checkKinds,
  checkReferences,
  checkSyntax,
  checkTriviality,
};
export { editSpans, type Span } from "./region.ts";
export { settleWarnings } from "./settle.ts";

/** One changed file of a step. */
export interface FileChange {
  /** Repository-relative path. */
  path: string;
  /** The document when the step began and now. */
  before: Document;
  after: Document;
  /** The step's `ctx.edit()` records (those of other files are ignored). */
  records: EditRecord[];
  /** A whole-file step created the file (`before` is empty) or deleted it (`after` is empty). */
  created?: boolean;
  deleted?: boolean;
}

/** What a check may look at besides the change. */
export interface CheckEnv {
  /** 0-based plan step. */
  step: number;
  /** The current documents (the step's overlay), for checks that read other files (L5). */
  store: DocumentStore;
}

/** One level of the hierarchy. */
export type EditCheck = (change: FileChange, env: CheckEnv) => Promise<Issue[]>;

/** L0..L6, in order. */
export const EDIT_CHECKS: EditCheck[] = [
  checkSyntax,
  checkKinds,
  checkContainment,
  checkReferences,
  checkImports,
  checkInterface,
  checkTriviality,
];

/**
 * Run the levels (all of them unless `checks` picks some of `EDIT_CHECKS`) on
 * one changed file. A check that throws (a bug, not a finding) becomes a
 * `check-failed` warning instead of stopping the others.
 */
export async function runEditChecks(
  change: FileChange,
  env: CheckEnv,
  checks: readonly EditCheck[] = EDIT_CHECKS,
): Promise<{ errors: Issue[]; warnings: Issue[] }> {
  const issues: Issue[] = [];
  for (const check of checks) {
    const level = `L${EDIT_CHECKS.indexOf(check)}`;
    checkBudget(); // a level on a megabyte file takes a second: the budget is looked at between them
    try {
      for (const item of await check(change, env)) issues.push(item);
    } catch (cause) {
      issues.push(
        warning("check-failed", `Check ${level} failed on "${change.path}": ${clip(String(cause))}`, {
          level,
          step: env.step,
          file: change.path,
        }),
      );
    }
  }
  return partition(issues);
}
