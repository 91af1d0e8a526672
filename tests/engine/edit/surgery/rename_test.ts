import assert from "node:assert/strict";
import { assertPythonParses, PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { CORPUS_SKIP, corpusFile } from "../_edit_support.ts";
import { corpusBeforeFiles } from "../../../_support/corpus.ts";
import { assertIncludes, blockingErrors, code, failing, run } from "./_support.ts";

const SHADOWS = code`
  import os

  path = "x"

  # helper
  def join(a, b):
      path = a + b  # local shadows module path
      return path

  def main():
      items = [path for path in os.listdir(".")]
      print(f"{path} path", items)  # path here
      return join(path, "y")
  `;

const ident = (name: string, index: number) => ({ file: "a.py", kind: "identifier", name, index });

Deno.test("rename_identifier: a module name leaves a shadowing local, a comprehension variable, strings and comments", async () => {
  const { text, ctx, output } = await run(
    "rename_identifier",
    { target: ident("path", 0), new_name: "root" },
    {
      "a.py": SHADOWS,
    },
  );
  assert.equal(
    text,
    code`
    import os

    root = "x"

    # helper
    def join(a, b):
        path = a + b  # local shadows module path
        return path

    def main():
        items = [path for path in os.listdir(".")]
        print(f"{root} path", items)  # path here
        return join(root, "y")
    `,
  );
  assert.deepEqual((output as { lines: number[] }).lines, [3, 12, 13]);
  assert.deepEqual(ctx.warnings.map((w) => w.code), ["rename-strings-unchanged"]);
  assert.deepEqual(await blockingErrors(ctx), []);
  await assertPythonParses(text);
});

Deno.test("rename_identifier: a local shadowing a module name renames only the local", async () => {
  const { text } = await run("rename_identifier", { target: ident("path", 2), new_name: "joined" }, {
    "a.py": SHADOWS,
  });
  assert.equal(
    text,
    SHADOWS.replace("    path = a + b", "    joined = a + b").replace("return path\n", "return joined\n"),
  );
});

Deno.test("rename_identifier: a comprehension variable stays inside its comprehension", async () => {
  const { text } = await run("rename_identifier", { target: ident("path", 4), new_name: "name" }, {
    "a.py": SHADOWS,
  });
  assert.equal(
    text,
    SHADOWS.replace("[path for path in os.listdir", "[name for name in os.listdir"),
  );
});

Deno.test("rename_identifier: include_strings and include_comments rename inside the scope's strings and comments", async () => {
  const { text } = await run(
    "rename_identifier",
    { target: ident("path", 0), new_name: "root", include_strings: true, include_comments: true },
    { "a.py": SHADOWS },
  );
  assertIncludes(text, 'print(f"{root} root", items)  # root here');
  assert.match(text, /# local shadows module root/);
  assert.match(text, /return path\n/); // the local is code, and not the module's
});

const COUNTER = code`
  class Counter:
      count = 0

      def bump(self, step=1):
          count = self.count + step
          self.count = count
          return self.total()

      def total(self):
          return self.count

  def use(c):
      c.bump(step=2)
      return c.total() + Counter.count
  `;

Deno.test("rename_identifier: a class attribute follows self.x and Class.x, not a method local of the same name", async () => {
  const { text, ctx } = await run("rename_identifier", { target: ident("count", 0), new_name: "value" }, {
    "a.py": COUNTER,
  });
  assert.equal(
    text,
    code`
    class Counter:
        value = 0

        def bump(self, step=1):
            count = self.value + step
            self.value = count
            return self.total()

        def total(self):
            return self.value

    def use(c):
        c.bump(step=2)
        return c.total() + Counter.value
    `,
  );
  assert.deepEqual(await blockingErrors(ctx), []);
});

Deno.test("rename_identifier: a method local with a class attribute's name renames only the local", async () => {
  const { text } = await run("rename_identifier", { target: ident("count", 1), new_name: "value" }, {
    "a.py": COUNTER,
  });
  assert.equal(
    text,
    COUNTER.replace("count = self.count + step", "value = self.count + step").replace(
      "self.count = count",
      "self.count = value",
    ),
  );
});

Deno.test("rename_identifier: a method renames self.method calls in its class and warns about other objects", async () => {
  const { text, ctx } = await run(
    "rename_identifier",
    { target: { file: "a.py", kind: "method", name: "total" }, new_name: "sum_all" },
    { "a.py": COUNTER },
  );
  assert.equal(
    text,
    COUNTER.replace("return self.total()", "return self.sum_all()").replace(
      "def total(self)",
      "def sum_all(self)",
    ),
  );
  assert.deepEqual(ctx.warnings.map((w) => [w.code, w.line]), [["rename-unfollowed", 14]]);
});

Deno.test("rename_identifier: targeting self.method renames the method too", async () => {
  const { text } = await run(
    "rename_identifier",
    { target: { file: "a.py", kind: "attribute", index: 2 }, new_name: "sum_all" },
    { "a.py": COUNTER },
  );
  assert.match(text, /def sum_all\(self\)/);
  assert.match(text, /return self\.sum_all\(\)/);
});

Deno.test("rename_identifier: a parameter, warning about keyword call sites", async () => {
  const { text, ctx } = await run(
    "rename_identifier",
    { target: { file: "a.py", kind: "parameter", name: "step" }, new_name: "delta" },
    { "a.py": COUNTER },
  );
  assert.equal(
    text,
    COUNTER.replace("def bump(self, step=1)", "def bump(self, delta=1)").replace("+ step", "+ delta"),
  );
  assert.deepEqual(ctx.warnings.map((w) => [w.code, w.line]), [["rename-keyword-arguments", 13]]);
});

const GLOBALS = code`
  counter = 0

  def incr():
      global counter
      counter += 1
      return counter

  def other():
      counter = 5
      return counter
  `;

Deno.test("rename_identifier: a global-declared name renames the declaration and its assignments", async () => {
  const { text, ctx } = await run("rename_identifier", { target: ident("counter", 0), new_name: "hits" }, {
    "a.py": GLOBALS,
  });
  assert.equal(
    text,
    code`
    hits = 0

    def incr():
        global hits
        hits += 1
        return hits

    def other():
        counter = 5
        return counter
    `,
  );
  assert.deepEqual(await blockingErrors(ctx), []);
});

Deno.test("rename_identifier: targeting the name in a global statement renames the module binding", async () => {
  const { text } = await run("rename_identifier", { target: ident("counter", 1), new_name: "hits" }, {
    "a.py": GLOBALS,
  });
  assert.match(text, /^hits = 0\n/);
  assertIncludes(text, "counter = 5\n    return counter");
});

Deno.test("rename_identifier: imports gain an alias, aliases are renamed in place", async () => {
  const source = code`
    from os import path
    import json
    from re import compile as rx

    def load(p):
        return json.loads(path.join(p)), rx("a")
    `;
  const first = await run("rename_identifier", { target: ident("path", 1), new_name: "osp" }, {
    "a.py": source,
  });
  assert.match(first.text, /^from os import path as osp\n/);
  assert.match(first.text, /osp\.join\(p\)/);
  const second = await run("rename_identifier", { target: ident("json", 0), new_name: "js" }, {
    "a.py": source,
  });
  assert.match(second.text, /^import json as js$/m);
  assert.match(second.text, /js\.loads/);
  const third = await run("rename_identifier", { target: ident("rx", 0), new_name: "regex" }, {
    "a.py": source,
  });
  assert.match(third.text, /from re import compile as regex\n/);
  assert.match(third.text, /regex\("a"\)/);
  for (const { text } of [first, second, third]) await assertPythonParses(text);
});

Deno.test("rename_identifier: errors leave the text unchanged", async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ target: ident("counter", 0), new_name: "incr" }, "rename-collision"],
    [{ target: ident("counter", 0), new_name: "class" }, "rename-keyword"],
    [{ target: ident("counter", 0), new_name: "2x" }, "rename-invalid-name"],
    [{ target: ident("counter", 0), new_name: "counter" }, "rename-noop"],
    [{ target: { file: "a.py", kind: "integer", index: 0 }, new_name: "x" }, "rename-target-invalid"],
  ];
  for (const [params, expected] of cases) {
    const { codes, text } = await failing("rename_identifier", params, { "a.py": GLOBALS });
    assert.deepEqual(codes, [expected], JSON.stringify(params));
    assert.equal(text, GLOBALS);
  }
});

