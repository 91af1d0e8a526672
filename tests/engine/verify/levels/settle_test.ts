import assert from "node:assert/strict";
import type { Issue } from "../../../../engine/base/issue.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { settleWarnings } from "../../../../engine/verify/levels/mod.ts";
import { verifyPlan } from "../../../../engine/verify/mod.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus, materialize } from "../../../_support/corpus.ts";
import { planFromPatch } from "../../../bench/verify_plan.ts";
import { judgePatch, modelPatches, VERDICTS_SKIP } from "../../../bench/lift_patches.ts";
import { Compilers } from "../../../../engine/verify/compile/mod.ts";
import { DEFAULT_STRICT_CODES } from "../../../../engine/verify/strict.ts";

const ignore = CORPUS_SKIP !== undefined;
if (CORPUS_SKIP) console.log(`skipping settle tests: ${CORPUS_SKIP}`);

async function verifyGold(instance: string, steps?: number) {
  const found = (await loadCorpus()).find((item) => item.instance_id === instance)!;
  const plan = planFromPatch(found).slice(0, steps);
  const dir = await materialize(found);
  try {
    return await verifyPlan(new DocumentStore(Workspace.open(dir)), plan);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const codes = (issues: Issue[]) => issues.map((issue) => `${issue.step} ${issue.code}`);

Deno.test({
  name:
    "settle: a helper used by early steps and defined by the last one leaves no unbound-name (pytest-7236)",
  ignore,
  async fn() {
    // steps 0–2 call `_is_skipped`, step 3 appends its definition at the end of the module
    const whole = await verifyGold("pytest-dev__pytest-7236");
    assert.equal(whole.passed, true);
    assert.deepEqual(codes(whole.warnings).filter((code) => code.endsWith("unbound-name")), []);
    // without the last step the name is unbound at the end too: the warnings stay
    const partial = await verifyGold("pytest-dev__pytest-7236", 3);
    assert.deepEqual(codes(partial.warnings).filter((code) => code.endsWith("unbound-name")), [
      "0 unbound-name",
      "1 unbound-name",
      "2 unbound-name",
    ]);
  },
});

Deno.test({
  name: "settle: imports whose uses a later step re-adds settle, an import left unused at the end stays",
  ignore,
  async fn() {
    // pytest-5787 moves the uses of the Repr* imports into functions a later hunk adds
    const moved = await verifyGold("pytest-dev__pytest-5787");
    assert.deepEqual(codes(moved.warnings).filter((code) => /import-unused|unbound-name/.test(code)), []);
    // sympy-13146's gold patch really leaves `_aresame` imported and unused
    const left = await verifyGold("sympy__sympy-13146");
    const unused = left.warnings.filter((issue) => issue.code === "import-unused");
    assert.equal(unused.length, 1);
    assert.match(unused[0].message, /"_aresame"/);
  },
});

Deno.test({
  name: "settle: a call updated by a later step settles the removed-symbol warning (pytest-7373)",
  ignore,
  async fn() {
    const result = await verifyGold("pytest-dev__pytest-7373");
    assert.deepEqual(codes(result.warnings).filter((code) => code.endsWith("interface-mismatch")), []);
  },
});

Deno.test("settle: warnings of other codes, clipped names and missing files are kept", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-settle-" });
  await Deno.writeTextFile(`${dir}/a.py`, "import os\n\n\ndef helper():\n    return os.sep\n");
  const store = new DocumentStore(Workspace.open(dir));
  const issues: Issue[] = [
    {
      code: "trivial-body",
      severity: "warning",
      message: 'Edit reduces the body of "helper" to a stub',
      file: "a.py",
    },
    {
      code: "unbound-name",
      severity: "warning",
      message: `Name "${"h".repeat(77)}..." is not defined`,
      file: "a.py",
    },
    { code: "unbound-name", severity: "warning", message: 'Name "helper" is not defined', file: "gone.py" },
    {
      code: "import-unused",
      severity: "warning",
      message: 'Import of "os" is unused after the edit',
      file: "a.py",
    },
  ];
  const gone: Issue = {
    code: "unbound-name",
    severity: "warning",
    message: 'Name "helper" is not defined where the edit uses it',
    file: "a.py",
  };
  // `os` is used at the end, so that warning settles too; the other three stay
  assert.deepEqual(await settleWarnings([...issues, gone], store), issues.slice(0, 3));
  await Deno.remove(dir, { recursive: true });
});

Deno.test({
  name:
    "settle: a use of a local a later step assigns passes --strict, as the diff's final file does (sympy-18835, coder)",
  ignore: ignore || VERDICTS_SKIP !== undefined,
  async fn() {
    // step 0 reads `original_len` in the loop of `uniq`, a later step assigns it above the `try`;
    // the final file binds every read, and CPython and pyflakes find nothing new in it
    const instance = (await modelPatches()).find((item) => item.id === "sympy__sympy-18835@coder")!;
    const compilers = new Compilers();
    try {
      const outcome = await judgePatch(instance, compilers);
      assert.equal(outcome.lifted, true);
      assert.deepEqual(outcome.broken, []);
      assert.deepEqual(outcome.refusals, []);
      assert.equal(outcome.passed, true);
    } finally {
      await compilers.close();
    }
  },
});

Deno.test("settle: a parameter a later step adds settles its use, a name bound nowhere stays", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-settle-" });
  await Deno.writeTextFile(`${dir}/a.py`, "def price(item):\n    return item.cost\n");
  const store = new DocumentStore(Workspace.open(dir));
  const guard = {
    template: "guard_clause",
    params: {
      target: { file: "a.py", kind: "function", name: "price" },
      condition: "item is None",
      guard_body: "return default",
    },
  };
  const parameter = {
    template: "add_parameter",
    params: { target: { file: "a.py", kind: "function", name: "price" }, name: "default", default: "0" },
  };
  try {
    const both = await verifyPlan(store, [guard, parameter], { strict: DEFAULT_STRICT_CODES });
    assert.deepEqual(both.errors, []);
    assert.equal(both.passed, true);
    const alone = await verifyPlan(store, [guard], { strict: DEFAULT_STRICT_CODES });
    assert.deepEqual(codes(alone.errors), ["0 unbound-name"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("settle: a method whose parameters one step drops and the next renames leaves no interface-mismatch; dropped alone it stays", async () => {
  // django's lookups (Debian's 0008 patch): Exact.process_rhs(compiler, connection) becomes
  // get_prep_lookup(); the calls `self.process_rhs(compiler, connection)` then reach Lookup's, unchanged
  const dir = await Deno.makeTempDir({ prefix: "graphplan-settle-" });
  await Deno.writeTextFile(
    `${dir}/lookups.py`,
    [
      "class Lookup:",
      "    def process_rhs(self, compiler, connection):",
      "        return compiler.compile(self.rhs)",
      "",
      "    def as_sql(self, compiler, connection):",
      "        return self.process_rhs(compiler, connection)",
      "",
      "",
      "class Exact(Lookup):",
      "    def process_rhs(self, compiler, connection):",
      "        if self.rhs is None:",
      "            raise ValueError('no rhs')",
      "        return super().process_rhs(compiler, connection)",
      "",
    ].join("\n"),
  );
  const store = new DocumentStore(Workspace.open(dir));
  const method = {
    file: "lookups.py",
    kind: "method",
    name: "process_rhs",
    parent: { kind: "class", name: "Exact" },
  };
  const drop = (name: string) => ({
    op: "delete_node",
    params: { target: { file: "lookups.py", kind: "parameter", name, parent: method } },
  });
  const body = {
    template: "replace_function_body",
    params: {
      target: method,
      body:
        "        if self.rhs is None:\n            raise ValueError('no rhs')\n        return super().get_prep_lookup()\n",
    },
  };
  const rename = {
    template: "replace_expression",
    params: {
      target: { file: "lookups.py", kind: "identifier", name: "process_rhs", parent: method },
      expression: "get_prep_lookup",
    },
  };
  try {
    const renamed = await verifyPlan(store, [body, drop("connection"), drop("compiler"), rename], {
      strict: DEFAULT_STRICT_CODES,
    });
    assert.deepEqual(codes(renamed.errors), []);
    assert.equal(renamed.passed, true);
    // without the rename Exact.process_rhs() takes no arguments at the end: the call in as_sql breaks
    const dropped = await verifyPlan(store, [body, drop("connection"), drop("compiler")], {
      strict: DEFAULT_STRICT_CODES,
    });
    assert.deepEqual(codes(dropped.errors), ["1 interface-mismatch"]);
    assert.match(dropped.errors[0].message, /lookups\.py:6" breaks: the signature of "Exact\.process_rhs"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
