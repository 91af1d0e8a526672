/**
 * Line-comment steps: when a text differs from the expected one in the
 * comments that end lines of code (a `# noqa: C901` added to a `def` line,
 * a `# type: ignore` reworded or dropped), and otherwise at most in
 * whitespace, the `set_line_comment` steps (tier 2) that write them; the
 * layout and spacing steps finish what whitespace is left (`layout.ts`,
 * `spacing.ts`).
 *
 * The changed lines are compared in pairs (the window between the common
 * first and last lines must have as many non-blank lines on both sides;
 * blank lines are the spacing steps' to fix). Each line is
 * cut at its first `#` into code and comment; a pair whose code differs
 * beyond trailing whitespace is no comment change, and the whole answer is
 * undefined. The cut is textual, so a `#` inside a string cuts wrongly; the
 * template finds the comment in the tree, and the replay, which must give
 * the expected text byte for byte, is what decides. Each pair whose comment
 * differs becomes a step on the largest node that starts the line (its
 * first non-blank character), with the new comment and the spaces before
 * it.
 *
 * @module
 */

import type { Document, DocumentStore } from "../parse/documents.ts";
import type { Node } from "../parse/mod.ts";
import { lineStart } from "../edit/indent.ts";
import { BODIES } from "./layout.ts";
import { locatorFor } from "./locators.ts";
import { linesOf } from "./spacing.ts";

const CUT = /^(.*?)([ \t]*)(#[^\r\n]*)?(\r?\n?)$/s;

/** The largest node (no body, no comment) that starts at `offset`. */
export function startingAt(root: Node, offset: number): Node | undefined {
  let node: Node | null = root.descendantForIndex(offset, offset);
  if (!node || node.startIndex !== offset) return undefined;
  while (node.parent && node.parent.startIndex === offset && !BODIES.has(node.parent.type)) {
    node = node.parent;
  }
  while (node && !node.isNamed) node = node.parent;
  return node && !BODIES.has(node.type) && node.type !== "comment" ? node : undefined;
}

/** The lengths of the common prefix and (not overlapping it) common suffix of two texts. */
export function commonEnds(text: string, expected: string): { prefix: number; suffix: number } {
  const most = Math.min(text.length, expected.length);
  let prefix = 0;
  while (prefix < most && text[prefix] === expected[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < most - prefix && text[text.length - 1 - suffix] === expected[expected.length - 1 - suffix]
  ) suffix++;
  return { prefix, suffix };
}

/**
 * The `set_line_comment` steps that turn `doc`'s line comments into
 * `expected`'s, or undefined when the texts differ in more than line
 * comments and whitespace, or no comment differs.
 */
export async function lineCommentSteps(
  state: DocumentStore,
  doc: Document,
  expected: string,
): Promise<Record<string, unknown>[] | undefined> {
  if (doc.file.language !== "python") return undefined;
  // Only the lines between the texts' common prefix and suffix are cut into lines (files can be large).
  const text = doc.file.text;
  const { prefix, suffix } = commonEnds(text, expected);
  const from = lineStart(text, prefix);
  const tail = (s: string) => {
    const end = s.length - suffix;
    const nl = s.indexOf("\n", end);
    return nl === -1 ? s.length : nl + 1;
  };
  // Blank lines are left out of the pairing: the spacing steps fix their number afterwards.
  const filled = (lines: string[], start: number) => {
    const out: { line: string; offset: number }[] = [];
    let at = start;
    for (const line of lines) {
      if (line.trim() !== "") out.push({ line, offset: at });
      at += line.length;
    }
    return out;
  };
  const kept = filled(linesOf(text.slice(from, tail(text))), from);
  const a = kept.map((entry) => entry.line);
  const b = filled(linesOf(expected.slice(from, tail(expected))), from).map((entry) => entry.line);
  if (a.length !== b.length || a.length === 0) return undefined;
  const steps: Record<string, unknown>[] = [];
  for (let k = 0; k < a.length; k++) {
    const offset = kept[k].offset;
    const left = CUT.exec(a[k])!;
    const right = CUT.exec(b[k])!;
    if (left[1].trimEnd() !== right[1].trimEnd()) return undefined;
    if ((left[3] ?? "") === (right[3] ?? "")) continue;
    const code = right[1].trimEnd();
    if (code.trim() === "" || /^\s*#/.test(a[k]) || /^\s*#/.test(b[k])) return undefined;
    const indent = /^[ \t]*/.exec(a[k])![0].length;
    const node = startingAt(doc.tree.rootNode, offset + indent);
    const target = node && await locatorFor(state, doc, node);
    if (!target) return undefined;
    const spaces = right[1].length - code.length + right[2].length;
    steps.push({
      template: "set_line_comment",
      params: { target, text: right[3] ?? "", ...(spaces !== 2 && right[3] ? { spaces } : {}) },
    });
  }
  return steps.length ? steps : undefined;
}