Deno.test("rename_identifier: a local renamed to an outer name its scope uses is a collision", async () => {
  // `items` -> `os` would make `os.listdir` in the comprehension refer to the local.
  const { codes, text } = await failing("rename_identifier", { target: ident("items", 0), new_name: "os" }, {
    "a.py": SHADOWS,
  });
  assert.deepEqual(codes, ["rename-collision"]);
  assert.equal(text, SHADOWS);
});

Deno.test("rename_identifier: shadowing an outer name is a warning", async () => {
  const { text, ctx } = await run("rename_identifier", { target: ident("a", 0), new_name: "os" }, {
    "a.py": SHADOWS,
  });
  assertIncludes(text, "def join(os, b):\n    path = os + b");
  assert.deepEqual(ctx.warnings.map((w) => w.code), ["rename-shadows"]);
});

Deno.test("rename_identifier: a class member renamed to a name the class uses as an attribute is a collision", async () => {
  const source = code`
    class A:
        def f(self):
            self.g = 1
            return self.f
    `;
  const { codes } = await failing("rename_identifier", {
    target: { file: "a.py", kind: "method", name: "f" },
    new_name: "g",
  }, { "a.py": source });
  assert.deepEqual(codes, ["rename-collision"]);
});

Deno.test("rename_identifier: languages without a scope model are not supported (JS now is)", async () => {
  const { codes } = await failing("rename_identifier", {
    target: { file: "a.rb", kind: "function", name: "f" },
    new_name: "g",
  }, { "a.rb": "def f\nend\nf\n" });
  assert.deepEqual(codes, ["not-supported"]);
  const { text } = await run("rename_identifier", {
    target: { file: "a.js", kind: "function", name: "f" },
    new_name: "g",
  }, { "a.js": "function f() {}\nf();\n" });
  assert.equal(text, "function g() {}\ng();\n");
});

