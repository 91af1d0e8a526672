/**
 * `.h` files of a C++ project are read as C++ (issue 27): on the corpus's
 * spdlog headers the C++ grammar leaves fewer syntax problems than C's, and
 * cJSON's C header stays C; a workspace reads a header without C++
 * constructs as C++ when its directory holds C++ sources.
 */

import assert from "node:assert/strict";
import { headerLanguage } from "../../engine/base/header_language.ts";
import { parse, syntaxProblems } from "../../engine/parse/mod.ts";
import { Workspace } from "../../engine/workspace.ts";
import { loadMultilang, MULTILANG_SKIP, writeTree } from "../_support/multilang.ts";

Deno.test({
  name: "header language: every corpus header is read in its project's language, with fewer errors as C++",
  ignore: MULTILANG_SKIP !== undefined,
  async fn() {
    let cpp = 0;
    for (const commit of await loadMultilang()) {
      for (const file of commit.files.filter((f) => f.path.endsWith(".h"))) {
        const expected = commit.lang === "cpp" ? "cpp" : "c";
        assert.equal(headerLanguage(file.before), expected, `${commit.sha} ${file.path}`);
        if (expected !== "cpp") continue;
        cpp++;
        const asC = syntaxProblems(await parse("c", file.before)).length;
        const asCpp = syntaxProblems(await parse("cpp", file.before)).length;
        assert.ok(asCpp < asC, `${file.path}: ${asCpp} problems as C++, ${asC} as C`);
      }
    }
    assert.ok(cpp >= 8, `${cpp} C++ headers`);
  },
});

Deno.test("header language: a plain header beside C++ sources is C++, beside C sources C", async () => {
  const header = "#pragma once\nint add(int a, int b);\n";
  const dir = await writeTree({
    "cpp/add.h": header,
    "cpp/add.cpp": "int add(int a, int b) { return a + b; }\n",
    "c/add.h": header,
    "c/add.c": "int add(int a, int b) { return a + b; }\n",
    "c/other.cpp": "",
  });
  try {
    const workspace = Workspace.open(dir);
    assert.equal(workspace.read("cpp/add.h").language, "cpp");
    assert.equal(workspace.read("c/add.h").language, "c");
    assert.equal(workspace.read("cpp/add.cpp").language, "cpp");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("header language: C idioms for C++ callers do not make a header C++", () => {
  const text = '#ifdef __cplusplus\nextern "C" {\n#endif\n/* namespace x { */\nconst char *s = "std::x";\n' +
    "int class_count;\n#ifdef __cplusplus\n}\n#endif\n";
  assert.equal(headerLanguage(text), "c");
  assert.equal(headerLanguage("namespace fmt {\nint f();\n}\n"), "cpp");
  assert.equal(headerLanguage("template <typename T>\nT id(T x) { return x; }\n"), "cpp");
});
