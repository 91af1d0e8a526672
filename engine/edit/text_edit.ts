/**
 * Text edits: the one currency every operator pays in. An operator computes
 * edits against a document's current text; `applyEdits` applies them
 * bottom-up and refuses overlapping edits instead of dropping one.
 *
 * Offsets are UTF-16 code units, as tree-sitter reports them for strings.
 *
 * @module
 */

import { fail } from "../base/issue.ts";

/** Replace `text[start, end)` with `replacement`. An insertion has `start === end`. */
export interface TextEdit {
  start: number;
  end: number;
  replacement: string;
}

/**
 * Apply `edits` to `text`. Edits may come in any order; two edits that
 * overlap (or two insertions at one offset) are an error naming both.
 */
export function applyEdits(text: string, edits: readonly TextEdit[], file?: string): string {
  if (edits.length === 0) return text;
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (const edit of sorted) {
    if (edit.start < 0 || edit.end < edit.start || edit.end > text.length) {
      fail(
        "edit-out-of-range",
        `Edit range [${edit.start}, ${edit.end}) is outside the text (length ${text.length})`,
        {
          file,
        },
      );
    }
  }
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const next = sorted[i];
    const overlaps = next.start < prev.end || (next.start === prev.start && prev.start === prev.end);
    if (overlaps) {
      fail(
        "edits-overlap",
        `Two edits overlap: [${prev.start}, ${prev.end}) and [${next.start}, ${next.end})`,
        { file, hint: "split the step, or target non-overlapping nodes" },
      );
    }
  }
  let out = "";
  let cursor = 0;
  for (const edit of sorted) {
    out += text.slice(cursor, edit.start) + edit.replacement;
    cursor = edit.end;
  }
  return out + text.slice(cursor);
}

/** The 1-based line number of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
