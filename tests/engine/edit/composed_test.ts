import assert from "node:assert/strict";
import { BUILTIN_DEFINITIONS } from "../../../engine/edit/composed.ts";
import { COMPOSED_OPS } from "../../../engine/edit/composed_ops.ts";
import { expandComposed, validateDefinitions } from "../../../engine/edit/dsl.ts";
import { assertPythonParses, PYTHON_SKIP, runPythonJson } from "../../_support/python.ts";
import { assertNodeParses, contextWith, CORPUS_SKIP, corpusFile, textOf } from "./_edit_support.ts";

const MODELS = "requests/models.py";

async function onModels() {
  const text = await corpusFile("psf__requests-2931", MODELS);
  const { ctx } = await contextWith({ [MODELS]: text });
  return { ctx, text };
}

Deno.test("composed: the built-in programs are valid DSL", () => {
  assert.deepEqual(validateDefinitions([...BUILTIN_DEFINITIONS], { builtin: true }), []);
});

Deno.test("composed: add_method expands to class_body_anchor + insert_after_node at the body's last child", () => {
  const steps = expandComposed("add_method", { file: "a.py", class: "A", code: "def f(self): pass" });
  const empty = steps[1] as { if: string; else: unknown[] };
  assert.equal(empty.if, "$slot.position == 'empty'");
  const branch = empty.else[0] as { if: string; else: unknown[] };
  assert.equal(branch.if, "$slot.placeholder");
  assert.deepEqual(branch.else[0], {
    primitive: "insert_after_node",
    params: {
      locator: { kind: "class", name: "A", file: "a.py", field: "body", nth_child: -1 },
      code: "def f(self): pass",
    },
  });
});

Deno.test("add_method: a body that is only pass (after a docstring) has pass replaced", async () => {
  const source = 'class A:\n    """Doc."""\n\n    pass\n\n\nclass B:\n    ...\n';
  const { ctx } = await contextWith({ "p.py": source });
  await COMPOSED_OPS.add_method(
    { file: "p.py", class_name: "A", method_code: "def f(self):\n    return 1" },
    ctx,
  );
  await COMPOSED_OPS.add_method(
    { file: "p.py", class_name: "B", method_code: "def g(self):\n    return 2" },
    ctx,
  );
  const after = await textOf(ctx, "p.py");
  assert.equal(
    after,
    'class A:\n    """Doc."""\n\n    def f(self):\n        return 1\n\n\nclass B:\n    def g(self):\n        return 2\n',
  );
  await assertPythonParses(after);
});

Deno.test({
  name: "add_method: after the last method of a class, one blank line as the file does (both spellings)",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx, text } = await onModels();
    const head = text.slice(0, text.indexOf("class Request(RequestHooksMixin)") - 40);
    await COMPOSED_OPS.add_method({
      file: MODELS,
      class_name: "RequestHooksMixin",
      method_code: "def clear_hooks(self):\n    self.hooks = {}\n",
    }, ctx);
    await COMPOSED_OPS.add_method({
      file: MODELS,
      class: "Response",
      code: "    def __len__(self):\n        return len(self.content)",
    }, ctx);
    const after = await textOf(ctx, MODELS);
    assert.ok(after.includes(
      "            return False\n\n    def clear_hooks(self):\n        self.hooks = {}\n\n\nclass Request(RequestHooksMixin):",
    ));
    assert.ok(
      after.endsWith(
        "        return self.raw.release_conn()\n\n    def __len__(self):\n        return len(self.content)\n",
      ),
    );
    assert.ok(after.startsWith(head));
    await assertPythonParses(after);
  },
});

Deno.test("add_method: nested classes, decorators and a class body ending in a comment", async () => {
  const source = [
    "class Outer:",
    "    class Inner:",
    "        @staticmethod",
    "        def make():",
    "            return 1",
    "        # end of Inner",
    "",
    "    def outer(self):",
    "        pass",
    "",
  ].join("\n");
  const { ctx } = await contextWith({ "n.py": source });
  await COMPOSED_OPS.add_method({
    file: "n.py",
    class_name: "Inner",
    method_code: "@classmethod\ndef build(cls):\n    return cls()",
  }, ctx);
  const after = await textOf(ctx, "n.py");
  assert.equal(
    after,
    source.replace(
      "            return 1\n",
      "            return 1\n\n        @classmethod\n        def build(cls):\n            return cls()\n",
    ),
  );
  await assertPythonParses(after);
});

