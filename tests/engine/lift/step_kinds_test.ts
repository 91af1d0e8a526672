/**
 * Every step kind lift emits, each from a small hand-made `git diff`: the
 * diff lifts to that kind (and tier), the plan replays byte-exact in memory,
 * executing it with the real executor on a fresh copy gives the diff's
 * result byte for byte, that result parses with CPython's `ast` (Python) or
 * `node --check` (JavaScript), and lift wrote nothing to the repository.
 */

import assert from "node:assert/strict";
import { assertPythonParses, PYTHON_SKIP } from "../../_support/python.ts";
import { executeOnCopy, gitDiff, liftIn } from "./_support.ts";

interface Case {
  name: string;
  /** The kind lift must choose, and its tier. */
  kind: string;
  tier: number;
  before: string;
  after: string;
  file?: string;
}

const CASES: Case[] = [
  {
    name: "a condition changed",
    kind: "modify_condition",
    tier: 2,
    before: "def f(x, y):\n    if x > 1:\n        return x\n    return y\n",
    after: "def f(x, y):\n    if x > 1 and y is not None:\n        return x\n    return y\n",
  },
  {
    name: "a returned value changed",
    kind: "change_return_value",
    tier: 2,
    before: "def total(a, b):\n    return a + b\n",
    after: "def total(a, b):\n    return a - b\n",
  },
  {
    name: "an expression changed",
    kind: "replace_expression",
    tier: 2,
    before: "def cost(price, qty):\n    total = price * qty\n    return total\n",
    after: "def cost(price, qty):\n    total = price * qty * 1.2\n    return total\n",
  },
  {
    name: "a body rewritten with comments",
    kind: "replace_function_body",
    tier: 2,
    before: 'def load(path):\n    """Load."""\n    data = open(path).read()\n    return data\n',
    after:
      'def load(path):\n    """Load."""\n    # read as text, closing the file\n    with open(path) as handle:\n        data = handle.read()\n\n    return data.strip()\n',
  },
  {
    name: "a guard at the top of a body",
    kind: "guard_clause",
    tier: 2,
    before: 'def first(items):\n    """The first item."""\n    return items[0]\n',
    after:
      'def first(items):\n    """The first item."""\n    if not items:\n        return None\n    return items[0]\n',
  },
  {
    name: "a parameter added",
    kind: "add_parameter",
    tier: 2,
    before: "def send(url, data):\n    return url, data\n",
    after: "def send(url, data, timeout=None):\n    return url, data\n",
  },
  {
    name: "a parameter removed",
    kind: "delete_node",
    tier: 1,
    before: "def send(url, data, unused):\n    return url, data\n",
    after: "def send(url, data):\n    return url, data\n",
  },
  {
    name: "a decorator added",
    kind: "add_decorator",
    tier: 2,
    before: "import functools\n\n\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n",
    after:
      "import functools\n\n\n@functools.lru_cache(maxsize=None)\ndef fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)\n",
  },
  {
    name: "a method appended to a class",
    kind: "add_method",
    tier: 2,
    before: "class Box:\n    def __init__(self, items):\n        self.items = items\n",
    after:
      "class Box:\n    def __init__(self, items):\n        self.items = items\n\n    def __len__(self):\n        # the number of items\n        return len(self.items)\n",
  },
  {
    name: "a class attribute added",
    kind: "add_class_attribute",
    tier: 2,
    before: "class Config:\n    debug = False\n\n    def show(self):\n        return self.debug\n",
    after:
      "class Config:\n    debug = False\n    verbose = 0\n\n    def show(self):\n        return self.debug\n",
  },
  {
    name: "an else branch added",
    kind: "add_conditional_branch",
    tier: 2,
    before: "def sign(x):\n    if x >= 0:\n        return 1\n    return 0\n",
    after: "def sign(x):\n    if x >= 0:\n        return 1\n    else:\n        x = -x\n    return 0\n",
  },
  {
    name: "a statement wrapped in try/except",
    kind: "wrap_try_except",
    tier: 2,
    before: "import json\n\n\ndef parse(text):\n    value = json.loads(text)\n    return value\n",
    after:
      "import json\n\n\ndef parse(text):\n    try:\n        value = json.loads(text)\n    except ValueError:\n        value = None\n    return value\n",
  },
  {
    name: "a statement wrapped in a context manager",
    kind: "wrap_context_manager",
    tier: 2,
    before: "import os\n\n\ndef drop(path):\n    os.remove(path)\n    return path\n",
    after:
      "import contextlib\nimport os\n\n\ndef drop(path):\n    with contextlib.suppress(OSError):\n        os.remove(path)\n    return path\n",
  },
  {
    name: "a statement inserted",
    kind: "fragment",
    tier: 3,
    before: "def collect(log, x):\n    y = x * 2\n    return y\n",
    after: "def collect(log, x):\n    y = x * 2\n    log.append(y)\n    return y\n",
  },
  {
    name: "an import inserted",
    kind: "fragment",
    tier: 3,
    before: "import os\nimport sys\n\nprint(os.sep, sys.argv)\n",
    after: "import os\nimport re\nimport sys\n\nprint(os.sep, sys.argv)\n",
  },
  {
    name: "a statement deleted",
    kind: "delete_node",
    tier: 1,
    before: "def run(x):\n    print(x)\n    return x\n",
    after: "def run(x):\n    return x\n",
  },
  {
    name: "spaces removed from a blank line (the blank line is respaced: set_blank_lines writes empty lines)",
    kind: "set_blank_lines",
    tier: 1,
    before: "def run(x):\n    y = x\n    \n    return y\n",
    after: "def run(x):\n    y = x\n\n    return y\n",
  },
  {
    name: "names appended to a parenthesised from-import",
    kind: "add_import_name",
    tier: 2,
    before: "from os.path import (join,\n    split)\n\nx = join\n",
    after: "from os.path import (join,\n    split, exists, isdir)\n\nx = join\n",
  },
  {
    name: "a name appended on its own line to a vertical from-import ending in a trailing comma",
    kind: "add_import_name",
    tier: 2,
    before: "from os.path import (\n    join, split,\n    exists,\n)\n\nx = join\n",
    after: "from os.path import (\n    join, split,\n    exists,\n    isdir,\n)\n\nx = join\n",
  },
  {
    name: "a one-line from-import exploded one name per line as it gains a name (black's layout)",
    kind: "parenthesize_import",
    tier: 2,
    before: "from os.path import join, split\n\nx = join\n",
    after: "from os.path import (\n    join,\n    split,\n    exists,\n)\n\nx = join\n",
  },
  {
    name: "a shebang's interpreter changed",
    kind: "rewrite_comment",
    tier: 2,
    before: "#!/usr/bin/env python\n# The entry point.\nimport sys\n",
    after: "#!/usr/bin/env python3\n# The entry point.\nimport sys\n",
  },
  {
    name: "a comment paragraph re-wrapped from two lines to three",
    kind: "rewrite_comment",
    tier: 2,
    before:
      "# Maximum number of characters parsed from the header\n# to prevent denial of service.\nMAX = 500\n",
    after: "# Maximum number of characters parsed from the header\n# or cookie to prevent possible\n" +
      "# denial of service.\nMAX = 500\n",
  },
  {
    name: "a from-import re-laid from a backslash continuation into parentheses",
    kind: "parenthesize_import",
    tier: 2,
    before: "from os.path import join, split, \\\n    exists\n\nx = join\n",
    after: "from os.path import (join, split,\n    exists)\n\nx = join\n",
  },
  {
    name:
      "a new overload whose decorator and def lines end in comments (a fragment, the comments added back)",
    kind: "set_line_comment",
    tier: 2,
    before: "@dispatch(int, int)  # type: ignore # noqa:F811\ndef add(a, b): # noqa:F811\n    return a + b\n",
    after:
      "@dispatch(int, int)  # type: ignore # noqa:F811\ndef add(a, b): # noqa:F811\n    return a + b\n\n" +
      "@dispatch(str, str)  # type: ignore # noqa:F811\ndef add(x, y): # noqa:F811\n    return x + ' ' + y\n",
  },
  {
    name:
      "a new overload with a comment line between its decorator and def (a copy of its neighbour, adapted)",
    kind: "copy_node",
    tier: 1,
    before: "@dispatch(int, int)\n# F811: an overload\ndef add(a, b):\n    return a + b\n",
    after: "@dispatch(int, int)\n# F811: an overload\ndef add(a, b):\n    return a + b\n\n" +
      "@dispatch(str, str)\n# F811: an overload\ndef add(x, y):\n    return x + ' ' + y\n",
  },
  {
    name: "a commented constant added above a function (comment fragments, then the spacing)",
    kind: "fragment",
    tier: 3,
    before: "def a():\n    return 1\n\n\ndef b():\n    return 2\n",
    after:
      'def a():\n    return 1\n\n\n# The prefix of names.\n# Never empty.\nPREFIX = "$"\n\n\ndef b():\n    return 2\n',
  },
  {
    name: "a multi-line class attribute and a method inserted mid-class with no blank line between them",
    kind: "fragment",
    tier: 3,
    before:
      "class T:\n    names = (\n        1,\n    )\n\n    def flatten(self, args):\n        return args\n",
    after:
      "class T:\n    names = (\n        1,\n    )\n\n    ops = {\n        1: 2,\n        3: 4\n    }\n    def visit(self, node):\n        if node:\n            return 1\n        return node\n\n    def flatten(self, args):\n        return args\n",
  },
  {
    name: "the comments at the top of a body rewritten with its statements",
    kind: "replace_function_body",
    tier: 2,
    before: "def key(path):\n    # Use realpath.\n    path = real(path)\n    return cache[path]\n",
    after:
      "def key(path):\n    # Use a resolved path as key.\n    key = resolve(path)\n    return cache[key]\n",
  },
  {
    name: "a signature re-laid over lines with a new keyword-only parameter, and the body changed",
    kind: "change_signature",
    tier: 2,
    before: "def marks(obj: object) -> list:\n    return getattr(obj, 'm', [])\n",
    after:
      "def marks(\n    obj: object,\n    *,\n    mro: bool = True,\n) -> tuple:\n    found = getattr(obj, 'm', [])\n    return tuple(found) if mro else ()\n",
  },
  {
    name: "a base class added first",
    kind: "add_base_class",
    tier: 2,
    before: "class Token:\n    pass\n\n\nclass String(Token):\n    text = ''\n",
    after: "class Token:\n    pass\n\n\nclass String(object, Token):\n    text = ''\n",
  },
  {
    name: "a blank line removed between module statements",
    kind: "set_blank_lines",
    tier: 1,
    before: "A = 1\n\n\nB = 2\n",
    after: "A = 1\n\nB = 2\n",
  },
  {
    name: "a blank line added at the end of a class, before a function",
    kind: "set_blank_lines",
    tier: 1,
    before: "class A:\n    x = 1\n\ndef f():\n    return 2\n",
    after: "class A:\n    x = 1\n\n\ndef f():\n    return 2\n",
  },
  {
    name: "an import added without the file's blank lines after it (fragment, then the spacing)",
    kind: "set_blank_lines",
    tier: 1,
    before: "import os\n\n\ndef f():\n    return os.sep\n",
    after: "import os\nimport sys\n\ndef f():\n    return os.sep\n",
  },
];

