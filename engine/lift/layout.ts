/**
 * Layout steps: when a text differs from the expected one only in
 * whitespace (spaces, line breaks, indentation of continuation lines,
 * backslash continuations), the `relayout_node` steps (tier 1) that make it
 * equal, apart from runs of blank lines, which the spacing steps
 * (`spacing.ts`) fix after them.
 *
 * ## Gaps
 *
 * Both texts are read together, non-whitespace character by character; the
 * whitespace between two such characters is a gap, and the gaps that differ
 * are the changes (the texts must agree on every other character, or there
 * is no layout step). A differing gap is looked at by its line breaks:
 *
 * - both sides break the line: the part before the first break (trailing
 *   spaces, or the spaces before an inline comment when the comment moved)
 *   and the part after the last one (the next line's indentation) are each
 *   a change on one line, when they differ; the blank lines between are
 *   spacing, left to `set_blank_lines`;
 * - otherwise the gap joins two lines, splits one, or changes spaces within
 *   a line: a change between the two characters around it.
 *
 * ## Targets
 *
 * A change on one line goes to the node around the character next to it,
 * a change between two characters to the smallest node holding both. From
 * there the target climbs to the largest node with the same lines (so a
 * one-line statement, not its first token, is re-laid). Never a body (a
 * module, a block: re-laying it would re-lay every statement of it); when
 * the characters belong to two statements of a body, the statement whose
 * lines hold the change (an inline comment's spaces belong to the statement
 * it ends). Targets whose lines overlap are merged into their smallest
 * common ancestor, as `relayout_node` rewrites whole lines. A target no
 * locator finds is replaced by its parent.
 *
 * Example: black joined `spawn(cmd,\n          dry_run=self.dry_run)` onto
 * one line; the gap after the comma differs, both characters are in the
 * call, and the call's lines are its statement's: one `relayout_node` on
 * the `expression_statement` with the joined line.
 *
 * @module
 */

import type { Document, DocumentStore } from "../parse/documents.ts";
import type { Node } from "../parse/mod.ts";
import { lineEnd, lineStart } from "../edit/indent.ts";
import { linesSpan } from "../edit/surgery/relayout.ts";
import { locatorFor } from "./locators.ts";

/** Statement and member lists: never a layout target (see `lift_file.ts` for their use there). */
export const BODIES: ReadonlySet<string> = new Set([
  "module",
  "block",
  "class_body",
  "statement_block",
  // Go, Rust, Java, C/C++, PHP, Ruby statement and member lists.
  "compound_statement",
  "declaration_list",
  "field_declaration_list",
  "body_statement",
  "constructor_body",
  "source_file",
  "translation_unit",
  "program",
]);

/** The languages `relayout_node` works in. */
const LANGUAGES = new Set(["python"]);

/** A gap that differs: old offsets [start, end), and its new text. */
interface Gap {
  start: number;
  end: number;
  text: string;
}

/** Length of the whitespace (a backslash continuation counts) at `i` of `s`. */
function blankAt(s: string, i: number): number {
  let k = i;
  for (;;) {
    if (k < s.length && /\s/.test(s[k])) k++;
    else if (s[k] === "\\" && (s[k + 1] === "\n" || (s[k + 1] === "\r" && s[k + 2] === "\n"))) {
      k += s[k + 1] === "\r" ? 3 : 2;
    } else return k - i;
  }
}

/**
 * The gaps in which `a` and `b` differ, in `a`'s offsets, or undefined when
 * they differ in more than whitespace. Only the window between their
 * common prefix and suffix is read.
 */
