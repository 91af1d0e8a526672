/**
 * `rewrite_comment`: the text of a comment on its own line, or of a run of
 * them on consecutive lines, rewritten. Fixes often reword the comment that
 * explains the code they change (a new case named, a paragraph re-wrapped
 * to a different number of lines, a shebang's interpreter), and no other
 * template may touch a comment: a comment is not a statement, so fragments
 * and `replace_node` were the only ways to lift it.
 *
 * The target is the run's first comment; `lines` (default 1) is how many
 * comment lines, each alone on its line, are replaced. They follow one
 * another, or are paragraphs of one comment block with blank lines between
 * them (the blank lines inside the block are replaced with it; a block
 * ends at the first line that is code). `text` is the new run, one comment
 * per line, blank lines allowed between comments: each comment is written
 * at the first comment's indentation (its own leading whitespace dropped),
 * so the run keeps its depth whatever indentation the value carries, and a
 * blank line is written empty. A line of `text` that is neither a comment
 * nor blank is refused (the template never changes code), as are a text
 * that starts or ends with a blank line, a target that is not a comment, a
 * comment that ends a line of code and a block shorter than `lines`. Text
 * that is already there (the run starting at the target reads `text`'s
 * lines) is `already-present`, so a second application is a no-op.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { firstOnLine, lineIndent, lineStart, nextLineStart } from "../indent.ts";
import { alreadyPresent, opName, refuse, str, type TemplateRun } from "./common.ts";

/** The comment alone on the line starting at `offset`, if there is one. */
function commentOnLine(root: Node, text: string, offset: number): Node | undefined {
  const indent = /^[ \t]*/.exec(text.slice(offset))![0].length;
  if (text[offset + indent] !== "#") return undefined;
  const node = root.descendantForIndex(offset + indent, offset + indent);
  return node?.type === "comment" && node.startIndex === offset + indent ? node : undefined;
}

/**
 * Up to `most` own-line comments from `node` on, on consecutive lines or,
 * with `acrossBlanks`, with blank lines between them.
 */
function commentLines(root: Node, text: string, node: Node, most: number, acrossBlanks: boolean): Node[] {
  const found = [node];
  while (found.length < most) {
    let at = nextLineStart(text, found.at(-1)!.endIndex);
    while (acrossBlanks && at < text.length && /^[ \t]*\r?\n/.test(text.slice(at, at + 200))) {
      at = nextLineStart(text, at);
    }
    const next = commentOnLine(root, text, at);
    if (!next) break;
    found.push(next);
  }
  return found;
}

/** `rewrite_comment`. */
export async function rewriteComment(run: TemplateRun): Promise<Record<string, unknown>> {
  const { doc, node } = run;
  const text = doc.file.text;
  if (node.type !== "comment") {
    refuse(run, `Target of "${run.name}" must be a comment, got a "${node.type}"`);
  }
  if (!firstOnLine(text, node.startIndex)) {
    refuse(run, `Cannot rewrite the comment "${node.text}": it ends a line of code`, { node });
  }
  const written = str(run.params, "text")!.replace(/\r\n?/g, "\n").split("\n").map((line) =>
    line.trimStart()
  );
  const code = written.find((line) => line !== "" && !line.startsWith("#"));
  if (code !== undefined) {
    refuse(run, `Every line of "text" must be a comment or blank, got: "${code}"`);
  }
  if (written[0] === "" || written.at(-1) === "") {
    refuse(run, `The first and last lines of "text" must be comments, got a blank line`);
  }
  const count = typeof run.params.lines === "number" ? run.params.lines : 1;
  if (count < 1) refuse(run, `Parameter "lines" must be 1 or more, got ${count}`);
  const comments = written.filter((line) => line !== "");
  const blanks = comments.length < written.length;
  const current = commentLines(doc.tree.rootNode, text, node, Math.max(count, comments.length), true);
  const reads = (nodes: Node[]) =>
    nodes.length >= comments.length &&
    comments.every((line, k) => nodes[k].text.replace(/\r$/, "") === line) &&
    (!blanks || text.slice(node.startIndex, nodes[comments.length - 1].endIndex).split(/\r?\n/).length ===
        written.length);
  if (reads(blanks ? current : commentLines(doc.tree.rootNode, text, node, comments.length, false))) {
    return alreadyPresent(run, `The comment "${node.text}" already reads so`);
  }
  if (current.length < count) {
    refuse(
      run,
      `Cannot rewrite ${count} comment lines from "${node.text}": only ${current.length} follow one another`,
      {
        node,
      },
    );
  }
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = lineIndent(text, node.startIndex);
  const replacement = written.map((line, k) => (k === 0 || line === "" ? "" : indent) + line).join(eol);
  const start = node.startIndex;
  // A comment node on a CRLF line ends with its "\r": the line break stays.
  const end = current[count - 1].endIndex - (current[count - 1].text.endsWith("\r") ? 1 : 0);
  await run.ctx.edit(doc.file.path, opName(run), [{ start, end, replacement }]);
  return {
    changed: true,
    lines: written.length,
    start_line: text.slice(0, lineStart(text, start)).split("\n").length,
  };
}
