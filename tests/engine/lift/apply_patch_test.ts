/**
 * `apply_patch` (V4A) input: parsing, locating hunks by their `@@` anchors
 * and context, errors naming the file and the anchor, and, on real edits,
 * lifting V4A documents written from the corpus's gold patches (each hunk
 * anchored on the `def`/`class` line above it, as models write them) into
 * plans whose execution gives the corpus's `after` files byte for byte.
 *
 * @module
 */

import assert from "node:assert/strict";
import { parseApplyPatch } from "../../../engine/lift/apply_patch.ts";
import { parseUnifiedDiff } from "../../../engine/lift/unified_diff.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { executeOnCopy, liftIn, writeRepo } from "./_support.ts";

const CART = `class Cart:
    def __init__(self, items):
        self.items = items

    def total(self):
        items = self.items
        return sum(items)


class Order:
    def total(self):
        items = self.items
        return sum(items)
`;

Deno.test("parseApplyPatch: sections, nested anchors, Move to, End of File, and what is not a patch", () => {
  const parsed = parseApplyPatch(`*** Begin Patch
*** Update File: cart.py
*** Move to: shop/cart.py
@@ class Order
@@     def total(self):
         items = self.items
-        return sum(items)
+        return sum(item.price for item in items)
*** End of File
*** Add File: util.py
+X = 1
*** Delete File: old.py
*** End Patch
`);
  assert.deepEqual(parsed.issues, []);
  assert.deepEqual(parsed.actions.map((a) => [a.kind, a.path, a.moveTo]), [
    ["update", "cart.py", "shop/cart.py"],
    ["add", "util.py", undefined],
    ["delete", "old.py", undefined],
  ]);
  const chunk = parsed.actions[0].chunks[0];
  assert.deepEqual(chunk.anchors, ["class Order", "def total(self):"]);
  assert.equal(chunk.endOfFile, true);
  assert.deepEqual(chunk.lines.map((l) => l.op).join(""), " -+");
  assert.deepEqual(parseApplyPatch("just words\n").issues.map((i) => i.code), ["patch-invalid"]);
  const unclosed = parseApplyPatch("*** Begin Patch\n*** Add File: a.py\n+x = 1\n");
  assert.match(unclosed.issues[0].message, /does not end with "\*\*\* End Patch"/);
});

Deno.test("lift: apply_patch anchors pick the method meant, in a new file, a move and a deletion, as git would apply them", async () => {
  const dir = writeRepo({ "cart.py": CART, "old.py": "Y = 2\n" });
  const patch = `*** Begin Patch
*** Update File: cart.py
@@ class Order
@@     def total(self):
         items = self.items
-        return sum(items)
+        return sum(item.price for item in items)
*** Add File: util.py
+X = 1
*** Delete File: old.py
*** End Patch
`;
  // Auto-detected when given as a diff, as the agent and `lift --diff` do.
  for (const input of [{ apply_patch: patch }, { diff: patch }]) {
    const result = await liftIn(dir, input);
    assert.deepEqual(result.errors, []);
    assert.equal(result.success, true);
    assert.deepEqual(result.plan.map((s) => s.op ?? s.template), [
      "create_file",
      "change_return_value",
      "delete_file",
    ]);
    const target = (result.plan[1].params as { target: { parent?: unknown } }).target;
    assert.match(JSON.stringify(target), /Order/, "the Order method, not Cart's");
  }
  const after = await executeOnCopy(
    { "cart.py": CART },
    (await liftIn(dir, { apply_patch: patch })).plan.slice(1, 2),
  );
  assert.equal(
    after["cart.py"],
    CART.replace(/(class Order:[\s\S]*)return sum\(items\)/, "$1return sum(item.price for item in items)"),
  );
});

Deno.test("lift: apply_patch errors name the file and the anchor; context found twice without an anchor is ambiguous", async () => {
  const dir = writeRepo({ "cart.py": CART });
  const missing = await liftIn(dir, {
    apply_patch:
      "*** Begin Patch\n*** Update File: cart.py\n@@ class Invoice\n-        return sum(items)\n+        return 0\n*** End Patch\n",
  });
  assert.deepEqual(missing.errors.map((i) => [i.code, i.file]), [["patch-context-not-found", "cart.py"]]);
  assert.match(missing.errors[0].message, /the anchor "@@ class Invoice" is not in the file/);
  assert.deepEqual(missing.plan, []);
  const ambiguous = await liftIn(dir, {
    apply_patch:
      "*** Begin Patch\n*** Update File: cart.py\n@@\n         items = self.items\n-        return sum(items)\n+        return 0\n*** End Patch\n",
  });
  assert.deepEqual(ambiguous.errors.map((i) => [i.code, i.file, i.line]), [[
    "patch-context-ambiguous",
    "cart.py",
    6,
  ]]);
  assert.match(ambiguous.errors[0].message, /occur at lines 6, 12/);
  const stale = await liftIn(dir, {
    apply_patch:
      "*** Begin Patch\n*** Update File: cart.py\n@@ class Cart\n-        return total\n+        return 0\n*** End Patch\n",
  });
  assert.match(
    stale.errors[0].message,
    /after "@@ class Cart" are not in the file \(first line " {8}return total"\)/,
  );
});

/** A V4A document with the same changes as a unified diff, each hunk anchored on the def/class line above it. */
function toApplyPatch(diff: string, before: Record<string, string>): string {
  const out = ["*** Begin Patch"];
  for (const file of parseUnifiedDiff(diff).files) {
    out.push(`*** Update File: ${file.path}`);
    const lines = before[file.path].split("\n");
    for (const hunk of file.hunks) {
      const first = hunk.oldStart - 1;
      const anchor = lines.slice(0, first).findLast((line) => /^\s*(async def|def|class) /.test(line));
      out.push(anchor ? `@@ ${anchor}` : "@@");
      for (const line of hunk.lines) out.push(line.op + line.text);
    }
  }
  out.push("*** End Patch", "");
  return out.join("\n");
}

Deno.test({
  name: "lift: V4A versions of corpus gold patches lift and execute to the after files byte for byte",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const instances = (await loadCorpus()).filter((i) => i.files.every((f) => f.path.endsWith(".py"))).slice(
      0,
      12,
    );
    let done = 0;
    for (const instance of instances) {
      const before = Object.fromEntries(instance.files.map((f) => [f.path, f.before]));
      const patch = toApplyPatch(instance.patch, before);
      const result = await liftIn(writeRepo(before), { apply_patch: patch });
      if (result.errors.some((issue) => issue.code === "patch-context-ambiguous")) continue; // no anchor above
      assert.equal(result.success, true, `${instance.instance_id}: ${JSON.stringify(result.errors)}`);
      const after = await executeOnCopy(before, result.plan);
      for (const file of instance.files) assert.equal(after[file.path], file.after, instance.instance_id);
      done++;
    }
    assert.ok(done >= 7, `${done} of ${instances.length} lifted`);
  },
});
