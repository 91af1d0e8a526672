import assert from "node:assert/strict";
import { git, GIT_SKIP, gitInit, makeRepo, snapshot, spliceBytes, STATE_HOME } from "./_support.ts";
import { runTestStep } from "./_test_operator.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { assertPythonParses, PYTHON_SKIP } from "../../_support/python.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { executePlan, journalDirFor } from "../../../engine/exec/mod.ts";
import type { PostCheck } from "../../../engine/verify/post_checks.ts";
import { warning } from "../../../engine/base/issue.ts";

function storeFor(dir: string): DocumentStore {
  return new DocumentStore(Workspace.open(dir));
}

function run(dir: string, steps: unknown[], options: { dryRun?: boolean; checks?: PostCheck[] } = {}) {
  return executePlan(storeFor(dir), steps, { runStep: runTestStep, ...options });
}

function journalExists(dir: string): boolean {
  try {
    Deno.statSync(journalDirFor(Deno.realPathSync(dir)));
    return true;
  } catch {
    return false;
  }
}

const PY = "import os\n\n\ndef greet(name):\n    return 'hello ' + name\n\n\nclass Box:\n    size = 1\n";

Deno.test("a successful plan writes every step and clears the journal", async () => {
  const dir = makeRepo({ "a.py": PY, "pkg/b.py": "X = 1\nY = 2\n" });
  const result = await run(dir, [
    { op: "replace", file: "a.py", old: "'hello '", new: "'hi '" },
    { op: "replace", file: "pkg/b.py", old: "Y = 2", new: "Y = 3" },
    { op: "read", file: "a.py" },
  ]);
  assert.equal(result.success, true, JSON.stringify(result.errors));
  assert.equal(result.rolled_back, false);
  assert.deepEqual(result.errors, []);
  assert.deepEqual(result.files_changed, ["a.py", "pkg/b.py"]);
  assert.deepEqual(result.outputs, [null, null, { lines: 10 }]);
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), PY.replace("'hello '", "'hi '"));
  assert.equal(Deno.readTextFileSync(`${dir}/pkg/b.py`), "X = 1\nY = 3\n");
  assert.equal(journalExists(dir), false);
  assert.ok(!journalDirFor(dir).startsWith(dir) && journalDirFor(dir).startsWith(STATE_HOME));
});

Deno.test("a step that introduces a syntax error fails and leaves every file byte-identical", async () => {
  const dir = makeRepo({ "a.py": PY });
  const before = snapshot(dir);
  const result = await run(dir, [{
    op: "replace",
    file: "a.py",
    old: "def greet(name):",
    new: "def greet(name:",
  }]);
  assert.equal(result.success, false);
  assert.equal(result.rolled_back, true);
  assert.equal(result.failed_step, 0);
  assert.deepEqual(result.files_changed, []);
  assert.equal(result.errors[0].code, "syntax-error");
  assert.equal(result.errors[0].level, "L0");
  assert.equal(result.errors[0].step, 0);
  assert.equal(result.errors[0].file, "a.py");
  assert.deepEqual(snapshot(dir), before);
  assert.equal(journalExists(dir), false);
});

Deno.test("a plan failing at step 3 restores the files changed by steps 0-2 (corpus files)", {
  ignore: CORPUS_SKIP !== undefined,
}, async () => {
  const corpus = await loadCorpus();
  const picked = corpus.flatMap((instance) => instance.files.filter((f) => f.path.endsWith(".py"))).slice(
    0,
    3,
  );
  const files: Record<string, string> = {};
  picked.forEach((file, i) => (files[`f${i}/${file.path.split("/").pop()}`] = file.before));
  const dir = makeRepo(files);
  const paths = Object.keys(files);
  const before = snapshot(dir);
  const result = await run(dir, [
    { op: "edits", file: paths[0], edits: [{ start: 0, end: 0, replacement: "# step 0\n" }] },
    { op: "edits", file: paths[1], edits: [{ start: 0, end: 0, replacement: "# step 1\n" }] },
    { op: "edits", file: paths[0], edits: [{ start: 0, end: 0, replacement: "# step 2\n" }] },
    { op: "edits", file: paths[2], edits: [{ start: 0, end: 0, replacement: "def broken(:\n" }] },
    { op: "edits", file: paths[2], edits: [{ start: 0, end: 0, replacement: "# never\n" }] },
  ]);
  assert.equal(result.success, false);
  assert.equal(result.rolled_back, true);
  assert.equal(result.failed_step, 3);
  assert.ok(result.errors.every((issue) => issue.step === 3));
  assert.deepEqual(snapshot(dir), before);
  assert.equal(journalExists(dir), false);
});

