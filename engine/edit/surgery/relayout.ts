/**
 * `relayout_node`: the lines of a node are written again with the same
 * tokens and other whitespace. Formatters (black, flake8 fixes, gofmt,
 * prettier) and the people who follow them change layout without changing
 * code: a call's arguments joined onto one line or exploded one per line,
 * two spaces put before an inline `#`, `def f (x) :` losing its spaces, a
 * backslash continuation replaced by a line break inside brackets,
 * continuation lines re-indented. No other operator can say "only the
 * layout changes", so without it such an edit falls to a text operator.
 *
 * The span rewritten is the target's lines: from the start of its first
 * line to the end of its last line (line break excluded), so a trailing
 * comment on the last line, the indentation of the first and whatever else
 * shares those lines are part of it. `text` is the new text of that span.
 *
 * What makes the step a surgery and not a text edit is its check, made on
 * the re-parsed file: the top-level nodes the span touches must have the
 * same tokens before and after, in order (each token's type and text; a
 * string or comment is one token, its inside compared byte for byte, so the
 * whitespace of a literal's value never counts as layout), and the same tree
 * shape (their S-expressions are equal), and the file must not gain a parse
 * error. Whitespace and Python's backslash-newline continuations are all
 * that may differ; an indentation change that moves a statement into or out
 * of a block changes the tree and is refused (`relayout-not-layout`).
 *
 * Example: `{"op": "relayout_node", "params": {"target": {"kind": "call",
 * "name": "spawn"}, "text": "    spawn(cmd, dry_run=self.dry_run)"}}` joins
 * the call's arguments, split over two lines, onto one.
 *
 * @module
 */

import { fail } from "../../issue.ts";
import type { Node } from "../../parse/mod.ts";
import { lineEnd, lineStart } from "../indent.ts";
import type { OperatorFn } from "../operator.ts";
import { locatedParam, stringParam } from "./params.ts";
import { describe } from "./units.ts";

/** Nodes read as one token: literals and comments (their inside is their value, not layout). */
const ATOMIC = /(^|_)(string|comment|literal|heredoc|char|rune)(_|$)/;

/** A backslash-newline continuation: layout in Python (and C's preprocessor lines). */
const CONTINUATION = /^\\\r?\n?$/;

/** The tokens of `node` (type and text of each leaf or literal), whitespace-only leaves dropped. */
function tokensOf(node: Node, out: string[]): string[] {
  if (node.childCount === 0 || (ATOMIC.test(node.type) && node.type !== "concatenated_string")) {
    const text = node.text;
    if (text.trim() !== "" && !CONTINUATION.test(text)) out.push(`${node.type}\u0000${text}`);
    return out;
  }
  for (const child of node.children) if (child) tokensOf(child, out);
  return out;
}

/** The root's children that overlap [start, end] (touching counts). */
function touched(root: Node, start: number, end: number): Node[] {
  return root.children.filter((child): child is Node =>
    !!child && child.endIndex >= start && child.startIndex <= end
  );
}

/** The span `relayout_node` rewrites for `node`: its whole lines, line break excluded. */
export function linesSpan(text: string, node: Node): { start: number; end: number } {
  return {
    start: lineStart(text, node.startIndex),
    end: lineEnd(text, Math.max(node.startIndex, node.endIndex)),
  };
}

/** `relayout_node`. */
export const relayoutNode: OperatorFn = async (params, ctx) => {
  const { doc, node } = await locatedParam(ctx, params, { name: "target" });
  const replacement = stringParam(params, "text");
  const text = doc.file.text;
  const file = doc.file.path;
  const line = node.startPosition.row + 1;
  const { start, end } = linesSpan(text, node);
  if (text.slice(start, end) === replacement) return { file, line, changed: false };
  const oldTop = touched(doc.tree.rootNode, start, end);
  const after = await ctx.edit(file, "relayout_node", [{ start, end, replacement }]);
  const root = after.tree.rootNode;
  const newTop = touched(root, start, start + replacement.length);
  const tokens = (nodes: Node[]) => nodes.flatMap((top) => tokensOf(top, [])).join("\u0001");
  const shape = (nodes: Node[]) => nodes.map((top) => top.toString()).join("\n");
  const broken = !doc.tree.rootNode.hasError && root.hasError;
  if (
    broken || root.childCount !== doc.tree.rootNode.childCount || tokens(oldTop) !== tokens(newTop) ||
    shape(oldTop) !== shape(newTop)
  ) {
    fail(
      "relayout-not-layout",
      `Cannot re-lay ${describe(node)}: the new text ${
        broken ? "does not parse" : "changes its tokens or its structure, not only whitespace"
      }`,
      {
        file,
        line,
        path: ["params", "text"],
        hint:
          "relayout_node changes only spaces and line breaks; change code with a template or replace_node",
      },
    );
  }
  return { file, line, changed: true };
};
