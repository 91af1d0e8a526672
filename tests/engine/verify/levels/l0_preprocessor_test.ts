/**
 * L0 in C around what only the preprocessor sees (issue 27, `l0_macros.ts`):
 * less's lower-case macros before a declaration (`public int f()`,
 * `constant char *s;`) and a conditional that splits a declaration
 * (`#if defined(__GNUC__)`, `__attribute__((noreturn))`, `#endif`, then the
 * prototype). tree-sitter reads both as ERROR nodes the compiler never sees,
 * so Debian's less patch `output.c` h3 and expat's `minicheck.h` h2 (unseen
 * multilang set) were "hunk-not-lifted": every candidate was refused as a new
 * syntax error. gcc -fsyntax-only is the oracle on the same texts; garbage,
 * garbage in a lost `#else` branch and an unclosed `#if` stay refused.
 */

import assert from "node:assert/strict";
import { loadInstances } from "../../../_support/multilang.ts";
import { skipReason } from "../../../_support/skips.ts";
import { oracleAccepts } from "../../../_support/oracle.ts";
import { slow } from "../../../_support/quick.ts";
import { gitDiff, liftIn, writeRepo } from "../../lift/_support.ts";
import { editAndCheck, replace } from "./_support.ts";

const UNSEEN = "../lift-unseen/multilang/unseen.jsonl.gz";
const UNSEEN_SKIP = skipReason(
  (() => {
    try {
      Deno.statSync(UNSEEN);
      return undefined;
    } catch {
      return `the unseen multilang set "${UNSEEN}" is absent (tests/bench/unseen_multilang.ts writes it)`;
    }
  })(),
);
const unseen = UNSEEN_SKIP === undefined ? await loadInstances(UNSEEN) : [];

