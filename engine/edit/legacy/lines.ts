/**
 * The line-number legacy operators: `insert_code`, `delete_lines`,
 * `wrap_block`. Lines are 1-based and inclusive, as the seed's; they are
 * bounds-checked against the file as it is at this step (earlier steps may
 * have moved them, which plan verification warns about).
 *
 * - `insert_code` inserts `code` verbatim (its own indentation, the file's
 *   line endings) on new lines before or after `anchor_line`.
 * - `delete_lines` removes lines `start_line..end_line` with their breaks.
 * - `wrap_block` puts `before_code` above and `after_code` below the lines,
 *   both at the indentation of the block's first line, and indents the block
 *   one unit of the file's indentation (when there is a `before_code`).
 *   Lines that begin inside a multi-line string literal are left alone: their
 *   leading whitespace is part of the string.
 *
 * @module
 */

import { fail } from "../../base/issue.ts";
import { firstLine } from "../../parse/mod.ts";
import { detectIndentUnit, reindent, stringRows } from "../indent.ts";
import type { OperatorFn } from "../operator.ts";
import { at, checkRange, lineTable, prepare, withEol } from "./_util.ts";
import { skipIfPresent } from "../already_present.ts";

/** The legacy `insert_code` operator. */
export const insertCode: OperatorFn = async (params, ctx) => {
  const { p, doc, file } = await prepare<
    { file: string; anchor_line: number; position: "before" | "after"; code: string }
  >(
    "insert_code",
    params,
    ctx,
  );
  const eol = doc.file.eol;
  const lines = lineTable(doc);
  if (p.anchor_line > lines.count) {
    fail(
      "line-out-of-range",
      `anchor_line ${p.anchor_line} out of range: "${file}" has ${lines.count} lines`,
      {
        ...at(ctx, file, "anchor_line"),
        hint: "line numbers are 1-based; earlier steps may have moved them",
      },
    );
  }
  if (p.code.trim() === "") {
    fail("code-empty", `Nothing to insert: 'code' is empty`, at(ctx, file, "code", p.anchor_line));
  }
  let code = withEol(p.code, eol);
  if (code.endsWith(eol)) code = code.slice(0, -eol.length);
  let offset: number;
  let insertion: string;
  if (p.position === "before") {
    offset = lines.start(p.anchor_line);
    insertion = code + eol;
  } else {
    offset = lines.fullEnd(p.anchor_line);
    const hasBreak = offset > lines.contentEnd(p.anchor_line);
    insertion = hasBreak ? code + eol : eol + code;
  }
  const first = p.position === "before" ? p.anchor_line : p.anchor_line + 1;
  const edit = { start: offset, end: offset, replacement: insertion };
  if (skipIfPresent(ctx, doc, edit)) return { file, start_line: first, end_line: first - 1, changed: false };
  await ctx.edit(file, "insert_code", [edit]);
  return { file, start_line: first, end_line: first + code.split(eol).length - 1 };
};

/** The legacy `delete_lines` operator. */
export const deleteLines: OperatorFn = async (params, ctx) => {
  const { p, doc, file } = await prepare<{ file: string; start_line: number; end_line: number }>(
    "delete_lines",
    params,
    ctx,
  );
  const lines = lineTable(doc);
  checkRange(ctx, file, lines, p.start_line, p.end_line);
  let start = lines.start(p.start_line);
  const end = lines.fullEnd(p.end_line);
  // Deleting the last lines of a file without a final newline: drop the break before them too.
  if (end === doc.file.text.length && end === lines.contentEnd(p.end_line) && p.start_line > 1) {
    start = lines.contentEnd(p.start_line - 1);
  }
  await ctx.edit(file, "delete_lines", [{ start, end, replacement: "" }]);
  return { file, deleted: p.end_line - p.start_line + 1, first_deleted: firstLine(lines.text(p.start_line)) };
};

/** The legacy `wrap_block` operator. */
export const wrapBlock: OperatorFn = async (params, ctx) => {
  const { p, doc, file } = await prepare<{
    file: string;
    start_line: number;
    end_line: number;
    before_code: string;
    after_code: string;
  }>("wrap_block", params, ctx);
  const text = doc.file.text;
  const eol = doc.file.eol;
  const lines = lineTable(doc);
  checkRange(ctx, file, lines, p.start_line, p.end_line);
  if (p.before_code.trim() === "" && p.after_code.trim() === "") {
    fail("code-empty", "Nothing to wrap with: 'before_code' and 'after_code' are both empty", {
      ...at(ctx, file, "before_code", p.start_line),
    });
  }
  let firstCode = p.start_line;
  while (firstCode < p.end_line && lines.text(firstCode).trim() === "") firstCode++;
  const indent = /^[ \t]*/.exec(lines.text(firstCode))![0];
  const unit = detectIndentUnit(text);
  const guarded = stringRows(doc.tree.rootNode, doc.file.language);
  const indentBlock = p.before_code.trim() !== "";
  const block: string[] = [];
  for (let n = p.start_line; n <= p.end_line; n++) {
    const line = lines.text(n);
    if (guarded.has(n - 1) || !indentBlock) block.push(line);
    else block.push(line.trim() === "" ? "" : unit + line);
  }
  const style = { indent, unit, eol, language: doc.file.language };
  const parts: string[] = [];
  if (p.before_code.trim() !== "") parts.push(await reindent(p.before_code, style));
  parts.push(block.join(eol));
  if (p.after_code.trim() !== "") parts.push(await reindent(p.after_code, style));
  const start = lines.start(p.start_line);
  const end = lines.contentEnd(p.end_line);
  await ctx.edit(file, "wrap_block", [{ start, end, replacement: parts.join(eol) }]);
  const added = parts.join(eol).split(eol).length - (p.end_line - p.start_line + 1);
  return { file, start_line: p.start_line, end_line: p.end_line + added };
};
