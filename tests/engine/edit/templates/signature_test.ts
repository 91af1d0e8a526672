import assert from "node:assert/strict";
import { TEMPLATES } from "../../../../engine/edit/templates/mod.ts";
import { IssueError } from "../../../../engine/base/issue.ts";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { loadCorpus } from "../../../_support/corpus.ts";
import { contextWith, CORPUS_SKIP, textOf } from "../_edit_support.ts";

async function apply(source: string, params: Record<string, unknown>) {
  const { ctx } = await contextWith({ "m.py": source });
  const output = await TEMPLATES.change_signature.run(
    { target: { file: "m.py", kind: "function", name: "send" }, ...params },
    ctx,
  ) as Record<string, unknown>;
  return { output, text: await textOf(ctx, "m.py"), warnings: ctx.warnings };
}

const SOURCE = "@cached\ndef send(url, data):\n    return url, data\n";

Deno.test("change_signature: the list is written as given, decorators and body stay; a return type is added or replaced", async () => {
  const laid = await apply(SOURCE, { parameters: "\n    url: str,\n    *,\n    data=None,\n" });
  assert.equal(
    laid.text,
    "@cached\ndef send(\n    url: str,\n    *,\n    data=None,\n):\n    return url, data\n",
  );
  const typed = await apply(SOURCE, { parameters: "url, data", return_type: "tuple" });
  assert.equal(typed.text, "@cached\ndef send(url, data) -> tuple:\n    return url, data\n");
  const retyped = await apply("def send(url) -> int:\n    return 1\n", {
    parameters: "url",
    return_type: "str",
  });
  assert.equal(retyped.text, "def send(url) -> str:\n    return 1\n");
});

Deno.test("change_signature: the same signature is a no-op; a bad list or a non-function is refused", async () => {
  const same = await apply(SOURCE, { parameters: "url, data" });
  assert.equal(same.text, SOURCE);
  assert.deepEqual(same.warnings.map((w) => w.code), ["already-present"]);
  await assert.rejects(() => apply(SOURCE, { parameters: "url,, data" }), (err) => err instanceof IssueError);
  const { ctx } = await contextWith({ "m.py": "class send:\n    pass\n" });
  await assert.rejects(
    () =>
      TEMPLATES.change_signature.run({
        target: { file: "m.py", kind: "class", name: "send" },
        parameters: "x",
      }, ctx),
    (err) => err instanceof IssueError,
  );
});

Deno.test({
  name: "change_signature: the gold signature of pytest-10356, byte for byte; CPython sees the new arguments",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const instance = (await loadCorpus()).find((i) => i.instance_id === "pytest-dev__pytest-10356")!;
    const file = instance.files.find((f) => f.path === "src/_pytest/mark/structures.py")!;
    const { ctx } = await contextWith({ [file.path]: file.before });
    await TEMPLATES.change_signature.run({
      target: { file: file.path, kind: "function", name: "get_unpacked_marks" },
      parameters: "\n    obj: Union[object, type],\n    *,\n    consider_mro: bool = True,\n",
      return_type: "List[Mark]",
    }, ctx);
    const text = await textOf(ctx, file.path);
    const header = (source: string) => {
      const start = source.indexOf("def get_unpacked_marks(");
      return source.slice(start, source.indexOf(":\n", source.indexOf(")", start)) + 2);
    };
    assert.equal(header(text), header(file.after));
    const args = await runPythonJson<string[]>(
      "import ast, json, sys\nt = ast.parse(json.load(sys.stdin))\n" +
        "f = [n for n in ast.walk(t) if isinstance(n, ast.FunctionDef) and n.name == 'get_unpacked_marks'][0]\n" +
        "print(json.dumps([a.arg for a in f.args.args] + [a.arg for a in f.args.kwonlyargs] + [ast.unparse(f.returns)]))",
      text,
    );
    assert.deepEqual(args, ["obj", "consider_mro", "List[Mark]"]);
  },
});
