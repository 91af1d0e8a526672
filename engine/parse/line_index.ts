/**
 * Where a document's lines break, kept per tree and carried from one
 * re-parse to the next.
 *
 * Line arithmetic (the legacy operators' line numbers, a tree-sitter edit's
 * row and column) needs the offsets of the line breaks. Scanning the text
 * for them costs the whole file on every step; a plan that grows one file
 * step by step then costs N². The offsets are kept in the tree's memo
 * (`treeMemo`), and a document re-parsed from an earlier one (`origin`)
 * gets them from the earlier list: the breaks before the edit are copied,
 * those after it shifted by the change in length, and only the new text is
 * scanned. The list is the same as a fresh scan's (the tests compare them
 * over random edits of corpus files).
 *
 * @module
 */

import type { Edit, Point, Tree } from "web-tree-sitter";
import { type TreeMemo, treeMemo } from "./tree_memo.ts";

/** What the index reads of a document (`Document` of documents.ts). */
interface Indexed {
  file: { text: string };
  tree: Tree;
  /** The document it was re-parsed from: that tree's memo and the edit between the texts. */
  origin?: { memo: TreeMemo; edit: Edit };
}

const MEMO_KEY = "lineBreaks";

/** The memo entry: the breaks of a text of `length` characters. */
interface Entry {
  length: number;
  breaks: Int32Array;
}

/** Offsets of every `\n` of the document's text, ascending. */
export function lineBreaks(doc: Indexed): Int32Array {
  const memo = treeMemo(doc.tree);
  const text = doc.file.text;
  const known = memo[MEMO_KEY] as Entry | undefined;
  if (known && known.length === text.length) return known.breaks;
  const breaks = derived(doc) ?? scan(text, 0, text.length);
  memo[MEMO_KEY] = { length: text.length, breaks } satisfies Entry;
  return breaks;
}

/** The breaks of `doc` from those of the document it was re-parsed from, if that one had them. */
function derived(doc: Indexed): Int32Array | undefined {
  const origin = doc.origin;
  const previous = origin?.memo[MEMO_KEY] as Entry | undefined;
  if (!origin || !previous) return undefined;
  const { startIndex: start, oldEndIndex: oldEnd, newEndIndex: newEnd } = origin.edit;
  const delta = newEnd - oldEnd;
  if (previous.length + delta !== doc.file.text.length) return undefined;
  const old = previous.breaks;
  const head = lowerBound(old, start); // breaks before the edit
  const tail = lowerBound(old, oldEnd); // first break at or after the edit's old end
  const middle = scan(doc.file.text, start, newEnd);
  const out = new Int32Array(head + middle.length + old.length - tail);
  out.set(old.subarray(0, head), 0);
  out.set(middle, head);
  let at = head + middle.length;
  for (let i = tail; i < old.length; i++) out[at++] = old[i] + delta;
  return out;
}

/** The offsets of `\n` in `text[from, to)`. */
function scan(text: string, from: number, to: number): Int32Array {
  const found: number[] = [];
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) found.push(i);
  return Int32Array.from(found);
}

/** The first index of `sorted` whose value is at least `value` (`sorted.length` when none is). */
export function lowerBound(sorted: Int32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sorted[mid] < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Row and column (UTF-16 units) of `index`, from the text's line breaks (as `pointAt` computes them). */
export function pointFromBreaks(breaks: Int32Array, index: number): Point {
  const row = lowerBound(breaks, index); // breaks before index
  return { row, column: index - (row > 0 ? breaks[row - 1] + 1 : 0) };
}

/**
 * Lines of the text as the legacy operators count them: a final line break
 * ends the last line, an empty text has none.
 */
export function countLines(breaks: Int32Array, length: number): number {
  if (length === 0) return 0;
  const endsWithBreak = breaks.length > 0 && breaks[breaks.length - 1] === length - 1;
  return breaks.length + (endsWithBreak ? 0 : 1);
}

/** Offset where the line holding `offset` starts (lines split at `\n`). */
export function lineStartAt(text: string, offset: number): number {
  return offset <= 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1;
}

/** Offset where the line holding `offset` ends: its `\n`, or the text's end. */
export function lineEndAt(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  return nl === -1 ? text.length : nl;
}
