/**
 * `add_comment`: comment lines of their own written above a statement (or
 * below it). Fixes and new releases often add a comment block where there
 * was none: the reason for a new guard above it, a note on injected module
 * globals, a section header between definitions. A comment is not a
 * statement, so no statement template writes one, and `rewrite_comment`
 * needs a comment to rewrite; lifted patches fell to `replace_code`.
 *
 * The target is the statement or definition the comment belongs to; `text`
 * is the block, one comment per line, blank lines allowed between comments
 * (never first or last). It is written on lines of its own right above the
 * target's first line, or with `after` right below its last line, every
 * comment at the target's indentation (a comment's own leading whitespace
 * dropped) and every blank line empty. Blank lines around the block are
 * the layout's (`set_blank_lines`). A line of `text` that is code is
 * refused (the template never changes code), as is a target that shares
 * its first line (or with `after`, its last line) with other code. A block
 * already there is `already-present`, so a second application is a no-op.
 *
 * @module
 */

import { firstOnLine, lineIndent, lineStart, nextLineStart } from "../indent.ts";
import { alreadyPresent, opName, refuse, str, type TemplateRun } from "./common.ts";

/** The comment block `text` as lines, each trimmed at its start; refuses code and a blank first or last line. */
function blockLines(run: TemplateRun): string[] {
  const written = str(run.params, "text")!.replace(/\r\n?/g, "\n").split("\n").map((line) =>
    line.trim() === "" ? "" : line.trimStart()
  );
  const code = written.find((line) => line !== "" && !line.startsWith("#"));
  if (code !== undefined) refuse(run, `Every line of "text" must be a comment or blank, got: "${code}"`);
  if (written[0] === "" || written.at(-1) === "") {
    refuse(run, `The first and last lines of "text" must be comments, got a blank line`);
  }
  return written;
}

/** `add_comment`. */
export async function addComment(run: TemplateRun): Promise<Record<string, unknown>> {
  const { doc, node } = run;
  const text = doc.file.text;
  const written = blockLines(run);
  const after = run.params.after === true;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = lineIndent(text, node.startIndex);
  if (!firstOnLine(text, node.startIndex)) {
    refuse(run, `Cannot add a comment at "${node.text.split("\n")[0]}": other code starts its line`, {
      node,
    });
  }
  const lastLine = text.slice(node.endIndex, nextLineStart(text, node.endIndex)).trim();
  if (after && lastLine !== "" && !lastLine.startsWith("#")) {
    refuse(run, `Cannot add a comment below "${node.text.split("\n")[0]}": other code ends its last line`, {
      node,
    });
  }
  const block = written.map((line) => (line === "" ? "" : indent + line) + eol).join("");
  let at = after ? nextLineStart(text, node.endIndex) : lineStart(text, node.startIndex);
  let prefix = "";
  if (after && at === text.length && !text.endsWith("\n")) prefix = eol;
  const present = after ? text.slice(at, at + block.length) : text.slice(Math.max(0, at - block.length), at);
  if (present === block) return alreadyPresent(run, `The comment "${written[0]}" is already there`);
  if (after && prefix) at = text.length;
  await run.ctx.edit(doc.file.path, opName(run), [{ start: at, end: at, replacement: prefix + block }]);
  return {
    changed: true,
    lines: written.length,
    start_line: (text.slice(0, at).match(/\n/g)?.length ?? 0) + 1 + (prefix ? 1 : 0),
  };
}
