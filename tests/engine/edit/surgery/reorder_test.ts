import assert from "node:assert/strict";
import { assertPythonParses, PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { corpusBeforeFiles } from "../../../_support/corpus.ts";
import { CORPUS_SKIP, corpusFile } from "../_edit_support.ts";
import { assertIncludes, blockingErrors, code, failing, run } from "./_support.ts";

const SOURCE = code`
  class Store:
      """Key-value store."""

      cache = {}

      # Build from a dict.
      @classmethod
      @functools.lru_cache()
      def load(cls, data):
          return cls(data)
      def get(self, key):  # no blank line above
          return self.cache.get(key)


      def put(self, key, value):
          self.cache[key] = value


  def main():
      store = Store.load(
          {"a": 1},  # data
          "utf-8",
      )
      return store.get("a")
  `;
const FILES = { "a.py": SOURCE };
const store = { file: "a.py", kind: "class", name: "Store" };

Deno.test("reorder_children: class members move with decorators and comments, the gaps stay in place", async () => {
  const { text, ctx, output } = await run("reorder_children", {
    target: store,
    order: ["put", "get", "cache", "load"],
  }, FILES);
  assert.equal(
    text,
    code`
    class Store:
        """Key-value store."""

        def put(self, key, value):
            self.cache[key] = value

        def get(self, key):  # no blank line above
            return self.cache.get(key)
        cache = {}


        # Build from a dict.
        @classmethod
        @functools.lru_cache()
        def load(cls, data):
            return cls(data)


    def main():
        store = Store.load(
            {"a": 1},  # data
            "utf-8",
        )
        return store.get("a")
    `,
  );
  assert.deepEqual((output as { order: number[] }).order, [3, 2, 0, 1]);
  assert.deepEqual(ctx.records[0].replacedKinds, ["block"]);
  assert.deepEqual(await blockingErrors(ctx), []);
  await assertPythonParses(text);
});

Deno.test("reorder_children: indices and names mix; the identity changes nothing", async () => {
  const mixed = await run("reorder_children", { target: store, order: [0, "get", 1, 3] }, FILES);
  assertIncludes(mixed.text, "cache = {}\n\n    def get(self, key):  # no blank line above\n");
  const same = await run("reorder_children", { target: store, order: [0, 1, 2, 3] }, FILES);
  assert.equal(same.text, SOURCE);
  assert.equal(same.ctx.records.length, 0);
});

Deno.test("reorder_children: decorators of a decorated definition", async () => {
  const { text } = await run("reorder_children", {
    target: { file: "a.py", kind: "decorated_definition" },
    order: ["functools.lru_cache()", "classmethod"],
  }, FILES);
  assertIncludes(text, "    @functools.lru_cache()\n    @classmethod\n    def load");
  await assertPythonParses(text);
});

Deno.test("reorder_children: call arguments keep their commas, trailing comments travel", async () => {
  const { text, ctx } = await run("reorder_children", {
    target: { file: "a.py", kind: "call", name: "Store.load" },
    order: [1, 0],
  }, FILES);
  assertIncludes(text, 'Store.load(\n        "utf-8",\n        {"a": 1},  # data\n    )');
  assert.deepEqual(ctx.records.length, 1);
  const inline = code`
    def f():
        return connect(host, port, timeout=5)
    `;
  const swapped = await run("reorder_children", {
    target: { file: "a.py", kind: "call", name: "connect" },
    order: ["port", "host", "timeout"],
  }, { "a.py": inline });
  assert.equal(swapped.text, inline.replace("host, port", "port, host"));
});

Deno.test("reorder_children: errors list the children and leave the text unchanged", async () => {
  const cases: [unknown, string, RegExp][] = [
    [["put", "get", "load"], "reorder-invalid", /missing 0 "cache"/],
    [["put", "get", "load", "cache", "put"], "reorder-invalid", /child 3 is listed twice/],
    [["put", "get", "load", "nope"], "reorder-invalid", /"nope" names no child/],
    [[0, 1, 2, 7], "reorder-invalid", /index 7 is out of range/],
    ["put,get", "param-invalid", /must be an array/],
  ];
  for (const [order, expected, message] of cases) {
    const { codes, messages, text, issues } = await failing(
      "reorder_children",
      { target: store, order },
      FILES,
    );
    assert.deepEqual(codes, [expected], JSON.stringify(order));
    assert.match(messages[0], message);
    assert.match(issues[0].hint ?? "", /0 "cache", 1 "load", 2 "get", 3 "put"/);
    assert.equal(text, SOURCE);
  }
  const inline = { "a.py": "connect(host, port, timeout=5)\n" };
  const positional = await failing("reorder_children", {
    target: { file: "a.py", kind: "call", name: "connect" },
    order: ["timeout", "host", "port"],
  }, inline);
  assert.deepEqual(positional.codes, ["reorder-invalid"]);
  assert.match(positional.messages[0], /positional argument "host" after keyword argument "timeout=5"/);
  assert.equal(positional.text, inline["a.py"]);
});

Deno.test({
  name: "reorder_children: the catalog example on requests/auth.py",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const AUTH = "requests/auth.py";
    const before = await corpusFile("psf__requests-1766", AUTH);
    const { text, ctx } = await run("reorder_children", {
      target: { file: AUTH, kind: "class", name: "HTTPDigestAuth" },
      order: ["__init__", "__call__", "handle_401", "build_digest_header"],
    }, { [AUTH]: before });
    const at = (s: string) => text.indexOf(s, text.indexOf("class HTTPDigestAuth"));
    const order = ["def __init__", "def __call__", "def handle_401", "def build_digest_header"].map(at);
    assert.deepEqual([...order].sort((a, b) => a - b), order);
    assert.equal(text.length, before.length);
    assert.deepEqual(await blockingErrors(ctx), []);
    await assertPythonParses(text);
  },
});

