import assert from "node:assert/strict";
import { PRIMITIVES } from "../../../engine/edit/primitives.ts";
import { parse, syntaxProblems } from "../../../engine/parse/mod.ts";
import { assertNodeParses, contextWith, textOf } from "./_edit_support.ts";

const SOURCE = [
  'import { readFile, writeFile } from "node:fs/promises";',
  'import path from "node:path";',
  "",
  "const DEFAULTS = {",
  '  encoding: "utf8",',
  "  flag: 'r',",
  "};",
  "",
  'const EXTS = [".js", ".mjs", ".cjs"];',
  "",
  "export class Loader {",
  "  cache = new Map();",
  "",
  "  async load(file, options) {",
  "    const full = path.resolve(file);",
  "    return await readFile(full, { ...DEFAULTS, ...options });",
  "  }",
  "",
  "  clear() {",
  "    this.cache.clear();",
  "  }",
  "}",
  "",
  "export function isScript(file) {",
  "  return EXTS.includes(path.extname(file));",
  "}",
  "",
].join("\n");

const id = (name: string, index?: number) => ({
  type: "sexp",
  file: "l.mjs",
  query: `((identifier) @id (#eq? @id "${name}"))`,
  ...(index === undefined ? {} : { index }),
});

Deno.test("JS insert: import specifier, object property (one per line), array element (inline)", async () => {
  const { ctx } = await contextWith({ "l.mjs": SOURCE });
  await PRIMITIVES.insert_after_node({
    locator: { kind: "import_specifier", file: "l.mjs", index: -1 },
    code: "stat",
  }, ctx);
  await PRIMITIVES.insert_after_node({
    locator: { kind: "pair", file: "l.mjs", index: -1 },
    code: "mode: 0o644",
  }, ctx);
  await PRIMITIVES.insert_before_node({
    locator: { kind: "string", file: "l.mjs", parent: { kind: "array" }, index: 0 },
    code: '".ts"',
  }, ctx);
  const after = await textOf(ctx, "l.mjs");
  assert.ok(after.startsWith('import { readFile, writeFile, stat } from "node:fs/promises";\n'));
  assert.ok(after.includes("const DEFAULTS = {\n  encoding: \"utf8\",\n  flag: 'r',\n  mode: 0o644,\n};\n"));
  assert.ok(after.includes('const EXTS = [".ts", ".js", ".mjs", ".cjs"];\n'));
  await assertNodeParses(after);
});

Deno.test("JS delete: property line, array element, import specifier, the only specifier, a class method", async () => {
  const { ctx } = await contextWith({ "l.mjs": SOURCE });
  await PRIMITIVES.delete_node({ locator: { kind: "pair", file: "l.mjs", index: 0 } }, ctx);
  await PRIMITIVES.delete_node({
    locator: { kind: "string", file: "l.mjs", parent: { kind: "array" }, index: -1 },
  }, ctx);
  await PRIMITIVES.delete_node({ locator: { kind: "import_specifier", file: "l.mjs", index: 0 } }, ctx);
  await PRIMITIVES.delete_node({ locator: { kind: "method", name: "clear", file: "l.mjs" } }, ctx);
  let after = await textOf(ctx, "l.mjs");
  assert.ok(after.startsWith('import { writeFile } from "node:fs/promises";\nimport path'));
  assert.ok(after.includes("const DEFAULTS = {\n  flag: 'r',\n};\n"));
  assert.ok(after.includes('const EXTS = [".js", ".mjs"];\n'));
  assert.ok(after.includes("    return await readFile(full, { ...DEFAULTS, ...options });\n  }\n}\n"));
  await assertNodeParses(after);
  await PRIMITIVES.delete_node({ locator: { kind: "import_specifier", file: "l.mjs" } }, ctx);
  after = await textOf(ctx, "l.mjs");
  assert.ok(after.startsWith('import path from "node:path";\n\nconst DEFAULTS'));
  await assertNodeParses(after);
});

