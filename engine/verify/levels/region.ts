/**
 * The edit region of a change: the spans of text an edit replaced, in the
 * text before the change and in the text after it.
 *
 * A change made by one `ctx.edit()` call knows its spans exactly (its text
 * edits); a change assembled from several calls (a composed operator) falls
 * back to the one span `diffEdit` finds between the texts, which is coarser
 * but never wrong. Many small spans (a rename touching fifty places) are
 * merged into one so every level stays cheap.
 *
 * @module
 */

import type { EditRecord } from "../../edit/operator.ts";
import { type Document, editBetween } from "../../parse/documents.ts";

/** One changed span: `before[beforeStart, beforeEnd)` became `after[afterStart, afterEnd)`. */
export interface Span {
  beforeStart: number;
  beforeEnd: number;
  afterStart: number;
  afterEnd: number;
}

/** At most this many spans are checked one by one; more are merged. */
const MAX_SPANS = 8;

/** The spans a change replaced, in document order (empty when the texts are equal). */
export function editSpans(before: Document, after: Document, records: readonly EditRecord[]): Span[] {
  const beforeText = before.file.text;
  const afterText = after.file.text;
  if (beforeText === afterText) return [];
  const own = records.filter((record) => record.file === after.file.path);
  let spans: Span[] | undefined;
  if (
    own.length === 1 && own[0].before.file.text === beforeText && own[0].after.file.text === afterText &&
    own[0].edits.length > 0
  ) {
    spans = [];
    let delta = 0;
    for (const edit of [...own[0].edits].sort((a, b) => a.start - b.start)) {
      spans.push({
        beforeStart: edit.start,
        beforeEnd: edit.end,
        afterStart: edit.start + delta,
        afterEnd: edit.start + delta + edit.replacement.length,
      });
      delta += edit.replacement.length - (edit.end - edit.start);
    }
  }
  if (!spans) {
    const edit = editBetween(before, after)!;
    spans = [{
      beforeStart: edit.startIndex,
      beforeEnd: edit.oldEndIndex,
      afterStart: edit.startIndex,
      afterEnd: edit.newEndIndex,
    }];
  }
  if (spans.length > MAX_SPANS) {
    const first = spans[0];
    const last = spans[spans.length - 1];
    spans = [{
      beforeStart: first.beforeStart,
      beforeEnd: last.beforeEnd,
      afterStart: first.afterStart,
      afterEnd: last.afterEnd,
    }];
  }
  return spans;
}

/**
 * Map an offset of the text before the change (outside every span) to the
 * text after it. At an insertion point, a node's `start` lies after the
 * inserted text and a node's `end` before it.
 */
export function mapOffset(spans: readonly Span[], offset: number, side: "start" | "end" = "start"): number {
  let delta = 0;
  for (const span of spans) {
    const before = span.beforeEnd < offset ||
      (span.beforeEnd === offset && (span.beforeStart < span.beforeEnd || side === "start"));
    if (!before) break;
    delta = span.afterEnd - span.beforeEnd;
  }
  return offset + delta;
}

/** 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}