Deno.test("add_method and add_class_attribute fill empty braces, indented as the file; node --check agrees", async () => {
  const source = [
    "class A {}",
    "",
    "function make() {",
    "    class Local {}",
    "    return new Local();",
    "}",
    "",
    "class B { // nothing yet",
    "}",
    "",
  ].join("\n");
  const { ctx } = await contextWith({ "a.mjs": source });
  await COMPOSED_OPS.add_method(
    { file: "a.mjs", class_name: "A", method_code: "greet() {\n  return 1;\n}" },
    ctx,
  );
  await COMPOSED_OPS.add_class_attribute(
    { file: "a.mjs", class_name: "Local", attribute: "count = 0;" },
    ctx,
  );
  const after = await textOf(ctx, "a.mjs");
  assert.equal(
    after,
    source
      .replace("class A {}", "class A {\n    greet() {\n        return 1;\n    }\n}")
      .replace("    class Local {}", "    class Local {\n        count = 0;\n    }"),
  );
  await assertNodeParses(after);
  // Braces holding only a comment: the member has nothing to go next to, and the comment would have to move.
  await assert.rejects(
    () => COMPOSED_OPS.add_method({ file: "a.mjs", class_name: "B", method_code: "m() {}" }, ctx),
    (err: Error & { issues?: { code: string; hint?: string }[] }) =>
      err.issues?.[0]?.code === "class-body-empty" && /only comments/.test(err.issues[0].hint ?? ""),
  );
  assert.equal(await textOf(ctx, "a.mjs"), after);
});

Deno.test("add_method and add_class_attribute in a Java class with members", async () => {
  const source =
    "package p;\n\npublic class B {\n    private int x;\n\n    public int getX() {\n        return x;\n    }\n}\n";
  const { ctx } = await contextWith({ "B.java": source });
  await COMPOSED_OPS.add_method({
    file: "B.java",
    class_name: "B",
    method_code: "public void setX(int x) {\n    this.x = x;\n}",
  }, ctx);
  await COMPOSED_OPS.add_class_attribute(
    { file: "B.java", class_name: "B", attribute: "private int y;" },
    ctx,
  );
  assert.equal(
    await textOf(ctx, "B.java"),
    source
      .replace("    private int x;", "    private int y;\n\n    private int x;")
      .replace(
        "return x;\n    }\n",
        "return x;\n    }\n\n    public void setX(int x) {\n        this.x = x;\n    }\n",
      ),
  );
});

