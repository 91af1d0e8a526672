/**
 * L0 in a file that was already broken. When tree-sitter fails on part of a
 * file (a macro it cannot read, a C++ header read as C), its error recovery
 * often wraps a large region, a whole namespace, in one ERROR node; an edit
 * inside that region changes the ERROR node's extent at most, so comparing
 * error regions (`newSyntaxProblems`) cannot see what the edit broke: an
 * inserted function without its closing brace disappears into the ERROR
 * node. Two further checks, run only when the file had syntax problems
 * before the edit and the comparison of regions found nothing new:
 *
 * - **Bracket balance.** Per pair (`{}`, `()`, `[]`), the count of opening
 *   minus closing bracket tokens in the whole file (the grammar's tokens, so
 *   brackets in strings and comments do not count; the lexer still runs
 *   inside ERROR nodes). An edit that moves a balance away from zero leaves
 *   an unclosed or unopened bracket; one that moves it toward zero may be a
 *   repair and is not refused.
 * - **The enclosing sound node, parsed alone.** The innermost node around
 *   the edit that had no syntax problem before and whose text parses without
 *   one on its own (a function definition inside the ERROR node, say) is
 *   parsed alone again after the edit, from its start to its end shifted by
 *   the edit; a problem there is the edit's. Where no such node encloses the
 *   edit (it sits between the children of an ERROR node), the text between
 *   the sound neighbours around it is parsed alone instead, when a
 *   neighbour itself parses alone (so such text can stand at the top level).
 *
 * Both are conservative: a problem is reported only where the text the edit
 * wrote cannot be read either way.
 *
 * @module
 */

import { type Document, editBetween } from "../../parse/documents.ts";
import {
  firstLine,
  type Node,
  parse,
  type SyntaxProblem,
  syntaxProblems,
  type Tree,
} from "../../parse/mod.ts";
import type { LanguageId } from "../../parse/mod.ts";

const PAIRS: ReadonlyArray<readonly [string, string]> = [["{", "}"], ["(", ")"], ["[", "]"]];

/** Sound nodes larger than this are not parsed alone (their parse would cost more than it tells). */
const MAX_ALONE = 200_000;

const balances = new WeakMap<Tree, number[]>();

/** New problems of an edit in a file that had syntax problems before it (see the module notes). */
export async function brokenFileProblems(before: Document, after: Document): Promise<SyntaxProblem[]> {
  const edit = editBetween(before, after);
  if (!edit) return [];
  const unbalanced = balanceProblem(before, after, edit.startIndex, edit.newEndIndex);
  if (unbalanced) return [unbalanced];
  return await aloneProblems(before, after, edit);
}

function balanceProblem(before: Document, after: Document, start: number, end: number): SyntaxProblem | null {
  const was = bracketBalance(before.tree);
  const now = bracketBalance(after.tree);
  for (let i = 0; i < PAIRS.length; i++) {
    if (Math.abs(now[i]) <= Math.abs(was[i])) continue;
    const [open, close] = PAIRS[i];
    const missing = now[i] > was[i] ? close : open;
    return problemAt(after.file.text, start, end, "missing", missing);
  }
  return null;
}

/** Opening minus closing bracket tokens of the whole tree, per pair (cached per tree). */
export function bracketBalance(tree: Tree): number[] {
  const known = balances.get(tree);
  if (known) return known;
  const counts = PAIRS.map(() => 0);
  const cursor = tree.rootNode.walk();
  try {
    for (;;) {
      if (cursor.gotoFirstChild()) continue;
      const type = cursor.nodeType;
      if (type.length === 1 && !cursor.currentNode.isMissing) {
        for (let i = 0; i < PAIRS.length; i++) {
          if (type === PAIRS[i][0]) counts[i]++;
          else if (type === PAIRS[i][1]) counts[i]--;
        }
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          balances.set(tree, counts);
          return counts;
        }
      }
    }
  } finally {
    cursor.delete();
  }
}