Deno.test("a failing pre-check and an unknown file fail with the step number, nothing written", async () => {
  const dir = makeRepo({ "a.py": PY });
  const before = snapshot(dir);
  const first = await run(dir, [{ op: "replace", file: "a.py", old: "os", new: "sys" }, { op: "fail" }]);
  assert.equal(first.failed_step, 1);
  assert.equal(first.errors[0].code, "template-precondition");
  assert.equal(first.errors[0].step, 1);
  const second = await run(dir, [{ op: "replace", file: "missing.py", old: "a", new: "b" }]);
  assert.equal(second.errors[0].code, "file-not-found");
  assert.equal(second.errors[0].step, 0);
  assert.deepEqual(snapshot(dir), before);
});

Deno.test("two overlapping edits in one step are an issue carrying the step number", async () => {
  const dir = makeRepo({ "a.py": PY });
  const before = snapshot(dir);
  const result = await run(dir, [
    { op: "replace", file: "a.py", old: "import os", new: "import sys" },
    {
      op: "edits",
      file: "a.py",
      edits: [{ start: 0, end: 6, replacement: "x" }, { start: 3, end: 9, replacement: "y" }],
    },
  ]);
  assert.equal(result.success, false);
  assert.equal(result.failed_step, 1);
  assert.equal(result.errors[0].code, "edits-overlap");
  assert.equal(result.errors[0].step, 1);
  assert.deepEqual(snapshot(dir), before);
});

Deno.test("file modes are kept on write", async () => {
  const dir = makeRepo({ "run.py": "#!/usr/bin/env python3\nprint(1)\n", "secret.py": "KEY = 1\n" });
  Deno.chmodSync(`${dir}/run.py`, 0o755);
  Deno.chmodSync(`${dir}/secret.py`, 0o600);
  const result = await run(dir, [
    { op: "replace", file: "run.py", old: "print(1)", new: "print(2)" },
    { op: "replace", file: "secret.py", old: "1", new: "2" },
  ]);
  assert.equal(result.success, true);
  assert.equal(Deno.statSync(`${dir}/run.py`).mode! & 0o7777, 0o755);
  assert.equal(Deno.statSync(`${dir}/secret.py`).mode! & 0o7777, 0o600);
  // And restored with their modes after a failed plan.
  const failed = await run(dir, [{ op: "replace", file: "run.py", old: "print(2)", new: "print(3)" }, {
    op: "fail",
  }]);
  assert.equal(failed.rolled_back, true);
  assert.equal(Deno.statSync(`${dir}/run.py`).mode! & 0o7777, 0o755);
  assert.equal(Deno.readTextFileSync(`${dir}/run.py`), "#!/usr/bin/env python3\nprint(2)\n");
});

Deno.test("CRLF, tabs, a BOM and non-ASCII text keep their bytes outside the edited region", async () => {
  const text =
    "# -*- coding: utf-8 -*-\r\nNAME = 'café 日本 😀'\r\n\r\ndef f(x):\r\n\tif x:\r\n\t\treturn 'ü'\r\n\treturn None\r\n";
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
  const dir = makeRepo({ "m.py": bytes, "plain.py": "a = 'naïve'\r\nb = 2" });
  const result = await run(dir, [
    { op: "replace", file: "m.py", old: "'ü'", new: "'ö ∑'" },
    { op: "replace", file: "plain.py", old: "2", new: "3" },
  ]);
  assert.equal(result.success, true, JSON.stringify(result.errors));
  assert.deepEqual(Deno.readFileSync(`${dir}/m.py`), spliceBytes(bytes, "'ü'", "'ö ∑'"));
  assert.deepEqual(Deno.readFileSync(`${dir}/plain.py`), new TextEncoder().encode("a = 'naïve'\r\nb = 3"));
});

