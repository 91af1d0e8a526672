/**
 * L0 and annotation macros in C and C++ (`engine/verify/levels/l0_macros.ts`,
 * issue 27): writing a visibility macro in front of a declaration, as a
 * Debian patch of yaml-cpp does (`YAML_CPP_API std::atomic<size_t> ...`), is
 * not a syntax error, in a clean file and in the corpus's C++ files
 * tree-sitter already fails on (the tinyxml2 shape: a macro written inside
 * a class the grammar misreads); a garbage token at the same place still is.
 */

import assert from "node:assert/strict";
import { parse, syntaxProblems } from "../../../../engine/parse/mod.ts";
import { headerLanguage } from "../../../../engine/parse/header_language.ts";
import { detectLanguage } from "../../../../engine/parse/mod.ts";
import { loadMultilang, MULTILANG_SKIP } from "../../../_support/multilang.ts";
import { editAndCheck, ofLevel, replace } from "./_support.ts";

const FIXTURES = new URL("../../../fixtures/names/", import.meta.url);

async function syntaxErrors(
  files: Record<string, string>,
  path: string,
  edit: Parameters<typeof editAndCheck>[2],
) {
  const step = await editAndCheck(files, path, edit);
  try {
    return ofLevel(step.errors, "L0").filter((issue) => issue.code === "syntax-error");
  } finally {
    await Deno.remove(step.dir, { recursive: true });
  }
}

Deno.test("macros cpp: yaml-cpp's YAML_CPP_API written before a declaration is no syntax error", async () => {
  const text = await Deno.readTextFile(new URL("yaml_cpp_node_data.cpp", FIXTURES));
  const files = { "src/node_data.cpp": text };
  const line = "std::atomic<size_t> node::m_amount{0};";
  assert.deepEqual(await syntaxErrors(files, "src/node_data.cpp", replace(line, `YAML_CPP_API ${line}`)), []);
  // the same place, garbage instead of a macro; a lowercase word is no annotation macro either
  for (const junk of ["@@ ) ", "yaml_cpp_api "]) {
    const errors = await syntaxErrors(files, "src/node_data.cpp", replace(line, `${junk}${line}`));
    assert.ok(errors.length > 0, junk);
  }
});

/** The corpus's C and C++ files tree-sitter fails on as they are, with their function declarations (`Type name(...);`). */
async function brokenWithDeclarations(): Promise<{ path: string; text: string; lines: string[] }[]> {
  const out = [];
  const seen = new Set<string>();
  for (const commit of await loadMultilang()) {
    if (commit.lang !== "cpp" && commit.lang !== "c") continue;
    for (const file of commit.files) {
      const language = file.path.endsWith(".h") ? headerLanguage(file.before) : detectLanguage(file.path)!;
      if (seen.has(file.before)) continue;
      seen.add(file.before);
      if (syntaxProblems(await parse(language, file.before)).length === 0) continue;
      const lines = [
        ...file.before.matchAll(
          /^ *(?:(?:static|inline|virtual|const) )*(?!(?:return|else|case|goto|delete|throw)\b)[A-Za-z_][\w:<>]*[ &*]+\w+\([^()\n]*\)(?: const)?;$/gm,
        ),
      ]
        .map((m) => m[0]).filter((line) => file.before.indexOf(line) === file.before.lastIndexOf(line));
      if (lines.length > 0) out.push({ path: file.path, text: file.before, lines: lines.slice(0, 2) });
    }
  }
  return out;
}

Deno.test({
  name: "macros cpp: an annotation macro before a declaration in an already broken corpus file passes L0",
  ignore: MULTILANG_SKIP !== undefined,
  async fn() {
    const files = await brokenWithDeclarations();
    assert.ok(files.length >= 3, `only ${files.length} broken C/C++ files with member declarations`);
    let checked = 0;
    for (const file of files.slice(0, 6)) {
      for (const line of file.lines) {
        const indent = line.match(/^ */)![0];
        const written = `${indent}GRAPHPLAN_PRIVATE ${line.trimStart()}`;
        const errors = await syntaxErrors({ [file.path]: file.text }, file.path, replace(line, written));
        assert.deepEqual(errors.map((e) => e.message), [], `${file.path}: ${line}`);
        const garbage = `${indent}@@ ) ${line.trimStart()}`;
        const refused = await syntaxErrors({ [file.path]: file.text }, file.path, replace(line, garbage));
        assert.ok(refused.length > 0, `garbage passed in ${file.path}: ${line}`);
        checked++;
      }
    }
    assert.ok(checked >= 4, `only ${checked} declarations checked`);
  },
});
