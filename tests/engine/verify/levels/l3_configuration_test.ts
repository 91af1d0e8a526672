/**
 * Names in C and C++ files tree-sitter fails on (issue 27): a conditional
 * that splits a statement (`#ifdef` around an `else if`, a `{` opened in both
 * branches) or a calling convention macro (`void PNGAPI\npng_f(`) leaves
 * ERROR nodes over whole functions, whose calls the name check skipped, so
 * deleting a function still called there passed. The file is now read in
 * one configuration (`engine/analysis/one_configuration.ts`). The file is
 * real: libpng's `pngset.c` (`tests/fixtures/names/README.md`), where the
 * only call of `add_one_chunk` sits in such an ERROR node.
 */

import assert from "node:assert/strict";
import { oneConfiguration } from "../../../../engine/analysis/one_configuration.ts";
import { parse, syntaxProblems } from "../../../../engine/parse/mod.ts";
import { writeTree } from "../../../_support/multilang.ts";
import { verifyIn } from "../plan/_support.ts";
import "../../exec/_support.ts";

const FIXTURE = new URL("../../../fixtures/names/libpng_pngset.c", import.meta.url);

/** `add_one_chunk`'s definition with the `#ifdef` line before it kept. */
const DEFINITION = /static unsigned int\nadd_one_chunk\([^)]*\)\n\{[\s\S]*?\n\}\n/;

async function verifyDeletion(text: string) {
  const found = text.match(DEFINITION);
  assert.ok(found, "no add_one_chunk definition in the fixture");
  const dir = await writeTree({ "pngset.c": text });
  try {
    return await verifyIn(dir, [{
      op: "replace_code",
      params: { file: "pngset.c", pattern: found[0], replacement: "" },
    }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("names in one configuration: the view of pngset.c parses where the file does not", async () => {
  const text = await Deno.readTextFile(FIXTURE);
  const view = oneConfiguration(text)!;
  assert.equal(view.text.length, text.length);
  assert.equal(view.text.split("\n").length, text.split("\n").length);
  const real = syntaxProblems(await parse("c", text)).length;
  const seen = syntaxProblems(await parse("c", view.text)).length;
  assert.ok(real > 10 && seen < real / 4, `problems ${real} in the file, ${seen} in its view`);
  // a name only a lost branch mentions stays known as hidden
  assert.ok(view.hidden.has("PNG_HANDLE_AS_UNKNOWN_SUPPORTED"));
});

Deno.test("names in one configuration: deleting add_one_chunk, still called inside an ERROR node, is refused", async () => {
  const text = await Deno.readTextFile(FIXTURE);
  const result = await verifyDeletion(text);
  const dangling = result.errors.filter((issue) => issue.code === "dangling-reference");
  assert.equal(dangling.length, 1, JSON.stringify(result.errors));
  assert.match(dangling[0].message, /^Name "add_one_chunk" is still used/);
});

Deno.test("names in one configuration: the deletion passes once its only call is gone", async () => {
  const text = (await Deno.readTextFile(FIXTURE)).replace(
    /old_num_chunks = add_one_chunk\(new_list, old_num_chunks,\n\s*chunk_list\+5\*i, keep\);/,
    "old_num_chunks = old_num_chunks;",
  );
  const result = await verifyDeletion(text);
  assert.deepEqual(result.errors.filter((issue) => issue.code === "dangling-reference"), []);
});
