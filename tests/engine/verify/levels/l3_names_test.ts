/**
 * Names beyond Python (issue 27), on the multilang corpus: deleting a
 * function its file still calls is refused with `dangling-reference` in
 * every language with name rules, an inserted garbage token is refused,
 * and no real commit of the corpus (its `before` and `after` files) leaves a
 * lost name; the held-out third (`tests/_support/multilang.ts`) is counted
 * on its own.
 */

import assert from "node:assert/strict";
import { lostDefinitions } from "../../../../engine/analysis/names/mod.ts";
import { foreignLosses } from "../../../../engine/analysis/names/importers.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { headerLanguage } from "../../../../engine/base/header_language.ts";
import { detectLanguage, parse } from "../../../../engine/parse/mod.ts";
import { heldOut, loadMultilang, MULTILANG_SKIP, writeTree } from "../../../_support/multilang.ts";
import { verifyIn } from "../plan/_support.ts";
import { editAndCheck, ofLevel } from "./_support.ts";
import "../../exec/_support.ts";

const ignore = MULTILANG_SKIP !== undefined;

/** Per language: a commit (sha prefix), a file of it and a function the file still calls after deleting it. */
const STILL_CALLED: ReadonlyArray<readonly [string, string, string, string]> = [
  ["javascript", "23a25af0", "lib/utils.js", "findKey"],
  ["typescript", "254eec76", "packages/pinia/__tests__/storeToRefs.spec.ts", "objectOfRefs"],
  ["go", "dcaa4296", "path.go", "bufApp"],
  ["rust", "7525479a", "tests/util.rs", "nice_err"],
  ["java", "1eb78024", "src/main/java/org/apache/commons/lang3/CharUtils.java", "isAsciiAlpha"],
  ["ruby", "96beb219", "test/spec_utils.rb", "assert_query"],
  ["c", "74e1ff49", "cJSON_Utils.c", "cJSONUtils_strdup"],
  ["cpp", "0b9ff521", "include/spdlog/sinks/win_eventlog_sink.h", "event_log_handle"],
];

async function fileOf(sha: string, path: string): Promise<string> {
  const commit = (await loadMultilang()).find((c) => c.sha.startsWith(sha));
  const file = commit?.files.find((f) => f.path === path);
  assert.ok(file, `${sha} ${path} not in the corpus`);
  return file.before;
}

