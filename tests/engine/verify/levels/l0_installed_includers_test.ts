/**
 * L0 where the compiler's verdict needs what the repository does not hold
 * (issue 27's header family, `l0_compiler.ts`):
 *
 * - libstdc++ 12's `bits/fs_dir.h` alone in a repository (v3's
 *   `experimental/bits/fs_dir.h` → `bits/fs_dir.h` pair). Its valid
 *   `__erase(error_code* = nullptr);` (an unnamed parameter with a default
 *   argument) is an ERROR node for tree-sitter-cpp, the header does not
 *   compile alone and nothing in the repository includes it, so no verdict
 *   was had and the change was refused. The installed `<filesystem>`
 *   includes the installed copy of the same header: compiled with the
 *   edited text in its place, it is the verdict (`compile/includers.ts`).
 * - node-addon-api 8.7.0's `napi-inl.h`, included by `napi.h`, which
 *   includes `<node_api.h>` from `/usr/include/node`: without that directory
 *   no compile got past the include; it is found one directory below a
 *   system root (`compile/system_headers.ts`). The valid statement the
 *   grammar misreads is `static_cast<Reference<Object>*>(this)->operator=(...)`.
 *
 * g++ is the oracle on the same texts. A stray token is refused in both,
 * and so is one in a C++20 branch `<filesystem>` never reads under C++17
 * (the sentinel's case), and the valid fs_dir.h edit at a path no installed
 * header has (no verdict: the grammar's problem stands).
 */

import assert from "node:assert/strict";
import { skipReason } from "../../../_support/skips.ts";
import { oracleAccepts } from "../../../_support/oracle.ts";
import { slow } from "../../../_support/quick.ts";
import { editAndCheck, readOrUndefined, replace, runs } from "./_support.ts";

const INC = "/usr/include/c++/12";
const NAPI = "../lift-unseen/multilang/work/npm/node-addon-api/8.7.0/package";

const fsDir = readOrUndefined(`${INC}/bits/fs_dir.h`);
const experimentalFsDir = readOrUndefined(`${INC}/experimental/bits/fs_dir.h`);
const napiH = readOrUndefined(`${NAPI}/napi.h`);
const napiInl = readOrUndefined(`${NAPI}/napi-inl.h`);
const napiDeprecated = readOrUndefined(`${NAPI}/napi-inl.deprecated.h`);
const GXX = runs("g++");
const FS_SKIP = skipReason(
  !GXX
    ? "g++ is not installed"
    : fsDir === undefined || experimentalFsDir === undefined
    ? `libstdc++ 12's filesystem headers are absent under "${INC}"`
    : undefined,
);
const NAPI_SKIP = skipReason(
  !GXX
    ? "g++ is not installed"
    : napiH === undefined || napiInl === undefined || napiDeprecated === undefined
    ? `node-addon-api 8.7.0 is absent ("${NAPI}", tests/bench/unseen_multilang.ts fetches it)`
    : readOrUndefined("/usr/include/node/node_api.h") === undefined
    ? "node's headers are absent from /usr/include/node"
    : undefined,
);
const SLOW = slow("tests that run g++");

/** Whether `g++ -fsyntax-only` accepts `main` (a translation unit) with `files` in a directory on the -I path. */
function gxxAccepts(
  main: string,
  files: Record<string, string>,
  extra: string[] = [],
): Promise<boolean> {
  return oracleAccepts(
    { ...files, "main.cc": main },
    "g++",
    (dir) => ["-fsyntax-only", "-std=gnu++17", "-I", dir, ...extra, `${dir}/main.cc`],
  );
}

/** The syntax errors L0 reports when `old` becomes `replacement` in `path` of a repository of `files`. */
async function syntaxErrors(
  files: Record<string, string>,
  path: string,
  old: string,
  replacement: string,
): Promise<string[]> {
  const step = await editAndCheck(files, path, replace(old, replacement));
  await Deno.remove(step.dir, { recursive: true });
  return step.errors.filter((issue) => issue.code === "syntax-error").map((issue) => issue.message);
}

const ERASE = "    recursive_directory_iterator&\n    __erase(error_code* = nullptr);\n";
const DIRS = "    std::__shared_ptr<_Dir_stack> _M_dirs;\n";
const CXX20 = "#if __cpp_lib_three_way_comparison\n    friend bool\n";
/** The standard header without the `__erase` declaration: what the edits below start from. */
const withoutErase = () => fsDir!.replace(ERASE, "");