for (const c of CASES) {
  Deno.test({
    name: `lift: ${c.name} becomes ${c.kind} (tier ${c.tier}), replayed and executed byte-exact`,
    ignore: PYTHON_SKIP !== undefined,
    async fn() {
      const file = c.file ?? "pkg/mod.py";
      const { dir, diff } = gitDiff({ [file]: c.before }, { [file]: c.after });
      const result = await liftIn(dir, { diff });
      assert.equal(result.exact, true, JSON.stringify(result.errors));
      assert.equal(result.success, true, JSON.stringify(result.errors));
      const kinds = result.hunks.flatMap((hunk) => hunk.kinds);
      const tiers = result.hunks.flatMap((hunk) => hunk.tiers);
      assert.ok(kinds.includes(c.kind), `expected ${c.kind}, got ${kinds.join(", ")}`);
      assert.equal(tiers[kinds.indexOf(c.kind)], c.tier);
      if (c.tier > 0) assert.ok(tiers.every((tier) => tier > 0), `tier 0 used: ${kinds.join(", ")}`);
      else assert.ok(result.warnings.some((issue) => issue.code === "lift-tier-0"));
      // The plan is an ordinary plan: the real executor reproduces the diff's result.
      const executed = await executeOnCopy({ [file]: c.before }, result.plan);
      assert.equal(executed[file], c.after);
      await assertPythonParses(executed[file]);
    },
  });
}

