/**
 * `set_line_comment`: the comment that ends a line of code is added,
 * rewritten or removed. Linters are silenced this way (`# noqa: C901` on a
 * `def` line, `# type: ignore[attr-defined]`, `# pragma: no cover`), and
 * such a comment is part of no statement, so no other template may write
 * it: it fell to `replace_node` of the whole definition.
 *
 * The line is the target's first line (a definition's `def` or `class`
 * line, a statement's only line). `text` is the comment, starting with `#`,
 * or `""` to remove the one there; `spaces` (default 2, PEP 8's inline
 * comment rule) is the whitespace put between the code and the comment.
 * Whatever followed the line's code (spaces, the old comment) is replaced.
 * A line whose code ends in a backslash continuation or inside a string
 * (a triple-quoted string's line) cannot hold a comment and is refused, as
 * is a line with no code (`rewrite_comment` rewrites comments on their own
 * line). A line already ending so is `already-present`.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { firstOnLine, lineEnd, lineStart } from "../indent.ts";
import { alreadyPresent, opName, refuse, str, type TemplateRun } from "./common.ts";

/** The comment ending the line [start, end), if there is one after code. */
function trailingComment(root: Node, text: string, start: number, end: number): Node | undefined {
  let last = end;
  while (last > start && /[ \t\r]/.test(text[last - 1])) last--;
  if (last === start) return undefined;
  const node = root.descendantForIndex(last - 1, last - 1);
  return node?.type === "comment" && !firstOnLine(text, node.startIndex) ? node : undefined;
}

/** Whether `offset` lies inside a string literal that goes on past it. */
function inString(root: Node, offset: number): boolean {
  for (let node: Node | null = root.descendantForIndex(offset, offset); node; node = node.parent) {
    if (/string/.test(node.type) && node.startIndex <= offset && node.endIndex > offset + 1) return true;
  }
  return false;
}

/** `set_line_comment`. */
export async function setLineComment(run: TemplateRun): Promise<Record<string, unknown>> {
  const { doc, node } = run;
  const text = doc.file.text;
  const root = doc.tree.rootNode;
  const comment = str(run.params, "text") ?? "";
  if (comment !== "" && (!comment.startsWith("#") || /[\r\n]/.test(comment))) {
    refuse(
      run,
      `Parameter "text" must be one comment line starting with "#" (or "" to remove), got "${comment}"`,
    );
  }
  const spaces = typeof run.params.spaces === "number" ? run.params.spaces : 2;
  if (!Number.isInteger(spaces) || spaces < 0 || spaces > 40) {
    refuse(run, `Parameter "spaces" must be a whole number from 0 to 40, got ${spaces}`);
  }
  const start = lineStart(text, node.startIndex);
  const end = lineEnd(text, node.startIndex);
  const old = trailingComment(root, text, start, end);
  let code = old ? old.startIndex : end;
  while (code > start && /[ \t\r]/.test(text[code - 1])) code--;
  const line = node.startPosition.row + 1;
  if (code === start || (!old && text.slice(start, code).trimStart().startsWith("#"))) {
    refuse(run, `Line ${line} has no code for a comment to end`, { node });
  }
  if (text[code - 1] === "\\" || inString(root, code - 1)) {
    refuse(run, `Line ${line} ends inside a string or a backslash continuation: a comment cannot go there`, {
      node,
    });
  }
  const replacement = comment === "" ? "" : " ".repeat(spaces) + comment;
  if (text.slice(code, end) === replacement) {
    return alreadyPresent(
      run,
      `Line ${line} already ends ${comment ? `with "${comment}"` : "without a comment"}`,
    );
  }
  await run.ctx.edit(doc.file.path, opName(run), [{ start: code, end, replacement }]);
  return { changed: true, line, ...(old ? { replaced: old.text.trimEnd() } : {}) };
}
