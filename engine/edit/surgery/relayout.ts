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

import { checkBudget } from "../../base/budget.ts";
import { fail } from "../../base/issue.ts";
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
  // A re-layout inside a huge literal (a 700 KB dict) compares every token of it: the budget is looked at.
  if (out.length % 4096 === 4095) checkBudget();
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

/**
 * Why the text of [start, end) (now [start, newEnd)) is no re-layout of
 * `before` into `after`, or undefined when it is one.
 */
function notLayout(
  before: Node,
  after: Node,
  start: number,
  end: number,
  newEnd: number,
): string | undefined {
  if (!before.hasError && after.hasError) return "does not parse";
  const oldTop = touched(before, start, end);
  const newTop = touched(after, start, newEnd);
  const tokens = (nodes: Node[]) => nodes.flatMap((top) => tokensOf(top, [])).join("\u0001");
  // A backslash continuation is a node of Python's tree, and layout: it is left out of the shape.
  checkBudget();
  const shape = (nodes: Node[]) =>
    nodes.map((top) => top.toString().replace(/ ?\(line_continuation\)/g, "")).join("\n");
  if (before.childCount !== after.childCount || tokens(oldTop) !== tokens(newTop)) {
    return "changes tokens, not only whitespace";
  }
  if (shape(oldTop) !== shape(newTop)) {
    return "changes the tree's structure (indentation moves code between blocks)";
  }
  return undefined;
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
  // Checked on a trial parse first, so a refused step leaves the step's documents as they were.
  const trial = await ctx.store.reparse(doc, text.slice(0, start) + replacement + text.slice(end));
  const problem = notLayout(doc.tree.rootNode, trial.tree.rootNode, start, end, start + replacement.length);
  if (trial !== doc) trial.tree.delete();
  if (problem) {
    fail("relayout-not-layout", `Cannot re-lay ${describe(node)}: the new text ${problem}`, {
      file,
      line,
      path: ["params", "text"],
      hint: "relayout_node changes only spaces and line breaks; change code with a template or replace_node",
    });
  }
  await ctx.edit(file, "relayout_node", [{ start, end, replacement }]);
  return { file, line, changed: true };
};
