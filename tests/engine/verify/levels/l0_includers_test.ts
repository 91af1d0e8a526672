/**
 * L0 on a header that compiles only where it is included (issue 27's header
 * family): libstdc++ 12's `bits/hashtable.h`, read from disk into a
 * repository beside `<unordered_map>`, its includer. g++ on the header alone
 * reports errors (it uses what `<unordered_map>` included before it), so
 * until `compile/includers.ts` no compiler verdict was had, and a valid
 * declaration tree-sitter-cpp misreads (`typedef value_type& reference;`)
 * was refused. g++ through the includer is the oracle; garbage stays
 * refused, and so does garbage in a `#if __cplusplus > 201703L` branch the
 * includer compiles clean because it never reads it (the sentinel's case).
 * The header alone at `bits/hashtable.h` gets the same verdicts through the
 * installed `<unordered_map>`; alone at a path no installed header has, it
 * gets none.
 */

import assert from "node:assert/strict";
import { skipReason } from "../../../_support/skips.ts";
import { oracleAccepts } from "../../../_support/oracle.ts";
import { slow } from "../../../_support/quick.ts";
import { editAndCheck, readOrUndefined, replace, runs } from "./_support.ts";
import { includes } from "../../../../engine/verify/compile/includers.ts";

const INC = "/usr/include/c++/12";

const hashtable = readOrUndefined(`${INC}/bits/hashtable.h`);
const unorderedMap = readOrUndefined(`${INC}/unordered_map`);
const SKIP = skipReason(
  !runs("g++")
    ? "g++ is not installed"
    : hashtable === undefined || unorderedMap === undefined
    ? `libstdc++ 12's headers are absent under "${INC}"`
    : undefined,
);
const SLOW = slow("tests that run g++");

/** g++'s verdict on `<unordered_map>` with `header` as `bits/hashtable.h` (alone: the header by itself). */
function gxxAccepts(header: string, alone = false): Promise<boolean> {
  return oracleAccepts(
    { "bits/hashtable.h": header, "main.cc": "#include <unordered_map>\n" },
    "g++",
    (dir) => [
      "-fsyntax-only",
      "-std=gnu++17",
      "-I",
      dir,
      ...(alone ? ["-x", "c++-header", `${dir}/bits/hashtable.h`] : [`${dir}/main.cc`]),
    ],
  );
}

/**
 * L0 errors of replacing `old` by `replacement` in the header: at
 * `bits/hashtable.h` beside its includer, there alone (libstdc++'s installed
 * `<unordered_map>` includes the installed copy of that path), or alone at a
 * path no installed header has.
 */
async function syntaxErrors(
  old: string,
  replacement: string,
  where: "with includer" | "installed path" | "elsewhere",
): Promise<string[]> {
  const path = where === "elsewhere" ? "lib/graphplan_hashtable.h" : "bits/hashtable.h";
  const files: Record<string, string> = { [path]: hashtable! };
  if (where === "with includer") files["unordered_map"] = unorderedMap!;
  const step = await editAndCheck(files, path, replace(old, replacement));
  await Deno.remove(step.dir, { recursive: true });
  return step.errors.filter((issue) => issue.code === "syntax-error").map((issue) => issue.message);
}

const CONST_REF = "      typedef const value_type&\t\t\t\t\tconst_reference;\n";
const CPP20 = "#if __cplusplus > 201703L\n  template<typename _Key, typename _Value, typename _Alloc,\n";

const CASES = [
  {
    name: "a reference typedef the grammar misreads (g++ accepts)",
    old: CONST_REF,
    replacement: CONST_REF + "      typedef value_type&\t\t\t\t\tmutable_reference;\n",
    valid: true,
    compiled: true,
  },
  {
    name: "the same typedef with a stray name (g++ rejects)",
    old: CONST_REF,
    replacement: CONST_REF + "      typedef value_type&\t\t\t\t\tmutable_reference stray;\n",
    valid: false,
    compiled: true,
  },
  {
    name: "garbage in a C++20 branch the includer never reads",
    old: CPP20,
    replacement: CPP20.replace("\n", "\n  typedef int& unread_reference stray;\n"),
    valid: false,
    compiled: false,
  },
];

Deno.test({
  name: "L0 includers: <unordered_map> includes bits/hashtable.h, which does not compile alone",
  ignore: SKIP !== undefined || SLOW.ignore,
  async fn() {
    assert.ok(includes(unorderedMap!, "bits/hashtable.h"));
    assert.equal(await gxxAccepts(hashtable!, true), false, "the header alone has errors");
    assert.equal(await gxxAccepts(hashtable!), true, "it compiles where it is included");
  },
});

for (const { name, old, replacement, valid, compiled } of CASES) {
  Deno.test({
    name: `L0 includers (libstdc++ bits/hashtable.h): ${name} is ${valid ? "no syntax error" : "refused"}`,
    ignore: SKIP !== undefined || SLOW.ignore,
    async fn() {
      assert.ok(hashtable!.includes(old), "the edit's anchor is in the header");
      const after = hashtable!.replace(old, replacement);
      // the C++20 case: the includer compiles clean, since g++ never reads the branch
      assert.equal(await gxxAccepts(after), valid || !compiled, "g++ through the includer agrees");
      for (const where of ["with includer", "installed path"] as const) {
        const errors = await syntaxErrors(old, replacement, where);
        if (valid) assert.deepEqual(errors, [], where);
        else assert.ok(errors.length > 0, `refused as a syntax error (${where})`);
      }
      // with no includer, in the repository or installed, the header gets no verdict and the grammar's problems stand
      assert.ok(
        (await syntaxErrors(old, replacement, "elsewhere")).length > 0,
        "refused without an includer",
      );
    },
  });
}
