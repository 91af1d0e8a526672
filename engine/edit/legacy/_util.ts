/**
 * What the legacy operators share: checked params, the document, line
 * arithmetic and issue details.
 *
 * @module
 */

import { fail, type IssueDetails } from "../../base/issue.ts";
import type { Document } from "../../parse/documents.ts";
import { countLines, lineBreaks } from "../../parse/line_index.ts";
import { PLAIN_TEXT } from "../../parse/mod.ts";
import type { StepContext } from "../operator.ts";

/** The legacy operators that work on any text file (the others read functions and symbols). */
const TEXT_OPS = new Set(["replace_code", "insert_code", "delete_lines", "wrap_block"]);

/**
 * Params of a legacy op with the document they name. The params are checked
 * against the op's schema by its descriptor before it runs
 * (`engine/ops/replace_code.ts`, ...); called directly, an op trusts them.
 */
export async function prepare<T>(
  op: string,
  params: Record<string, unknown>,
  ctx: StepContext,
): Promise<{ p: T; doc: Document; file: string }> {
  const p = params as T & { file: string };
  const doc = await ctx.store.get(p.file);
  if (doc.file.language === PLAIN_TEXT && !TEXT_OPS.has(op)) {
    fail("plain-text-file", `Cannot run ${op} on "${doc.file.path}": it is plain text, not code`, {
      ...at(ctx, doc.file.path, "file"),
      hint: "edit text files with the text operators: replace_code, insert_code, delete_lines, wrap_block",
    });
  }
  return { p, doc, file: doc.file.path };
}

/** Details for an issue about `file` in this step, pointing at a parameter. */
export function at(ctx: StepContext, file: string, param?: string, line?: number): IssueDetails {
  return { step: ctx.step, file, line, path: param ? ["params", param] : undefined };
}

/** Line spans of a document: `[start, end)` of line `n` (1-based), end including its line break. */
export interface LineTable {
  count: number;
  /** Offset where line `n` starts. */
  start(n: number): number;
  /** Offset where line `n`'s content ends (before its line break). */
  contentEnd(n: number): number;
  /** Offset after line `n`'s line break (the text's end for a last line without one). */
  fullEnd(n: number): number;
  text(n: number): string;
}

/**
 * The lines of `doc`'s text, from its line breaks (`lineBreaks`: kept with
 * the tree and updated per edit, so a step does not scan the whole file).
 */
export function lineTable(doc: Document): LineTable {
  const text = doc.file.text;
  const breaks = lineBreaks(doc);
  const count = countLines(breaks, text.length);
  const start = (n: number) => (n === 1 ? 0 : breaks[n - 2] + 1);
  const contentEnd = (n: number) => {
    const stop = n - 1 < breaks.length ? breaks[n - 1] : text.length;
    return stop > start(n) && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
  };
  return {
    count,
    start,
    contentEnd,
    fullEnd: (n) => (n < count ? start(n + 1) : text.length),
    text: (n) => text.slice(start(n), contentEnd(n)),
  };
}

/**
 * Refuse a line range outside the file: `start_line > end_line`, or lines
 * past the end (seed 002 runtime guard "out of bounds").
 */
export function checkRange(
  ctx: StepContext,
  file: string,
  lines: LineTable,
  start: number,
  end: number,
): void {
  if (start > end) {
    fail("line-range-invalid", `start_line > end_line: ${start} > ${end}`, {
      ...at(ctx, file, "start_line", start),
      hint: "give the first line, then the last line of the range (1-based, inclusive)",
    });
  }
  if (end > lines.count) {
    fail("line-out-of-range", `Lines ${start}-${end} out of bounds: "${file}" has ${lines.count} lines`, {
      ...at(ctx, file, end === start ? "start_line" : "end_line"),
      hint: "line numbers are 1-based; earlier steps may have moved them",
    });
  }
}

/** `code` with its line breaks made the file's. */
export function withEol(code: string, eol: string): string {
  return code.replace(/\r\n?|\n/g, eol);
}

/** A one-line preview of text for messages. */
export function preview(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 3)}...` : flat);
}