export function layoutGaps(a: string, b: string): Gap[] | undefined {
  let prefix = 0;
  const most = Math.min(a.length, b.length);
  while (prefix < most && a[prefix] === b[prefix]) prefix++;
  if (prefix === a.length && prefix === b.length) return [];
  let suffix = 0;
  while (suffix < most - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  // Widen the window to whole whitespace runs on both sides.
  while (prefix > 0 && /[\s\\]/.test(a[prefix - 1])) prefix--;
  while (suffix > 0 && /[\s\\]/.test(a[a.length - suffix])) suffix--;
  const gaps: Gap[] = [];
  let i = prefix;
  let j = prefix;
  const endA = a.length - suffix;
  const endB = b.length - suffix;
  for (;;) {
    const wa = Math.min(blankAt(a, i), endA - i);
    const wb = Math.min(blankAt(b, j), endB - j);
    if (a.slice(i, i + wa) !== b.slice(j, j + wb)) {
      gaps.push({ start: i, end: i + wa, text: b.slice(j, j + wb) });
    }
    i += wa;
    j += wb;
    if (i >= endA || j >= endB) return i >= endA && j >= endB ? gaps : undefined;
    if (a[i] !== b[j]) return undefined;
    i++;
    j++;
  }
}

/** A place that changed: on one line at `at`, or between the characters at `before` and `after`. */
type Change = { at: number } | { before: number; after: number };

/** The changes of one gap (blank lines between two line breaks are left to the spacing steps). */
function changesOf(text: string, gap: Gap): Change[] {
  const old = text.slice(gap.start, gap.end);
  const breaks = (s: string) => s.includes("\n") && !s.includes("\\");
  if (!breaks(old) || !breaks(gap.text)) return [{ before: gap.start - 1, after: gap.end }];
  const head = (s: string) => s.slice(0, s.indexOf("\n"));
  const tail = (s: string) => s.slice(s.lastIndexOf("\n") + 1);
  const out: Change[] = [];
  if (head(old) !== head(gap.text)) out.push({ at: gap.start - 1 });
  if (tail(old) !== tail(gap.text)) out.push({ at: gap.end });
  return out;
}

const isBody = (node: Node) => !node.parent || BODIES.has(node.type);

/** The largest node with `node`'s lines, below any body. */
function widen(text: string, node: Node): Node {
  const span = linesSpan(text, node);
  let out = node;
  for (let up = node.parent; up && !isBody(up); up = up.parent) {
    const other = linesSpan(text, up);
    if (other.start !== span.start || other.end !== span.end) break;
    out = up;
  }
  return out;
}

/** The named node at or around `node` that is no body, or the body's child holding `offset`'s line. */
function targetFrom(text: string, node: Node | null, offset: number): Node | undefined {
  let found = node;
  while (found && !found.isNamed) found = found.parent;
  if (!found) return undefined;
  if (!isBody(found)) return widen(text, found);
  const line = { start: lineStart(text, offset), end: lineEnd(text, offset) };
  const child = found.namedChildren.find((c): c is Node => {
    if (!c) return false;
    const span = linesSpan(text, c);
    return span.start <= line.start && span.end >= line.end;
  });
  return child ? widen(text, child) : undefined;
}

/** The node whose lines `change` is on. */
function targetOf(root: Node, text: string, change: Change): Node | undefined {
  if ("at" in change) return targetFrom(text, root.descendantForIndex(change.at, change.at), change.at);
  const node = root.descendantForIndex(change.before, change.after);
  const line = { start: lineStart(text, change.before), end: lineEnd(text, change.after) };
  const target = targetFrom(text, node, change.before);
  if (!target) return undefined;
  const span = linesSpan(text, target);
  return span.start <= line.start && span.end >= line.end ? target : undefined;
}

/** The smallest node holding both, widened; undefined when that is a body. */
function common(text: string, a: Node, b: Node): Node | undefined {
  const start = Math.min(a.startIndex, b.startIndex);
  const end = Math.max(a.endIndex, b.endIndex);
  let node: Node | null = a;
  while (node && !(node.startIndex <= start && node.endIndex >= end)) node = node.parent;
  return node && !isBody(node) ? widen(text, node) : undefined;
}

/** Targets with disjoint lines (overlapping ones merged), or undefined when a merge reaches a body. */
function disjoint(text: string, targets: Node[]): Node[] | undefined {
  let list = targets;
  for (let merged = true; merged;) {
    merged = false;
    list = [...new Map(list.map((node) => [node.id, node])).values()]
      .sort((x, y) => x.startIndex - y.startIndex);
    for (let k = 1; k < list.length; k++) {
      if (linesSpan(text, list[k]).start > linesSpan(text, list[k - 1]).end) continue;
      const both = common(text, list[k - 1], list[k]);
      if (!both) return undefined;
      list = [...list.slice(0, k - 1), both, ...list.slice(k + 1)];
      merged = true;
      break;
    }
  }
  return list;
}

/** How many lines `node`'s lines span holds (from its first row to its last). */
function lineCount(node: Node): number {
  return node.endPosition.row - node.startPosition.row + 1;
}

/**
 * Disjoint targets (sorted) with each run of them on consecutive lines
 * replaced by their common ancestor when it is no body and at least half of
 * its lines are the run's: the continuation lines of one literal or call
 * re-indented are one step on it, not one step per line.
 */
function mergeRuns(text: string, list: Node[]): Node[] {
  const out: Node[] = [];
  const next = (a: Node, b: Node) =>
    /^\r?\n$/.test(text.slice(linesSpan(text, a).end, linesSpan(text, b).start));
  for (let k = 0; k < list.length;) {
    let j = k;
    while (j + 1 < list.length && next(list[j], list[j + 1])) j++;
    const both = j > k ? common(text, list[k], list[j]) : undefined;
    const run = list.slice(k, j + 1);
    const lines = run.reduce((sum, node) => sum + lineCount(node), 0);
    if (both && lineCount(both) <= 2 * lines) out.push(both);
    else out.push(...run);
    k = j + 1;
  }
  return out;
}

/** Maps an offset of a non-whitespace character of the old text to the new one. */
function mapper(gaps: Gap[]): (offset: number) => number {
  return (offset) => {
    let shift = 0;
    for (const gap of gaps) if (gap.end <= offset) shift += gap.text.length - (gap.end - gap.start);
    return offset + shift;
  };
}

/**
 * The `relayout_node` steps that turn `doc`'s text into `expected` up to
 * blank lines: `[]` when only blank lines differ, undefined when more than
 * layout differs or a change has no target.
 */
export async function layoutSteps(
  state: DocumentStore,
  doc: Document,
  expected: string,
): Promise<Record<string, unknown>[] | undefined> {
  if (!LANGUAGES.has(doc.file.language)) return undefined;
  const text = doc.file.text;
  const gaps = layoutGaps(text, expected);
  if (!gaps) return undefined;
  const root = doc.tree.rootNode;
  const targets: Node[] = [];
  for (const change of gaps.flatMap((gap) => changesOf(text, gap))) {
    const target = targetOf(root, text, change);
    if (!target) return undefined;
    targets.push(target);
  }
  const separate = disjoint(text, targets);
  if (!separate) return undefined;
  const merged = disjoint(text, mergeRuns(text, separate));
  const toNew = mapper(gaps);
  const steps = merged && await stepsFor(state, doc, merged, expected, toNew);
  if (steps || merged?.length === separate.length) return steps;
  return await stepsFor(state, doc, separate, expected, toNew);
}

/** One `relayout_node` step per target (or the nearest ancestor a locator finds), or undefined. */
async function stepsFor(
  state: DocumentStore,
  doc: Document,
  list: Node[],
  expected: string,
  toNew: (offset: number) => number,
): Promise<Record<string, unknown>[] | undefined> {
  const steps: Record<string, unknown>[] = [];
  for (let node of list) {
    let target = await locatorFor(state, doc, node);
    while (!target && node.parent && !isBody(node.parent)) {
      node = node.parent;
      target = await locatorFor(state, doc, node);
    }
    if (!target) return undefined;
    const first = node.startIndex;
    const last = Math.max(first, node.endIndex - 1);
    const from = lineStart(expected, toNew(first));
    const to = lineEnd(expected, toNew(last));
    steps.push({ op: "relayout_node", params: { target, text: expected.slice(from, to) } });
  }
  return steps;
}
