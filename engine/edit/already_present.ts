/**
 * "This exact code is already there": the one check every step kind uses
 * so that re-running a plan changes nothing instead of duplicating code.
 *
 * An insertion of whole lines repeats its neighbour when the lines it adds
 * (blank lines aside, trailing whitespace ignored, indentation kept) are
 * exactly the lines right above or right below the place it goes. Insert
 * `x = 1` before `return x` twice, and the second time the line above the
 * `return` is already `x = 1`. Indentation counts: `return x` after a loop
 * whose body ends in `return x` is not a repeat. Inline insertions (a list
 * element, code that shares its line) are not judged here.
 *
 * Templates have checks of their own that know their shape (a guard
 * already in place, a decorator already there); all of them report through
 * `alreadyPresentWarning`, so a step that finds its code in place is always
 * the same `already-present` warning and changes nothing.
 *
 * @module
 */

import { type Issue, warning } from "../base/issue.ts";
import type { TextEdit } from "./text_edit.ts";

/** The warning of a step that found its code already in place (the step changes nothing). */
export function alreadyPresentWarning(
  message: string,
  where: { file: string; line?: number; step?: number },
): Issue {
  return warning("already-present", message, {
    file: where.file,
    ...(where.line !== undefined ? { line: where.line } : {}),
    ...(where.step !== undefined ? { step: where.step } : {}),
    hint: "the step was skipped: nothing to do",
  });
}

function normalize(line: string): string {
  return line.replace(/\s+$/, "");
}

/**
 * When `edit` inserts whole lines into `text` that repeat the lines right
 * above or right below it, the 1-based line where the repeated code starts;
 * else undefined.
 */
export function repeatedAt(text: string, edit: TextEdit): number | undefined {
  if (edit.start !== edit.end) return extendedAt(text, edit);
  const at = edit.start;
  const added = edit.replacement.replace(/\r\n?/g, "\n");
  const atLineStart = at === 0 || text[at - 1] === "\n";
  const atLineEnd = at === text.length || text[at] === "\n" || text.startsWith("\r\n", at);
  // whole lines: at a line start ending in a line break, or at a line end starting with one
  if (!(atLineStart && added.endsWith("\n")) && !(atLineEnd && added.startsWith("\n"))) return undefined;
  const lines = added.split("\n").map(normalize).filter((line) => line !== "");
  if (lines.length === 0) return undefined;
  // Only the lines next to the insertion point are read (not a split of the whole file): the first line
  // after it starts at `cut` (at a line start, the line there; else the one after the line `at` ends).
  let cut: number;
  if (atLineStart) cut = at;
  else {
    const nl = text.indexOf("\n", at);
    cut = nl === -1 ? text.length + 1 : nl + 1;
  }
  const above = nonBlankLines(text, cut, lines.length, -1);
  if (repeats(above, lines)) return lineNumber(text, above[0].start);
  const below = nonBlankLines(text, cut, lines.length, 1);
  if (repeats(below, lines)) return lineNumber(text, below[0].start);
  return undefined;
}

interface NearLine {
  /** Offset where the line starts. */
  start: number;
  /** Its text, trailing whitespace removed. */
  text: string;
}

/**
 * Up to `count` non-blank lines of `text` (split at `\n`, as `text.split`
 * would) nearest to the line boundary `cut` (an offset where a line starts,
 * or `text.length + 1` past the last line), in document order: those ending
 * before it (`direction` -1) or starting at or after it (+1).
 */
function nonBlankLines(text: string, cut: number, count: number, direction: 1 | -1): NearLine[] {
  const out: NearLine[] = [];
  if (direction === -1) {
    // `end` is the offset of the break that ends a line (text.length for the last line)
    for (let end = cut - 1; end >= 0 && out.length < count;) {
      const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
      const line = normalize(text.slice(start, end));
      if (line !== "") out.unshift({ start, text: line });
      end = start - 1;
    }
    return out;
  }
  for (let start = cut; start <= text.length && out.length < count;) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl;
    const line = normalize(text.slice(start, end));
    if (line !== "") out.push({ start, text: line });
    if (nl === -1) break;
    start = nl + 1;
  }
  return out;
}

function repeats(near: NearLine[], lines: string[]): boolean {
  return near.length === lines.length && near.every((line, i) => line.text === lines[i]);
}

/** The 1-based line of the line starting at `offset`. */
function lineNumber(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * A replacement that keeps the replaced text and adds whole lines to it
 * (`x = 1` by `x = 1\ny = 2`), where the addition already follows (or
 * precedes) it: the 1-based line of the replaced text, else undefined.
 */
function extendedAt(text: string, edit: TextEdit): number | undefined {
  const old = text.slice(edit.start, edit.end);
  const { replacement } = edit;
  if (replacement.length <= old.length || old.trim() === "") return undefined;
  // whole lines only: `x` by `x + 1` in `y = x + 1` is an edit, not a repeat
  const joinsLines = (first: string, second: string) => first.endsWith("\n") || /^\r?\n/.test(second);
  const ahead = replacement.startsWith(old) && joinsLines(old, replacement.slice(old.length)) &&
    text.startsWith(replacement, edit.start);
  const behind = replacement.endsWith(old) && joinsLines(replacement.slice(0, -old.length), old) &&
    edit.end >= replacement.length && text.slice(edit.end - replacement.length, edit.end) === replacement;
  if (!ahead && !behind) return undefined;
  return text.slice(0, ahead ? edit.start : edit.end - replacement.length).split("\n").length;
}

/**
 * The shared check: when `edit` would only repeat code already in place in
 * `doc`, record the `already-present` warning in `ctx` and return true (the
 * caller skips the edit); else false.
 */
export function skipIfPresent(
  ctx: { warnings: Issue[]; step: number },
  doc: { file: { path: string; text: string } },
  edit: TextEdit,
): boolean {
  const line = repeatedAt(doc.file.text, edit);
  if (line === undefined) return false;
  const shown = edit.replacement.trim().split("\n")[0];
  ctx.warnings.push(alreadyPresentWarning(
    `The code "${
      shown.length > 60 ? shown.slice(0, 57) + "..." : shown
    }" is already at line ${line} of "${doc.file.path}"`,
    { file: doc.file.path, line, step: ctx.step },
  ));
  return true;
}
