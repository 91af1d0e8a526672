/**
 * Directories in a graph request: expanded to the source files below them,
 * in name order, skipping hidden directories, node_modules, __pycache__ and
 * symlinked directories; files and missing paths pass through to get their
 * own issues; an empty directory is a warning. End to end through the CLI,
 * `graph --json .` equals the graph of the files it lists.
 */

import assert from "node:assert/strict";
import { buildGraph, buildGraphText, expandSourcePaths } from "../../../engine/graph/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { GIT_SKIP, gitInit } from "../exec/_support.ts";
import { runCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

async function repo(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-files-" });
  const write = async (path: string, text: string) => {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/") + 1) || "."}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  };
  await write("pkg/b.py", "class B:\n    def m(self):\n        return 1\n");
  await write("pkg/a.py", "import os\n\n\ndef a():\n    return os.sep\n");
  await write("pkg/sub/c.ts", "export interface C {\n  x: number;\n}\n");
  await write("pkg/README.md", "# notes\n");
  await write("pkg/__pycache__/a.cpython-311.py", "x = 1\n");
  await write(".venv/lib/site.py", "def hidden():\n    pass\n");
  await write("node_modules/dep/index.js", "function dep() {}\n");
  await write("top.js", "export function top() {}\n");
  await Deno.mkdir(`${dir}/empty/deeper`, { recursive: true });
  await Deno.symlink("..", `${dir}/pkg/loop`); // a directory link: not followed
  await Deno.symlink("a.py", `${dir}/pkg/z_link.py`); // a file link inside the root: kept
  return dir;
}

Deno.test("expandSourcePaths: directories become their source files; other paths pass through", async () => {
  const dir = await repo();
  try {
    const workspace = Workspace.open(dir);
    const whole = expandSourcePaths(workspace, ["."]);
    assert.deepEqual(whole.files, ["pkg/a.py", "pkg/b.py", "pkg/sub/c.ts", "pkg/z_link.py", "top.js"]);
    assert.deepEqual(whole.warnings, []);
    const mixed = expandSourcePaths(workspace, ["top.js", "pkg/sub/", "gone.py", "pkg/README.md", "empty"]);
    assert.deepEqual(mixed.files, ["top.js", "pkg/sub/c.ts", "gone.py", "pkg/README.md"]);
    assert.deepEqual(mixed.warnings.map((issue) => [issue.code, issue.severity, issue.file]), [
      ["no-source-files", "warning", "empty"],
    ]);
    // A directory outside the root is not expanded: it is refused when read, as any such path.
    assert.deepEqual(expandSourcePaths(workspace, ["../"]).files, ["../"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("buildGraph and buildGraphText of a directory: the files below it, plus the problems of the request", async () => {
  const dir = await repo();
  try {
    const workspace = Workspace.open(dir);
    const graph = await buildGraph(workspace, ["pkg", "empty", "pkg/a.py"]);
    // pkg/z_link.py is another name of pkg/a.py: files are keyed by real path, so it is graphed once.
    assert.deepEqual(Object.keys(graph.line_kinds), ["pkg/a.py", "pkg/b.py", "pkg/sub/c.ts"]);
    assert.deepEqual(graph.symbols.map((symbol) => `${symbol.file}:${symbol.name}`), [
      "pkg/a.py:a",
      "pkg/b.py:B",
      "pkg/b.py:m",
      "pkg/sub/c.ts:C",
    ]);
    assert.deepEqual(graph.errors.map((issue) => issue.code), ["no-source-files"]);
    const text = await buildGraphText(workspace, ["pkg", "empty", "pkg/a.py"]);
    assert.equal(text.pieces.join(""), JSON.stringify(graph));
    assert.deepEqual(text.errors, graph.errors);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  "graph CLI: `graph .` graphs the repository; exit 0 with a warning for an empty directory",
  SLOW,
  async () => {
    const dir = await repo();
    try {
      const out = await runCli(["graph", "--repo", dir, "--json", ".", "empty"]);
      const stdout = out.stdout;
      assert.equal(out.code, 0, out.stderr);
      const expected = await buildGraph(Workspace.open(dir), [
        "pkg/a.py",
        "pkg/b.py",
        "pkg/sub/c.ts",
        "pkg/z_link.py",
        "top.js",
      ]);
      const got = JSON.parse(stdout);
      assert.deepEqual(got.symbols, expected.symbols);
      assert.deepEqual(got.errors.map((issue: { code: string }) => issue.code), ["no-source-files"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test({
  name: "expandSourcePaths in a git work tree leaves out what .gitignore ignores, and keeps untracked files",
  ignore: GIT_SKIP !== undefined,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-files-git-" });
    try {
      const files: Record<string, string> = {
        ".gitignore": "build/\n*.gen.py\n",
        "src/a.py": "A = 1\n",
        "src/sub.py": "S = 1\n",
        "src/sub/inner.py": "I = 1\n",
        "src/c.gen.py": "G = 1\n",
        "build/out.py": "O = 1\n",
        ".github/tool.py": "T = 1\n",
        "node_modules/m.js": "var m;\n",
      };
      for (const [path, text] of Object.entries(files)) {
        await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/") + 1) || "."}`, { recursive: true });
        await Deno.writeTextFile(`${dir}/${path}`, text);
      }
      gitInit(dir); // commits everything .gitignore lets in
      await Deno.writeTextFile(`${dir}/src/b.py`, "B = 1\n"); // untracked, not ignored
      const workspace = Workspace.open(dir);
      // Path order (`sub.py` before `sub/`), ignored and hidden files out, untracked ones in.
      const expected = ["src/a.py", "src/b.py", "src/sub.py", "src/sub/inner.py"];
      assert.deepEqual(expandSourcePaths(workspace, ["."]).files, expected);
      assert.deepEqual(expandSourcePaths(workspace, ["src"]).files, expected);
      assert.deepEqual(expandSourcePaths(workspace, ["build"]).warnings.map((issue) => issue.code), [
        "no-source-files",
      ]);
      // Without git (not a work tree), the same rules but nothing read from .gitignore.
      await Deno.remove(`${dir}/.git`, { recursive: true });
      assert.deepEqual(expandSourcePaths(workspace, ["src"]).files, [
        "src/a.py",
        "src/b.py",
        "src/c.gen.py",
        "src/sub.py",
        "src/sub/inner.py",
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
