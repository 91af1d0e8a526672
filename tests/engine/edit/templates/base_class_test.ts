import assert from "node:assert/strict";
import { TEMPLATES } from "../../../../engine/edit/templates/mod.ts";
import { IssueError } from "../../../../engine/base/issue.ts";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { loadCorpus } from "../../../_support/corpus.ts";
import { contextWith, CORPUS_SKIP, textOf } from "../_edit_support.ts";

async function add(source: string, params: Record<string, unknown>) {
  const { ctx } = await contextWith({ "m.py": source });
  await TEMPLATES.add_base_class.run({ target: { file: "m.py", kind: "class", name: "C" }, ...params }, ctx);
  return { text: await textOf(ctx, "m.py"), warnings: ctx.warnings.map((w) => w.code) };
}

Deno.test("add_base_class: last, first, before keyword arguments, and into a class without bases", async () => {
  assert.equal((await add("class C(A):\n    pass\n", { base: "B" })).text, "class C(A, B):\n    pass\n");
  assert.equal(
    (await add("class C(A):\n    pass\n", { base: "B", first: true })).text,
    "class C(B, A):\n    pass\n",
  );
  assert.equal(
    (await add("class C(A, metaclass=M):\n    pass\n", { base: "B" })).text,
    "class C(A, B, metaclass=M):\n    pass\n",
  );
  assert.equal((await add("class C:\n    pass\n", { base: "B" })).text, "class C(B):\n    pass\n");
  assert.equal((await add("class C():\n    pass\n", { base: "B" })).text, "class C(B):\n    pass\n");
});

Deno.test("add_base_class: a listed base is a no-op; a function target is refused", async () => {
  const again = await add("class C(A, B):\n    pass\n", { base: "B" });
  assert.equal(again.text, "class C(A, B):\n    pass\n");
  assert.deepEqual(again.warnings, ["already-present"]);
  const { ctx } = await contextWith({ "m.py": "def C():\n    pass\n" });
  await assert.rejects(
    () =>
      TEMPLATES.add_base_class.run({ target: { file: "m.py", kind: "function", name: "C" }, base: "B" }, ctx),
    (err) => err instanceof IssueError,
  );
});

Deno.test({
  name: "add_base_class: sympy-22456's String gains Atom first; CPython sees the bases of the fixed file",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const instance = (await loadCorpus()).find((i) => i.instance_id === "sympy__sympy-22456")!;
    const file = instance.files.find((f) => f.path === "sympy/codegen/ast.py")!;
    const { ctx } = await contextWith({ [file.path]: file.before });
    await TEMPLATES.add_base_class.run({
      target: { file: file.path, kind: "class", name: "String" },
      base: "Atom",
      first: true,
    }, ctx);
    const bases = await runPythonJson<string[][]>(
      "import ast, json, sys\nout = []\nfor s in json.load(sys.stdin):\n" +
        "    c = [n for n in ast.walk(ast.parse(s)) if isinstance(n, ast.ClassDef) and n.name == 'String'][0]\n" +
        "    out.append([ast.unparse(b) for b in c.bases])\nprint(json.dumps(out))",
      [await textOf(ctx, file.path), file.after],
    );
    assert.deepEqual(bases[0], ["Atom", "Token"]);
    assert.deepEqual(bases[0], bases[1]);
  },
});
