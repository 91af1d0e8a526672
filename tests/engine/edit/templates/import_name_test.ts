import assert from "node:assert/strict";
import { TEMPLATES } from "../../../../engine/edit/templates/mod.ts";
import { IssueError } from "../../../../engine/base/issue.ts";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { loadCorpus } from "../../../_support/corpus.ts";
import { contextWith, CORPUS_SKIP, textOf } from "../_edit_support.ts";

async function apply(source: string, params: Record<string, unknown>) {
  const { ctx } = await contextWith({ "m.py": source });
  const output = await TEMPLATES.add_import_name.run(
    { target: { file: "m.py", kind: "import", name: "pkg.errors" }, ...params },
    ctx,
  ) as Record<string, unknown>;
  return { output, text: await textOf(ctx, "m.py"), warnings: ctx.warnings };
}

const PARENS = "from pkg.errors import (\n    Timeout, Refused,\n    Closed)\n\nx = 1\n";

Deno.test("add_import_name: a parenthesised list over lines keeps its layout, an alias is written with as", async () => {
  const plain = await apply(PARENS, { name: "Reset" });
  assert.equal(plain.text, "from pkg.errors import (\n    Timeout, Refused,\n    Closed, Reset)\n\nx = 1\n");
  const aliased = await apply("from pkg.errors import Timeout\n", {
    name: "Reset",
    alias: "ConnectionReset",
  });
  assert.equal(aliased.text, "from pkg.errors import Timeout, Reset as ConnectionReset\n");
});

Deno.test("add_import_name: own_line puts the name under the last one, the trailing comma kept last", async () => {
  const vertical = "from pkg.errors import (\n    Timeout, Refused,\n    Closed,\n)\n";
  const after = await apply(vertical, { name: "Reset", own_line: true });
  assert.equal(after.text, "from pkg.errors import (\n    Timeout, Refused,\n    Closed,\n    Reset,\n)\n");
  const noComma = await apply(PARENS, { name: "Reset", own_line: true });
  assert.equal(
    noComma.text,
    "from pkg.errors import (\n    Timeout, Refused,\n    Closed,\n    Reset)\n\nx = 1\n",
  );
  await assert.rejects(
    () => apply("from pkg.errors import Timeout\n", { name: "Reset", own_line: true }),
    (err) => err instanceof IssueError && /no parentheses/.test(err.message),
  );
});

Deno.test("add_import_name: after writes the name behind the one given, keeping an alphabetical list in order", async () => {
  const inline = await apply("from pkg.errors import Closed, Timeout\n", {
    name: "Refused",
    after: "Closed",
  });
  assert.equal(inline.text, "from pkg.errors import Closed, Refused, Timeout\n");
  const vertical = "from pkg.errors import (\n    Closed,\n    Timeout,\n)\n";
  const own = await apply(vertical, { name: "Refused", after: "Closed", own_line: true });
  assert.equal(own.text, "from pkg.errors import (\n    Closed,\n    Refused,\n    Timeout,\n)\n");
  await assert.rejects(
    () => apply(vertical, { name: "Refused", after: "Reset" }),
    (err) => err instanceof IssueError && /does not import it/.test(err.message),
  );
});

Deno.test("add_import_name: first writes the name before the first one, on its own line with own_line", async () => {
  const inline = await apply("from pkg.errors import Closed, Timeout\n", { name: "Aborted", first: true });
  assert.equal(inline.text, "from pkg.errors import Aborted, Closed, Timeout\n");
  const vertical = "from pkg.errors import (\n    Closed,\n    Timeout,\n)\n";
  const own = await apply(vertical, { name: "Aborted", first: true, own_line: true });
  assert.equal(own.text, "from pkg.errors import (\n    Aborted,\n    Closed,\n    Timeout,\n)\n");
  await assert.rejects(
    () => apply(vertical, { name: "Aborted", first: true, after: "Closed" }),
    (err) => err instanceof IssueError && /Cannot combine "first"/.test(err.message),
  );
  await assert.rejects(
    () =>
      apply("from pkg.errors import (Timeout,\n    Closed)\n", {
        name: "Aborted",
        first: true,
        own_line: true,
      }),
    (err) => err instanceof IssueError && /does not start a line/.test(err.message),
  );
});

