/**
 * L0 and unknown macros before C/C++ declarations (`SPDLOG_INLINE
 * std::string f()`): tree-sitter reads the macro as a type and reports a
 * problem the compiler never sees, so a new declaration written exactly like
 * its neighbours was refused as a new syntax error, and lift could not
 * replay spdlog's `0b36d4e3`. On every C/C++ file of the multilang corpus
 * that has such declarations or definitions (at file level, in namespaces
 * and class bodies), a copy of some beside the original passes L0, and the
 * same copy with a garbage token or without its closing brace does not.
 */

import assert from "node:assert/strict";
import { blankMacroSpecifiers } from "../../../../engine/analysis/macro_specifiers.ts";
import { headerLanguage } from "../../../../engine/parse/header_language.ts";
import { detectLanguage, type LanguageId, type Node, withTree } from "../../../../engine/parse/mod.ts";
import { loadMultilang, MULTILANG_SKIP } from "../../../_support/multilang.ts";
import { liftIn, writeRepo } from "../../lift/_support.ts";
import { editAndCheck, ofLevel } from "./_support.ts";

interface Declared {
  path: string;
  text: string;
  /** Span of each top-level definition that opens with a macro specifier. */
  spans: { start: number; end: number }[];
}

const MACRO_FIRST = /^(template\s*<[^\n]*>\s*)?[A-Z][A-Z0-9_]*[A-Z0-9][ \t]+[A-Za-z_:~]/;

/** C/C++ corpus files with definitions behind a macro specifier (each file once). */
async function declaredFiles(): Promise<Declared[]> {
  const out: Declared[] = [];
  const seen = new Set<string>();
  for (const commit of await loadMultilang()) {
    if (commit.lang !== "c" && commit.lang !== "cpp") continue;
    for (const file of commit.files) {
      if (seen.has(file.before) || blankMacroSpecifiers(file.before) === file.before) continue;
      seen.add(file.before);
      const language: LanguageId = file.path.endsWith(".h")
        ? headerLanguage(file.before)
        : detectLanguage(file.path)!;
      // the definitions as the compiler sees them: found in the text with its macros blanked (same offsets)
      const spans = await withTree(language, blankMacroSpecifiers(file.before), (tree) => {
        const found: { start: number; end: number }[] = [];
        const original = (node: Node) => MACRO_FIRST.test(file.before.slice(node.startIndex, node.endIndex));
        const visit = (node: Node) => {
          for (const child of node.namedChildren) {
            if (!child) continue;
            const body = child.childForFieldName("body");
            if (
              body &&
              /^(namespace_definition|linkage_specification|class_specifier|struct_specifier)$/.test(
                child.type,
              )
            ) {
              visit(body);
            } else if (original(child) && /[};]$/.test(child.text) && !child.hasError) {
              found.push({ start: child.startIndex, end: child.endIndex });
            }
          }
        };
        visit(tree.rootNode);
        return found;
      });
      if (spans.length) out.push({ path: file.path, text: file.before, spans });
    }
  }
  return out;
}

async function syntaxErrors(file: Declared, at: number, insertion: string): Promise<number> {
  const step = await editAndCheck(
    { [file.path]: file.text },
    file.path,
    () => [{ start: at, end: at, replacement: insertion }],
  );
  try {
    return ofLevel(step.errors, "L0").filter((issue) => issue.code === "syntax-error").length;
  } finally {
    await Deno.remove(step.dir, { recursive: true });
  }
}

Deno.test({
  name: "L0 macros: a C/C++ definition behind a macro, copied beside itself, is no new syntax error",
  ignore: MULTILANG_SKIP !== undefined,
  async fn() {
    const files = await declaredFiles();
    assert.ok(files.length >= 1, `${files.length} files with macro-specified definitions`);
    let copies = 0;
    for (const file of files) {
      for (const { start, end } of file.spans) {
        const copy = file.text.slice(start, end);
        const where = `${file.path} at ${start}`;
        assert.equal(await syntaxErrors(file, end, "\n\n" + copy), 0, `copy refused: ${where}`);
        const garbage = copy.endsWith("}") ? copy.replace("{", "{ @@ ") : copy.slice(0, -1) + " @@;";
        assert.ok(await syntaxErrors(file, end, "\n\n" + garbage) > 0, `garbage accepted: ${where}`);
        if (copy.endsWith("}")) {
          const unclosed = copy.slice(0, copy.lastIndexOf("}"));
          assert.ok(await syntaxErrors(file, end, "\n\n" + unclosed) > 0, `unclosed accepted: ${where}`);
        }
        copies++;
      }
    }
    assert.ok(copies >= 5, `${copies} copies`);
  },
});

Deno.test({
  name: "L0 macros: spdlog 0b36d4e3 (a new SPDLOG_INLINE std::string member) lifts and replays byte-exact",
  ignore: MULTILANG_SKIP !== undefined,
  async fn() {
    const commit = (await loadMultilang()).find((c) => c.sha.startsWith("0b36d4e3"))!;
    const dir = writeRepo(Object.fromEntries(commit.files.map((f) => [f.path, f.before])));
    try {
      const result = await liftIn(dir, { diff: commit.diff });
      assert.deepEqual(result.errors, []);
      assert.equal(result.exact, true);
      const kinds = result.hunks.flatMap((hunk) => hunk.kinds);
      assert.ok(kinds.includes("insert_sibling"), kinds.join(", "));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
