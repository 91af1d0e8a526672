/**
 * A whole header lifted where the compiler's verdict comes from the headers
 * installed with it (v3's `experimental/bits/fs_dir.h` → `bits/fs_dir.h`
 * pair, libstdc++ 12 read from disk): the repository holds `bits/fs_dir.h`
 * alone, and the standard text's `__erase(error_code* = nullptr);` is an
 * ERROR node for tree-sitter-cpp. g++ compiles the installed `<filesystem>`
 * with the new text in place of its own `bits/fs_dir.h` and reads that line
 * (`verify/compile/includers.ts`), so the change lifts and replays exactly;
 * the same change with a stray token written beside the declaration is not
 * lifted. g++ through `<filesystem>` is the oracle on both end states.
 */

import assert from "node:assert/strict";
import { skipReason } from "../../_support/skips.ts";
import { oracleAccepts } from "../../_support/oracle.ts";
import { slow } from "../../_support/quick.ts";
import { readOrUndefined, runs } from "../verify/levels/_support.ts";
import { gitDiff, liftIn } from "./_support.ts";

const INC = "/usr/include/c++/12";
const standard = readOrUndefined(`${INC}/bits/fs_dir.h`);
const experimental = readOrUndefined(`${INC}/experimental/bits/fs_dir.h`);
const SKIP = skipReason(
  !runs("g++")
    ? "g++ is not installed"
    : standard === undefined || experimental === undefined
    ? `libstdc++ 12's filesystem headers are absent under "${INC}"`
    : undefined,
);
const SLOW = slow("tests that run g++");

const ERASE = "    __erase(error_code* = nullptr);\n";

/** Whether g++ compiles `<filesystem>` with `text` as its `bits/fs_dir.h`. */
function filesystemCompiles(text: string): Promise<boolean> {
  return oracleAccepts(
    { "bits/fs_dir.h": text, "main.cc": "#include <filesystem>\n" },
    "g++",
    (dir) => ["-fsyntax-only", "-std=gnu++17", "-I", dir, `${dir}/main.cc`],
  );
}

for (
  const [name, after, valid] of [
    ["is lifted and replayed exactly", () => standard!, true],
    [
      "with a stray token is not lifted",
      () => standard!.replace(ERASE, ERASE.replace(");", ") stray;")),
      false,
    ],
  ] as const
) {
  Deno.test({
    name: `lift installed headers: experimental/bits/fs_dir.h → bits/fs_dir.h ${name}`,
    ignore: SKIP !== undefined || SLOW.ignore,
    async fn() {
      assert.ok(standard!.includes(ERASE), "the declaration the grammar misreads is in the header");
      assert.equal(await filesystemCompiles(after()), valid, "g++ through <filesystem> agrees");
      const { dir, diff } = gitDiff({ "bits/fs_dir.h": experimental! }, { "bits/fs_dir.h": after() });
      const result = await liftIn(dir, { diff });
      if (valid) {
        assert.deepEqual(result.errors.map((issue) => issue.message), []);
        assert.equal(result.exact, true);
      } else {
        assert.ok(result.errors.length > 0, "refused");
        assert.equal(result.success, false);
      }
    },
  });
}