Deno.test("add_import_name: trailing_comma false turns the list's trailing comma into the separator", async () => {
  const vertical = "from pkg.errors import (\n    Closed, Refused,\n    Timeout,\n)\n";
  const inline = await apply(vertical, { name: "Reset", trailing_comma: false });
  assert.equal(inline.text, "from pkg.errors import (\n    Closed, Refused,\n    Timeout, Reset\n)\n");
  const own = await apply(vertical, { name: "Reset", trailing_comma: false, own_line: true });
  assert.equal(own.text, "from pkg.errors import (\n    Closed, Refused,\n    Timeout,\n    Reset\n)\n");
  // Without a trailing comma the parameter changes nothing.
  const plain = await apply(PARENS, { name: "Reset", trailing_comma: false });
  assert.equal(plain.text, "from pkg.errors import (\n    Timeout, Refused,\n    Closed, Reset)\n\nx = 1\n");
});

Deno.test("add_import_name: a name already imported is a no-op; a star import is refused", async () => {
  const again = await apply(PARENS, { name: "Refused" });
  assert.equal(again.text, PARENS);
  assert.equal(again.output.changed, false);
  assert.deepEqual(again.warnings.map((w) => w.code), ["already-present"]);
  await assert.rejects(
    () => apply("from pkg.errors import *\n", { name: "Reset" }),
    (err) => err instanceof IssueError,
  );
});

// logging/handlers.py of CPython 3.10: `io` joined the modules of a plain import.
Deno.test("add_import_name: a plain import of several modules grows first, after one, or last", async () => {
  const source = "import pkg.errors, socket, os\nimport queue\n";
  assert.equal(
    (await apply(source, { name: "io", first: true })).text,
    "import io, pkg.errors, socket, os\nimport queue\n",
  );
  assert.equal(
    (await apply(source, { name: "re", after: "socket" })).text,
    "import pkg.errors, socket, re, os\nimport queue\n",
  );
  assert.equal(
    (await apply(source, { name: "re" })).text,
    "import pkg.errors, socket, os, re\nimport queue\n",
  );
  assert.deepEqual((await apply(source, { name: "os" })).warnings.map((w) => w.code), ["already-present"]);
  await assert.rejects(
    () => apply(source, { name: "re", own_line: true }),
    (err) => err instanceof IssueError && /no parentheses/.test(err.message),
  );
});

Deno.test({
  name: "add_import_name: the names the gold patches of requests-2148 and sympy-13878 add, byte for byte",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const corpus = await loadCorpus();
    const cases = [
      {
        id: "psf__requests-2148",
        path: "requests/models.py",
        module: ".exceptions",
        names: ["ConnectionError"],
      },
      {
        id: "sympy__sympy-13878",
        path: "sympy/stats/crv_types.py",
        module: "sympy",
        names: ["uppergamma", "hyper"],
      },
    ];
    for (const c of cases) {
      const file = corpus.find((i) => i.instance_id === c.id)!.files.find((f) => f.path === c.path)!;
      const { ctx } = await contextWith({ [c.path]: file.before });
      for (const name of c.names) {
        const target = { file: c.path, kind: "import", name: c.module, index: 0 };
        await TEMPLATES.add_import_name.run({ target, name }, ctx);
      }
      const text = await textOf(ctx, c.path);
      // The statement now reads as in the fixed file; CPython sees the new names imported from the module.
      const statementOf = (source: string) => {
        const start = source.indexOf(`from ${c.module} import (`);
        return source.slice(start, source.indexOf(")", start) + 1);
      };
      assert.equal(statementOf(text), statementOf(file.after));
      const imported = await runPythonJson<string[]>(
        "import ast, json, sys\nm, s = json.load(sys.stdin)\n" +
          "print(json.dumps([a.name for n in ast.walk(ast.parse(s)) if isinstance(n, ast.ImportFrom) " +
          "and ('.' * n.level + (n.module or '')) == m for a in n.names]))",
        [c.module, text],
      );
      for (const name of c.names) assert.ok(imported.includes(name), `${c.id}: ${name}`);
    }
  },
});