const MEMBERS = `
import ast, json, sys
out = []
for src in json.load(sys.stdin):
    tree = ast.parse(src)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    out.append([ast.dump(n) for n in cls.body])
print(json.dumps(out))
`;

Deno.test({
  name: "reorder_children: reversing the first class of corpus files keeps every member (CPython ast)",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const files = (await corpusBeforeFiles(".py")).filter((f) =>
      f.text.length < 80_000 && /^class /m.test(f.text)
    )
      .slice(0, 20);
    const befores: string[] = [];
    const afters: string[] = [];
    for (const file of files) {
      let result;
      try {
        result = await run("reorder_children", {
          target: { file: "m.py", kind: "class", index: 0 },
          order: [],
        }, { "m.py": file.text });
      } catch (err) {
        const issue = (err as { issues?: { code: string; candidates?: unknown[] }[] }).issues?.[0];
        if (issue?.code !== "reorder-invalid" && issue?.code !== "reorder-no-children") throw err;
        const count = issue.candidates?.length ?? 0;
        if (count < 2) continue;
        const order = Array.from({ length: count }, (_, i) => count - 1 - i);
        result = await run("reorder_children", { target: { file: "m.py", kind: "class", index: 0 }, order }, {
          "m.py": file.text,
        });
      }
      befores.push(file.text);
      afters.push(result.text);
    }
    assert.ok(afters.length >= 10, `only ${afters.length} classes`);
    const [before, after] = await Promise.all([
      runPythonJson<string[][]>(MEMBERS, befores),
      runPythonJson<string[][]>(MEMBERS, afters),
    ]);
    for (let i = 0; i < before.length; i++) {
      const docstring = before[i][0]?.startsWith("Expr(value=Constant(value='") ? 1 : 0;
      const expected = [...before[i].slice(0, docstring), ...before[i].slice(docstring).reverse()];
      assert.deepEqual(after[i], expected, `file ${i}`);
    }
  },
});