async function aloneProblems(
  before: Document,
  after: Document,
  edit: { startIndex: number; oldEndIndex: number; newEndIndex: number },
): Promise<SyntaxProblem[]> {
  const language = after.file.language;
  const shift = edit.newEndIndex - edit.oldEndIndex;
  const beforeText = before.file.text;
  const afterText = after.file.text;
  const region = await soundRegion(
    before.tree.rootNode,
    language,
    beforeText,
    edit.startIndex,
    edit.oldEndIndex,
  );
  if (!region) return [];
  const text = afterText.slice(region.start, region.end + shift);
  const problems = await problemsAlone(language, text);
  if (problems.length === 0) return [];
  const first = problems[0];
  return [
    problemAt(
      afterText,
      region.start + first.startIndex,
      region.start + first.endIndex,
      first.kind,
      first.text,
    ),
  ];
}

/**
 * The region of `before` around [start, end) that parses alone without a
 * problem: the innermost sound ancestor that does, or the gap between sound
 * neighbours inside an ERROR node (see the module notes).
 */
async function soundRegion(
  root: Node,
  language: LanguageId,
  text: string,
  start: number,
  end: number,
): Promise<{ start: number; end: number } | null> {
  let node: Node | null = root.descendantForIndex(start, end);
  while (node && !(node.startIndex <= start && node.endIndex >= end)) node = node.parent;
  for (let at = node; at; at = at.parent) {
    if (at.isError) return await gapRegion(at, language, text, start, end);
    if (at.hasError || at.endIndex - at.startIndex > MAX_ALONE || at.parent === null) continue;
    if ((await problemsAlone(language, text.slice(at.startIndex, at.endIndex))).length === 0) {
      return { start: at.startIndex, end: at.endIndex };
    }
  }
  return null;
}

/** Inside an ERROR node: the text between the sound children around [start, end), when a neighbour parses alone. */
async function gapRegion(
  error: Node,
  language: LanguageId,
  text: string,
  start: number,
  end: number,
): Promise<{ start: number; end: number } | null> {
  let previous: Node | null = null;
  let next: Node | null = null;
  for (const child of error.namedChildren) {
    if (!child) continue;
    if (child.endIndex <= start) previous = child;
    else if (child.startIndex >= end) {
      next = child;
      break;
    } else return null; // a child overlaps the edit: its own check (or none) applies
  }
  const neighbours = [previous, next].filter((n): n is Node => n !== null && !n.hasError && !n.isError);
  if (neighbours.length === 0) return null;
  let standsAlone = false;
  for (const neighbour of neighbours) {
    if ((await problemsAlone(language, text.slice(neighbour.startIndex, neighbour.endIndex))).length === 0) {
      standsAlone = true;
      break;
    }
  }
  if (!standsAlone) return null;
  const gapStart = previous && !previous.hasError ? previous.endIndex : start;
  const gapEnd = next && !next.hasError ? next.startIndex : end;
  if ((await problemsAlone(language, text.slice(gapStart, gapEnd))).length > 0) return null;
  return { start: gapStart, end: gapEnd };
}

async function problemsAlone(language: LanguageId, text: string): Promise<SyntaxProblem[]> {
  const tree = await parse(language, wrapped(language, text));
  try {
    const offset = wrapped(language, "").length;
    return syntaxProblems(tree).map((p) => ({
      ...p,
      startIndex: p.startIndex - offset,
      endIndex: p.endIndex - offset,
    }));
  } finally {
    tree.delete();
  }
}

/** PHP code is code only after its opening tag. */
function wrapped(language: LanguageId, text: string): string {
  return language === "php" ? `<?php\n${text}` : text;
}

function problemAt(
  text: string,
  start: number,
  end: number,
  kind: SyntaxProblem["kind"],
  what: string,
): SyntaxProblem {
  const lineStart = text.lastIndexOf("\n", Math.max(0, start - 1)) + 1;
  return {
    kind,
    line: text.slice(0, start).split("\n").length,
    column: start - lineStart + 1,
    text: kind === "missing" ? what : firstLine(text.slice(start, Math.max(end, start + 1))),
    startIndex: start,
    endIndex: end,
  };
}