/** The definition of `name` to delete: from its line's start to the end of its body (found by the grammar). */
async function definitionSpan(language: string, path: string, text: string, name: string) {
  const lang = path.endsWith(".h") ? headerLanguage(text) : detectLanguage(path)!;
  const tree = await parse(lang, text);
  const types = new Set([
    "function_declaration",
    "function_definition",
    "function_item",
    "method_declaration",
    "method",
  ]);
  let found: { start: number; end: number } | undefined;
  const visit = (node: typeof tree.rootNode) => {
    if (found) return;
    if (types.has(node.type) && new RegExp(`\\b${name}\\s*[<(]`).test(node.text.split("{")[0])) {
      found = { start: node.startIndex, end: node.endIndex };
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(tree.rootNode);
  assert.ok(found, `${language}: no definition of "${name}" in ${path}`);
  return found;
}

const BODIES = new Set([
  "block",
  "compound_statement",
  "statement_block",
  "body_statement",
  "constructor_body",
]);

/** Just inside the first function or method body of a file (after its `{`), or the first block of a broken one. */
async function bodyStart(path: string, text: string): Promise<number> {
  const lang = path.endsWith(".h") ? headerLanguage(text) : detectLanguage(path)!;
  const tree = await parse(lang, text);
  const bodies = tree.rootNode.descendantsOfType([...BODIES]);
  const body =
    bodies.find((node) => node && ["function", "method"].some((w) => node.parent?.type.includes(w))) ??
      bodies[0];
  assert.ok(body, `no function body in ${path}`);
  return body.startIndex + (body.text.startsWith("{") ? 1 : 0);
}

for (const [language, sha, path, name] of STILL_CALLED) {
  Deno.test({
    name: `names ${language}: deleting "${name}", still called in ${path}, is refused as dangling-reference`,
    ignore,
    async fn() {
      const text = await fileOf(sha, path);
      const span = await definitionSpan(language, path, text, name);
      const dir = await writeTree({ [path]: text });
      try {
        const result = await verifyIn(dir, [{
          op: "replace_code",
          params: { file: path, pattern: text.slice(span.start, span.end), replacement: "" },
        }]);
        const dangling = result.errors.filter((issue) => issue.code === "dangling-reference");
        assert.equal(result.passed, false, JSON.stringify(result.errors));
        assert.equal(dangling.length, 1, JSON.stringify(result.errors));
        assert.match(dangling[0].message, new RegExp(`^Name "${name.replace(/\$/g, "\\$")}" is still used`));
        assert.equal(dangling[0].level, "L3");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}

Deno.test({
  name:
    "names php: deleting a method the class still calls on $this is refused, and not in a class with a parent",
  async fn() {
    const own = "<?php\nclass Buffer {\n  public function close(): void { $this->flush(); }\n" +
      "  public function flush(): void { echo 'x'; }\n}\n";
    const inherited = own.replace("class Buffer {", "class Buffer extends Base {");
    for (const [text, refused] of [[own, true], [inherited, false]] as const) {
      const dir = await writeTree({ "src/Buffer.php": text });
      try {
        const result = await verifyIn(dir, [{
          op: "replace_code",
          params: {
            file: "src/Buffer.php",
            pattern: "  public function flush(): void { echo 'x'; }\n",
            replacement: "",
          },
        }]);
        const dangling = result.errors.filter((issue) => issue.code === "dangling-reference");
        assert.equal(dangling.length, refused ? 1 : 0, JSON.stringify(result.errors));
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
  },
});

Deno.test({
  name: "names: an inserted garbage token is refused in one file of every language",
  ignore,
  async fn(t) {
    const commits = await loadMultilang();
    for (const lang of [...new Set(commits.map((c) => c.lang))].sort()) {
      await t.step(lang, async () => {
        const file = commits.find((c) => c.lang === lang)!.files[0];
        const at = await bodyStart(file.path, file.before);
        const step = await editAndCheck(
          { [file.path]: file.before },
          file.path,
          () => [{ start: at, end: at, replacement: " @@ ) " }],
        );
        try {
          assert.ok(
            ofLevel(step.errors, "L0").some((i) => i.code === "syntax-error"),
            `${lang} ${file.path}`,
          );
        } finally {
          await Deno.remove(step.dir, { recursive: true });
        }
      });
    }
  },
});

Deno.test({
  name: "names: no real commit of the corpus loses a name, held-out third included",
  ignore,
  async fn() {
    const commits = await loadMultilang();
    const held = heldOut(commits);
    const errors: string[] = [];
    let files = 0;
    for (const commit of commits) {
      for (const file of commit.files) {
        const language = file.path.endsWith(".h") ? headerLanguage(file.before) : detectLanguage(file.path)!;
        const lost = await lostDefinitions(
          language,
          await parse(language, file.before),
          await parse(language, file.after),
        );
        files++;
        for (const { name } of lost) {
          errors.push(
            `${held.has(commit.sha) ? "held-out " : ""}${commit.sha.slice(0, 8)} ${file.path}: ${name}`,
          );
        }
      }
    }
    assert.equal(held.size, 36);
    assert.ok(files >= 140, `${files} files`);
    assert.deepEqual(errors, []);
  },
});

Deno.test({
  name: "names go: deleting a function another file of the package calls is a dangling-import there",
  ignore,
  async fn() {
    const commits = (await loadMultilang()).filter((c) => c.lang === "go");
    const text = (path: string) => commits.flatMap((c) => c.files).find((f) => f.path === path)!.before;
    const path = text("path.go");
    const gin = text("gin.go");
    const start = path.indexOf("func cleanPath(");
    const end = path.indexOf("\n}\n", start) + 3;
    const dir = await writeTree({ "path.go": path, "gin.go": gin });
    try {
      const result = await verifyIn(dir, [{
        op: "replace_code",
        params: { file: "path.go", pattern: path.slice(start, end), replacement: "" },
      }]);
      const foreign = result.errors.filter((issue) => issue.code === "dangling-import");
      assert.equal(foreign.length, 1, JSON.stringify(result.errors));
      assert.equal(foreign[0].file, "gin.go");
      assert.match(
        foreign[0].message,
        /^Name "cleanPath" was removed from "path.go" but "gin.go" still uses it: "gin.go:\d+"/,
      );
      // a file of another package in the same directory tree is not its user
      const other = await writeTree({ "path.go": path, "sub/gin.go": gin });
      try {
        const apart = await verifyIn(other, [{
          op: "replace_code",
          params: { file: "path.go", pattern: path.slice(start, end), replacement: "" },
        }]);
        assert.deepEqual(apart.errors.filter((issue) => issue.code === "dangling-import"), []);
      } finally {
        await Deno.remove(other, { recursive: true });
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("names typescript: deleting an exported function a module imports is a dangling-import at the import", async () => {
  const store = "export function defineStore(id: string) {\n  return { id };\n}\n\n" +
    "export function storeToRefs<T>(store: T): T {\n  return store;\n}\n";
  const user = 'import { defineStore, storeToRefs as refs } from "../src/store.js";\n\n' +
    'const main = defineStore("main");\nexport const mainRefs = refs(main);\n';
  const dir = await writeTree({ "src/store.ts": store, "tests/user.ts": user });
  try {
    const drop = (name: string) => ({
      op: "replace_code",
      params: {
        file: "src/store.ts",
        pattern: store.slice(
          store.indexOf(`export function ${name}`),
          store.indexOf("}\n", store.indexOf(name)) + 2,
        ),
        replacement: "",
      },
    });
    const result = await verifyIn(dir, [drop("storeToRefs")]);
    const foreign = result.errors.filter((issue) => issue.code === "dangling-import");
    assert.deepEqual(foreign.map((issue) => `${issue.file}:${issue.line}`), ["tests/user.ts:1"]);
    assert.match(
      foreign[0].message,
      /"storeToRefs" was removed from "src\/store.ts" but "tests\/user.ts" still uses it: "tests\/user.ts:1", "tests\/user.ts:4"$/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "names: no real Go, JavaScript or TypeScript commit leaves another file of the corpus using a removed name",
  ignore,
  async fn() {
    const commits = await loadMultilang();
    const found: string[] = [];
    for (const lang of ["go", "javascript", "typescript"]) {
      const of = commits.filter((c) => c.lang === lang);
      const base: Record<string, string> = {};
      for (const commit of of) for (const file of commit.files) base[file.path] = file.before;
      for (const commit of of) {
        const files = { ...base, ...Object.fromEntries(commit.files.map((f) => [f.path, f.after])) };
        const dir = await writeTree(files);
        try {
          const store = new DocumentStore(Workspace.open(dir));
          for (const file of commit.files) {
            const language = detectLanguage(file.path)!;
            const before = await parse(language, file.before);
            const after = await parse(language, file.after);
            for (const loss of await foreignLosses(store, file.path, language, before, after)) {
              found.push(`${commit.sha.slice(0, 8)} ${file.path} -> ${loss.path}: ${loss.name}`);
            }
          }
        } finally {
          await Deno.remove(dir, { recursive: true });
        }
      }
    }
    assert.deepEqual(found, []);
  },
});

Deno.test({
  name:
    "names javascript: a local deleted from findKey and still read there is refused though other functions bind the same name",
  ignore,
  async fn() {
    const path = "lib/utils.js";
    const text = await fileOf("23a25af0", path);
    const start = text.indexOf("function findKey(");
    const cut = "  const keys = Object.keys(obj);\n";
    const at = text.indexOf(cut, start);
    assert.ok(start > 0 && at > start);
    // the name stays bound elsewhere in the file: the file-wide view alone would not see the loss
    assert.ok(text.slice(0, start).includes("const keys = "));
    const dir = await writeTree({ [path]: text });
    try {
      const drop = (pattern: string) =>
        verifyIn(dir, [{ op: "replace_code", params: { file: path, pattern, replacement: "" } }]);
      const removed = `  key = key.toLowerCase();\n${cut}`;
      const result = await drop(removed);
      const edited = text.replace(removed, "");
      const dangling = result.errors.filter((issue) => issue.code === "dangling-reference");
      assert.equal(dangling.length, 1, JSON.stringify(result.errors));
      assert.match(dangling[0].message, /^Name "keys" is still used after its last definition was removed: /);
      const line = edited.slice(0, edited.indexOf("let i = keys.length", start)).split("\n").length;
      assert.equal(dangling[0].line, line);
      // deleting the whole function leaves no use of its local (only of the function itself, called elsewhere)
      const whole = text.slice(start, text.indexOf("\n}\n", start) + 3);
      const gone = await drop(whole);
      const names = gone.errors.filter((issue) => issue.code === "dangling-reference").map((i) => i.message);
      assert.deepEqual(names.map((message) => message.match(/^Name "(\w+)"/)?.[1]), ["findKey"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
