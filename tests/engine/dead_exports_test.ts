/**
 * No dead exports: every name exported by the source (engine/, agent/, cli/,
 * tools/, main.ts) is used somewhere, in its own file or another one
 * (tests count). An export nobody uses is code a newcomer reads, keeps
 * working and documents for nothing; delete it, or use it.
 *
 * "Used" is textual: the name appears as a word anywhere besides its own
 * declaration. That is loose (a same-named local elsewhere counts), so the
 * test misses some dead exports but never blames a live one.
 */

import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;
const SOURCE_ROOTS = ["engine", "agent", "cli", "tools", "main.ts", "version.ts"];
const ALL_ROOTS = [...SOURCE_ROOTS, "tests"];
const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|const|let|class|interface|type|enum)\s+(\w+)/gm;

function tsFiles(rel: string, out: string[] = []): string[] {
  const info = Deno.statSync(`${ROOT}${rel}`);
  if (info.isFile) {
    if (rel.endsWith(".ts")) out.push(rel);
  } else if (!rel.includes("fixtures")) {
    for (const entry of Deno.readDirSync(`${ROOT}${rel}`)) tsFiles(`${rel}/${entry.name}`, out);
  }
  return out;
}

/** `file: name` for each export of a source file whose name appears nowhere but in its declaration. */
export function deadExports(texts: ReadonlyMap<string, string>, sources: readonly string[]): string[] {
  const words = new Map<string, number>();
  for (const text of texts.values()) {
    for (const word of text.match(/[\w$]+/g) ?? []) words.set(word, (words.get(word) ?? 0) + 1);
  }
  const out: string[] = [];
  for (const file of sources) {
    for (const m of texts.get(file)!.matchAll(DECLARATION)) {
      if ((words.get(m[1]) ?? 0) <= 1) out.push(`${file}: ${m[1]}`);
    }
  }
  return out;
}

Deno.test("deadExports: an export named only in its declaration is dead; a use anywhere keeps it", () => {
  const texts = new Map([
    ["a.ts", "export function used(): void {}\nexport const unusedThing = 1;\nexport type Local = number;\n"],
    ["b.ts", 'import { used } from "./a.ts";\nused();\nconst x: Local = 2;\n'],
  ]);
  assert.deepEqual(deadExports(texts, ["a.ts"]), ["a.ts: unusedThing"]);
});

Deno.test("every export of the source is used somewhere", () => {
  const files = ALL_ROOTS.flatMap((root) => tsFiles(root));
  const texts = new Map(files.map((file) => [file, Deno.readTextFileSync(`${ROOT}${file}`)]));
  const sources = files.filter((file) => !file.startsWith("tests/"));
  assert.ok(sources.length > 300, `only ${sources.length} source files found`);
  assert.deepEqual(
    deadExports(texts, sources),
    [],
    "these exports are used nowhere: delete them (or use them)",
  );
});
