/**
 * Spacing steps: when a text differs from the expected one only in the
 * number of blank lines between lines of code, the `set_blank_lines`
 * steps (tier 1) that make it equal.
 *
 * Both texts are cut into lines; the lines with code or comments must be
 * the same, in the same order, and every blank line of a run that changes
 * must be empty in the expected text (the operator writes empty lines; a
 * blank line is spaces, tabs and form feeds, `BLANK_LINE`). Then each run of blank
 * lines that differs becomes one step: `before` on the statement that
 * starts the line below the run, or, when no locator finds such a node (a
 * comment, a continuation line) or the run ends the file, `after` on the
 * node that ends the line above it.
 *
 * Example: a fragment inserted a function with the two blank lines the
 * file uses, the diff has one; the step is `{"op": "set_blank_lines",
 * "params": {"target": <the next function>, "before": 1}}`.
 *
 * @module
 */

import type { Document, DocumentStore } from "../parse/documents.ts";
import type { Node } from "../parse/mod.ts";
import { BLANK_LINE } from "../edit/surgery/blank_lines.ts";
import { locatorFor } from "./locators.ts";

const EMPTY = /^\r?\n$/;

/** Lines with their line breaks (the last one may have none). */
export function linesOf(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

interface Gap {
  /** Offset (in the current text) of the line below the run, or the text's end. */
  below: number;
  /** Offset of the end of the line above the run (its content end), or -1 at the start. */
  above: number;
  count: number;
}

/**
 * The runs of blank lines that must change, or undefined when the texts
 * differ in more than blank lines (or `expected` has a non-empty blank line).
 */
function gapsToFix(text: string, expected: string): Gap[] | undefined {
  const a = linesOf(text);
  const b = linesOf(expected);
  const gaps: Gap[] = [];
  let i = 0;
  let j = 0;
  let offset = 0;
  let above = -1;
  while (i <= a.length && j <= b.length) {
    let runA = "";
    while (i < a.length && BLANK_LINE.test(a[i])) runA += a[i++];
    let runB = 0;
    let runText = "";
    let empty = true;
    while (j < b.length && BLANK_LINE.test(b[j])) {
      if (!EMPTY.test(b[j])) empty = false;
      runText += b[j++];
      runB++;
    }
    offset += runA.length;
    if (runA !== runText) {
      // The operator writes empty lines: a run that changes must become empty lines.
      if (!empty) return undefined;
      gaps.push({ below: offset, above, count: runB });
    }
    if (i === a.length || j === b.length) {
      return i === a.length && j === b.length ? gaps : undefined;
    }
    if (a[i] !== b[j]) return undefined;
    above = offset + a[i].replace(/\r?\n$/, "").length;
    offset += a[i].length;
    i++;
    j++;
  }
  return gaps;
}

/** The outermost statement-level node that starts at `offset` (not a block or the module). */
function startingAt(root: Node, offset: number): Node | undefined {
  let node: Node | null = root.descendantForIndex(offset, offset);
  if (!node || node.startIndex !== offset) return undefined;
  while (node.parent && node.parent.startIndex === offset && !/^(module|block)$/.test(node.parent.type)) {
    node = node.parent;
  }
  return node.isNamed && !/^(module|block)$/.test(node.type) ? node : undefined;
}

/** The outermost statement-level node that ends at `offset`. */
function endingAt(root: Node, offset: number): Node | undefined {
  let node: Node | null = root.descendantForIndex(Math.max(0, offset - 1), Math.max(0, offset - 1));
  while (node && node.endIndex < offset) node = node.parent;
  if (!node || node.endIndex !== offset) return undefined;
  while (node.parent && node.parent.endIndex === offset && !/^(module|block)$/.test(node.parent.type)) {
    node = node.parent;
  }
  return node.isNamed && !/^(module|block)$/.test(node.type) ? node : undefined;
}

/**
 * The `set_blank_lines` steps that turn `doc`'s text into `expected`, or
 * undefined when that takes more than blank lines or a gap has no
 * locatable node next to it.
 */
export async function spacingSteps(
  state: DocumentStore,
  doc: Document,
  expected: string,
): Promise<Record<string, unknown>[] | undefined> {
  const text = doc.file.text;
  const gaps = gapsToFix(text, expected);
  if (!gaps || gaps.length === 0) return undefined;
  const root = doc.tree.rootNode;
  const steps: Record<string, unknown>[] = [];
  for (const gap of gaps) {
    let step: Record<string, unknown> | undefined;
    if (gap.below < text.length) {
      const indent = /^[ \t]*/.exec(text.slice(gap.below))![0].length;
      const node = startingAt(root, gap.below + indent);
      const target = node && await locatorFor(state, doc, node);
      if (target) step = { op: "set_blank_lines", params: { target, before: gap.count } };
    }
    if (!step && gap.above >= 0) {
      const node = endingAt(root, gap.above);
      const target = node && await locatorFor(state, doc, node);
      if (target) step = { op: "set_blank_lines", params: { target, after: gap.count } };
    }
    if (!step) return undefined;
    steps.push(step);
  }
  return steps;
}
