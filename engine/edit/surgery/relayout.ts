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
 * shape (the same node types with the same children), and the file must not
 * gain a parse error. The two trees are walked side by side, skipping the
 * subtrees the incremental parse shared between them. Whitespace and
 * Python's backslash-newline continuations are all that may differ; an
 * indentation change that moves a statement into or out of a block changes
 * the tree and is refused (`relayout-not-layout`).
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
  if (isToken(node)) {
    const text = node.text;
    if (!isBlank(text)) out.push(`${node.type}\u0000${text}`);
    return out;
  }
  for (const child of node.children) if (child) tokensOf(child, out);
  return out;
}

/** Whether `node` is read as one token: a leaf, or a literal or comment (not a joined string). */
function isToken(node: Node): boolean {
  return node.childCount === 0 || (ATOMIC.test(node.type) && node.type !== "concatenated_string");
}

/** Whether a token's text is only whitespace or a backslash continuation (empty counts). */
function isBlank(text: string): boolean {
  return text.trim() === "" || CONTINUATION.test(text);
}

/**
 * Whether `node` is layout: a backslash continuation, or a token of
 * whitespace. A zero-width token (an empty block, a missing node) is not:
 * it stands for structure.
 */
function isLayout(node: Node): boolean {
  if (node.type === "line_continuation") return true;
  if (node.childCount > 0) return false;
  const text = node.text;
  return text !== "" && isBlank(text);
}

/** The children of `node` that are not layout. */
function significant(node: Node): Node[] {
  return node.children.filter((child): child is Node => !!child && !isLayout(child));
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
 * The first pair of nodes, in a walk of `before` and `after` side by side,
 * where the two trees differ other than in layout (type, a token's text, or
 * the children that are not layout), or undefined when they do not.
 *
 * A subtree the incremental parse reused is shared by both trees (the same
 * `id`) and is skipped: only the nodes re-parsed around the edit are walked,
 * so a re-layout in a 700 KB literal costs the edited entry, not the file.
 */
function firstDifference(before: Node, after: Node): [Node, Node] | undefined {
  const pending: [Node, Node][] = [[before, after]];
  for (let seen = 1; pending.length > 0; seen++) {
    if (seen % 4096 === 0) checkBudget();
    const [a, b] = pending.pop()!;
    if (a.id === b.id) continue;
    if (a.type !== b.type) return [a, b];
    if (isToken(a) || isToken(b)) {
      if (!isToken(a) || !isToken(b) || a.text !== b.text) return [a, b];
      continue;
    }
    const [left, right] = [significant(a), significant(b)];
    if (left.length !== right.length) return [a, b];
    for (let i = left.length - 1; i >= 0; i--) pending.push([left[i], right[i]]);
  }
  return undefined;
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
  if (before.childCount !== after.childCount || oldTop.length !== newTop.length) {
    return "changes tokens, not only whitespace";
  }
  for (let i = 0; i < oldTop.length; i++) {
    const differ = firstDifference(oldTop[i], newTop[i]);
    if (!differ) continue;
    const tokens = (node: Node) => tokensOf(node, []).join("\u0001");
    return tokens(differ[0]) !== tokens(differ[1])
      ? "changes tokens, not only whitespace"
      : "changes the tree's structure (indentation moves code between blocks)";
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
  if (problem && trial !== doc) trial.tree.delete();
  if (problem) {
    fail("relayout-not-layout", `Cannot re-lay ${describe(node)}: the new text ${problem}`, {
      file,
      line,
      path: ["params", "text"],
      hint: "relayout_node changes only spaces and line breaks; change code with a template or replace_node",
    });
  }
  // the trial is the edit's document: parsed once
  await ctx.edit(file, "relayout_node", [{ start, end, replacement }], undefined, trial);
  return { file, line, changed: true };
};
