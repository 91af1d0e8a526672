/**
 * The README's kind table is generated from `NORMALIZED_KINDS`: this test
 * fails when they drift apart (`UPDATE_README=1` rewrites it).
 */

import assert from "node:assert/strict";
import { KIND_NAMES, NORMALIZED_KINDS } from "../../../engine/locate/mod.ts";
import { LANGUAGES } from "../../../engine/parse/mod.ts";

const README = new URL("../../../engine/locate/README.md", import.meta.url);
const START = "<!-- kinds-table:start -->";
const END = "<!-- kinds-table:end -->";

function kindTable(): string {
  const out: string[] = [];
  for (const language of LANGUAGES) {
    out.push(`### ${language}`, "");
    for (const kind of KIND_NAMES) {
      const mapping = NORMALIZED_KINDS[kind][language];
      if (!mapping || mapping.types.length === 0) continue;
      const types = mapping.childOf
        ? `child of ${mapping.childOf.map((t) => `\`${t}\``).join(", ")}`
        : mapping.types.map((t) => `\`${t}\``).join(", ");
      out.push(`- \`${kind}\`: ${types}${mapping.where ? " *" : ""}`);
    }
    out.push("");
  }
  return out.join("\n").trim();
}

/** Markdown compared modulo the blank lines and wrapping `deno fmt` may change. */
function normalize(markdown: string): string {
  return markdown.replace(/\s+/g, " ").trim();
}

Deno.test("README kind table matches NORMALIZED_KINDS", async () => {
  const text = await Deno.readTextFile(README);
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  assert.ok(start !== -1 && end > start, "README lacks the kinds-table markers");
  const current = normalize(text.slice(start + START.length, end));
  const table = kindTable();
  const expected = normalize(table);
  if (Deno.env.get("UPDATE_README") === "1" && current !== expected) {
    await Deno.writeTextFile(
      README,
      `${text.slice(0, start + START.length)}\n\n${table}\n\n${text.slice(end)}`,
    );
    return;
  }
  assert.equal(current, expected, "run UPDATE_README=1 deno test -A tests/engine/locate/readme_test.ts");
});

Deno.test("every normalized kind is documented and has at least one language", () => {
  for (const kind of KIND_NAMES) {
    const languages = LANGUAGES.filter((l) => (NORMALIZED_KINDS[kind][l]?.types.length ?? 0) > 0);
    assert.ok(languages.length > 0, `kind "${kind}" maps nowhere`);
  }
  for (const kind of ["function", "class", "method", "import", "statement"]) {
    for (const language of LANGUAGES) {
      if (kind === "method" && language === "c") continue; // C has no methods
      assert.ok(NORMALIZED_KINDS[kind][language], `"${kind}" is missing for ${language}`);
    }
  }
});
