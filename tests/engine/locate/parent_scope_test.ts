/**
 * A locator with a parent is matched inside the parent's nodes, not in the
 * whole file: lift resolves such locators after every candidate step, each
 * time on a new tree, and the whole-file walk per level was most of the
 * resolution's cost in a large module. The test counts the bytes the
 * `descendantsOfType` walks span (not time) and checks the nodes against an
 * independent walk of the tree.
 *
 * @module
 */

import assert from "node:assert/strict";
import { Node } from "web-tree-sitter";
import { resolveLocator } from "../../../engine/locate/mod.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { tempStore } from "./_support.ts";

const PATH = "sympy/polys/polytools.py";

/** Run `fn` counting the bytes spanned by the roots of `descendantsOfType` walks. */
async function countingWalks<T>(fn: () => Promise<T>): Promise<{ result: T; walked: number }> {
  const proto = Node.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const original = proto.descendantsOfType;
  let walked = 0;
  proto.descendantsOfType = function (this: Node, ...args: unknown[]) {
    walked += this.endIndex - this.startIndex;
    return original.apply(this, args);
  };
  try {
    return { result: await fn(), walked };
  } finally {
    proto.descendantsOfType = original;
  }
}

/** Every node of `type` strictly inside `ancestor`, by a plain walk of its children. */
function inside(ancestor: Node, type: string): Node[] {
  const out: Node[] = [];
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === type) out.push(child);
      visit(child);
    }
  };
  visit(ancestor);
  return out;
}

Deno.test({
  name:
    "resolve: a call inside a method of a class of a 180 KB module is matched in the method, not in the whole file per level",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const text = (await loadCorpus()).flatMap((instance) => instance.files)
      .find((file) => file.path === PATH)!.before;
    const { store, dir } = await tempStore({ [PATH]: text });
    try {
      const method = { kind: "method", name: "terms", parent: { kind: "class", name: "Poly" } };
      const { result, walked } = await countingWalks(() =>
        resolveLocator(store, { file: PATH, kind: "call", parent: method })
      );
      const [owner] = (await resolveLocator(store, { file: PATH, ...method })).nodes;
      assert.ok(owner && owner.text.length < text.length / 20, "the method is a small part of the file");
      const want = inside(owner, "call").map((node) => [node.startIndex, node.endIndex]);
      assert.ok(want.length > 0);
      assert.deepEqual(result.nodes.map((node) => [node.startIndex, node.endIndex]), want);
      // the class is looked for in the whole file, the method in the class, the calls in the method;
      // each level walked the whole file before (three times its length)
      const poly = (await resolveLocator(store, { file: PATH, kind: "class", name: "Poly" })).nodes[0];
      assert.ok(walked <= text.length + poly.text.length + owner.text.length, `${walked} bytes walked`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
