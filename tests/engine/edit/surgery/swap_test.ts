import assert from "node:assert/strict";
import { assertPythonParses, PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { corpusBeforeFiles } from "../../../_support/corpus.ts";
import { CORPUS_SKIP, corpusFile } from "../_edit_support.ts";
import { blockingErrors, code, failing, run } from "./_support.ts";

const SOURCE = code`
  class Reader:
      """Reads records."""

      def __init__(self, path):
          self.path = path

      # Parse one line.
      @staticmethod
      def parse(line):
          return line.split(",")


  def main(path, limit=10):
      reader = Reader(path)
      rows = reader.read()
      if rows:
          log(len(rows), limit)
      return rows
  `;
const FILES = { "a.py": SOURCE };
const method = (name: string) => ({
  file: "a.py",
  kind: "method",
  name,
  parent: { kind: "class", name: "Reader" },
});

Deno.test("swap_nodes: two methods swap with their decorators and comments, the gap stays", async () => {
  const { text, ctx } = await run(
    "swap_nodes",
    { target: method("__init__"), other: method("parse") },
    FILES,
  );
  assert.equal(
    text,
    code`
    class Reader:
        """Reads records."""

        # Parse one line.
        @staticmethod
        def parse(line):
            return line.split(",")

        def __init__(self, path):
            self.path = path


    def main(path, limit=10):
        reader = Reader(path)
        rows = reader.read()
        if rows:
            log(len(rows), limit)
        return rows
    `,
  );
  assert.equal(ctx.records.length, 1);
  assert.deepEqual(ctx.records[0].replacedKinds, ["function_definition", "decorated_definition"]);
  assert.deepEqual(await blockingErrors(ctx), []);
  await assertPythonParses(text);
});

Deno.test("swap_nodes: statements at different depths take each other's indentation", async () => {
  const { text, ctx } = await run("swap_nodes", {
    target: { file: "a.py", kind: "statement", parent: { kind: "function", name: "main" }, index: 1 },
    other: { file: "a.py", kind: "call", name: "log" },
  }, FILES);
  assert.equal(
    text,
    SOURCE.replace("    rows = reader.read()\n", "    log(len(rows), limit)\n").replace(
      "        log(len(rows), limit)\n",
      "        rows = reader.read()\n",
    ),
  );
  assert.deepEqual(await blockingErrors(ctx), []);
});

Deno.test("swap_nodes: arguments and parameters", async () => {
  const args = await run("swap_nodes", {
    target: { file: "a.py", kind: "call", name: "len" },
    other: { file: "a.py", kind: "identifier", name: "limit", index: 1 },
  }, FILES);
  assert.match(args.text, /log\(limit, len\(rows\)\)/);
  const params = await run("swap_nodes", {
    target: { file: "a.py", kind: "parameter", name: "path", parent: { kind: "function", name: "main" } },
    other: { file: "a.py", kind: "parameter", name: "limit" },
  }, FILES);
  assert.match(params.text, /def main\(limit=10, path\):/);
});

Deno.test("swap_nodes: errors leave the text unchanged", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ target: method("__init__"), other: { file: "a.py", kind: "call", name: "len" } }, "swap-incompatible"],
    [{ target: method("__init__"), other: { file: "a.py", kind: "if" } }, "swap-incompatible"],
    [{ target: { file: "a.py", kind: "class", name: "Reader" }, other: method("parse") }, "swap-overlap"],
    [{ target: method("parse"), other: method("parse") }, "swap-overlap"],
    [{ target: method("parse") }, "param-missing"],
  ];
  for (const [params, expected] of cases) {
    const { codes, text } = await failing("swap_nodes", params, FILES);
    assert.deepEqual(codes, [expected], JSON.stringify(params));
    assert.equal(text, SOURCE);
  }
});

Deno.test({
  name: "swap_nodes: two methods of requests/auth.py (the catalog example)",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const AUTH = "requests/auth.py";
    const before = await corpusFile("psf__requests-1766", AUTH);
    const m = (name: string) => ({
      file: AUTH,
      kind: "method",
      name,
      parent: { kind: "class", name: "HTTPDigestAuth" },
    });
    const { text, ctx } = await run(
      "swap_nodes",
      { target: m("build_digest_header"), other: m("__call__") },
      {
        [AUTH]: before,
      },
    );
    const order = ["def __init__", "def __call__", "def handle_401", "def build_digest_header"].map((s) =>
      text.indexOf(s, text.indexOf("class HTTPDigestAuth"))
    );
    assert.deepEqual([...order].sort((a, b) => a - b), order);
    assert.equal(text.length, before.length);
    assert.deepEqual(await blockingErrors(ctx), []);
    await assertPythonParses(text);
  },
});

const METHODS = `
import ast, json, sys
out = []
for src in json.load(sys.stdin):
    tree = ast.parse(src)
    out.append([ast.dump(n) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))])
print(json.dumps(out))
`;

Deno.test({
  name: "swap_nodes: first and last method of corpus classes, every function intact (CPython ast)",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const files = (await corpusBeforeFiles(".py")).filter((f) =>
      f.text.length < 80_000 && /^class /m.test(f.text)
    )
      .slice(0, 20);
    const befores: string[] = [];
    const afters: string[] = [];
    for (const file of files) {
      const m = (index: number) => ({
        file: "m.py",
        kind: "method",
        parent: { kind: "class", index: 0 },
        index,
      });
      try {
        const { text } = await run("swap_nodes", { target: m(0), other: m(-1) }, { "m.py": file.text });
        befores.push(file.text);
        afters.push(text);
      } catch (err) {
        const codes = (err as { issues?: { code: string }[] }).issues?.map((i) => i.code) ?? [String(err)];
        assert.ok(codes.every((c) => c === "locator-not-found" || c === "swap-overlap"), codes.join());
      }
    }
    assert.ok(afters.length >= 10, `only ${afters.length} swaps`);
    const [before, after] = await Promise.all([
      runPythonJson<string[][]>(METHODS, befores),
      runPythonJson<string[][]>(METHODS, afters),
    ]);
    for (let i = 0; i < before.length; i++) {
      assert.deepEqual([...after[i]].sort(), [...before[i]].sort(), `file ${i}`);
    }
  },
});
