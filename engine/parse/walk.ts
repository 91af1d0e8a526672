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
