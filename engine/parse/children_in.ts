/**
 * The children of a node that overlap a span, found without walking the
 * others.
 *
 * A module that grows by one statement per plan step has thousands of
 * top-level children; walking them all on every step (a cursor over the
 * siblings, or `child(i)` for each `i`) makes an N-step plan cost N² in the
 * end. Tree-sitter keeps a long list of children as a balanced tree of
 * hidden nodes, so `child(i)` costs a logarithm: a binary search over the
 * children's ends finds the first one in the span. (Children are stepped
 * by index, not `nextSibling`, which skips some zero-width nodes.)
 *
 * @module
 */

import type { Node } from "web-tree-sitter";

/**
 * The children of `node` (named and anonymous, in order) overlapping
 * [start, end], a child touching the span counting: `child.endIndex >= start`
 * and `child.startIndex <= end`. The same list as filtering `node.children`.
 */
export function childrenIn(node: Node, start: number, end: number): Node[] {
  const count = node.childCount;
  // the first child ending at or after start (ends never decrease)
  let low = 0;
  let high = count;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (node.child(mid)!.endIndex < start) low = mid + 1;
    else high = mid;
  }
  const out: Node[] = [];
  for (let i = low; i < count; i++) {
    const child = node.child(i)!;
    if (child.startIndex > end) break;
    out.push(child);
  }
  return out;
}
