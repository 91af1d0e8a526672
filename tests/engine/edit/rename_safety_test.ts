/**
 * Rename safety of the legacy `rename_symbol` and of `replace_all_matching`
 * on identifiers: the new name is checked (identifier, not a keyword)
 * before anything changes, collisions with visible bindings are errors,
 * shadowing is a warning, strings and comments keep the old name, and a
 * valid rename gives code CPython parses. Mostly on requests' `auth.py`
 * from the corpus; `graphplan verify` reports the same problems as layer 0.
 */

import assert from "node:assert/strict";
import { LEGACY_OPS } from "../../../engine/edit/legacy/mod.ts";
import { PRIMITIVES } from "../../../engine/edit/primitives.ts";
import type { Issue } from "../../../engine/base/issue.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { verifyPlan } from "../../../engine/verify/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { assertPythonParses, PYTHON_SKIP } from "../../_support/python.ts";
import { corpusFile, makeRepo, rejection, type Repo } from "./_legacy_support.ts";

const AUTH = "requests/auth.py";
const SKIP = CORPUS_SKIP ?? PYTHON_SKIP;
if (SKIP) console.log(`rename_safety_test: skipping corpus tests: ${SKIP}`);

async function authRepo(): Promise<{ repo: Repo; before: string }> {
  const { before } = await corpusFile("psf__requests-1766", AUTH);
  return { repo: await makeRepo({ [AUTH]: before }), before };
}

function codes(issues: readonly Issue[]): string[] {
  return issues.map((issue) => issue.code);
}

const renameSymbol = (params: Record<string, unknown>, repo: Repo) => {
  const ctx = repo.ctx();
  return { ctx, run: () => LEGACY_OPS.rename_symbol({ file: AUTH, ...params }, ctx) };
};

const replaceAll = (name: string, replacement: string, repo: Repo) => {
  const ctx = repo.ctx();
  return {
    ctx,
    run: () =>
      PRIMITIVES.replace_all_matching({
        locator: { file: AUTH, kind: "identifier", name },
        replacement,
        filter: "not_in_string_or_comment",
      }, ctx),
  };
};

/** Both operators, as (old, new) → (ctx, run). */
const OPERATORS = {
  rename_symbol: (oldName: string, newName: string, repo: Repo) =>
    renameSymbol({ old_name: oldName, new_name: newName }, repo),
  replace_all_matching: replaceAll,
};

