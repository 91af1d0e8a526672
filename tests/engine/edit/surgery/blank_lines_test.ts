import assert from "node:assert/strict";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { loadCorpus } from "../../../_support/corpus.ts";
import { CORPUS_SKIP } from "../_edit_support.ts";
import { blockingErrors, code, failing, run } from "./_support.ts";

const SOURCE = code`
  import os
  def load(path):
      return open(path).read()



  class Store:
      """Keeps things."""
      def get(self, key):
          return key

      @property
      def size(self):
          return 0
  TEXT = """a


  b"""
  `;
const FILES = { "a.py": SOURCE };

Deno.test("set_blank_lines: before a function, a class and a decorated method, byte for byte", async () => {
  const fn = await run("set_blank_lines", {
    target: { file: "a.py", kind: "function", name: "load" },
    before: 2,
  }, FILES);
  assert.ok(fn.text.startsWith("import os\n\n\ndef load(path):\n"));
  const cls = await run("set_blank_lines", {
    target: { file: "a.py", kind: "class", name: "Store" },
    before: 2,
  }, FILES);
  assert.ok(cls.text.includes("read()\n\n\nclass Store:"));
  assert.equal(cls.text.length, SOURCE.length - 1);
  const method = await run("set_blank_lines", {
    target: { file: "a.py", kind: "method", name: "size", parent: { kind: "class", name: "Store" } },
    before: 0,
  }, FILES);
  assert.ok(method.text.includes("        return key\n    @property\n    def size(self):"));
  assert.deepEqual(await blockingErrors(method.ctx), []);
});

Deno.test("set_blank_lines: after a node, and both sides at once; CRLF files get CRLF lines", async () => {
  const after = await run("set_blank_lines", {
    target: { file: "a.py", kind: "method", name: "get", parent: { kind: "class", name: "Store" } },
    after: 2,
  }, FILES);
  assert.ok(after.text.includes("        return key\n\n\n    @property"));
  const both = await run("set_blank_lines", {
    target: { file: "a.py", kind: "function", name: "load" },
    before: 1,
    after: 1,
  }, FILES);
  assert.ok(
    both.text.startsWith("import os\n\ndef load(path):\n    return open(path).read()\n\nclass Store:"),
  );
  const crlf = { "a.py": SOURCE.replaceAll("\n", "\r\n") };
  const out = await run("set_blank_lines", {
    target: { file: "a.py", kind: "function", name: "load" },
    before: 2,
  }, crlf);
  assert.ok(out.text.startsWith("import os\r\n\r\n\r\ndef load(path):\r\n"));
});

Deno.test("set_blank_lines: a count already right changes nothing", async () => {
  const same = await run("set_blank_lines", {
    target: { file: "a.py", kind: "class", name: "Store" },
    before: 3,
  }, FILES);
  assert.equal(same.text, SOURCE);
  assert.deepEqual(same.output, { file: "a.py", line: 7, changed: false });
});

Deno.test("set_blank_lines: refusals leave the file unchanged", async () => {
  const none = await failing(
    "set_blank_lines",
    { target: { file: "a.py", kind: "function", name: "load" } },
    FILES,
  );
  assert.deepEqual(none.codes, ["param-missing"]);
  assert.equal(none.text, SOURCE);
  const negative = await failing("set_blank_lines", {
    target: { file: "a.py", kind: "function", name: "load" },
    before: -1,
  }, FILES);
  assert.deepEqual(negative.codes, ["param-invalid"]);
  // The blank lines after `{a}` are the f-string's value, not spacing between statements.
  const fstring = 'x = f"""{a}\n\n\n{b}"""\n';
  const inString = await failing("set_blank_lines", {
    target: { type: "sexp", file: "a.py", query: "(interpolation) @i", capture: "i", index: 0 },
    after: 0,
  }, { "a.py": fstring });
  assert.deepEqual(inString.codes, ["blank-lines-in-string"]);
  assert.equal(inString.text, fstring);
});

Deno.test({
  name: "set_blank_lines: corpus gaps respaced to PEP 8, CPython's ast unchanged (sympy-12489)",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const instance = (await loadCorpus()).find((i) => i.instance_id === "sympy__sympy-12489")!;
    const file = instance.files.find((f) => f.path.endsWith("permutations.py"))!;
    const files = { [file.path]: file.before };
    const texts = [file.before];
    for (const name of ["_af_pow", "_af_commutes_with"]) {
      const out = await run("set_blank_lines", {
        target: { file: file.path, kind: "function", name },
        before: 2,
      }, files);
      assert.deepEqual(await blockingErrors(out.ctx), []);
      // Only the blank lines above the function changed: its line gained one blank line above.
      const at = out.text.indexOf(`\ndef ${name}(`);
      assert.ok(out.text.slice(at - 3, at) === "\n\n\n" || out.text.slice(at - 2, at + 1) === "\n\n\n");
      assert.equal(out.text.replace(/\n{2,}/g, "\n"), file.before.replace(/\n{2,}/g, "\n"));
      texts.push(out.text);
    }
    const dumps = await runPythonJson<string[]>(
      "import ast, json, sys\nprint(json.dumps([ast.dump(ast.parse(s)) for s in json.load(sys.stdin)]))",
      texts,
    );
    assert.equal(new Set(dumps).size, 1);
  },
});
