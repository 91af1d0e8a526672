/**
 * Locators on real code: every Python file of the SWE-bench corpus, checked
 * against CPython's `ast` (definitions, methods, imports) and against the
 * function names git wrote into the gold patches' hunk headers.
 */

import assert from "node:assert/strict";
import { resolveLocator } from "../../../engine/locate/mod.ts";
import { nodeName } from "../../../engine/locate/names.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { PYTHON_SKIP, runPythonJson } from "../../_support/python.ts";

interface AstFacts {
  functions: [string, number][];
  classes: [string, number][];
  methods: [string, string, number][];
  imports: number[];
}

const AST_SCRIPT = `
import ast, json, sys
out = []
for src in json.load(sys.stdin):
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        out.append(None)
        continue
    funcs, classes, methods, imports = [], [], [], []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            funcs.append([node.name, node.lineno])
        elif isinstance(node, ast.ClassDef):
            classes.append([node.name, node.lineno])
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    methods.append([node.name, item.name, item.lineno])
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.append(node.lineno)
    out.append({"functions": funcs, "classes": classes, "methods": methods, "imports": imports})
print(json.dumps(out))
`;

interface PyFile {
  id: string;
  rel: string;
  text: string;
}

/** Every Python `before` file of the corpus, written into one temporary repository. */
async function corpusRepo(): Promise<{ store: DocumentStore; dir: string; files: PyFile[] }> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-locate-corpus-" });
  const files: PyFile[] = [];
  for (const instance of await loadCorpus()) {
    for (const file of instance.files) {
      if (!file.path.endsWith(".py")) continue;
      const rel = `${instance.instance_id}/${file.path}`;
      const target = `${dir}/${rel}`;
      await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(target, file.before);
      files.push({ id: instance.instance_id, rel, text: file.before });
    }
  }
  return { store: new DocumentStore(Workspace.open(dir)), dir, files };
}

const byLine = <T extends unknown[]>(a: T, b: T) => JSON.stringify(a).localeCompare(JSON.stringify(b));

Deno.test({
  name: "corpus: functions, classes, methods and imports agree with CPython's ast",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const { store, dir, files } = await corpusRepo();
    try {
      const facts = await runPythonJson<(AstFacts | null)[]>(AST_SCRIPT, files.map((f) => f.text));
      let checked = 0;
      let methods = 0;
      for (const [i, file] of files.entries()) {
        const want = facts[i];
        const doc = await store.get(file.rel);
        if (!want || doc.tree.rootNode.hasError) continue; // not valid for one of the parsers
        const named = async (kind: string) => {
          const { nodes } = await resolveLocator(store, { file: file.rel, kind });
          return nodes.map((n) => [nodeName(n, "python")!, n.startPosition.row + 1] as [string, number]);
        };
        const where = `${file.rel}`;
        assert.deepEqual(
          (await named("function")).sort(byLine),
          want.functions.sort(byLine),
          `functions of ${where}`,
        );
        assert.deepEqual(
          (await named("class")).sort(byLine),
          want.classes.sort(byLine),
          `classes of ${where}`,
        );
        assert.deepEqual(
          (await named("method")).sort(byLine),
          want.methods.map(([, name, line]) => [name, line] as [string, number]).sort(byLine),
          `methods of ${where}`,
        );
        const imports = (await resolveLocator(store, { file: file.rel, kind: "import" })).nodes
          .map((n) => n.startPosition.row + 1);
        assert.deepEqual(
          imports.sort((a, b) => a - b),
          want.imports.sort((a, b) => a - b),
          `imports of ${where}`,
        );
        // A method by class and name (the seed's headline locator) finds the ast's line.
        for (const [cls, name, line] of want.methods.slice(0, 25)) {
          const { nodes } = await resolveLocator(store, {
            file: file.rel,
            kind: "method",
            name,
            parent: { kind: "class", name: cls },
          });
          assert.ok(
            nodes.some((n) => n.startPosition.row + 1 === line),
            `${where}: method "${name}" of class "${cls}" at line ${line} not found`,
          );
          methods++;
        }
        checked++;
      }
      assert.ok(checked > 150, `only ${checked} corpus files checked`);
      assert.ok(methods > 1000, `only ${methods} methods checked`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "corpus: the function or class git names in a gold hunk header is found on that line",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { store, dir } = await corpusRepo();
    try {
      let checked = 0;
      for (const instance of await loadCorpus()) {
        let path: string | undefined;
        for (const line of instance.patch.split("\n")) {
          const file = /^--- a\/(.+\.py)$/.exec(line);
          if (file) path = file[1];
          if (line.startsWith("--- ") && !file) path = undefined;
          const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@ (.*)$/.exec(line);
          if (!hunk || !path) continue;
          const context = hunk[2].trim();
          const def = /^(?:async\s+)?(def|class)\s+(\w+)/.exec(context);
          if (!def) continue;
          const before = instance.files.find((f) => f.path === path)!.before.split("\n");
          // git's context line: the nearest line above the hunk that starts with the header text.
          let expected = -1;
          for (let i = Number(hunk[1]) - 2; i >= 0; i--) {
            if (before[i].trim().startsWith(context)) {
              expected = i + 1;
              break;
            }
          }
          if (expected === -1) continue;
          const rel = `${instance.instance_id}/${path}`;
          const kind = def[1] === "def" ? "function" : "class";
          const { nodes } = await resolveLocator(store, { file: rel, kind, name: def[2] });
          assert.ok(
            nodes.some((n) => n.startPosition.row + 1 === expected),
            `${rel}: ${kind} "${def[2]}" expected at line ${expected}, got ${
              nodes.map((n) => n.startPosition.row + 1)
            }`,
          );
          checked++;
        }
      }
      assert.ok(checked > 100, `only ${checked} hunk headers checked`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