for (const [op, make] of Object.entries(OPERATORS)) {
  Deno.test({
    name: `${op}: a keyword as the new name is an error and changes nothing`,
    ignore: !!SKIP,
    fn: async () => {
      const { repo, before } = await authRepo();
      try {
        for (const keyword of ["class", "lambda", "None"]) {
          const { ctx, run } = make("realm", keyword, repo);
          const { issues } = await rejection(run);
          assert.deepEqual(codes(issues), ["rename-keyword"], keyword);
          assert.match(issues[0].message, new RegExp(`"${keyword}" is a reserved word in python`));
          assert.equal(await repo.text(ctx, AUTH), before);
          assert.equal(ctx.records.length, 0);
        }
      } finally {
        await repo.cleanup();
      }
    },
  });

  Deno.test({
    name: `${op}: a name that is not a Python identifier is an error`,
    ignore: !!SKIP,
    fn: async () => {
      const { repo, before } = await authRepo();
      try {
        // "$realm" passes the plan schema's generic identifier rule but is not Python
        for (const bad of ["$realm", "2realm"]) {
          const { ctx, run } = make("realm", bad, repo);
          const { issues } = await rejection(run);
          assert.equal(issues[0].severity, "error");
          if (op === "replace_all_matching" || bad === "$realm") {
            assert.deepEqual(codes(issues), ["rename-invalid-name"], bad);
          }
          assert.equal(await repo.text(ctx, AUTH), before);
        }
      } finally {
        await repo.cleanup();
      }
    },
  });

  Deno.test({
    name: `${op}: a collision with a binding visible where the name is used is an error`,
    ignore: !!SKIP,
    fn: async () => {
      const { repo, before } = await authRepo();
      try {
        const cases: [string, string, RegExp][] = [
          // both locals of build_digest_header
          ["realm", "nonce", /"nonce" is already bound in the same scope/],
          // module level: `log = logging.getLogger(__name__)`
          ["_basic_auth_str", "log", /"log" is already bound in the same scope/],
          // the local would capture `os.urandom(8)` (line 120) in the same function
          ["path", "os", /existing use of "os" at line 120 would refer to the renamed binding/],
          // md5_utf8's `x` param is used inside; `hashlib` (module) use would resolve to it
          ["x", "hashlib", /hashlib/],
          // a builtin use inside md5_utf8 would resolve to build_digest_header's `hash_utf8`
          ["isinstance", "hash_utf8", /the use at line 83 would refer to the "hash_utf8" bound at line 86/],
        ];
        for (const [oldName, newName, message] of cases) {
          const { ctx, run } = make(oldName, newName, repo);
          const { issues } = await rejection(run);
          assert.ok(
            issues.length > 0 && issues.every((issue) => issue.code === "rename-collision"),
            `${oldName} -> ${newName}: ${JSON.stringify(issues)}`,
          );
          assert.match(issues[0].message, message, `${oldName} -> ${newName}`);
          assert.equal(issues[0].file, AUTH);
          assert.equal(typeof issues[0].line, "number");
          assert.equal(await repo.text(ctx, AUTH), before);
        }
      } finally {
        await repo.cleanup();
      }
    },
  });

  Deno.test({
    name: `${op}: shadowing a builtin or an outer name is a warning, and the rename happens`,
    ignore: !!SKIP,
    fn: async () => {
      const { repo, before } = await authRepo();
      try {
        // `entdig` (local of build_digest_header) -> `log` shadows the module's `log`
        let { ctx, run } = make("entdig", "log", repo);
        await run();
        let shadows = ctx.warnings.filter((issue) => issue.code === "rename-shadows");
        assert.equal(shadows.length, 1, JSON.stringify(ctx.warnings));
        assert.match(shadows[0].message, /shadows an outer "log"/);
        assert.equal(shadows[0].step, 0);
        let after = await repo.text(ctx, AUTH);
        assert.ok(after.includes("        log = None\n") && after.includes("        if log:\n"));
        await assertPythonParses(after);

        // module-level function -> `format` shadows the builtin
        ({ ctx, run } = make("_basic_auth_str", "format", repo));
        await run();
        shadows = ctx.warnings.filter((issue) => issue.code === "rename-shadows");
        assert.equal(shadows.length, 1, JSON.stringify(ctx.warnings));
        assert.match(shadows[0].message, /shadows the builtin "format"/);
        after = await repo.text(ctx, AUTH);
        assert.equal(after.split("format(self.username, self.password)").length, 3);
        assert.ok(after.includes("def format(username, password):"));
        assert.notEqual(after, before);
        await assertPythonParses(after);

        // build_digest_header's `s` -> `x`: shadowed by md5_utf8's parameter `x`
        ({ ctx, run } = make("s", "x", repo));
        await run();
        assert.ok(
          ctx.warnings.some((issue) => issue.code === "rename-shadowed"),
          JSON.stringify(ctx.warnings),
        );
        await assertPythonParses(await repo.text(ctx, AUTH));
      } finally {
        await repo.cleanup();
      }
    },
  });

  Deno.test({
    name: `${op}: strings and comments keep the old name; the result parses`,
    ignore: !!SKIP,
    fn: async () => {
      const { repo, before } = await authRepo();
      try {
        const { ctx, run } = make("nonce", "server_nonce", repo);
        await run();
        const after = await repo.text(ctx, AUTH);
        // the comment and the string literals are untouched
        assert.ok(after.includes("        # If we have a saved nonce, skip the 401\n"));
        assert.ok(after.includes("        server_nonce = self.chal['nonce']\n"));
        assert.ok(after.includes(`'username="%s", realm="%s", nonce="%s", uri="%s", '`));
        // every code occurrence renamed (lines 71-139 of build_digest_header), nothing else
        assert.equal(after.replaceAll("server_nonce", "nonce"), before);
        assert.equal(after.split("server_nonce").length - 1, 8);
        await assertPythonParses(after);
        assert.ok(!ctx.warnings.some((issue) => issue.code.startsWith("rename-sh")));
      } finally {
        await repo.cleanup();
      }
    },
  });
}

