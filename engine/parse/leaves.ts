/**
 * A walk through a tree's leaves that starts at a position without
 * stepping through everything before it.
 *
 * A `TreeCursor` from the root finds the child holding a position by
 * stepping through every earlier sibling: thousands at the top of a module
 * that a plan grew step by step, on every step. Here the top-level child is
 * found by a binary search over `root.child(i)` (tree-sitter keeps a long
 * list of children as a balanced tree of hidden nodes, so `child(i)` costs
 * a logarithm), and a cursor rooted at that child does the rest; stepping
 * past its first or last leaf moves to the neighbouring top-level child by
 * index. The leaves and their order are exactly a root cursor's (named and
 * anonymous nodes without children, zero-width ones included), which the
 * Node API's sibling steps are not: they skip some zero-width nodes, as
 * error recovery leaves them. (`TreeCursor.gotoFirstChildForIndex` of
 * web-tree-sitter 0.25.10 does not find the right child.)
 *
 * @module
 */

import type { Node, TreeCursor } from "web-tree-sitter";

/** A position among the leaves of the tree of `root`; `delete()` it when done. */
export class LeafWalk {
  private cursor: TreeCursor;

  private constructor(
    private readonly root: Node,
    /** The index of the top-level child the cursor is rooted at (-1: the root has no children). */
    private index: number,
  ) {
    this.cursor = (index < 0 ? root : root.child(index)!).walk();
  }

  /**
   * At the first leaf ending after `offset` (the root itself when it has no
   * children), or null when no leaf does.
   */
  static after(root: Node, offset: number): LeafWalk | null {
    const count = root.childCount;
    if (count === 0) return new LeafWalk(root, -1);
    // the first top-level child ending after offset (ends never decrease)
    let low = 0;
    let high = count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (root.child(mid)!.endIndex <= offset) low = mid + 1;
      else high = mid;
    }
    if (low === count) return null;
    const walk = new LeafWalk(root, low);
    return walk.descend(offset) ? walk : (walk.delete(), null);
  }

  /** At the last leaf of the tree. */
  static last(root: Node): LeafWalk {
    const walk = new LeafWalk(root, root.childCount - 1);
    while (walk.cursor.gotoLastChild());
    return walk;
  }

  /** The current leaf. */
  get node(): Node {
    return this.cursor.currentNode;
  }

  get startIndex(): number {
    return this.cursor.startIndex;
  }

  get endIndex(): number {
    return this.cursor.endIndex;
  }

  get type(): string {
    return this.cursor.nodeType;
  }

  /** To the next leaf; false at the last (the walk is then spent). */
  next(): boolean {
    while (!this.cursor.gotoNextSibling()) {
      if (this.cursor.gotoParent()) continue;
      if (!this.move(1)) return false;
      break;
    }
    while (this.cursor.gotoFirstChild());
    return true;
  }

  /** To the previous leaf; false at the first (the walk is then spent). */
  previous(): boolean {
    while (!this.cursor.gotoPreviousSibling()) {
      if (this.cursor.gotoParent()) continue;
      if (!this.move(-1)) return false;
      break;
    }
    while (this.cursor.gotoLastChild());
    return true;
  }

  delete(): void {
    this.cursor.delete();
  }

  /** Root the cursor at the neighbouring top-level child; false when there is none. */
  private move(step: 1 | -1): boolean {
    const index = this.index + step;
    if (this.index < 0 || index < 0 || index >= this.root.childCount) return false;
    this.cursor.delete();
    this.index = index;
    this.cursor = this.root.child(index)!.walk();
    return true;
  }

  /** Down from the top-level child to the first leaf ending after `offset` (as a root cursor would go). */
  private descend(offset: number): boolean {
    for (;;) {
      if (!this.cursor.gotoFirstChild()) return true;
      while (this.cursor.endIndex <= offset) {
        if (!this.cursor.gotoNextSibling()) return this.next();
      }
    }
  }
}
