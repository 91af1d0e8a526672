/**
 * A real compiler when one is there: plans whose result the grammar and the
 * statement-context rules accept but CPython (or V8) refuses are rolled
 * back by `apply` and failed by `verify`; one interpreter process serves a
 * whole helper session; without python on PATH the helper runs as before
 * and says `compiled: null`.
 */

import assert from "node:assert/strict";
import { Compilers } from "../../../engine/verify/compile/mod.ts";
import { PYTHON_SKIP } from "../../_support/python.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { makeRepo, snapshot } from "../exec/_support.ts";
import { runCli } from "./_cli.ts";
import { nodeSkip } from "../edit/_edit_support.ts";
import { AUTH, corpusText } from "./plan/_support.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

/** A directory holding only a `deno` link: a PATH without python or node. */
function bareBin(): string {
  const dir = Deno.makeTempDirSync({ prefix: "graphplan-bin-" });
  Deno.symlinkSync(Deno.execPath(), `${dir}/deno`);
  return dir;
}

const cli = runCli;

/** A call only CPython refuses: the grammar and L0 accept an unparenthesized generator among arguments. */
const GENERATOR_ARG = {
  op: "insert_after_node",
  params: {
    locator: {
      file: AUTH,
      kind: "statement",
      parent: { kind: "method", name: "__init__", parent: { kind: "class", name: "HTTPBasicAuth" } },
      index: -1,
    },
    code: "self.parts = list(c for c in username, password)",
  },
};

Deno.test({
  name:
    "compile: apply rolls back a plan CPython refuses (byte for byte); verify fails it; both say compiled python3.N",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const dir = makeRepo({ [AUTH]: await corpusText("psf__requests-1766", AUTH) });
    const plan = JSON.stringify([GENERATOR_ARG]);
    const before = snapshot(dir);
    const applied = await cli(["apply", "-", "--repo", dir, "--json"], { stdin: plan });
    assert.equal(applied.code, 1, applied.stderr);
    const result = JSON.parse(applied.stdout);
    assert.equal(result.rolled_back, true);
    assert.match(result.compiled, /^python3\.\d+$/);
    assert.deepEqual(result.errors.map((e: { code: string; level: string }) => `${e.code} ${e.level}`), [
      "compile-error L0",
    ]);
    assert.match(result.errors[0].message, /Generator expression must be parenthesized/);
    assert.equal(result.errors[0].line, 45);
    assert.deepEqual(snapshot(dir), before);
    const verified = await cli(["verify", "-", "--repo", dir, "--json"], { stdin: plan });
    assert.equal(verified.code, 1);
    const report = JSON.parse(verified.stdout);
    assert.equal(report.passed, false);
    assert.deepEqual(report.errors.map((e: { code: string }) => e.code), ["compile-error"]);
    assert.equal(report.compiled, result.compiled);
    // a plan CPython accepts is applied, compiled with the same interpreter
    const fine = JSON.stringify([{
      ...GENERATOR_ARG,
      params: { ...GENERATOR_ARG.params, code: "self.parts = [username, password]" },
    }]);
    const ok = JSON.parse((await cli(["apply", "-", "--repo", dir, "--json"], { stdin: fine })).stdout);
    assert.equal(ok.success, true);
    assert.equal(ok.compiled, result.compiled);
  },
});

Deno.test({
  name: "compile: without python on PATH the helper applies as before and reports compiled null",
  ignore: CORPUS_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const dir = makeRepo({ [AUTH]: await corpusText("psf__requests-1766", AUTH) });
    const bin = bareBin();
    const applied = await cli(["apply", "-", "--repo", dir, "--json"], {
      stdin: JSON.stringify([GENERATOR_ARG]),
      path: bin,
    });
    const result = JSON.parse(applied.stdout);
    // nothing can tell the generator argument apart without a compiler: applied, and said so
    assert.equal(result.success, true, applied.stderr);
    assert.equal(result.compiled, null);
    const served = await cli(["helper", "--serve", "--repo", dir], {
      path: bin,
      stdin: JSON.stringify({ id: 1, method: "verify_plan", params: { plan: [GENERATOR_ARG] } }) + "\n",
    });
    assert.equal(JSON.parse(served.stdout).result.compiled, null);
    Deno.removeSync(bin, { recursive: true });
  },
});

Deno.test({
  name: "compile: one CPython process serves every plan of a helper session",
  ignore: PYTHON_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const python = new Deno.Command("python3", { args: ["-c", "import sys; print(sys.executable)"] })
      .outputSync();
    const real = new TextDecoder().decode(python.stdout).trim();
    const bin = bareBin();
    const log = `${bin}/starts.log`;
    // a python3 that counts its starts, then is the real one
    Deno.writeTextFileSync(`${bin}/python3`, `#!/bin/sh\necho start >> "${log}"\nexec "${real}" "$@"\n`, {
      mode: 0o755,
    });
    const dir = makeRepo({ "a.py": "def f():\n    return 1\n", "b.py": "X = 1\n", "c.py": "Y = 2\n" });
    const step = (file: string, code: string) => ({
      op: "insert_after_node",
      params: { locator: { file, kind: "statement", index: -1 }, code },
    });
    const requests = [
      { id: 1, method: "execute_plan", params: { plan: [step("b.py", "Z = 3"), step("c.py", "W = 4")] } },
      { id: 2, method: "verify_plan", params: { plan: [step("a.py", "V = f(x for x in [1], 2)")] } },
      { id: 3, method: "execute_plan", params: { plan: [step("a.py", "U = 5")] } },
    ];
    const served = await cli(["helper", "--serve", "--repo", dir], {
      path: bin,
      stdin: requests.map((r) => JSON.stringify(r)).join("\n") + "\n",
    });
    const answers = served.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(answers[0].result.success, true, served.stdout);
    assert.match(answers[0].result.compiled, /^python3\.\d+$/);
    assert.deepEqual(answers[1].result.errors.map((e: { code: string }) => e.code), ["compile-error"]);
    assert.equal(answers[2].result.success, true);
    assert.equal(Deno.readTextFileSync(log), "start\n");
    Deno.removeSync(bin, { recursive: true });
  },
});