const FS_CASES = [
  {
    name: "the unnamed defaulted parameter the grammar misreads (g++ accepts)",
    old: DIRS,
    replacement: DIRS + "\n" + ERASE,
    valid: true,
    read: true,
  },
  {
    name: "the same declaration with a stray token (g++ rejects)",
    old: DIRS,
    replacement: DIRS + "\n" + ERASE.replace(");", ") stray;"),
    valid: false,
    read: true,
  },
  {
    name: "a stray token in a C++20 branch <filesystem> never reads",
    old: CXX20,
    replacement: CXX20.replace("\n", "\n    void __erase_unread(error_code* = nullptr) stray;\n"),
    valid: false,
    read: false,
  },
];

for (const { name, old, replacement, valid, read } of FS_CASES) {
  Deno.test({
    name: `L0 installed includers (libstdc++ bits/fs_dir.h): ${name} is ${
      valid ? "no syntax error" : "refused"
    }`,
    ignore: FS_SKIP !== undefined || SLOW.ignore,
    async fn() {
      const before = withoutErase();
      assert.ok(before !== fsDir && before.includes(old), "the edit's anchor is in the header");
      const after = before.replace(old, replacement);
      // the C++20 case: <filesystem> compiles clean, since g++ never reads the branch
      assert.equal(await gxxAccepts("#include <filesystem>\n", { "bits/fs_dir.h": after }), valid || !read);
      const errors = await syntaxErrors({ "bits/fs_dir.h": before }, "bits/fs_dir.h", old, replacement);
      if (valid) assert.deepEqual(errors, []);
      else assert.ok(errors.length > 0, "refused as a syntax error");
    },
  });
}

Deno.test({
  name:
    "L0 installed includers (libstdc++ bits/fs_dir.h): experimental → standard as one edit is no syntax error",
  ignore: FS_SKIP !== undefined || SLOW.ignore,
  async fn() {
    assert.equal(await gxxAccepts("#include <filesystem>\n", { "bits/fs_dir.h": fsDir! }), true);
    const errors = await syntaxErrors(
      { "bits/fs_dir.h": experimentalFsDir! },
      "bits/fs_dir.h",
      experimentalFsDir!,
      fsDir!,
    );
    assert.deepEqual(errors, []);
  },
});

Deno.test({
  name:
    "L0 installed includers (libstdc++ bits/fs_dir.h): the valid edit at a path no installed header has is refused",
  ignore: FS_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const path = "lib/graphplan_fs_dir_copy.h";
    const errors = await syntaxErrors({ [path]: withoutErase() }, path, DIRS, DIRS + "\n" + ERASE);
    assert.ok(
      errors.length > 0,
      "no includer and no installed copy: no verdict, the grammar's problem stands",
    );
  },
});

const STATIC = "  static_cast<Reference<Object>*>(this)->operator=(std::move(other));\n";
const MOVE = "inline ObjectReference& ObjectReference::operator=(ObjectReference&& other) {\n";

for (
  const [name, statement, valid] of [
    ["a call through static_cast the grammar misreads (g++ accepts)", STATIC, true],
    ["the same statement with a stray token (g++ rejects)", STATIC.replace(");", ") stray;"), false],
  ] as const
) {
  Deno.test({
    name: `L0 system headers (node-addon-api napi-inl.h, <node_api.h>): ${name} is ${
      valid ? "no syntax error" : "refused"
    }`,
    ignore: NAPI_SKIP !== undefined || SLOW.ignore,
    async fn() {
      const before = napiInl!.replace(MOVE + STATIC, MOVE);
      assert.notEqual(before, napiInl, "the statement is in the header");
      const after = before.replace(MOVE, MOVE + statement);
      const others = { "napi.h": napiH!, "napi-inl.deprecated.h": napiDeprecated! };
      const files = { ...others, "napi-inl.h": after };
      assert.equal(
        await gxxAccepts('#include "napi.h"\n', files),
        false,
        "no verdict without node's directory",
      );
      assert.equal(await gxxAccepts('#include "napi.h"\n', files, ["-I", "/usr/include/node"]), valid);
      const errors = await syntaxErrors(
        { ...others, "napi-inl.h": before },
        "napi-inl.h",
        MOVE,
        MOVE + statement,
      );
      if (valid) assert.deepEqual(errors, []);
      else assert.ok(errors.length > 0, "refused as a syntax error");
    },
  });
}
