/**
 * The repository import graph seen from one module (`engine/analysis/importers.ts`):
 * which files use which names of it, and how; and which module a written
 * import names.
 */

import assert from "node:assert/strict";
import { importersOf, importNames } from "../../../engine/analysis/importers.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { repoWith } from "../verify/plan/_support.ts";

Deno.test("importNames: relative, dotted, src/ layout, and bare modules only where Python finds them", () => {
  const target = "src/click/utils.py";
  assert.equal(importNames(".utils", "src/click/core.py", target), true);
  assert.equal(importNames("..utils", "src/click/sub/x.py", target), true);
  assert.equal(importNames("click.utils", "tests/test_a.py", target), true);
  assert.equal(importNames("click", "tests/test_a.py", "src/click/__init__.py"), true);
  // `import utils` elsewhere is another top-level module; beside the file it is this one (Python 2 style)
  assert.equal(importNames("utils", "tools/run.py", target), false);
  assert.equal(importNames("utils", "src/click/core.py", target), true);
  assert.equal(importNames("other.utils", "tests/test_a.py", target), false);
});

Deno.test("importersOf: from-imports (aliased, local, guarded), module attributes, star imports; shadowed modules left out", async () => {
  const dir = await repoWith({
    "pkg/m.py": "def run():\n    return 1\n",
    "pkg/a.py":
      "from .m import run as go\n\n\ndef f():\n    from pkg.m import run\n    return run() + go()\n",
    "pkg/b.py":
      "import pkg.m\nimport pkg.m as mm\nfrom pkg import m\n\n\ndef g(m=None):\n    return pkg.m.run(), mm.run(), m.run()\n",
    "pkg/c.py": "try:\n    from pkg.m import run\nexcept ImportError:\n    run = None\nfrom pkg.m import *\n",
    "pkg/d.py": "from other.m import run\nrun()\n",
  });
  const store = new DocumentStore(Workspace.open(dir));
  const found = await importersOf(store, "pkg/m.py", ["run"]);
  const shown = found.map((importer) =>
    `${importer.path}: ${
      importer.uses.map((use) =>
        `${use.kind}@${use.line}${use.alias ? ` as ${use.alias}` : ""}${use.guarded ? " guarded" : ""}`
      ).join(", ")
    }`
  );
  assert.deepEqual(shown, [
    "pkg/a.py: import@1 as go, import@5",
    // `m.run()` inside g reads the parameter m, not the module
    "pkg/b.py: attribute@7, attribute@7",
    "pkg/c.py: import@2 guarded, star@5",
  ]);
  const noStar = await importersOf(store, "pkg/m.py", ["run"], {
    star: false,
    exclude: new Set(["pkg/a.py"]),
  });
  assert.deepEqual(noStar.map((importer) => importer.path), ["pkg/b.py", "pkg/c.py"]);
  await Deno.remove(dir, { recursive: true });
});
