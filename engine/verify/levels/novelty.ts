/**
 * Which findings of a file after an edit are new: the rule L0 applies to
 * grammar errors ("no new ERROR node"), applied to the statement-context
 * and target-version findings. A file that already had a finding is not
 * blamed for it; only what the edit brought counts.
 *
 * The change is one span (`diffEdit`: common prefix and suffix trimmed).
 * Findings before it keep their offsets, findings after it shift by the
 * change in length. An after-finding is old when a before-finding with the
 * same key maps to its offset; failing that, when an unmatched
 * before-finding has the same key and the same text (the edit moved it, or
 * rewrote the code around it).
 *
 * @module
 */

import { type Document, editBetween } from "../../parse/documents.ts";

/** What novelty needs of a finding. */
export interface Finding {
  /** What kind of finding (its code or feature). */
  key: string;
  /** The node's text, first line. */
  text: string;
  startIndex: number;
}

/** The changed span of `after` and of `before`, or undefined when the texts are equal. */
export function changedRange(
  before: Document,
  after: Document,
): { before: { start: number; end: number }; after: { start: number; end: number } } | undefined {
  const edit = editBetween(before, after);
  if (!edit) return undefined;
  return {
    before: { start: edit.startIndex, end: edit.oldEndIndex },
    after: { start: edit.startIndex, end: edit.newEndIndex },
  };
}

/** The findings of `found` (in `afterText`) that `old` (in `beforeText`) does not account for. */
export function newFindings<T extends Finding>(
  before: Document,
  after: Document,
  old: readonly Finding[],
  found: readonly T[],
): T[] {
  if (found.length === 0) return [];
  const edit = editBetween(before, after);
  const start = edit?.startIndex ?? 0;
  const oldEnd = edit?.oldEndIndex ?? 0;
  const shift = edit ? edit.newEndIndex - edit.oldEndIndex : 0;
  const map = (offset: number) => (offset < start ? offset : offset >= oldEnd ? offset + shift : -1);
  const pool = old.map((finding) => ({ finding, at: map(finding.startIndex), used: false }));
  const unmatched: T[] = [];
  for (const finding of found) {
    const exact = pool.find((p) => !p.used && p.finding.key === finding.key && p.at === finding.startIndex);
    if (exact) exact.used = true;
    else unmatched.push(finding);
  }
  return unmatched.filter((finding) => {
    const same = pool.find((p) =>
      !p.used && p.finding.key === finding.key && p.finding.text === finding.text
    );
    if (same) same.used = true;
    return !same;
  });
}