Deno.test({
  name: "rename_symbol: a valid rename of a module-level function renames its uses in methods",
  ignore: !!SKIP,
  fn: async () => {
    const { repo, before } = await authRepo();
    try {
      const { ctx, run } = renameSymbol({ old_name: "_basic_auth_str", new_name: "basic_auth_header" }, repo);
      assert.deepEqual(await run(), { file: AUTH, renamed: 3 });
      const after = await repo.text(ctx, AUTH);
      assert.equal(after, before.replaceAll("_basic_auth_str", "basic_auth_header"));
      assert.deepEqual(ctx.warnings, []);
      await assertPythonParses(after);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "replace_all_matching: string matches are not a rename (no name check)",
  ignore: !!SKIP,
  fn: async () => {
    const { repo, before } = await authRepo();
    try {
      // strings matched by a sexp: "None" is a keyword but this replaces string literals, not names
      const ctx = repo.ctx();
      await PRIMITIVES.replace_all_matching({
        locator: { type: "sexp", file: AUTH, query: `((string) @s (#eq? @s "'MD5-SESS'"))`, capture: "s" },
        replacement: "None",
      }, ctx);
      const after = await repo.text(ctx, AUTH);
      assert.equal(after, before.replaceAll("'MD5-SESS'", "None"));
      await assertPythonParses(after);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test({
  name: "replace_all_matching: a keyword constant replacing names must be parenthesized",
  ignore: !!PYTHON_SKIP,
  fn: async () => {
    const source = "DEBUG = True\n\n\ndef log(msg):\n    if DEBUG:\n        print(msg)\n";
    const repo = await makeRepo({ "debug.py": source });
    try {
      const ctx = repo.ctx();
      const run = (replacement: string) =>
        PRIMITIVES.replace_all_matching({
          locator: {
            type: "sexp",
            file: "debug.py",
            query: `(if_statement condition: (identifier) @id (#eq? @id "DEBUG"))`,
            capture: "id",
          },
          replacement,
        }, ctx);
      const { issues } = await rejection(() => run("False"));
      assert.deepEqual(codes(issues), ["rename-keyword"]);
      assert.match(issues[0].hint ?? "", /parenthesize/);
      assert.equal(await repo.text(ctx, "debug.py"), source);
      await run("(False)");
      const after = await repo.text(ctx, "debug.py");
      assert.equal(after, source.replace("if DEBUG:", "if (False):"));
      await assertPythonParses(after);
    } finally {
      await repo.cleanup();
    }
  },
});

Deno.test("replace_all_matching: JavaScript identifiers get the name check", async () => {
  const repo = await makeRepo({ "a.js": "const total = 1;\nconsole.log(total);\n" });
  try {
    const ctx = repo.ctx();
    const run = (replacement: string) =>
      PRIMITIVES.replace_all_matching({
        locator: {
          type: "sexp",
          file: "a.js",
          query: `((identifier) @id (#eq? @id "total"))`,
          capture: "id",
        },
        replacement,
      }, ctx);
    assert.deepEqual(codes((await rejection(() => run("typeof"))).issues), ["rename-keyword"]);
    assert.deepEqual(codes((await rejection(() => run("9lives"))).issues), ["rename-invalid-name"]);
    await run("$sum");
    assert.equal(await repo.text(ctx, "a.js"), "const $sum = 1;\nconsole.log($sum);\n");
  } finally {
    await repo.cleanup();
  }
});

Deno.test({
  name: "graphplan verify: an invalid new name and a collision are layer-0 errors of their step",
  ignore: !!SKIP,
  fn: async () => {
    const { repo, before } = await authRepo();
    try {
      const store = new DocumentStore(Workspace.open(repo.dir));
      const result = await verifyPlan(store, {
        plan: [
          { op: "rename_symbol", params: { file: AUTH, old_name: "realm", new_name: "class" } },
          {
            op: "replace_all_matching",
            params: { locator: { file: AUTH, kind: "identifier", name: "qop" }, replacement: "$qop" },
          },
          { op: "rename_symbol", params: { file: AUTH, old_name: "realm", new_name: "nonce" } },
          { op: "rename_symbol", params: { file: AUTH, old_name: "entdig", new_name: "log" } },
        ],
      });
      assert.equal(result.passed, false);
      const byStep = (step: number) => result.errors.filter((issue) => issue.step === step);
      assert.deepEqual(codes(byStep(0)), ["rename-keyword"]);
      assert.deepEqual(codes(byStep(1)), ["rename-invalid-name"]);
      assert.deepEqual(codes(byStep(2)), ["rename-collision"]);
      assert.deepEqual(codes(byStep(3)), []);
      for (const issue of result.errors) {
        assert.equal(issue.layer, "0", issue.message);
        assert.match(issue.message, /^Step \d \((rename_symbol|replace_all_matching)\): /);
        assert.equal(issue.path?.[issue.path.length - 1], issue.step === 1 ? "replacement" : "new_name");
      }
      const shadow = result.warnings.find((issue) => issue.code === "rename-shadows");
      assert.equal(shadow?.step, 3);
      // nothing written
      assert.equal(await Deno.readTextFile(`${repo.dir}/${AUTH}`), before);
    } finally {
      await repo.cleanup();
    }
  },
});
