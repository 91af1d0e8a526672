import assert from "node:assert/strict";
import { assertNodeParses, nodeSkip } from "../_edit_support.ts";
import { assertIncludes, blockingErrors, code, failing, run } from "./_support.ts";

const CART = code`
  export class Cart {
    // Items by id.
    items = new Map();

    add(item, qty = 1) {
      this.items.set(item.id, { item, qty });
      return this;
    }

    /**
     * Total price.
     */
    total() {
      let sum = 0;
      for (const { item, qty } of this.items.values()) sum += item.price * qty;
      return sum;
    }
  }

  class Shop {
    open() {}
  }

  const cart = new Cart().add({ id: 1, price: 2 }, 3);
  console.log(cart.total(), format(
    "EUR",  // currency
    2,      // digits
    true,
  ));
  `;
const FILES = { "cart.js": CART };
const method = (name: string, cls: string) => ({
  file: "cart.js",
  kind: "method",
  name,
  parent: { kind: "class", name: cls },
});

const TOTAL = code`
  /**
   * Total price.
   */
  total() {
    let sum = 0;
    for (const { item, qty } of this.items.values()) sum += item.price * qty;
    return sum;
  }
  `;
const indented = (text: string, by: string) => text.replace(/^(?=.)/gm, by);

Deno.test({
  name: "JS move_node: a method with its JSDoc into another class; node --check accepts the result",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    const { text, ctx } = await run("move_node", {
      target: method("total", "Cart"),
      destination: { file: "cart.js", kind: "class", name: "Shop" },
      position: "append_to_body",
    }, FILES);
    assert.equal(
      text,
      CART.replace("\n" + indented(TOTAL, "  "), "").replace(
        "  open() {}\n",
        "  open() {}\n\n" + indented(TOTAL, "  "),
      ),
    );
    assert.equal(ctx.records.length, 1);
    assert.deepEqual(await blockingErrors(ctx), []);
    await assertNodeParses(text);
  },
});

Deno.test({
  name: "JS copy_node: a method before another, with a blank line",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    const { text } = await run("copy_node", {
      target: method("add", "Cart"),
      destination: method("open", "Shop"),
      position: "before",
    }, FILES);
    assertIncludes(
      text,
      "class Shop {\n  add(item, qty = 1) {\n    this.items.set(item.id, { item, qty });\n    return this;\n  }\n\n  open() {}\n}",
    );
    await assertNodeParses(text);
  },
});

Deno.test({
  name: "JS move_node: the only method out of a class, into an empty class body",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    const source = "class A {\n  f() {\n    return 1;\n  }\n}\n\nclass B {}\n";
    const { text } = await run("move_node", {
      target: { file: "a.js", kind: "method", name: "f" },
      destination: { file: "a.js", kind: "class", name: "B" },
      position: "prepend_to_body",
    }, { "a.js": source });
    assert.equal(text, "class A {\n}\n\nclass B {\n  f() {\n    return 1;\n  }\n}\n");
    await assertNodeParses(text);
  },
});

Deno.test({
  name: "JS swap_nodes: two methods, comments travel",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    const { text, ctx } = await run("swap_nodes", {
      target: method("add", "Cart"),
      other: method("total", "Cart"),
    }, FILES);
    const add =
      "  add(item, qty = 1) {\n    this.items.set(item.id, { item, qty });\n    return this;\n  }\n";
    assert.equal(
      text,
      CART.replace(add, "@@").replace(indented(TOTAL, "  "), add).replace("@@", indented(TOTAL, "  ")),
    );
    assert.deepEqual(await blockingErrors(ctx), []);
    await assertNodeParses(text);
  },
});

Deno.test({
  name: "JS reorder_children: class members and call arguments",
  ignore: nodeSkip() !== undefined,
  fn: async () => {
    const members = await run("reorder_children", {
      target: { file: "cart.js", kind: "class", name: "Cart" },
      order: ["total", "add", "items"],
    }, FILES);
    assertIncludes(members.text, "export class Cart {\n  /**\n   * Total price.\n   */\n  total() {");
    assertIncludes(members.text, "  }\n\n  // Items by id.\n  items = new Map();\n}");
    assert.deepEqual(await blockingErrors(members.ctx), []);
    await assertNodeParses(members.text);
    const args = await run("reorder_children", {
      target: { file: "cart.js", kind: "call", name: "format" },
      order: [2, 1, 0],
    }, FILES);
    assertIncludes(args.text, 'format(\n  true,\n  2,      // digits\n  "EUR",  // currency\n));');
    await assertNodeParses(args.text);
  },
});

Deno.test("JS: errors leave the text unchanged", async () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      "swap_nodes",
      { target: method("add", "Cart"), other: { file: "cart.js", kind: "number", index: -1 } },
      "swap-incompatible",
    ],
    ["move_node", {
      target: { file: "cart.js", kind: "class", name: "Cart" },
      destination: method("add", "Cart"),
      position: "after",
    }, "move-into-itself"],
    ["reorder_children", {
      target: { file: "cart.js", kind: "class", name: "Cart" },
      order: ["total", "add"],
    }, "reorder-invalid"],
  ];
  for (const [op, params, expected] of cases) {
    const { codes, text } = await failing(op, params, FILES);
    assert.deepEqual(codes, [expected], op);
    assert.equal(text, CART);
  }
});

const SQUARE = code`
  export class Square implements Shape {
    name = "square";
    constructor(private side: number) {}

    @log
    area(): number {
      return this.side ** 2;
    }
  }
  `;

Deno.test("TS swap_nodes / reorder_children: a member's decorators (siblings in the grammar) travel with it", async () => {
  const parent = { kind: "class", name: "Square" };
  const swapped = await run("swap_nodes", {
    target: { file: "a.ts", kind: "method", name: "constructor", parent },
    other: { file: "a.ts", kind: "method", name: "area", parent },
  }, { "a.ts": SQUARE });
  assert.equal(
    swapped.text,
    code`
    export class Square implements Shape {
      name = "square";
      @log
      area(): number {
        return this.side ** 2;
      }

      constructor(private side: number) {}
    }
    `,
  );
  assert.deepEqual(await blockingErrors(swapped.ctx), []);
  const reordered = await run("reorder_children", {
    target: { file: "a.ts", kind: "class", name: "Square" },
    order: [2, 0, 1],
  }, { "a.ts": SQUARE });
  assert.equal(
    reordered.text,
    code`
    export class Square implements Shape {
      @log
      area(): number {
        return this.side ** 2;
      }
      name = "square";

      constructor(private side: number) {}
    }
    `,
  );
  assert.deepEqual(await blockingErrors(reordered.ctx), []);
});
