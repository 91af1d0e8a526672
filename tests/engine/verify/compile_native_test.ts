/**
 * The other languages' tools as oracles (issue 27): on real corpus commits,
 * the commit itself is no new failure for gcc/g++, javac, rustfmt, gofmt,
 * ruby or php (whichever is installed), while the same file with a garbage
 * token inserted in a function body is a `compile-error` wherever the tool
 * accepted the file before; a tool that is absent gives no verdict, and the
 * C deletion L3 refuses is refused by gcc too.
 */

import assert from "node:assert/strict";
import { Compilers } from "../../../engine/verify/compile/mod.ts";
import { nativeCheck } from "../../../engine/verify/compile/native.ts";
import { headerLanguage } from "../../../engine/base/header_language.ts";
import { detectLanguage, type LanguageId, parse } from "../../../engine/parse/mod.ts";
import { loadMultilang, MULTILANG_SKIP, writeTree } from "../../_support/multilang.ts";
import { skipReason } from "../../_support/skips.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that run compilers (gcc, g++, javac, rustc, go, tsc)");

const TOOLS: Record<string, string> = {
  c: "gcc",
  cpp: "g++",
  java: "javac",
  rust: "rustfmt",
  go: "gofmt",
  ruby: "ruby",
  php: "php",
};

function installed(program: string): boolean {
  try {
    const args = program === "gofmt"
      ? ["-h"]
      : program === "javac" || program === "ruby"
      ? ["-version"]
      : ["--version"];
    new Deno.Command(program, { args, stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

const present = Object.entries(TOOLS).filter(([, tool]) => installed(tool)).map(([lang]) => lang);
const absent = Object.entries(TOOLS).filter(([lang]) => !present.includes(lang)).map(([, tool]) => tool);
if (absent.length > 0) skipReason(`not installed, their languages untested: ${absent.join(", ")}`);

function languageOf(path: string, text: string): LanguageId {
  return path.endsWith(".h") ? headerLanguage(text) : detectLanguage(path)!;
}

/** Just inside the first function body (after its `{`, or after a Ruby `def` line). */
async function insideBody(language: LanguageId, text: string): Promise<number | undefined> {
  const tree = await parse(language, text);
  const bodies = tree.rootNode.descendantsOfType(["block", "compound_statement", "body_statement"]);
  const body = bodies.find((node) => node && /function|method/.test(node.parent?.type ?? ""));
  if (!body) return undefined;
  return body.startIndex + (body.text.startsWith("{") ? 1 : 0);
}

/** Files the corpus cannot compile alone: spdlog's headers and sources need headers the corpus lacks. */
const NO_VERDICT = new Set(["cpp"]);

for (const lang of present) {
  Deno.test({
    name: `native ${lang}: real commits pass ${
      TOOLS[lang]
    }, a garbage token in a body is a new compile-error`,
    ignore: MULTILANG_SKIP !== undefined,
    async fn() {
      const commits = (await loadMultilang()).filter((c) => c.lang === lang);
      // every file of the language's commits, so includes and packages resolve where the corpus has them
      const tree: Record<string, string> = {};
      for (const commit of commits) for (const file of commit.files) tree[file.path] = file.before;
      const root = await writeTree(tree);
      const compilers = new Compilers();
      let judged = 0;
      let tried = 0;
      // the smallest files first (fewest dependencies the corpus may lack); javac takes seconds a file
      const files = commits.flatMap((commit) => commit.files.map((file) => ({ commit, file })))
        .sort((a, b) => a.file.before.length - b.file.before.length);
      const budget = lang === "java" ? 2 : Infinity;
      try {
        for (const { commit, file } of files) {
          {
            if (judged >= 2 || tried >= budget) break;
            tried++;
            const language = languageOf(file.path, file.before);
            const accepted = (await nativeCheck({ root, path: file.path, language }, file.before))?.ok;
            const input = { path: file.path, language, before: file.before, after: file.after, step: 0 };
            const real = await compilers.check([input], { root });
            assert.deepEqual(real.errors, [], `${commit.sha.slice(0, 8)} ${file.path}`);
            const at = await insideBody(language, file.before);
            if (at === undefined) continue;
            const garbage = file.before.slice(0, at) + " @@ ) " + file.before.slice(at);
            const verdict = await compilers.check([{ ...input, after: garbage }], { root });
            if (!accepted) {
              assert.deepEqual(verdict.errors, [], `${file.path} failed before: no verdict`);
              continue;
            }
            judged++;
            assert.equal(verdict.errors.length, 1, `${commit.sha.slice(0, 8)} ${file.path}`);
            assert.equal(verdict.errors[0].code, "compile-error");
            assert.equal(verdict.errors[0].step, 0);
            assert.equal(verdict.compiled, TOOLS[lang]);
          }
        }
        if (NO_VERDICT.has(lang)) {
          assert.equal(judged, 0, `${TOOLS[lang]} now judges ${lang}: update NO_VERDICT`);
        } else assert.ok(judged > 0, `${TOOLS[lang]} judged no file of ${lang}`);
      } finally {
        await compilers.close();
        await Deno.remove(root, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "native cpp: g++ refuses an unclosed function in a header of a C++ project, new failures only",
  ignore: !present.includes("cpp") || SLOW.ignore,
  async fn() {
    const header =
      "#pragma once\n#include <string>\nnamespace demo {\ninline std::string greet(const std::string& who) {\n" +
      '  return "hello " + who;\n}\n}  // namespace demo\n';
    const root = await writeTree({ "include/demo/greet.h": header });
    const compilers = new Compilers();
    try {
      const input = { path: "include/demo/greet.h", language: "cpp" as const, before: header, step: 1 };
      const broken = header.replace("}\n}  //", "\n}  //");
      const report = await compilers.check([{ ...input, after: broken }], { root });
      assert.equal(report.errors.length, 1, JSON.stringify(report));
      assert.match(report.errors[0].message, /^g\+\+ refuses "include\/demo\/greet.h" after the plan/);
      // a header that already failed gives no verdict
      const failing = header.replace("<string>", "<not_a_header>");
      const none = await compilers.check([{ ...input, before: failing, after: failing + "@@" }], { root });
      assert.deepEqual(none.errors, []);
    } finally {
      await compilers.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "native c: deleting a static function cJSON.c still calls is refused by gcc",
  ignore: MULTILANG_SKIP !== undefined || !present.includes("c"),
  async fn() {
    const commits = (await loadMultilang()).filter((c) => c.lang === "c");
    const tree: Record<string, string> = {};
    for (const commit of commits) for (const file of commit.files) tree[file.path] = file.before;
    const root = await writeTree(tree);
    try {
      const text = tree["cJSON.c"];
      const start = text.indexOf("static unsigned char* cJSON_strdup(");
      assert.ok(start > 0);
      const end = text.indexOf("\n}\n", start) + 3;
      const input = {
        path: "cJSON.c",
        language: "c" as const,
        before: text,
        after: text.slice(0, start) + text.slice(end),
      };
      const compilers = new Compilers();
      const report = await compilers.check([input], { root });
      await compilers.close();
      assert.equal(report.errors.length, 1, JSON.stringify(report));
      assert.match(
        report.errors[0].message,
        /^gcc refuses "cJSON.c" after the plan at line \d+: .*cJSON_strdup/,
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("native: a tool that is not installed gives no verdict", async () => {
  const compilers = new Compilers({ env: { PATH: "/nonexistent" } });
  const report = await compilers.check([{
    path: "a.go",
    language: "go",
    before: "package a\n",
    after: "package a\n@@\n",
  }], {
    root: "/nonexistent",
  });
  assert.deepEqual(report, { errors: [], compiled: null });
});