const AUTH = "requests/auth.py";

Deno.test({
  name: "rename_identifier: a function local in requests/auth.py, nothing else changes",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const before = await corpusFile("psf__requests-1766", AUTH);
    const { text, output, ctx } = await run("rename_identifier", {
      target: { file: AUTH, kind: "identifier", name: "hash_utf8", index: 0 },
      new_name: "digest",
    }, { [AUTH]: before });
    assert.equal(text, before.replaceAll(/\bhash_utf8\b/g, "digest"));
    assert.equal((output as { renamed: number }).renamed, 7);
    assert.deepEqual(await blockingErrors(ctx), []);
    await assertPythonParses(text);
    // the catalog example: a module function and its two call sites
    const example = await run("rename_identifier", {
      target: { file: AUTH, kind: "function", name: "_basic_auth_str" },
      new_name: "_basic_auth_header",
    }, { [AUTH]: before });
    assert.equal(example.text, before.replaceAll("_basic_auth_str", "_basic_auth_header"));
  },
});

const ORACLE = `
import ast, json, sys

def count(tree, name):
    n = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == name: n += 1
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name: n += 1
        elif isinstance(node, ast.arg) and node.arg == name: n += 1
        elif isinstance(node, (ast.Global, ast.Nonlocal)): n += node.names.count(name)
    return n

out = []
for case in json.load(sys.stdin):
    b, a = ast.parse(case["before"]), ast.parse(case["after"])
    out.append([count(b, case["old"]), count(a, case["new"]), count(a, case["old"]), count(b, case["new"])])
print(json.dumps(out))
`;

const ELIGIBLE = `
import ast, json, sys
out = []
for src in json.load(sys.stdin):
    try:
        tree = ast.parse(src)
    except SyntaxError:
        out.append([]); continue
    inner = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            for node in ast.walk(fn):
                if isinstance(node, ast.arg): inner.add(node.arg)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store): inner.add(node.id)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node is not fn: inner.add(node.name)
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    inner.update((a.asname or a.name).split(".")[0] for a in node.names)
    names = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name not in inner]
    out.append(names[:2])
print(json.dumps(out))
`;

Deno.test({
  name: "rename_identifier: top-level definitions across corpus files, checked with CPython's ast",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const files = (await corpusBeforeFiles(".py")).filter((f) => f.text.length < 60_000).slice(0, 25);
    const names = await runPythonJson<string[][]>(ELIGIBLE, files.map((f) => f.text));
    const cases: { before: string; after: string; old: string; new: string }[] = [];
    for (let i = 0; i < files.length; i++) {
      for (const name of names[i]) {
        const newName = `${name}_renamed`;
        const { text } = await run("rename_identifier", {
          target: { file: "m.py", kind: "identifier", name, index: 0 },
          new_name: newName,
        }, { "m.py": files[i].text });
        cases.push({ before: files[i].text, after: text, old: name, new: newName });
      }
    }
    assert.ok(cases.length >= 20, `only ${cases.length} cases`);
    const counts = await runPythonJson<number[][]>(ORACLE, cases);
    counts.forEach(([oldBefore, newAfter, oldAfter, newBefore], i) => {
      assert.equal(newBefore, 0, cases[i].old);
      assert.equal(oldAfter, 0, `${cases[i].old} left behind`);
      assert.equal(newAfter, oldBefore, `${cases[i].old}: ${oldBefore} uses became ${newAfter}`);
    });
  },
});

