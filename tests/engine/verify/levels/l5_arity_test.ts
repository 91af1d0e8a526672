/**
 * L5 beyond Python (issue 27): a free function's fixed arity against its
 * calls in the same file. On the corpus, every call of every fixed-arity
 * function in real TypeScript, Go, Rust and C files passes the count the
 * definition takes (the code compiled, so this checks the counting); a
 * parameter added to a function still called with the old count is an
 * `interface-mismatch` per call, and gcc agrees for C.
 */

import assert from "node:assert/strict";
import { breaks, callsOf, fixedArities } from "../../../../engine/analysis/names/arity.ts";
import { headerLanguage } from "../../../../engine/base/header_language.ts";
import { detectLanguage, parse } from "../../../../engine/parse/mod.ts";
import { nativeCheck } from "../../../../engine/verify/compile/native.ts";
import { loadMultilang, MULTILANG_SKIP, writeTree } from "../../../_support/multilang.ts";
import { editAndCheck, ofLevel } from "./_support.ts";

const ignore = MULTILANG_SKIP !== undefined;

Deno.test({
  name: "L5 arity: every call in the corpus's real files passes the count its function takes",
  ignore,
  async fn() {
    const counted: Record<string, number> = {};
    const wrong: string[] = [];
    for (const commit of await loadMultilang()) {
      for (const file of commit.files) {
        const language = file.path.endsWith(".h") ? headerLanguage(file.after) : detectLanguage(file.path)!;
        const tree = await parse(language, file.after);
        for (const [name, arity] of fixedArities(language, tree)) {
          for (const call of callsOf(language, tree, name)) {
            counted[language] = (counted[language] ?? 0) + 1;
            if (breaks(language, call.count, arity)) {
              wrong.push(`${file.path}:${call.node.startPosition.row + 1} ${name}`);
            }
          }
        }
      }
    }
    assert.deepEqual(wrong, []);
    for (const language of ["typescript", "go", "rust", "c"]) {
      assert.ok((counted[language] ?? 0) >= 10, `${language}: ${counted[language]} calls`);
    }
  },
});

/** Per language: a file (its last `before` in the corpus, whose includes the corpus has), a function it calls, a parameter to add. */
const WIDENED: ReadonlyArray<readonly [string, string, string, string]> = [
  ["go", "path.go", "bufApp", "n int"],
  ["c", "cJSON.c", "cJSON_strdup", "int extra"],
];

for (const [language, path, name, parameter] of WIDENED) {
  Deno.test({
    name:
      `L5 arity ${language}: a parameter added to ${name}, still called in ${path}, is a mismatch at each call`,
    ignore,
    async fn() {
      const all: Record<string, string> = {};
      for (const c of (await loadMultilang()).filter((c) => c.lang === language)) {
        for (const f of c.files) all[f.path] = f.before;
      }
      const text = all[path];
      const tree = await parse(detectLanguage(path)!, text);
      const definition = tree.rootNode.descendantsOfType(["function_definition", "function_declaration"])
        .find((node) => node && new RegExp(`\\b${name}\\(`).test(node.text.split("\n")[0]));
      const list = definition?.descendantsOfType(["parameter_list"])[0];
      assert.ok(list, `${path}: no definition of "${name}"`);
      const at = list.endIndex - 1;
      const step = await editAndCheck(
        { [path]: text },
        path,
        () => [{ start: at, end: at, replacement: `, ${parameter}` }],
      );
      try {
        const mismatches = ofLevel(step.warnings, "L5").filter((issue) =>
          issue.code === "interface-mismatch"
        );
        const calls = callsOf(step.change.after.file.language, tree, name).length;
        assert.ok(calls > 0);
        assert.equal(mismatches.length, calls, JSON.stringify(mismatches));
        assert.match(
          mismatches[0].message,
          new RegExp(`"${name}" now takes \\d+ arguments, the call passes \\d+$`),
        );
        if (language === "c") {
          const root = await writeTree(all);
          try {
            const target = { root, path, language: "c" as const };
            const before = await nativeCheck(target, text);
            const after = await nativeCheck(target, step.change.after.file.text);
            if (before !== null) {
              assert.equal(before.ok, true);
              assert.equal(after?.ok, false, "gcc accepts the widened function");
            }
          } finally {
            await Deno.remove(root, { recursive: true });
          }
        }
      } finally {
        await Deno.remove(step.dir, { recursive: true });
      }
    },
  });
}
