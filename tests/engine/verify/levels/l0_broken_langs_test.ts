/**
 * L0 in already-broken files of every language (issue 27): a corpus file of
 * each of the nine languages, broken first by a stray token in its last
 * function body (the pre-existing error), then edited again: an inserted
 * garbage token in its first function body and an inserted function without
 * its closing delimiter are refused, each where the file already had an
 * error elsewhere. The C/C++ files tree-sitter fails on as they are have
 * their own test (`l0_broken_test.ts`).
 */

import assert from "node:assert/strict";
import { headerLanguage } from "../../../../engine/base/header_language.ts";
import { detectLanguage, type LanguageId, type Node, parse } from "../../../../engine/parse/mod.ts";
import { loadMultilang, MULTILANG_SKIP } from "../../../_support/multilang.ts";
import { editAndCheck, ofLevel } from "./_support.ts";

const BODIES = ["block", "compound_statement", "statement_block", "body_statement", "declaration_list"];

/** A function without its end, per language (inserted where a function or method may stand). */
const UNCLOSED: Record<string, string> = {
  c: "int broken(void) {\n  return 1;\n",
  cpp: "int broken() {\n  return 1;\n",
  go: "func broken() int {\n\treturn 1\n",
  java: "    int broken() {\n        return 1;\n",
  javascript: "function broken() {\n  return 1;\n",
  typescript: "function broken(): number {\n  return 1;\n",
  php: "    function broken() {\n        return 1;\n",
  ruby: "  def broken\n    1\n",
  rust: "fn broken() -> u8 {\n    1\n",
};

function languageOf(path: string, text: string): LanguageId {
  return path.endsWith(".h") ? headerLanguage(text) : detectLanguage(path)!;
}

/** The function and method bodies of a tree, in order. */
function bodies(root: Node): Node[] {
  return root.descendantsOfType(BODIES).filter((node): node is Node =>
    node !== null && /function|method/.test(node.parent?.type ?? "")
  );
}

/** Where a body's statements start: after its `{`, or after a Ruby `def` line. */
function inside(body: Node): number {
  return body.startIndex + (body.text.startsWith("{") ? 1 : 0);
}

/** The start of the line of the first function or method, where another may be inserted. */
function beforeFirstFunction(text: string, body: Node): number {
  const fn = body.parent!;
  return text.lastIndexOf("\n", fn.startIndex - 1) + 1;
}

/** A file of the language with at least two function bodies, broken in its last one. */
async function brokenFile(lang: string) {
  for (const commit of (await loadMultilang()).filter((c) => c.lang === lang)) {
    for (const file of commit.files) {
      const language = languageOf(file.path, file.before);
      const tree = await parse(language, file.before);
      const found = bodies(tree.rootNode);
      if (found.length < 2 || tree.rootNode.hasError) continue;
      const last = inside(found[found.length - 1]);
      const text = file.before.slice(0, last) + " ) @@ " + file.before.slice(last);
      const broken = await parse(language, text);
      assert.ok(broken.rootNode.hasError, `${file.path}: the stray token broke nothing`);
      return { path: file.path, text, first: found[0] };
    }
  }
  throw new Error(`no ${lang} file with two function bodies`);
}

for (const lang of Object.keys(UNCLOSED)) {
  Deno.test({
    name: `L0 broken ${lang}: in a file already broken, a garbage token and an unclosed function are refused`,
    ignore: MULTILANG_SKIP !== undefined,
    async fn() {
      const file = await brokenFile(lang);
      const cases = [
        { what: "garbage token", at: inside(file.first), insertion: " @@ ) " },
        {
          what: "unclosed function",
          at: beforeFirstFunction(file.text, file.first),
          insertion: UNCLOSED[lang],
        },
      ];
      for (const { what, at, insertion } of cases) {
        const step = await editAndCheck(
          { [file.path]: file.text },
          file.path,
          () => [{ start: at, end: at, replacement: insertion }],
        );
        try {
          assert.ok(
            ofLevel(step.errors, "L0").some((issue) => issue.code === "syntax-error"),
            `${lang} ${file.path}: ${what} not refused: ${JSON.stringify(step.errors)}`,
          );
        } finally {
          await Deno.remove(step.dir, { recursive: true });
        }
      }
      // the same file with a harmless edit (a blank line in the first body) is not refused by L0
      const calm = await editAndCheck(
        { [file.path]: file.text },
        file.path,
        () => [{ start: inside(file.first), end: inside(file.first), replacement: "\n" }],
      );
      try {
        assert.deepEqual(ofLevel(calm.errors, "L0"), [], `${lang}: a blank line refused`);
      } finally {
        await Deno.remove(calm.dir, { recursive: true });
      }
    },
  });
}