const GCC_SKIP = skipReason(
  (() => {
    try {
      return new Deno.Command("gcc", { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
          .success
        ? undefined
        : "gcc does not run";
    } catch {
      return "gcc is not installed";
    }
  })(),
);

const SLOW = slow("tests that run gcc");

/** A small C file in less's style: lower-case macros, a conditional attribute. */
const SOURCE = `#define public
#define constant const

public int count_chars(constant char *s);

#ifdef __cplusplus
extern "C" {
#endif

void report(int n);

public int
count_chars(constant char *s)
{
	constant char *p = s;
	int n = 0;
	while (*p != '\\0')
		p++, n++;
	return n;
}

#ifdef __cplusplus
}
#endif
`;

/** The L0 error messages of replacing `old` by `replacement` in SOURCE. */
async function syntaxErrors(old: string, replacement: string): Promise<string[]> {
  const step = await editAndCheck({ "less.c": SOURCE }, "less.c", replace(old, replacement));
  await Deno.remove(step.dir, { recursive: true });
  return step.errors.filter((issue) => issue.code === "syntax-error").map((issue) => issue.message);
}

/** Whether gcc -fsyntax-only accepts SOURCE with `old` replaced, with and without HAVE_NORETURN. */
async function gccAccepts(old: string, replacement: string): Promise<boolean> {
  const files = { "less.c": SOURCE.replace(old, replacement) };
  for (const define of [[], ["-DHAVE_NORETURN"]]) {
    if (!await oracleAccepts(files, "gcc", (dir) => ["-fsyntax-only", ...define, `${dir}/less.c`])) {
      return false;
    }
  }
  return true;
}

const BODY_OLD = "\tconstant char *p = s;\n";
const PROTO_OLD = "void report(int n);\n";
const CASES: { name: string; old: string; replacement: string; valid: boolean }[] = [
  {
    name: "a new declaration behind a lower-case macro",
    old: BODY_OLD,
    replacement: BODY_OLD + "\tconstant char *end = s;\n",
    valid: true,
  },
  {
    name: "a conditional attribute before a prototype",
    old: PROTO_OLD,
    replacement:
      "#  if defined(__GNUC__)\n__attribute__((noreturn))\n#  endif\nvoid\nfail(const char *msg);\n" +
      PROTO_OLD,
    valid: true,
  },
  {
    name: "garbage beside the macro declaration",
    old: BODY_OLD,
    replacement: BODY_OLD + "\tconstant char *end = s; @@ )\n",
    valid: false,
  },
  {
    name: "garbage in the lost #else branch",
    old: PROTO_OLD,
    replacement:
      "#if defined(HAVE_NORETURN)\n__attribute__((noreturn))\n#else\n@@ )\n#endif\nvoid fail(void);\n" +
      PROTO_OLD,
    valid: false,
  },
  {
    name: "an unclosed #if",
    old: PROTO_OLD,
    replacement: "#if defined(__GNUC__)\n__attribute__((noreturn))\nvoid fail(void);\n" + PROTO_OLD,
    valid: false,
  },
];

for (const { name, old, replacement, valid } of CASES) {
  Deno.test(`L0 preprocessor c: ${name} is ${valid ? "no syntax error" : "refused"}`, async () => {
    const errors = await syntaxErrors(old, replacement);
    if (valid) assert.deepEqual(errors, []);
    else assert.ok(errors.length > 0, "accepted");
  });
  Deno.test({
    name: `L0 preprocessor c: gcc agrees that ${name} is ${valid ? "valid" : "invalid"}`,
    ignore: SLOW.ignore || GCC_SKIP !== undefined,
    async fn() {
      assert.equal(await gccAccepts(old, replacement), valid);
    },
  });
}

for (
  const id of [
    "debian__less__Fix-incorrect-display-when-filename-contains-control__output.c__h3",
    "debian__expat__expat-2.5.0-CVE-2023-52425__expat/tests/minicheck.h__h2",
  ]
) {
  // the set is rebuilt from Debian's current sources: a later package may no longer carry the patch
  const commit = unseen.find((c) => c.sha === id);
  Deno.test({
    name: `L0 preprocessor: unseen ${id.split("__").slice(1, 2)} ${id.split("__").at(-1)} lifts byte-exact`,
    ignore: UNSEEN_SKIP !== undefined ||
      skipReason(commit ? undefined : "an instance is not in the unseen multilang set as rebuilt here") !==
        undefined,
    async fn() {
      const dir = writeRepo(Object.fromEntries(commit!.files.map((f) => [f.path, f.before])));
      try {
        const result = await liftIn(dir, { diff: commit!.diff });
        assert.deepEqual(result.errors.map((issue) => issue.message), []);
        assert.equal(result.exact, true);
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}

const LIBSTDCXX = "/usr/include/c++/12";
const LIBSTDCXX_SKIP = skipReason(
  (() => {
    try {
      Deno.statSync(`${LIBSTDCXX}/experimental/ratio`);
      return undefined;
    } catch {
      return `libstdc++ 12's headers are not installed ("${LIBSTDCXX}")`;
    }
  })(),
);

// Not files of the unseen v3 set (its libstdc++ pairs are any, optional, string_view, memory_resource,
// functional, tuple, type_traits and bits/fs_*): libstdc++'s annotation macros, `namespace std
// _GLIBCXX_VISIBILITY(default) {`, `_GLIBCXX_BEGIN_NAMESPACE_VERSION` and `_GLIBCXX20_CONSTEXPR` alone on
// their lines, made every candidate a new syntax error
for (const name of ["ratio", "system_error"]) {
  Deno.test({
    name: `L0 preprocessor cpp: libstdc++ experimental/${name} -> ${name} lifts byte-exact`,
    ignore: LIBSTDCXX_SKIP !== undefined,
    async fn() {
      const path = `${name}.hpp`;
      const before = Deno.readTextFileSync(`${LIBSTDCXX}/experimental/${name}`);
      const after = Deno.readTextFileSync(`${LIBSTDCXX}/${name}`);
      const { dir, diff } = gitDiff({ [path]: before }, { [path]: after });
      const result = await liftIn(dir, { diff });
      assert.deepEqual(result.errors.map((issue) => issue.message), []);
      assert.equal(result.exact, true);
    },
  });
}

Deno.test({
  name:
    "L0 preprocessor cpp: in libstdc++'s ratio, a copied template behind _GLIBCXX20_CONSTEXPR passes, garbage not",
  ignore: LIBSTDCXX_SKIP !== undefined,
  async fn() {
    const text = Deno.readTextFileSync(`${LIBSTDCXX}/ratio`);
    const files = { "ratio.hpp": text };
    const anchor = "  template<intmax_t _Pn>\n    struct __static_sign";
    assert.ok(text.includes(anchor), "ratio changed: the anchor is gone");
    const added =
      "  template<intmax_t _Pn>\n    _GLIBCXX20_CONSTEXPR\n    int\n    __sign_of()\n    { return _Pn; }\n\n";
    for (
      const [insertion, valid] of [[added, true], [added.replace("return", "return @@ )"), false]] as const
    ) {
      const step = await editAndCheck(files, "ratio.hpp", replace(anchor, insertion + anchor));
      await Deno.remove(step.dir, { recursive: true });
      const errors = step.errors.filter((issue) => issue.code === "syntax-error");
      if (valid) assert.deepEqual(errors.map((issue) => issue.message), []);
      else assert.ok(errors.length > 0, "garbage accepted");
    }
  },
});
