import assert from "node:assert/strict";
import { parse } from "../../../engine/parse/mod.ts";
import { preorder } from "../../../engine/parse/walk.ts";

const SOURCE = `class A:
    def f(self, x):
        return [x for x in range(3)]

def g():
    pass
`;

Deno.test("preorder visits every node in document order, like a recursive walk", async () => {
  const tree = await parse("python", SOURCE);
  const seen: string[] = [];
  preorder(tree.rootNode, (node) => void seen.push(`${node.type}@${node.startIndex}`));
  const expected: string[] = [];
  const recurse = (node: NonNullable<typeof tree.rootNode>) => {
    expected.push(`${node.type}@${node.startIndex}`);
    for (const child of node.children) if (child) recurse(child);
  };
  recurse(tree.rootNode);
  assert.deepEqual(seen, expected);
});

Deno.test("preorder skips the children of a node when the visitor returns false, and stays inside the root", async () => {
  const tree = await parse("python", SOURCE);
  const method = tree.rootNode.descendantsOfType("function_definition")[0]!;
  const types: string[] = [];
  preorder(method, (node) => {
    types.push(node.type);
    return node.type !== "parameters";
  });
  assert.equal(types[0], "function_definition");
  assert.ok(types.includes("parameters"));
  assert.ok(!types.includes(","), "the parameters' children were skipped");
  assert.ok(types.includes("list_comprehension"));
  assert.ok(!types.includes("pass_statement"), "nothing after the root was visited");
});