Deno.test("JS replace/insert around an exported function keep `export` in its place", async () => {
  const { ctx } = await contextWith({ "l.mjs": SOURCE });
  await PRIMITIVES.replace_node({
    locator: { kind: "function", name: "isScript", file: "l.mjs" },
    replacement:
      "function isScript(file) {\n  const ext = path.extname(file);\n  return EXTS.includes(ext);\n}",
  }, ctx);
  await PRIMITIVES.insert_before_node({
    locator: { kind: "function", name: "isScript", file: "l.mjs" },
    code: "/** Whether `file` is a script. */",
    separator: "\n",
  }, ctx);
  const after = await textOf(ctx, "l.mjs");
  assert.ok(after.endsWith(
    "}\n\n/** Whether `file` is a script. */\nexport function isScript(file) {\n  const ext = path.extname(file);\n  return EXTS.includes(ext);\n}\n",
  ));
  await assertNodeParses(after);
});

Deno.test("JS wrap_node: try/catch block around a statement; method added at two-space indentation", async () => {
  const { ctx } = await contextWith({ "l.mjs": SOURCE });
  await PRIMITIVES.wrap_node({
    locator: { kind: "statement", file: "l.mjs", parent: { kind: "method", name: "load" }, index: -1 },
    before: "try {",
    after: "} catch (err) {\n    throw new Error(`cannot load ${file}`, { cause: err });\n}",
  }, ctx);
  await PRIMITIVES.insert_after_node({
    locator: { kind: "method", name: "clear", file: "l.mjs" },
    code: "get size() {\n    return this.cache.size;\n}",
  }, ctx);
  const after = await textOf(ctx, "l.mjs");
  assert.ok(after.includes([
    "    const full = path.resolve(file);",
    "    try {",
    "      return await readFile(full, { ...DEFAULTS, ...options });",
    "    } catch (err) {",
    "      throw new Error(`cannot load ${file}`, { cause: err });",
    "    }",
    "  }",
  ].join("\n")));
  assert.ok(
    after.includes("    this.cache.clear();\n  }\n\n  get size() {\n    return this.cache.size;\n  }\n}\n"),
  );
  await assertNodeParses(after);
});

Deno.test("TS: parameters and arguments lose their commas, type-checked by the grammar", async () => {
  const source = "export function f(a: number, b: string, c?: boolean): void {\n  g(a, b, c);\n}\n";
  const { ctx } = await contextWith({ "f.ts": source });
  await PRIMITIVES.delete_node({ locator: { kind: "parameter", file: "f.ts", index: 1 } }, ctx);
  await PRIMITIVES.delete_node({ locator: { ...id("b"), file: "f.ts" } }, ctx);
  const after = await textOf(ctx, "f.ts");
  assert.equal(after, "export function f(a: number, c?: boolean): void {\n  g(a, c);\n}\n");
  const tree = await parse("typescript", after);
  assert.deepEqual(syntaxProblems(tree), []);
});

Deno.test("JS insert next to the only element of a list: call argument, parameter, object property", async () => {
  const source = "function f(a) {\n  return g(a, { x });\n}\nh(f);\n";
  const { ctx } = await contextWith({ "s.mjs": source });
  await PRIMITIVES.insert_after_node({
    locator: { kind: "parameter", file: "s.mjs", index: 0 },
    code: "b = 1",
  }, ctx);
  await PRIMITIVES.insert_before_node({
    locator: { type: "sexp", file: "s.mjs", query: '(arguments (identifier) @a (#eq? @a "f"))' },
    code: "0",
  }, ctx);
  await PRIMITIVES.insert_after_node({
    locator: { type: "sexp", file: "s.mjs", query: "(object (shorthand_property_identifier) @p)" },
    code: "y: 2",
  }, ctx);
  const after = await textOf(ctx, "s.mjs");
  assert.equal(after, "function f(a, b = 1) {\n  return g(a, { x, y: 2 });\n}\nh(0, f);\n");
  await assertNodeParses(after);
});
