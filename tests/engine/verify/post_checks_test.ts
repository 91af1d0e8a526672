import assert from "node:assert/strict";
import { parse } from "../../../engine/parse/mod.ts";
import type { Document } from "../../../engine/parse/documents.ts";
import type { LanguageId } from "../../../engine/parse/mod.ts";
import { newSyntaxProblems } from "../../../engine/verify/post_checks.ts";

async function doc(text: string, language: LanguageId = "python"): Promise<Document> {
  const file = { path: "x", absPath: "/x", language, text, bom: false, eol: "\n" as const, mode: null };
  return { file, tree: await parse(language, text) };
}

async function fresh(before: string, after: string, language: LanguageId = "python"): Promise<number[]> {
  return newSyntaxProblems(await doc(before, language), await doc(after, language)).map((p) => p.line);
}

const BROKEN = "import os\n\ndef bad(:\n    pass\n\n\ndef good():\n    return 1\n";

Deno.test("a clean file that stops parsing has a new problem", async () => {
  assert.deepEqual(await fresh("def f():\n    return 1\n", "def f(:\n    return 1\n"), [1]);
  assert.deepEqual(await fresh("def f():\n    return 1\n", "def f():\n    return 2\n"), []);
});

Deno.test("an existing problem is not new, even when lines above it move", async () => {
  assert.deepEqual(await fresh(BROKEN, BROKEN.replace("return 1", "return 2")), []);
  assert.deepEqual(await fresh(BROKEN, "import sys\nimport re\n\n" + BROKEN.slice("import os\n".length)), []);
  assert.deepEqual(await fresh(BROKEN, BROKEN.replace("import os\n", "")), []);
});

Deno.test("a second problem elsewhere in a broken file is new", async () => {
  const lines = await fresh(BROKEN, BROKEN.replace("return 1", "return (1"));
  assert.equal(lines.length, 1);
  assert.ok(lines[0] >= 7, `new problem near the edit, got line ${lines[0]}`);
});

Deno.test("fixing the existing problem while adding none is fine; in JavaScript too", async () => {
  assert.deepEqual(await fresh(BROKEN, BROKEN.replace("bad(:", "bad():")), []);
  const js = "function a() {\n  return 1;\n}\nconst x = ;\nfunction b() { return 2; }\n";
  assert.deepEqual(await fresh(js, js.replace("return 2", "return 3"), "javascript"), []);
  assert.equal((await fresh(js, js.replace("return 2;", "return 2;;)"), "javascript")).length, 1);
});
