/**
 * Whole-file steps verified like any edit: a new file must parse and must
 * not use syntax newer than the repository's declared Python; a deleted
 * module must not be imported by the files that remain (CPython's import
 * is the independent oracle: the plan verify refuses is the one whose
 * result Python cannot import).
 *
 * @module
 */

import assert from "node:assert/strict";
import { verifyPlan } from "../../../../engine/verify/mod.ts";
import { executePlan } from "../../../../engine/exec/execute.ts";
import { parsePlanSteps } from "../../../../engine/exec/wiring.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { makeRepo } from "../../exec/_support.ts";
import { PYTHON_SKIP } from "../../../_support/python.ts";
import { Compilers } from "../../../../engine/verify/compile/mod.ts";

const FILES = {
  "pkg/__init__.py": "",
  "pkg/helpers.py": "import os\n\n\ndef helper():\n    return os.sep\n",
  "app.py": "from pkg.helpers import helper\n\nprint(helper())\n",
  "setup.py": 'from setuptools import setup\n\nsetup(name="x", python_requires=">=2.7")\n',
};

const verify = (dir: string, plan: unknown[]) => verifyPlan(new DocumentStore(Workspace.open(dir)), plan);

/** Whether CPython can import `module` in `dir`. */
function imports(dir: string, module: string): boolean {
  return new Deno.Command("python3", {
    args: ["-c", `import ${module}`],
    cwd: dir,
    stdout: "null",
    stderr: "null",
  })
    .outputSync().success;
}

Deno.test({
  name:
    "verify: a deleted module still imported is an error naming the import; dropping the import too passes",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const dir = makeRepo(FILES);
    const deletion = { op: "delete_file", params: { file: "pkg/helpers.py" } };
    const broken = await verify(dir, [deletion]);
    assert.equal(broken.passed, false);
    const issue = broken.errors.find((i) => i.code === "deleted-module-imported")!;
    assert.deepEqual([issue.file, issue.line, issue.step], ["app.py", 1, 0]);
    assert.match(
      issue.message,
      /Deleting "pkg\/helpers\.py" leaves it imported: "app\.py:1" imports "helper" from "pkg\.helpers"/,
    );
    const fix = {
      op: "replace_code",
      params: {
        file: "app.py",
        pattern: "from pkg.helpers import helper\n\nprint(helper())\n",
        replacement: "import os\n\nprint(os.sep)\n",
      },
    };
    const fixed = await verify(dir, [deletion, fix]);
    assert.deepEqual(fixed.errors, []);
    // The oracle: executed, the fixed plan leaves a program Python imports; the refused one would not.
    const { steps, runStep } = await parsePlanSteps([deletion, fix]);
    assert.equal(
      (await executePlan(new DocumentStore(Workspace.open(dir)), steps, { runStep })).success,
      true,
    );
    assert.equal(imports(dir, "app"), true);
    const other = makeRepo(FILES);
    Deno.removeSync(`${other}/pkg/helpers.py`);
    assert.equal(imports(other, "app"), false);
  },
});

Deno.test("verify: a new file is checked whole: a syntax error, and an f-string under a declared Python 2.7", async () => {
  const dir = makeRepo(FILES);
  const create = (content: string) => [{ op: "create_file", params: { file: "reproduce.py", content } }];
  assert.deepEqual(
    (await verify(dir, create("from pkg.helpers import helper\nprint(helper())\n"))).errors,
    [],
  );
  const syntax = await verify(dir, create("def f(:\n    pass\n"));
  assert.deepEqual(syntax.errors.map((i) => [i.code, i.step]), [["syntax-error", 0]]);
  const fstring = await verify(dir, create('name = "x"\nprint(f"{name}")\n'));
  assert.deepEqual(fstring.errors.map((i) => i.code), ["syntax-too-new"]);
  assert.match(fstring.errors[0].message, /2\.7/);
  const exists = await verify(dir, [{ op: "create_file", params: { file: "app.py", content: "X = 1\n" } }]);
  assert.deepEqual(exists.errors.map((i) => i.code), ["file-exists"]);
});

Deno.test({
  name: "verify: with the compile oracle, a new file CPython refuses is an error of its create_file step",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const dir = makeRepo(FILES);
    const compilers = new Compilers();
    try {
      // The grammar and L0 accept it; CPython does not ("assigned to before global declaration").
      const content = "def f():\n    x = 1\n    global x\n";
      const result = await verifyPlan(
        new DocumentStore(Workspace.open(dir)),
        [{ op: "create_file", params: { file: "reproduce.py", content } }],
        { compilers },
      );
      assert.match(String(result.compiled), /^python3/);
      assert.deepEqual(result.errors.map((i) => [i.file, i.step]), [["reproduce.py", 0]]);
      assert.match(result.errors[0].message, /global declaration/);
    } finally {
      await compilers.close();
    }
  },
});
