import assert from "node:assert/strict";
import { parse } from "../../../engine/parse/mod.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("stress tests (40 parses of a 1.5 MB file)");

// Trees live in the WebAssembly heap; without finalization a few dozen
// parses of a large file exhaust it and every later parse aborts. A
// long-lived helper session re-parses after every edit, so dead trees must be
// reclaimed even in a loop that never yields to the event loop.
Deno.test(
  "dead trees are reclaimed: 40 parses of a 1.5 MB file without delete() do not exhaust the heap",
  SLOW,
  async () => {
    let text = "";
    for (let i = 0; i < 20000; i++) {
      text += `def f${i}(a, b):\n    if a:\n        return [a, b, {'k': a}]\n    return None\n\n`;
    }
    let lastChildren = 0;
    for (let i = 0; i < 40; i++) {
      const tree = await parse("python", `${text}x${i} = 1\n`);
      lastChildren = tree.rootNode.childCount;
    }
    assert.equal(lastChildren, 20001);
    // The parser still works afterwards.
    const small = await parse("python", "def ok():\n    return 1\n");
    assert.equal(small.rootNode.hasError, false);
  },
);
