/**
 * Problems are issue objects in `errors`, never swallowed and never hiding
 * the other files: unreadable files (unknown extension, missing, binary, not
 * UTF-8, outside the repository, a directory) are errors with no symbols; a
 * file with syntax errors is graphed as far as it parses, with a
 * `syntax-error` warning at its first error's line.
 */

import assert from "node:assert/strict";
import { buildGraph, graphHasErrors } from "../../../engine/graph/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { PYTHON_SKIP, pythonSyntaxErrors } from "../../_support/python.ts";

const BROKEN_PY = `def ok():
    return 1


def broken(:
    pass


class After:
    def method(self):
        return 2
`;

const GOOD_PY = `import os


def cwd():
    return os.getcwd()
`;

const GOOD_GO = `package main

import "fmt"

func main() {
	fmt.Println("hi")
}
`;

async function repo(): Promise<{ dir: string; workspace: Workspace }> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-graph-errors-" });
  await Deno.writeTextFile(`${dir}/notes.txt`, "plain text\n");
  await Deno.writeFile(`${dir}/blob.py`, new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
  // "café" in Latin-1: 0xE9 is not UTF-8 here.
  await Deno.writeFile(
    `${dir}/latin1.py`,
    new Uint8Array([...new TextEncoder().encode("x = 1\nname = 'caf"), 0xe9, 0x27, 0x0a]),
  );
  await Deno.writeTextFile(`${dir}/broken.py`, BROKEN_PY);
  await Deno.writeTextFile(`${dir}/good.py`, GOOD_PY);
  await Deno.writeTextFile(`${dir}/main.go`, GOOD_GO);
  // A FIFO named like a source file: not a regular file (a directory would be expanded instead).
  await new Deno.Command("mkfifo", { args: [`${dir}/pipe.py`] }).output();
  return { dir, workspace: Workspace.open(dir) };
}

Deno.test("graph errors: each unreadable file is one error issue with its code, file and no symbols", async () => {
  const { dir, workspace } = await repo();
  try {
    const cases: [string, string][] = [
      ["notes.txt", "unknown-language"],
      ["blob.py", "binary-file"],
      ["latin1.py", "not-utf8"],
      ["missing.py", "file-not-found"],
      ["../outside.py", "path-outside-repo"],
      ["pipe.py", "file-not-regular"],
    ];
    for (const [path, code] of cases) {
      const graph = await buildGraph(workspace, [path]);
      assert.equal(graph.errors.length, 1, `${path}: ${JSON.stringify(graph.errors)}`);
      const [issue] = graph.errors;
      assert.equal(issue.code, code, path);
      assert.equal(issue.severity, "error", path);
      assert.ok(issue.message.length > 0 && !issue.message.endsWith("."), path);
      assert.ok(issue.file, `${path}: issue names its file`);
      assert.deepEqual(graph.symbols, [], path);
      assert.deepEqual(graph.imports, [], path);
      assert.deepEqual(graph.line_kinds, {}, path);
      assert.equal(graphHasErrors(graph), true, path);
    }
    const latin1 = await buildGraph(workspace, ["latin1.py"]);
    assert.equal(latin1.errors[0].line, 2);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graph errors: a file with a syntax error keeps its graph and gets a warning at the first error's line", async () => {
  const { dir, workspace } = await repo();
  try {
    const graph = await buildGraph(workspace, ["broken.py"]);
    assert.deepEqual(
      graph.symbols.map((s) => `${s.kind} ${s.name} ${s.start_line}-${s.end_line}`),
      ["function ok 1-2", "function broken 5-6", "class After 9-11", "method method 10-11"],
    );
    assert.deepEqual(graph.line_kinds, {
      "broken.py": { "2": "return_statement", "11": "return_statement" },
    });
    assert.equal(graph.errors.length, 1);
    const [issue] = graph.errors;
    assert.equal(issue.code, "syntax-error");
    assert.equal(issue.severity, "warning");
    assert.equal(issue.file, "broken.py");
    assert.equal(issue.line, 5);
    assert.match(issue.message, /^Syntax error in "broken\.py" at line 5: /);
    assert.equal(graphHasErrors(graph), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

if (PYTHON_SKIP) console.log(`errors_test: CPython check skipped: ${PYTHON_SKIP}`);

Deno.test({
  name: "graph errors: the syntax error's line agrees with CPython",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const [message] = await pythonSyntaxErrors([BROKEN_PY]);
    assert.match(message ?? "", /\(line 5\)$/);
  },
});

Deno.test("graph errors: one bad file never hides the others", async () => {
  const { dir, workspace } = await repo();
  try {
    const graph = await buildGraph(workspace, ["good.py", "blob.py", "notes.txt", "broken.py", "main.go"]);
    assert.deepEqual(
      graph.symbols.map((s) => `${s.file}:${s.name}`),
      [
        "good.py:cwd",
        "broken.py:ok",
        "broken.py:broken",
        "broken.py:After",
        "broken.py:method",
        "main.go:main",
      ],
    );
    assert.deepEqual(graph.imports.map((r) => `${r.file}:${r.module}`), ["good.py:os", "main.go:fmt"]);
    assert.deepEqual(Object.keys(graph.line_kinds), ["good.py", "broken.py", "main.go"]);
    assert.deepEqual(
      graph.errors.map((issue) => `${issue.severity} ${issue.code} ${issue.file}`),
      ["error binary-file blob.py", "error unknown-language notes.txt", "warning syntax-error broken.py"],
    );
    assert.equal(graphHasErrors(graph), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("graph errors: an empty file is a graph with nothing in it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-graph-empty-" });
  try {
    await Deno.writeTextFile(`${dir}/empty.rs`, "");
    const graph = await buildGraph(Workspace.open(dir), ["empty.rs"]);
    assert.deepEqual(graph, { symbols: [], imports: [], line_kinds: { "empty.rs": {} }, errors: [] });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