Deno.test("lift: a new module-level function becomes a header fragment and its body", {
  ignore: PYTHON_SKIP !== undefined,
}, async () => {
  const before = "import os\n\n\ndef a():\n    return 1\n";
  const after =
    'import os\n\n\ndef a():\n    return 1\n\n\ndef home(user):\n    """Home of user."""\n    # joined the portable way\n    return os.path.join("/home", user)\n';
  const { dir, diff } = gitDiff({ "m.py": before }, { "m.py": after });
  const result = await liftIn(dir, { diff });
  assert.equal(result.success, true, JSON.stringify(result.errors));
  assert.deepEqual(result.hunks[0].kinds, ["fragment", "replace_function_body"]);
  assert.deepEqual(result.hunks[0].tiers, [3, 2]);
  const executed = await executeOnCopy({ "m.py": before }, result.plan);
  assert.equal(executed["m.py"], after);
  await assertPythonParses(executed["m.py"]);
});

Deno.test(
  "lift: a whitespace-only hunk in a function with another change is lifted with it (template + spacing)",
  {
    ignore: PYTHON_SKIP !== undefined,
  },
  async () => {
    const filler = Array.from({ length: 8 }, (_, k) => `    v${k} = ${k}\n`).join("");
    const before = `def f(x):\n    y = x\n    \n${filler}    return y + 1\n`;
    const after = `def f(x):\n    y = x\n\n${filler}    return y + 2\n`;
    const { dir, diff } = gitDiff({ "w.py": before }, { "w.py": after });
    assert.equal(diff.match(/^@@/gm)?.length, 2, "two hunks");
    const result = await liftIn(dir, { diff });
    assert.equal(result.success, true, JSON.stringify(result.errors));
    assert.deepEqual(result.hunks.map((hunk) => [hunk.lifted, hunk.tiers]), [[true, [2, 1]], [true, [2, 1]]]);
    assert.deepEqual(result.plan.map((step) => (step as { template?: string }).template ?? step.op), [
      "change_return_value",
      "set_blank_lines",
    ]);
    const executed = await executeOnCopy({ "w.py": before }, result.plan);
    assert.equal(executed["w.py"], after);
  },
);

