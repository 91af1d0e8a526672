/**
 * Type checkers as oracles (issue 27, `engine/verify/compile/typed.ts`):
 * `go vet` on the changed file's package, and the project's own `tsc` when
 * the project has TypeScript installed. A name a sibling file still uses,
 * deleted by the plan, is a `compile-error` from go vet although gofmt
 * accepts the file; real Go commits of the corpus bring no new failure; a
 * type error is refused by tsc; a project without TypeScript gets no tsc
 * verdict.
 */

import assert from "node:assert/strict";
import { Compilers } from "../../../engine/verify/compile/mod.ts";
import { loadMultilang, MULTILANG_SKIP, writeTree } from "../../_support/multilang.ts";
import { skipReason } from "../../_support/skips.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that run compilers (gcc, g++, javac, rustc, go, tsc)");

const FIXTURES = new URL("../../fixtures/catalog/", import.meta.url);

function runs(program: string, args: string[]): boolean {
  try {
    return new Deno.Command(program, { args, stdout: "null", stderr: "null" }).outputSync().success;
  } catch {
    return false;
  }
}

const GO_SKIP = skipReason(runs("go", ["version"]) ? undefined : "go not found on PATH: go vet is untested");

/** A TypeScript package to link into the test project: `GRAPHPLAN_TYPESCRIPT`, else npm's global one. */
function typescriptPackage(): string | undefined {
  const given = Deno.env.get("GRAPHPLAN_TYPESCRIPT");
  const candidates = given ? [given] : [];
  try {
    const root = new Deno.Command("npm", { args: ["root", "-g"], stdout: "piped", stderr: "null" })
      .outputSync();
    if (root.success) candidates.push(`${new TextDecoder().decode(root.stdout).trim()}/typescript`);
  } catch {
    // no npm
  }
  return candidates.find((dir) => {
    try {
      return Deno.statSync(`${dir}/lib/typescript.js`).isFile;
    } catch {
      return false;
    }
  });
}

const TYPESCRIPT = typescriptPackage();
const TSC_SKIP = skipReason(
  TYPESCRIPT && runs("node", ["--version"])
    ? undefined
    : "no TypeScript package (GRAPHPLAN_TYPESCRIPT or npm's global one) or no node: tsc is untested",
);

Deno.test({
  name: "go vet: deleting a function another file of the package calls is a compile-error gofmt misses",
  ignore: !!GO_SKIP || SLOW.ignore,
  async fn() {
    const source = await Deno.readTextFile(new URL("go/inventory/inventory.go", FIXTURES));
    const report =
      "package inventory\n\n// Report lists every item.\nfunc Report(items []Item) []string {\n" +
      "\tout := make([]string, 0, len(items))\n\tfor _, item := range items {\n" +
      "\t\tout = append(out, Describe(item))\n\t}\n\treturn out\n}\n";
    const root = await writeTree({ "inventory/inventory.go": source, "inventory/report.go": report });
    const compilers = new Compilers();
    try {
      const start = source.indexOf("// Describe renders");
      const after = source.slice(0, start).replace(/\n+$/, "\n").replace('\t"fmt"\n\t"strings"\n', "");
      const input = {
        path: "inventory/inventory.go",
        language: "go" as const,
        before: source,
        after,
        step: 2,
      };
      const verdict = await compilers.check([input], { root });
      assert.equal(verdict.errors.length, 1, JSON.stringify(verdict));
      assert.equal(verdict.errors[0].code, "compile-error");
      assert.match(
        verdict.errors[0].message,
        /^go vet refuses "inventory\/inventory.go" after the plan.*Describe/,
      );
      assert.equal(verdict.compiled, "gofmt, go vet");
      // the same deletion when nothing else calls it: accepted
      const alone = await writeTree({ "inventory/inventory.go": source });
      try {
        assert.deepEqual((await compilers.check([input], { root: alone })).errors, []);
      } finally {
        await Deno.remove(alone, { recursive: true });
      }
    } finally {
      await compilers.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "go vet: the real Go commits of the corpus bring no new failure",
  ignore: !!GO_SKIP || MULTILANG_SKIP !== undefined,
  async fn() {
    const commits = (await loadMultilang()).filter((c) => c.lang === "go");
    const compilers = new Compilers();
    let judged = 0;
    try {
      for (const commit of commits) {
        const root = await writeTree(Object.fromEntries(commit.files.map((f) => [f.path, f.before])));
        try {
          const inputs = commit.files.filter((f) => f.path.endsWith(".go"))
            .map((f) => ({ path: f.path, language: "go" as const, before: f.before, after: f.after }));
          const report = await compilers.check(inputs, { root });
          assert.deepEqual(report.errors, [], commit.sha.slice(0, 8));
          if (report.compiled?.includes("go vet")) judged++;
        } finally {
          await Deno.remove(root, { recursive: true });
        }
      }
    } finally {
      await compilers.close();
    }
    assert.ok(judged > 0, "go vet gave no verdict on any commit");
  },
});

Deno.test({
  name: "tsc: a type error in a project with TypeScript installed is a compile-error; without it, no verdict",
  ignore: !!TSC_SKIP || SLOW.ignore,
  async fn() {
    // the catalog fixture without its node: imports and their user (the test project has no @types/node)
    const fixture = await Deno.readTextFile(new URL("typescript/src/cart.ts", FIXTURES));
    const source =
      fixture.slice(0, fixture.indexOf("\nexport function loadCart")).replace(/^import .*\n/gm, "") +
      "\n";
    const config = JSON.stringify({
      compilerOptions: { strict: true, target: "es2022", module: "nodenext", types: [], skipLibCheck: true },
      include: ["src"],
    });
    const root = await writeTree({ "tsconfig.json": config, "src/cart.ts": source });
    const compilers = new Compilers();
    try {
      const input = { path: "src/cart.ts", language: "typescript" as const, before: source, step: 0 };
      const typed = source + '\nexport const broken: number = "one";\n';
      // without TypeScript in the project: no tsc verdict
      const none = await compilers.check([{ ...input, after: typed }], { root });
      assert.deepEqual(none, { errors: [], compiled: null });
      await Deno.mkdir(`${root}/node_modules`);
      await Deno.symlink(TYPESCRIPT!, `${root}/node_modules/typescript`);
      const fine = await compilers.check(
        [{ ...input, after: source + "\nexport const one: number = 1;\n" }],
        {
          root,
        },
      );
      assert.deepEqual(fine.errors, [], "the fixture type-checks with its new line");
      assert.equal(fine.compiled, "tsc");
      const verdict = await compilers.check([{ ...input, after: typed }], { root });
      assert.equal(verdict.errors.length, 1, JSON.stringify(verdict));
      assert.match(
        verdict.errors[0].message,
        /^tsc refuses "src\/cart.ts" after the plan at line \d+: Type 'string'/,
      );
    } finally {
      await compilers.close();
      await Deno.remove(root, { recursive: true });
    }
  },
});
