/**
 * Own-line comment steps: when a text differs from the expected one in
 * comments written on lines of their own (a block added above a new
 * global, a paragraph appended to a header, a note deleted with the code
 * it explained), and otherwise at most in line comments and whitespace,
 * the steps that write them: `rewrite_comment` (tier 2) where a block
 * changed, `add_comment` (tier 2) where one appeared, `delete_node` (tier
 * 1) of each comment of a block that went. Line comments, blank lines and
 * other whitespace are then the other finishers' (`line_comments.ts`,
 * `layout.ts`, `spacing.ts`).
 *
 * ## Gaps between code lines
 *
 * The window compared is the lines between the texts' common prefix and
 * suffix, widened to the nearest line of code on either side (the anchors
 * a new block needs). Each line is blank, a comment alone on its line, or
 * code; the code lines, cut before a line comment (`#` outside a string,
 * as `line_comments.ts` cuts), must read the same on both sides, else the
 * answer is undefined: the change is more than comments. The stretch
 * between two consecutive code lines is a gap, and each gap whose comments
 * differ gives steps:
 *
 * - comments on both sides: the current block (its comments and the blank
 *   lines between them) rewritten to the expected one;
 * - comments only in the expected text: the block added above the code
 *   line below the gap when its indentation is the block's, else below the
 *   statement ending on the line above at the block's indentation (a note
 *   closing an indented body), else no answer;
 * - comments only in the current text: each deleted.
 *
 * A current line counts as a comment only when the tree has a comment
 * starting there (a `#` line inside a triple-quoted string is code). The
 * expected text is not parsed: a wrong guess gives steps whose result is not
 * the expected text, and the replay refuses them. Gaps are handled from the
 * last to the first, so the locators of the ones above stay valid.
 *
 * @module
 */

import type { Document, DocumentStore } from "../parse/documents.ts";
import type { Node } from "../parse/mod.ts";
import { lineStart, nextLineStart } from "../edit/indent.ts";
import { BODIES } from "./layout.ts";
import { commonEnds, startingAt } from "./line_comments.ts";
import { locatorFor } from "./locators.ts";
import { linesOf } from "./spacing.ts";

/** One line of the window: its text (no line break), offset in its text, and kind. */
interface Line {
  text: string;
  offset: number;
  kind: "blank" | "comment" | "code";
}

const CODE = /^(.*?)[ \t]*(#[^\r\n]*)?\r?\n?$/s;

/** The code of a line before its line comment, without trailing whitespace. */
const codeOf = (line: string) => CODE.exec(line)![1].trimEnd();

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0];

function classify(lines: string[], from: number, isComment: (offset: number) => boolean): Line[] {
  let offset = from;
  return lines.map((raw) => {
    const text = raw.replace(/\r?\n$/, "");
    const at = offset;
    offset += raw.length;
    const kind = text.trim() === ""
      ? "blank"
      : /^[ \t]*#/.test(text) && isComment(at + indentOf(text).length)
      ? "comment"
      : "code";
    return { text, offset: at, kind };
  });
}

/** The window [from, end) of `text` around its difference from `expected`, widened to code lines. */
function window(text: string, expected: string): { from: number; aEnd: number; bEnd: number } {
  const { prefix, suffix } = commonEnds(text, expected);
  const isCode = (line: string) => line.trim() !== "" && !/^[ \t]*#/.test(line);
  let from = lineStart(text, prefix);
  while (from > 0) {
    from = lineStart(text, from - 1);
    if (isCode(text.slice(from, nextLineStart(text, from)))) break;
  }
  const tail = (s: string) => {
    const nl = s.indexOf("\n", s.length - suffix);
    return nl === -1 ? s.length : nl + 1;
  };
  let aEnd = tail(text);
  let bEnd = tail(expected);
  while (aEnd < text.length) {
    const next = nextLineStart(text, aEnd);
    const line = text.slice(aEnd, next);
    bEnd += next - aEnd;
    aEnd = next;
    if (isCode(line)) break;
  }
  return { from, aEnd, bEnd };
}

/** The largest statement-like node ending on the line [start, end) whose first line is indented `indent`. */
function endingOn(root: Node, text: string, start: number, end: number, indent: string): Node | undefined {
  let last = end;
  while (last > start && /\s/.test(text[last - 1])) last--;
  let node: Node | null = root.descendantForIndex(Math.max(start, last - 1), Math.max(start, last - 1));
  let found: Node | undefined;
  for (; node && node.endIndex <= end; node = node.parent) {
    if (BODIES.has(node.type) || !node.isNamed || node.type === "comment") continue;
    const head = lineStart(text, node.startIndex);
    if (node.startIndex - head === indent.length && indentOf(text.slice(head)) === indent) found = node;
  }
  return found;
}

/** The lines of `gap` from comment `first` to comment `last` as a block's text (blank lines empty). */
function blockText(gap: Line[], first: Line, last: Line): string {
  return gap.slice(gap.indexOf(first), gap.indexOf(last) + 1)
    .map((line) => line.kind === "blank" ? "" : line.text.trim()).join("\n");
}

/**
 * The steps that turn `doc`'s own-line comments into `expected`'s, or
 * undefined when the texts differ in more than comments and whitespace, or
 * no own-line comment differs.
 */