Deno.test({
  name: "compile: a file that did not compile before the plan is not blamed (Python 2 code)",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const compilers = new Compilers();
    try {
      const before = 'print "hello"\n';
      const report = await compilers.check([
        { path: "old.py", language: "python", before, after: before + "x = f(a for a in b, 1)\n", step: 0 },
      ]);
      assert.deepEqual(report.errors, []);
      assert.match(String(report.compiled), /^python3\.\d+$/);
      const fresh = await compilers.check([
        { path: "new.py", language: "python", before: "", after: "def f(a, a):\n    pass\n", step: 2 },
      ]);
      assert.deepEqual(fresh.errors.map((e) => [e.code, e.step, e.line]), [["compile-error", 2, 1]]);
    } finally {
      await compilers.close();
    }
  },
});

Deno.test({
  name: "compile: node checks changed JavaScript (a redeclared let; CommonJS top-level return; an ES module)",
  ignore: nodeSkip() !== undefined,
  async fn() {
    const compilers = new Compilers();
    try {
      const report = await compilers.check([
        { path: "a.js", language: "javascript", before: "let a = 1;\n", after: "let a = 1;\nlet a = 2;\n" },
        { path: "b.js", language: "javascript", before: "x();\n", after: "x();\nreturn;\n" },
        {
          path: "c.js",
          language: "javascript",
          before: "export const a = 1;\n",
          after: "export const a = 2;\n",
        },
        { path: "d.mjs", language: "javascript", before: "export {};\n", after: "export {};\nreturn;\n" },
      ]);
      // (V8 gives a module's syntax error no line through vm)
      assert.deepEqual(report.errors.map((e) => `${e.file}:${e.line ?? "?"}`), ["a.js:2", "d.mjs:?"]);
      assert.match(report.errors[0].message, /already been declared/);
      assert.match(String(report.compiled), /^node\d+/);
    } finally {
      await compilers.close();
    }
  },
});

Deno.test("compile: with an empty PATH nothing is started and nothing is judged", SLOW, async () => {
  const bin = bareBin();
  const compilers = new Compilers({ env: { PATH: bin } });
  try {
    const report = await compilers.check([
      { path: "a.py", language: "python", before: "x = 1\n", after: "def f(a, a): pass\n" },
      { path: "a.js", language: "javascript", before: "", after: "let a; let a;\n" },
    ]);
    assert.deepEqual(report, { errors: [], compiled: null });
  } finally {
    await compilers.close();
    Deno.removeSync(bin, { recursive: true });
  }
});

Deno.test({
  name:
    "compile: a CPython older than the declared requires-python gives no verdict (3.12 f-string quotes, declared >=3.12)",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    // The version of the local python3, to declare one minor above it: its refusal of newer syntax is no verdict.
    const probe = new Deno.Command("python3", { args: ["-c", "import sys; print(sys.version_info[1])"] });
    const minor = Number(new TextDecoder().decode((await probe.output()).stdout).trim());
    const source = 'names = {"first": "a"}\n';
    const plan = JSON.stringify([{
      op: "insert_after_node",
      params: {
        locator: { file: "pkg/a.py", kind: "assignment", name: "names" },
        code: 'label = f"{names["x"]}"',
      },
    }]);
    const newer = makeRepo({
      "pyproject.toml": `[project]\nname = "x"\nrequires-python = ">=3.${Math.max(minor + 1, 12)}"\n`,
      "pkg/a.py": source,
    });
    const verified = JSON.parse(
      (await cli(["verify", "-", "--repo", newer, "--json"], { stdin: plan })).stdout,
    );
    assert.deepEqual(verified.errors, [], JSON.stringify(verified.errors));
    assert.equal(verified.passed, true);
    const applied = JSON.parse(
      (await cli(["apply", "-", "--repo", newer, "--json"], { stdin: plan })).stdout,
    );
    assert.equal(applied.success, true, JSON.stringify(applied.errors));
    assert.equal(Deno.readTextFileSync(`${newer}/pkg/a.py`), source + 'label = f"{names["x"]}"\n');
    // Declared at the interpreter's own version, the new syntax is refused (before any compiling).
    if (minor < 12) {
      const same = makeRepo({
        "pyproject.toml": `[project]\nname = "x"\nrequires-python = ">=3.${minor}"\n`,
        "pkg/a.py": source,
      });
      const refused = JSON.parse(
        (await cli(["verify", "-", "--repo", same, "--json"], { stdin: plan })).stdout,
      );
      assert.deepEqual(refused.errors.map((e: { code: string }) => e.code), ["syntax-too-new"]);
    }
  },
});
