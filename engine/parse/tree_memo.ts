/**
 * Plain data analyses keep about one tree (a document's line breaks, its
 * module scope's bindings), found again from the tree or, through a
 * re-parsed document's `origin`, from the tree it came from.
 *
 * @module
 */

import type { Tree } from "web-tree-sitter";

/** Plain data an analysis keeps about one tree, by analysis name: no nodes (they would keep the tree alive). */
export type TreeMemo = Record<string, unknown>;

const memos = new WeakMap<Tree, TreeMemo>();

/** The memo of `tree` (created empty on first use, gone with the tree). */
export function treeMemo(tree: Tree): TreeMemo {
  let memo = memos.get(tree);
  if (!memo) memos.set(tree, memo = {});
  return memo;
}
