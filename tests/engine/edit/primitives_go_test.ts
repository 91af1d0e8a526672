/**
 * Primitives on Go type declarations. A struct's locator resolves to its
 * `type_spec` (`Point struct {...}`); the `type` keyword belongs to the
 * enclosing `type_declaration`, which goes with the struct when the
 * replacement brings its own `type` and when the struct is deleted, unless
 * the declaration is a `type ( ... )` group of several types. No Go
 * toolchain is installed here, so tree-sitter's parse (no errors) is the check.
 */

import assert from "node:assert/strict";
import { PRIMITIVES } from "../../../engine/edit/primitives.ts";
import { parse, syntaxProblems } from "../../../engine/parse/mod.ts";
import { contextWith, textOf } from "./_edit_support.ts";

const SOURCE = [
  "package geo",
  "",
  "type Point struct {",
  "\tX int",
  "\tY int",
  "}",
  "",
  "type (",
  "\tMeters float64",
  "\tLine    struct{ A, B Point }",
  ")",
  "",
  "func (p Point) Sum() int {",
  "\treturn p.X + p.Y",
  "}",
  "",
].join("\n");

const struct = (name: string) => ({ kind: "struct", name, file: "geo.go" });

async function assertGoParses(text: string): Promise<void> {
  const tree = await parse("go", text);
  try {
    assert.deepEqual(syntaxProblems(tree), [], text);
  } finally {
    tree.delete();
  }
}

Deno.test("Go replace_node: a replacement that starts with `type` replaces the whole declaration", async () => {
  const { ctx } = await contextWith({ "geo.go": SOURCE });
  await PRIMITIVES.replace_node({
    locator: struct("Point"),
    replacement: "type Point struct {\n\tX int\n\tY int\n\tZ int\n}",
  }, ctx);
  const after = await textOf(ctx, "geo.go");
  assert.equal(after, SOURCE.replace("\tY int\n}", "\tY int\n\tZ int\n}"));
  await assertGoParses(after);
});

Deno.test("Go replace_node: without `type`, only the spec is replaced", async () => {
  const { ctx } = await contextWith({ "geo.go": SOURCE });
  await PRIMITIVES.replace_node(
    { locator: struct("Point"), replacement: "Point struct {\n\tX, Y, Z int\n}" },
    ctx,
  );
  const after = await textOf(ctx, "geo.go");
  assert.equal(
    after,
    SOURCE.replace("type Point struct {\n\tX int\n\tY int\n}", "type Point struct {\n\tX, Y, Z int\n}"),
  );
  await assertGoParses(after);
});

Deno.test("Go delete_node: a lone struct goes with its `type`; one of a group leaves the group", async () => {
  const { ctx } = await contextWith({ "geo.go": SOURCE });
  await PRIMITIVES.delete_node({ locator: struct("Point") }, ctx);
  const after = await textOf(ctx, "geo.go");
  assert.equal(after, SOURCE.replace("type Point struct {\n\tX int\n\tY int\n}\n\n", ""));
  await assertGoParses(after);
  await PRIMITIVES.delete_node({ locator: struct("Line") }, ctx);
  const grouped = await textOf(ctx, "geo.go");
  assert.ok(grouped.includes("type (\n\tMeters float64\n)"), grouped);
  assert.ok(!grouped.includes("Line"));
  await assertGoParses(grouped);
});
