/**
 * A tree diff on tree-sitter nodes: which nodes of a "before" tree match
 * which nodes of an "after" tree, and what was inserted, deleted or changed.
 * Shared knowledge for whoever needs to compare two versions of a file
 * structurally (lifting a diff into steps, explaining what a plan changed).
 *
 * ## Matching children
 *
 * Two sibling lists are aligned in two passes:
 *
 * 1. **Identical**: a longest common subsequence on (type, text): nodes
 *    that did not change at all anchor the alignment.
 * 2. **Changed**: between two consecutive anchors, the leftover nodes of
 *    both sides are paired in order: first those with the same key (a
 *    definition's name, an import's module), then, between those, the ones
 *    with the same type (a longest common subsequence on type alone); such a
 *    pair is a node that changed inside. What remains is deleted (before
 *    side) or inserted (after side).
 *
 * ## Worked example
 *
 * Before `[a = 1, b = 2, return a]`, after `[a = 1, log(a), b = 3, return a]`
 * (statements; the middle ones are `expression_statement`s): pass 1 anchors
 * `a = 1` and `return a`; between them `[b = 2]` and `[log(a), b = 3]` are
 * all expression statements, so pass 2 pairs `b = 2` with `log(a)` (in order)
 * and `b = 3` is inserted. Pairing by type is deliberately simple: the
 * caller decides whether a pair is worth descending into (here `log(a)` vs
 * `b = 2` differ in their first child's type, which `diffNodes` reports as a
 * replacement of the whole statement).
 *
 * `diffNodes` applies the alignment recursively and reports the smallest
 * changed nodes; `spanPartner` finds the node of the after tree that
 * occupies the same place as a before node when a known text change lies
 * inside it.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";

/** The alignment of two sibling lists (indices into each). */
export interface Alignment {
  /** Pairs with identical type and text. */
  same: [number, number][];
  /** Pairs of the same type whose text differs. */
  changed: [number, number][];
  /** Before-side nodes without a partner. */
  deleted: number[];
  /** After-side nodes without a partner. */
  inserted: number[];
}

/** One difference between two trees. */
export type TreeEdit =
  | { kind: "update"; before: Node; after: Node }
  | { kind: "insert"; after: Node; parent: Node; index: number }
  | { kind: "delete"; before: Node };

/** Longest common subsequence of two lists under `equal`, as index pairs in order. */
export function lcs<A, B>(
  a: readonly A[],
  b: readonly B[],
  equal: (x: A, y: B) => boolean,
): [number, number][] {
  const n = a.length;
  const m = b.length;
  // Trim the common ends first: most sibling lists differ in a few places.
  let head = 0;
  while (head < n && head < m && equal(a[head], b[head])) head++;
  let tail = 0;
  while (tail < n - head && tail < m - head && equal(a[n - 1 - tail], b[m - 1 - tail])) tail++;
  const pairs: [number, number][] = [];
  for (let k = 0; k < head; k++) pairs.push([k, k]);
  const an = n - head - tail;
  const bm = m - head - tail;
  if (an > 0 && bm > 0) {
    const table: Uint32Array[] = [];
    for (let i = 0; i <= an; i++) table.push(new Uint32Array(bm + 1));
    for (let i = an - 1; i >= 0; i--) {
      for (let j = bm - 1; j >= 0; j--) {
        table[i][j] = equal(a[head + i], b[head + j])
          ? table[i + 1][j + 1] + 1
          : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < an && j < bm) {
      if (equal(a[head + i], b[head + j])) {
        pairs.push([head + i, head + j]);
        i++;
        j++;
      } else if (table[i + 1][j] >= table[i][j + 1]) i++;
      else j++;
    }
  }
  for (let k = tail; k > 0; k--) pairs.push([n - k, m - k]);
  return pairs;
}

/** Align two sibling lists (see the module notes). */
export function alignNodes(before: readonly Node[], after: readonly Node[]): Alignment {
  const same = lcs(before, after, (x, y) => x.type === y.type && x.text === y.text);
  const out: Alignment = { same, changed: [], deleted: [], inserted: [] };
  const anchors: [number, number][] = [[-1, -1], ...same, [before.length, after.length]];
  for (let k = 0; k + 1 < anchors.length; k++) {
    const [i0, j0] = anchors[k];
    const [i1, j1] = anchors[k + 1];
    const left = before.slice(i0 + 1, i1);
    const right = after.slice(j0 + 1, j1);
    const typed = keyedThenTyped(left, right);
    const pairedLeft = new Set(typed.map(([i]) => i));
    const pairedRight = new Set(typed.map(([, j]) => j));
    for (const [i, j] of typed) out.changed.push([i0 + 1 + i, j0 + 1 + j]);
    left.forEach((_, i) => pairedLeft.has(i) || out.deleted.push(i0 + 1 + i));
    right.forEach((_, j) => pairedRight.has(j) || out.inserted.push(j0 + 1 + j));
  }
  out.changed.sort((x, y) => x[0] - y[0]);
  return out;
}

/**
 * What names a statement among its siblings: a definition's name, an
 * import's module (`def f`, `from a.b import ...`); undefined for others.
 */
function keyOf(node: Node): string | undefined {
  const key = node.childForFieldName("module_name") ?? node.childForFieldName("name");
  return key ? `${node.type} ${key.text}` : undefined;
}

/**
 * Pass 2 on one gap: nodes with the same key (a definition's name, an
 * import's module) are paired first, then the rest in order by type
 * within the keyed pairs' gaps, so a from-import whose names changed pairs
 * with the import of the same module rather than with a new import above it.
 */
function keyedThenTyped(left: readonly Node[], right: readonly Node[]): [number, number][] {
  const sameType = (x: Node, y: Node) => x.type === y.type;
  if (left.length === 0 || right.length === 0) return [];
  const leftKeys = left.map(keyOf);
  const rightKeys = right.map(keyOf);
  const keyed = leftKeys.some((key) => key !== undefined && rightKeys.includes(key))
    ? lcs(
      left.map((_, i) => i),
      right.map((_, j) => j),
      (i, j) => !!leftKeys[i] && leftKeys[i] === rightKeys[j],
    )
    : [];
  if (keyed.length === 0) return lcs(left, right, sameType);
  const out: [number, number][] = [];
  const anchors: [number, number][] = [[-1, -1], ...keyed, [left.length, right.length]];
  for (let k = 0; k + 1 < anchors.length; k++) {
    const [i0, j0] = anchors[k];
    const [i1, j1] = anchors[k + 1];
    for (const [i, j] of lcs(left.slice(i0 + 1, i1), right.slice(j0 + 1, j1), sameType)) {
      out.push([i0 + 1 + i, j0 + 1 + j]);
    }
    if (k + 1 < anchors.length - 1) out.push(anchors[k + 1]);
  }
  return out;
}

/** All children of a node (named and anonymous). */
export function childrenOf(node: Node): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (child) out.push(child);
  }
  return out;
}