Deno.test("add_method into an empty Java class and an empty TypeScript class", async () => {
  const { ctx } = await contextWith({
    "A.java": "public class A {}\n",
    "e.ts": "export class Empty {}\n",
  });
  await COMPOSED_OPS.add_method({
    file: "A.java",
    class_name: "A",
    method_code: "public int one() {\n    return 1;\n}",
  }, ctx);
  await COMPOSED_OPS.add_method({
    file: "e.ts",
    class_name: "Empty",
    method_code: "size(): number {\n  return 0;\n}",
  }, ctx);
  assert.equal(
    await textOf(ctx, "A.java"),
    "public class A {\n    public int one() {\n        return 1;\n    }\n}\n",
  );
  assert.equal(
    await textOf(ctx, "e.ts"),
    "export class Empty {\n    size(): number {\n        return 0;\n    }\n}\n",
  );
  // javac, where installed, compiles the result.
  const javac = await new Deno.Command("javac", { args: ["-version"], stderr: "null", stdout: "null" })
    .output()
    .then((out) => out.success, () => false);
  if (javac) {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-javac-" });
    try {
      await Deno.writeTextFile(`${dir}/A.java`, await textOf(ctx, "A.java"));
      const out = await new Deno.Command("javac", { args: ["-d", dir, `${dir}/A.java`], stderr: "piped" })
        .output();
      assert.ok(out.success, new TextDecoder().decode(out.stderr));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

/** Every (module, name, alias) a Python source imports at module level, by CPython's ast. */
const IMPORTS_SCRIPT = `
import ast, json, sys
out = []
for node in ast.parse(json.load(sys.stdin)).body:
    if isinstance(node, ast.ImportFrom):
        mod = "." * node.level + (node.module or "")
        out += [f"{mod}:{a.name}:{a.asname or ''}" for a in node.names]
    elif isinstance(node, ast.Import):
        out += [f":{a.name}:{a.asname or ''}" for a in node.names]
print(json.dumps(sorted(out)))
`;

Deno.test("add_import: a Python from-import joins the statement that imports from its module, in its style", async () => {
  const source = [
    '"""Doc."""',
    "from __future__ import division",
    "import os",
    "from collections import OrderedDict  # noqa: F401",
    "from typing import (",
    "    Any,",
    "    Dict,",
    ")",
    "from .utils import a, b",
    "from .longer_module_name_here import first_long_name, second_long_name, third_nm",
    "",
    "",
    "def f():",
    "    return os.sep",
    "",
  ].join("\n");
  const { ctx } = await contextWith({ "m.py": source });
  const add = (import_statement: string) => COMPOSED_OPS.add_import({ file: "m.py", import_statement }, ctx);
  await add("from collections import defaultdict, OrderedDict"); // OrderedDict is there: only defaultdict joins
  await add("from typing import List"); // one more line in the parenthesized list
  await add("from .utils import c as see"); // relative module, alias kept
  await add("from .longer_module_name_here import fourth"); // past 79 characters: wrapped
  await add("from __future__ import annotations");
  await add("from json import dumps"); // no statement for json yet: a new line
  const after = await textOf(ctx, "m.py");
  assert.equal(
    after,
    source
      .replace("division\n", "division, annotations\n")
      .replace("OrderedDict  #", "OrderedDict, defaultdict  #")
      .replace("    Dict,\n)", "    Dict,\n    List,\n)")
      .replace("import a, b\n", "import a, b, c as see\n")
      .replace(
        "import first_long_name, second_long_name, third_nm\n",
        "import (\n    first_long_name,\n    second_long_name,\n    third_nm,\n    fourth,\n)\nfrom json import dumps\n",
      ),
  );
  await assertPythonParses(after);
  if (!PYTHON_SKIP) {
    const [before, now] = await Promise.all([
      runPythonJson<string[]>(IMPORTS_SCRIPT, source),
      runPythonJson<string[]>(IMPORTS_SCRIPT, after),
    ]);
    const added = [
      "collections:defaultdict:",
      "typing:List:",
      ".utils:c:see",
      ".longer_module_name_here:fourth:",
      "__future__:annotations:",
      "json:dumps:",
    ];
    assert.deepEqual(now, [...before, ...added].sort());
  }
  assert.deepEqual(ctx.warnings, []);
});

Deno.test({
  name: "add_import: after the last module-level import; a present import is a no-op with a warning",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx, text } = await onModels();
    await COMPOSED_OPS.add_import({ file: MODELS, import_statement: "import os" }, ctx);
    const after = await textOf(ctx, MODELS);
    assert.ok(after.includes("from .status_codes import codes\nimport os\n\n#: The set of HTTP"));
    assert.equal(after.length, text.length + "import os\n".length);
    await COMPOSED_OPS.add_import({ file: MODELS, import: "from io import BytesIO" }, ctx);
    await COMPOSED_OPS.add_import({ file: MODELS, code: "import  datetime" }, ctx);
    assert.equal(await textOf(ctx, MODELS), after);
    assert.deepEqual(ctx.warnings.map((w) => w.code), ["import-exists", "import-exists"]);
    await assertPythonParses(after);
  },
});

Deno.test("add_import: ignores imports nested in functions; docstring and __future__ placement", async () => {
  const nested = '"""Doc."""\n\n\ndef f():\n    import json\n    return json\n';
  const { ctx } = await contextWith({
    "a.py": nested,
    "b.py": '"""Doc."""\nfrom __future__ import annotations\n\nimport os\n',
    "c.py": "x = 1\n",
  });
  await COMPOSED_OPS.add_import({ file: "a.py", import_statement: "import json" }, ctx);
  assert.equal(
    await textOf(ctx, "a.py"),
    '"""Doc."""\n\nimport json\n\n\ndef f():\n    import json\n    return json\n',
  );
  await COMPOSED_OPS.add_import({ file: "b.py", import_statement: "from __future__ import division" }, ctx);
  await COMPOSED_OPS.add_import({ file: "b.py", import_statement: "import re" }, ctx);
  assert.equal(
    await textOf(ctx, "b.py"),
    // The future import joins the one there; a plain import goes after the last import.
    '"""Doc."""\nfrom __future__ import annotations, division\n\nimport os\nimport re\n',
  );
  await COMPOSED_OPS.add_import({ file: "c.py", import_statement: "import sys" }, ctx);
  assert.equal(await textOf(ctx, "c.py"), "import sys\n\nx = 1\n");
  for (const file of ["a.py", "b.py", "c.py"]) await assertPythonParses(await textOf(ctx, file), file);
});

Deno.test("add_import: JavaScript module", async () => {
  const source = 'import fs from "node:fs";\n\nexport function read(p) {\n  return fs.readFileSync(p);\n}\n';
  const { ctx } = await contextWith({ "m.mjs": source });
  await COMPOSED_OPS.add_import({ file: "m.mjs", import_statement: 'import path from "node:path";' }, ctx);
  const after = await textOf(ctx, "m.mjs");
  assert.equal(after, source.replace(";\n\n", ';\nimport path from "node:path";\n\n'));
  await assertNodeParses(after);
});

Deno.test({
  name: "add_class_attribute: before the first non-docstring statement of the class body",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { ctx } = await onModels();
    await COMPOSED_OPS.add_class_attribute({
      file: MODELS,
      class_name: "Request",
      attribute: "timeout = None",
    }, ctx);
    await COMPOSED_OPS.add_class_attribute(
      { file: MODELS, class: "RequestHooksMixin", code: "hooks = None" },
      ctx,
    );
    const after = await textOf(ctx, MODELS);
    assert.ok(
      after.includes(
        '      <PreparedRequest [GET]>\n\n    """\n    timeout = None\n\n    def __init__(self, method=None',
      ),
    );
    assert.ok(
      after.includes(
        "class RequestHooksMixin(object):\n    hooks = None\n\n    def register_hook(self, event, hook):",
      ),
    );
    await assertPythonParses(after);
  },
});

Deno.test("add_class_attribute: a class with only a docstring, a tab-indented CRLF file", async () => {
  const source = 'class A:\r\n\t"""Doc."""\r\n\r\n\r\nclass B:\r\n\tdef f(self):\r\n\t\tpass\r\n';
  const { ctx } = await contextWith({ "t.py": source });
  await COMPOSED_OPS.add_class_attribute({ file: "t.py", class_name: "A", attribute: "x = 1" }, ctx);
  await COMPOSED_OPS.add_class_attribute({
    file: "t.py",
    class_name: "B",
    attribute: "    y = [\n        1,\n    ]",
  }, ctx);
  const after = await textOf(ctx, "t.py");
  assert.equal(
    after,
    'class A:\r\n\t"""Doc."""\r\n\tx = 1\r\n\r\n\r\nclass B:\r\n\ty = [\r\n\t\t1,\r\n\t]\r\n\r\n\tdef f(self):\r\n\t\tpass\r\n',
  );
  await assertPythonParses(after);
});

Deno.test("add_import: an empty file, a comment-only file", async () => {
  const { ctx } = await contextWith({ "e.py": "", "c.py": "#!/usr/bin/env python\n# comment\n" });
  await COMPOSED_OPS.add_import({ file: "e.py", import_statement: "import os" }, ctx);
  await COMPOSED_OPS.add_import({ file: "c.py", import_statement: "import os" }, ctx);
  assert.equal(await textOf(ctx, "e.py"), "import os\n");
  assert.equal(await textOf(ctx, "c.py"), "#!/usr/bin/env python\n# comment\nimport os\n");
});