export async function ownCommentSteps(
  state: DocumentStore,
  doc: Document,
  expected: string,
): Promise<Record<string, unknown>[] | undefined> {
  if (doc.file.language !== "python") return undefined;
  const text = doc.file.text;
  const root = doc.tree.rootNode;
  const { from, aEnd, bEnd } = window(text, expected);
  const isComment = (offset: number) => {
    const node = root.descendantForIndex(offset, offset);
    return node?.type === "comment" && node.startIndex === offset;
  };
  const a = classify(linesOf(text.slice(from, aEnd)), from, isComment);
  const b = classify(linesOf(expected.slice(from, bEnd)), from, () => true);
  const codeA = a.filter((line) => line.kind === "code");
  const codeB = b.filter((line) => line.kind === "code");
  if (codeA.length !== codeB.length || codeA.some((line, k) => codeOf(line.text) !== codeOf(codeB[k].text))) {
    return undefined;
  }
  const gaps = (lines: Line[]) => {
    const out: Line[][] = [[]];
    for (const line of lines) line.kind === "code" ? out.push([]) : out.at(-1)!.push(line);
    return out;
  };
  const gapsA = gaps(a);
  const gapsB = gaps(b);
  if (moved(gapsA, gapsB)) return undefined;
  const steps: Record<string, unknown>[] = [];
  for (let k = gapsA.length - 1; k >= 0; k--) {
    const step = await gapSteps(state, doc, {
      left: gapsA[k],
      right: gapsB[k],
      above: codeA[k - 1],
      below: codeA[k],
    });
    if (!step) return undefined;
    steps.push(...step);
  }
  return steps.length ? steps : undefined;
}

/**
 * Whether a comment leaves one gap and appears in another: the candidate put
 * its code on the wrong side of a comment, and moving comments around it
 * would say something the change does not (another candidate places it right).
 */
function moved(gapsA: Line[][], gapsB: Line[][]): boolean {
  const comments = (gap: Line[]) =>
    gap.filter((line) => line.kind === "comment").map((line) => line.text.trim());
  const gone = new Map<string, number>();
  const come = new Map<string, number>();
  gapsA.forEach((gap, k) => {
    const mine = comments(gap);
    const theirs = comments(gapsB[k]);
    for (const text of mine) if (!theirs.includes(text)) gone.set(text, k);
    for (const text of theirs) if (!mine.includes(text)) come.set(text, k);
  });
  return [...gone].some(([text, k]) => come.has(text) && come.get(text) !== k);
}

interface GapChange {
  /** The gap's lines in the current and the expected text. */
  left: Line[];
  right: Line[];
  /** The code lines around the gap in the current text (absent at the file's start or end). */
  above?: Line;
  below?: Line;
}

/**
 * The steps for one gap (none when its comments read the same), or
 * undefined when none can be found. Only the comments between the gap's
 * common first and last ones change: a line appended to a long header is
 * that header's last comment rewritten as itself and the new line.
 */
async function gapSteps(
  state: DocumentStore,
  doc: Document,
  { left, right, above, below }: GapChange,
): Promise<Record<string, unknown>[] | undefined> {
  const text = doc.file.text;
  const root = doc.tree.rootNode;
  const a = left.filter((line) => line.kind === "comment");
  const b = right.filter((line) => line.kind === "comment");
  let p = 0;
  while (p < a.length && p < b.length && a[p].text === b[p].text) p++;
  let s = 0;
  while (s < a.length - p && s < b.length - p && a[a.length - 1 - s].text === b[b.length - 1 - s].text) s++;
  const midA = a.slice(p, a.length - s);
  const midB = b.slice(p, b.length - s);
  if (midA.length === 0 && midB.length === 0) return [];
  const located = async (line: Line) => {
    const comment = root.descendantForIndex(line.offset + indentOf(line.text).length);
    return comment ? await locatorFor(state, doc, comment) : undefined;
  };
  const rewrite = async (from: Line, lines: number, first: Line, last: Line) => {
    const target = await located(from);
    const block = blockText(right, first, last);
    return target
      ? [{ template: "rewrite_comment", params: { target, text: block, ...(lines > 1 ? { lines } : {}) } }]
      : undefined;
  };
  if (midA.length && midB.length) return await rewrite(midA[0], midA.length, midB[0], midB.at(-1)!);
  if (midA.length) {
    const out: Record<string, unknown>[] = [];
    for (const line of [...midA].reverse()) {
      const target = await located(line);
      if (!target) return undefined;
      out.push({ op: "delete_node", params: { target } });
    }
    return out;
  }
  // Comments inserted next to kept ones: the kept neighbour rewritten as itself and them.
  if (p > 0) return await rewrite(a[p - 1], 1, b[p - 1], midB.at(-1)!);
  if (s > 0) return await rewrite(a[p], 1, midB[0], b[p + midB.length]);
  const block = blockText(right, midB[0], midB.at(-1)!);
  const indent = indentOf(midB[0].text);
  if (below && indentOf(below.text) === indent) {
    const statement = startingAt(root, below.offset + indent.length);
    const target = statement && await locatorFor(state, doc, statement);
    if (target) return [{ template: "add_comment", params: { target, text: block } }];
  }
  if (above) {
    const statement = endingOn(root, text, above.offset, above.offset + above.text.length, indent);
    const target = statement && await locatorFor(state, doc, statement);
    if (target) return [{ template: "add_comment", params: { target, text: block, after: true } }];
  }
  return undefined;
}