/**
 * The smallest differences between `before` and `after` (two versions of a
 * node of the same place): an `update` where a node cannot be explained by
 * its children (its type, a token or the text between children changed),
 * `insert`/`delete` for children without a partner.
 */
export function diffNodes(before: Node, after: Node): TreeEdit[] {
  const out: TreeEdit[] = [];
  walk(before, after, out);
  return out;
}

function walk(before: Node, after: Node, out: TreeEdit[]): void {
  if (before.type === after.type && before.text === after.text) return;
  if (before.type !== after.type || before.childCount === 0 || after.childCount === 0) {
    out.push({ kind: "update", before, after });
    return;
  }
  const left = childrenOf(before);
  const right = childrenOf(after);
  const alignment = alignNodes(left, right);
  // A changed token (operator, keyword, punctuation) or a changed gap between children: the node itself.
  const tokenChanged = alignment.deleted.some((i) => !left[i].isNamed) ||
    alignment.inserted.some((j) => !right[j].isNamed) ||
    alignment.changed.some(([i]) => !left[i].isNamed);
  if (tokenChanged || !sameGaps(before, after, left, right, alignment)) {
    out.push({ kind: "update", before, after });
    return;
  }
  for (const [i, j] of alignment.changed) walk(left[i], right[j], out);
  for (const i of alignment.deleted) out.push({ kind: "delete", before: left[i] });
  for (const j of alignment.inserted) out.push({ kind: "insert", after: right[j], parent: before, index: j });
}

/** Whether the text between consecutive paired children is the same on both sides. */
function sameGaps(before: Node, after: Node, left: Node[], right: Node[], alignment: Alignment): boolean {
  if (alignment.deleted.length || alignment.inserted.length) return true;
  const pairs = [...alignment.same, ...alignment.changed].sort((x, y) => x[0] - y[0]);
  const beforeText = before.text;
  const afterText = after.text;
  const gap = (parent: Node, text: string, from: Node | undefined, to: Node) =>
    text.slice(
      (from ? from.endIndex : parent.startIndex) - parent.startIndex,
      to.startIndex - parent.startIndex,
    );
  let previous: [Node, Node] | undefined;
  for (const [i, j] of pairs) {
    if (gap(before, beforeText, previous?.[0], left[i]) !== gap(after, afterText, previous?.[1], right[j])) {
      return false;
    }
    previous = [left[i], right[j]];
  }
  return true;
}

/**
 * The node of `afterRoot` at the place of `node` when the text changed by
 * `delta` characters somewhere inside `node`: same start, end moved by
 * `delta`, same type (the innermost such node); undefined when the node did
 * not survive the change.
 */
export function spanPartner(afterRoot: Node, node: Node, delta: number): Node | undefined {
  const start = node.startIndex;
  const end = node.endIndex + delta;
  if (end < start) return undefined;
  let candidate: Node | null = afterRoot.descendantForIndex(start, Math.max(start, end - 1));
  while (candidate) {
    if (candidate.startIndex === start && candidate.endIndex === end && candidate.type === node.type) {
      return candidate;
    }
    if (candidate.startIndex < start || candidate.endIndex > end) break;
    candidate = candidate.parent;
  }
  // An empty node, or one that starts before its first descendant, may be missed by the descent above.
  return undefined;
}