const LOCALS = `
import ast, json, sys, io, tokenize

def scopes(tree):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))]

def binds(node, name):
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del)): return True
        if isinstance(n, ast.arg) and n.arg == name: return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.name == name: return True
        if isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names: return True
        if isinstance(n, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name).split(".")[0] == name for a in n.names): return True
        if isinstance(n, ast.ExceptHandler) and n.name == name: return True
        if isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name == name: return True
    return False

out = []
for src in json.load(sys.stdin):
    tree = ast.parse(src)
    found = None
    for fn in ast.walk(tree):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or found: continue
        inner = [s for s in scopes(fn) if s is not fn]
        stores = [n for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]
        for store in stores:
            name = store.id
            if any(binds(s, name) for s in inner): continue
            if any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in ast.walk(fn)): continue
            others = [s for s in scopes(tree) if s is not fn and not (s.lineno >= fn.lineno and s.end_lineno <= fn.end_lineno)]
            outside = [n for n in ast.walk(tree) if not (hasattr(n, "lineno") and fn.lineno <= n.lineno <= fn.end_lineno)]
            if any(binds(s, name) for s in others): continue
            first = min((n for n in ast.walk(fn) if isinstance(n, ast.Name) and n.id == name), key=lambda n: (n.lineno, n.col_offset))
            index = 0
            for tok in tokenize.generate_tokens(io.StringIO(src).readline):
                if tok.type == tokenize.NAME and tok.string == name:
                    if tok.start == (first.lineno, first.col_offset): break
                    index += 1
            found = {"name": name, "index": index, "start": fn.lineno, "end": fn.end_lineno}
            break
    out.append(found)
print(json.dumps(out))
`;

const COUNT_IN = `
import ast, json, sys
out = []
for case in json.load(sys.stdin):
    def count(src, name, inside):
        return sum(1 for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Name) and n.id == name
                   and (case["start"] <= n.lineno <= case["end"]) == inside)
    b, a = case["before"], case["after"]
    out.append([count(b, case["old"], True), count(a, case["new"], True), count(a, case["old"], True),
                count(b, case["old"], False), count(a, case["old"], False), count(a, case["new"], False)])
print(json.dumps(out))
`;

Deno.test({
  name:
    "rename_identifier: function locals across corpus files rename exactly their function's uses (CPython ast)",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const files = (await corpusBeforeFiles(".py")).filter((f) => f.text.length < 60_000 && !/\t/.test(f.text))
      .slice(0, 40);
    const picks = await runPythonJson<({ name: string; index: number; start: number; end: number } | null)[]>(
      LOCALS,
      files.map((f) => f.text),
    );
    const cases: { before: string; after: string; old: string; new: string; start: number; end: number }[] =
      [];
    for (let i = 0; i < files.length; i++) {
      const pick = picks[i];
      if (!pick) continue;
      const { text } = await run("rename_identifier", {
        target: { file: "m.py", kind: "identifier", name: pick.name, index: pick.index },
        new_name: `${pick.name}_renamed`,
      }, { "m.py": files[i].text });
      cases.push({
        before: files[i].text,
        after: text,
        old: pick.name,
        new: `${pick.name}_renamed`,
        ...pick,
      });
    }
    assert.ok(cases.length >= 20, `only ${cases.length} cases`);
    const counts = await runPythonJson<number[][]>(COUNT_IN, cases);
    counts.forEach(([inBefore, inAfterNew, inAfterOld, outBefore, outAfterOld, outAfterNew], i) => {
      const what = `${cases[i].old} in lines ${cases[i].start}-${cases[i].end}`;
      assert.equal(inAfterNew, inBefore, what);
      assert.equal(inAfterOld, 0, what);
      assert.equal(outAfterOld, outBefore, what);
      assert.equal(outAfterNew, 0, what);
    });
  },
});