Deno.test("lift: locators are model-style (kind, name, parent chain), never offsets or lines", {
  ignore: PYTHON_SKIP !== undefined,
}, async () => {
  const before = "class A:\n    def f(self, x):\n        if x:\n            return 1\n        return 2\n";
  const after = "class A:\n    def f(self, x):\n        if x > 0:\n            return 1\n        return 2\n";
  const { dir, diff } = gitDiff({ "a.py": before }, { "a.py": after });
  const result = await liftIn(dir, { diff });
  assert.deepEqual(result.plan, [{
    template: "modify_condition",
    params: {
      target: {
        file: "a.py",
        kind: "if",
        parent: { kind: "method", name: "f", parent: { kind: "class", name: "A" } },
      },
      condition: "x > 0",
    },
  }]);
});

Deno.test("lift: JavaScript changes become templates, and node --check accepts the result", async (t) => {
  const node = (() => {
    try {
      return new Deno.Command("node", { args: ["--version"] }).outputSync().success;
    } catch {
      return false;
    }
  })();
  if (!node) {
    t.step({ name: "node not found on PATH", ignore: true, fn: () => {} });
    return;
  }
  const before =
    "function clamp(x, lo, hi) {\n  if (x < lo) {\n    return lo;\n  }\n  return Math.min(x, hi);\n}\n";
  const after =
    "function clamp(x, lo, hi) {\n  if (x <= lo) {\n    return lo;\n  }\n  return Math.min(x, hi - 1);\n}\n";
  const { dir, diff } = gitDiff({ "clamp.js": before }, { "clamp.js": after });
  const result = await liftIn(dir, { diff });
  assert.equal(result.success, true, JSON.stringify(result.errors));
  assert.ok(result.hunks.flatMap((hunk) => hunk.tiers).every((tier) => tier === 2));
  const executed = await executeOnCopy({ "clamp.js": before }, result.plan);
  assert.equal(executed["clamp.js"], after);
  const path = await Deno.makeTempFile({ suffix: ".js" });
  await Deno.writeTextFile(path, executed["clamp.js"]);
  const check = await new Deno.Command("node", { args: ["--check", path], stderr: "piped" }).output();
  await Deno.remove(path);
  assert.equal(check.success, true, new TextDecoder().decode(check.stderr));
});