Deno.test("paths outside the repository are refused, symlinks included, and nothing is written", async () => {
  const outside = makeRepo({ "victim.py": "x = 1\n" });
  const dir = makeRepo({ "a.py": PY });
  Deno.symlinkSync(`${outside}/victim.py`, `${dir}/link.py`);
  Deno.symlinkSync(outside, `${dir}/out`);
  const before = snapshot(outside);
  for (
    const file of ["../victim.py", `${outside}/victim.py`, "link.py", "out/victim.py", "pkg/../../victim.py"]
  ) {
    const result = await run(dir, [
      { op: "replace", file: "a.py", old: "import os", new: "import sys" },
      { op: "replace", file, old: "x = 1", new: "x = 2" },
    ]);
    assert.equal(result.success, false, file);
    assert.equal(result.failed_step, 1);
    assert.equal(result.errors[0].code, "path-outside-repo", file);
    assert.equal(Deno.readTextFileSync(`${dir}/a.py`), PY);
  }
  assert.deepEqual(snapshot(outside), before);
});

Deno.test("a symlink inside the repository is written through, the link kept", async () => {
  const dir = makeRepo({ "real/a.py": PY });
  Deno.symlinkSync("real/a.py", `${dir}/alias.py`);
  const result = await run(dir, [{ op: "replace", file: "alias.py", old: "size = 1", new: "size = 2" }]);
  assert.equal(result.success, true, JSON.stringify(result.errors));
  assert.equal(Deno.lstatSync(`${dir}/alias.py`).isSymlink, true);
  assert.equal(Deno.readTextFileSync(`${dir}/real/a.py`), PY.replace("size = 1", "size = 2"));
  assert.deepEqual([...Deno.readDirSync(`${dir}/real`)].map((e) => e.name), ["a.py"]);
});

Deno.test("a file that already fails to parse can be edited elsewhere, but not broken further", async () => {
  const broken = "def ok():\n    return 1\n\n\ndef bad(:\n    pass\n\n\nVALUE = 10\n";
  const dir = makeRepo({ "b.py": broken });
  const fine = await run(dir, [{ op: "replace", file: "b.py", old: "VALUE = 10", new: "VALUE = 11" }]);
  assert.equal(fine.success, true, JSON.stringify(fine.errors));
  const nearby = await run(dir, [{ op: "replace", file: "b.py", old: "return 1", new: "return 2" }]);
  assert.equal(nearby.success, true, JSON.stringify(nearby.errors));
  const worse = await run(dir, [{ op: "replace", file: "b.py", old: "VALUE = 11", new: "VALUE = (11" }]);
  assert.equal(worse.success, false);
  assert.equal(worse.errors[0].code, "syntax-error");
  assert.equal(
    Deno.readTextFileSync(`${dir}/b.py`),
    broken.replace("10", "11").replace("return 1", "return 2"),
  );
});

Deno.test("post-checks are pluggable: an error blocks, a warning is reported", async () => {
  const dir = makeRepo({ "a.py": PY });
  const blockTodo: PostCheck = (change, ctx) =>
    change.after.file.text.includes("TODO")
      ? [{
        code: "postcondition-failed",
        severity: "error",
        message: "No TODOs",
        step: ctx.step,
        level: "L3",
      }]
      : [warning("no-op-edit", `Checked "${change.path}"`)];
  const ok = await run(dir, [{ op: "replace", file: "a.py", old: "os", new: "sys" }], {
    checks: [blockTodo],
  });
  assert.equal(ok.success, true);
  assert.deepEqual(ok.warnings.map((w) => [w.code, w.step]), [["no-op-edit", 0]]);
  const blocked = await run(dir, [{ op: "replace", file: "a.py", old: "sys", new: "sys  # TODO" }], {
    checks: [blockTodo],
  });
  assert.equal(blocked.success, false);
  assert.equal(blocked.errors[0].code, "postcondition-failed");
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), PY.replace("os", "sys"));
});

