/**
 * A pre-order walk of a syntax tree with a TreeCursor (several times faster
 * than recursing through `namedChildren`), where the visitor decides for
 * each node whether to go into its children.
 *
 * @module
 */

import type { Node } from "web-tree-sitter";

/**
 * Visit `root` and its descendants in document order. `visit` returns
 * `false` to skip the node's children (any other value descends).
 */
export function preorder(root: Node, visit: (node: Node) => boolean | void): void {
  const cursor = root.walk();
  try {
    for (;;) {
      if (visit(cursor.currentNode) !== false && cursor.gotoFirstChild()) continue;
      // No way down: the next sibling, or the next sibling of the nearest ancestor that has one.
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

/**
 * The named nodes of `types` in `root`'s subtree (itself included), in
 * document order. Only those are materialised as `Node`s: the walk reads
 * the other nodes' types from the cursor, which costs a fraction of
 * building each node (a 700 KB literal has tens of thousands of them).
 */
export function namedNodesOfTypes(root: Node, types: ReadonlySet<string>): Node[] {
  const out: Node[] = [];
  const cursor = root.walk();
  try {
    for (;;) {
      if (cursor.nodeIsNamed && types.has(cursor.nodeType)) out.push(cursor.currentNode);
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return out;
      }
    }
  } finally {
    cursor.delete();
  }
}
