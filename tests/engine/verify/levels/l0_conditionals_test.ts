/**
 * L0 and L2 in C where an edit writes a conditional whose branches each
 * open a `{` that one shared `}` closes, inside an existing `#else`: the
 * shape of ninja's Debian patch for 32-bit systems (`#ifdef
 * __USE_LARGEFILE64` `struct stat64 st; if (fstat64(...) < 0) {` `#else`
 * `struct stat st; if (fstat(...) < 0) {` `#endif` inside the `#else` of an
 * `#ifdef _WIN32`). tree-sitter reads both branches at once and fails; the
 * preprocessor never shows both. The first branches' view hides the edit
 * (it sits in an `#else`), so the edit is read in the two views that show
 * it: the branch around it kept, its own conditional's first branch in one
 * and its `#else` in the other. The file is zlib's `minigzip.c` example
 * (Debian's zlib1g-dev), the edit in the `#else` of its `#if
 * !defined(NO_snprintf)`; gcc is the oracle in both configurations of the
 * new conditional. Garbage in either branch, and any code in a middle
 * `#elif` (which neither view shows), stays refused.
 */

import assert from "node:assert/strict";
import { skipReason } from "../../../_support/skips.ts";
import { oracleAccepts } from "../../../_support/oracle.ts";
import { editAndCheck, ofLevel, readOrUndefined, replace, runs } from "./_support.ts";

const PATH = "/usr/share/doc/zlib1g-dev/examples/minigzip.c";
const source = readOrUndefined(PATH);
const OLD = "#else\n    strcpy(outfile, file);\n    strcat(outfile, GZ_SUFFIX);\n#endif\n";

const ignore = skipReason(
  !runs("gcc")
    ? "gcc is not installed"
    : source === undefined || !source.includes(OLD)
    ? `zlib's minigzip.c example (zlib1g-dev) is not at "${PATH}"`
    : undefined,
) !== undefined;

/** The `#else` branch of `#if !defined(NO_snprintf)` rewritten with a conditional of the given branches. */
function rewritten(first: string, otherwise: string, middle?: string): string {
  return "#else\n#ifdef HAVE_STRLCPY\n" + first +
    (middle === undefined ? "" : `#elif defined(HAVE_STPCPY)\n${middle}`) +
    "#else\n" + otherwise + "#endif\n        strcat(outfile, GZ_SUFFIX);\n    }\n#endif\n";
}

const FIRST = "    if (strlcpy(outfile, file, sizeof(outfile)) < sizeof(outfile)) {\n";
const OTHERWISE = "    if (strlen(file) < sizeof(outfile)) {\n        strcpy(outfile, file);\n";

/** Whether gcc accepts `text` with `defines` (`-DNO_snprintf` compiles the `#else` the edit is in). */
function gccAccepts(text: string, defines: string[]): Promise<boolean> {
  return oracleAccepts(
    { "minigzip.c": text },
    "gcc",
    (dir) => ["-fsyntax-only", "-Wno-implicit-function-declaration", ...defines, `${dir}/minigzip.c`],
  );
}

async function check(replacement: string) {
  const step = await editAndCheck({ "minigzip.c": source! }, "minigzip.c", replace(OLD, replacement));
  await Deno.remove(step.dir, { recursive: true });
  return step;
}

Deno.test({
  name: "L0/L2 C conditionals: a { opened in both branches of an #ifdef written in an #else passes; " +
    "gcc compiles both configurations",
  ignore,
  async fn() {
    const replacement = rewritten(FIRST, OTHERWISE);
    const after = source!.replace(OLD, replacement);
    assert.equal(await gccAccepts(after, ["-DNO_snprintf"]), true, "gcc: the new #else");
    assert.equal(await gccAccepts(after, ["-DNO_snprintf", "-DHAVE_STRLCPY"]), true, "gcc: the new #ifdef");
    assert.equal(await gccAccepts(after, []), true, "gcc: the configuration the edit is not in");
    const step = await check(replacement);
    assert.deepEqual(ofLevel(step.errors, "L0"), [], "L0");
    assert.deepEqual(ofLevel(step.errors, "L2"), [], "L2");
  },
});

Deno.test({
  name:
    "L0 C conditionals: garbage in either branch of the new #ifdef, or code in a middle #elif, is refused",
  ignore,
  async fn() {
    const cases: [string, string, string[]][] = [
      [
        "a lost ) in the #else",
        rewritten(FIRST, OTHERWISE.replace("sizeof(outfile))", "sizeof(outfile)")),
        ["-DNO_snprintf"],
      ],
      ["a second { in the #ifdef", rewritten(FIRST.replace("{", "{ {"), OTHERWISE), [
        "-DNO_snprintf",
        "-DHAVE_STRLCPY",
      ]],
      [
        "a broken middle #elif",
        rewritten(FIRST, OTHERWISE, "    if (stpcpy(outfile, file) {\n"),
        ["-DNO_snprintf", "-DHAVE_STPCPY"],
      ],
    ];
    for (const [what, replacement, defines] of cases) {
      assert.equal(await gccAccepts(source!.replace(OLD, replacement), defines), false, `gcc: ${what}`);
      const step = await check(replacement);
      assert.ok(
        ofLevel(step.errors, "L0").some((issue) => issue.code === "syntax-error"),
        `${what}: ${step.errors.map((issue) => issue.code).join(", ")}`,
      );
    }
  },
});