Deno.test("a dry run writes nothing and returns a diff that git applies to the same bytes", {
  ignore: GIT_SKIP !== undefined,
}, async () => {
  const crlf = "a = 1\r\nb = 2\r\nc = 3\r\n";
  const dir = makeRepo({ "a.py": PY, "c.py": crlf, "n.py": "x = 1" });
  gitInit(dir);
  const steps = [
    { op: "replace", file: "a.py", old: "'hello '", new: "'hi '" },
    { op: "replace", file: "c.py", old: "b = 2", new: "b = 20\r\nbb = 21" },
    { op: "replace", file: "n.py", old: "x = 1", new: "x = 2\ny = 3" },
  ];
  const before = snapshot(dir);
  const dry = await run(dir, steps, { dryRun: true });
  assert.equal(dry.success, true);
  assert.deepEqual(snapshot(dir), before);
  assert.equal(journalExists(dir), false);
  assert.deepEqual(dry.files_changed, ["a.py", "c.py", "n.py"]);
  Deno.writeTextFileSync(`${dir}/../dry.patch`, dry.diff!);
  git(dir, "apply", "--check", `${dir}/../dry.patch`);
  git(dir, "apply", `${dir}/../dry.patch`);
  const viaGit = snapshot(dir);
  git(dir, "checkout", "-q", "--", ".");
  const real = await run(dir, steps);
  assert.equal(real.success, true);
  assert.deepEqual(snapshot(dir), viaGit);
  // The journal lives outside the repository: git sees only the edited files.
  assert.deepEqual(git(dir, "status", "--porcelain").trimEnd().split("\n").sort(), [
    " M a.py",
    " M c.py",
    " M n.py",
  ]);
});

Deno.test("edits on corpus files keep the files valid Python for CPython", {
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
}, async () => {
  const corpus = await loadCorpus();
  const file = corpus.flatMap((i) => i.files).find((f) =>
    f.path.endsWith(".py") && f.before.includes("\ndef ")
  )!;
  const dir = makeRepo({ "m.py": file.before });
  const result = await run(dir, [{
    op: "replace",
    file: "m.py",
    old: "\ndef ",
    new: "\n\ndef _added():\n    return 1\n\ndef ",
  }]);
  assert.equal(result.success, true, JSON.stringify(result.errors));
  await assertPythonParses(Deno.readTextFileSync(`${dir}/m.py`), "edited corpus file");
});

Deno.test("a step's name warning that a later step makes untrue is dropped, as verify drops it", async () => {
  const dir = makeRepo({ "a.py": PY });
  const useHelper = {
    op: "replace",
    file: "a.py",
    old: "return 'hello ' + name",
    new: "return greeting() + name",
  };
  // Alone, the step leaves a call to a name nothing binds.
  const alone = await run(dir, [useHelper], { dryRun: true });
  assert.equal(alone.success, true, JSON.stringify(alone.errors));
  assert.deepEqual(alone.warnings.map((issue) => issue.code), ["unbound-name"]);
  // A later step defines it: the files after the plan are fine, and so is the report.
  const defineHelper = {
    op: "replace",
    file: "a.py",
    old: "class Box:",
    new: "def greeting():\n    return 'hello '\n\n\nclass Box:",
  };
  const both = await run(dir, [useHelper, defineHelper]);
  assert.equal(both.success, true, JSON.stringify(both.errors));
  assert.deepEqual(both.warnings, []);
  await assertPythonParses(Deno.readTextFileSync(`${dir}/a.py`));
});
