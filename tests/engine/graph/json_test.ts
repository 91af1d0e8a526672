/**
 * The graph as JSON text from per-file pieces (`buildGraphText`) is the same
 * document, byte for byte, as `JSON.stringify` of the merged graph object,
 * with the same problems: on the sample project with paths that repeat,
 * fail or are not source, and on every corpus file.
 */

import assert from "node:assert/strict";
import {
  buildGraph,
  buildGraphText,
  fileGraphText,
  graphFiles,
  graphJsonText,
  mergeFileGraphs,
} from "../../../engine/graph/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { writePieces } from "../../../cli/command.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../../_support/corpus.ts";

const SAMPLE = new URL("../../fixtures/sample_project/", import.meta.url).pathname;

Deno.test("buildGraphText equals JSON.stringify(buildGraph) with repeated, missing and non-source paths", async () => {
  const workspace = Workspace.open(SAMPLE);
  const paths = [
    "app/service.py",
    "app/models.py",
    "./app/models.py", // the same file by another spelling: merged once
    "app/service.py", // the same spelling again
    "app/gone.py",
    "README.md",
    "app/__init__.py", // parsed, but no symbols and no imports
  ];
  const graph = await buildGraph(workspace, paths);
  const text = await buildGraphText(workspace, paths);
  assert.equal(text.pieces.join(""), JSON.stringify(graph));
  assert.deepEqual(text.errors, graph.errors);
  // The cases above are really there.
  assert.deepEqual(graph.errors.map((issue) => issue.file), ["app/gone.py", "README.md"]);
  assert.ok(graph.symbols.length > 5);
  assert.deepEqual(Object.keys(graph.line_kinds), ["app/service.py", "app/models.py", "app/__init__.py"]);
});

Deno.test("graphJsonText of no files is the empty graph", () => {
  const { text, errors } = graphJsonText([]);
  assert.equal(text, JSON.stringify(mergeFileGraphs([])));
  assert.deepEqual(JSON.parse(text), { symbols: [], imports: [], line_kinds: {}, errors: [] });
  assert.deepEqual(errors, []);
});

Deno.test({
  name: "graphJsonText equals JSON.stringify(mergeFileGraphs) on every corpus before file",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-json-" });
    try {
      const paths: string[] = [];
      for (const file of await corpusBeforeFiles(".py")) {
        const rel = `${file.id}/${file.path}`;
        await Deno.mkdir(`${dir}/${rel.slice(0, rel.lastIndexOf("/"))}`, { recursive: true });
        await Deno.writeTextFile(`${dir}/${rel}`, file.text);
        paths.push(rel);
      }
      const files = await graphFiles(Workspace.open(dir), paths);
      const expected = mergeFileGraphs(files);
      const { text, errors } = graphJsonText(files.map(fileGraphText));
      assert.equal(text, JSON.stringify(expected));
      assert.deepEqual(errors, expected.errors);
      assert.ok(expected.symbols.length > 10_000, `${expected.symbols.length} symbols`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("writePieces streams pieces as the UTF-8 of their concatenation, across buffer and write boundaries", () => {
  // 2-, 3- and 4-byte characters (the emoji is a surrogate pair, which a small buffer must not
  // split), an empty piece, one larger than the buffer, a writer that takes at most 7 bytes per
  // call, and buffers from 5 bytes to 64 KiB.
  const pieces = [
    '{"symbols":[',
    '{"name":"größe","kind":"function","file":"Ωmega/模块.py","start_line":1,"end_line":2}',
    ",",
    `{"name":"emoji_😀_${"x".repeat(70_000)}","kind":"class","file":"a.py","start_line":3,"end_line":9}`,
    "",
    '],"errors":[]}',
    "\n",
  ];
  for (const bufferSize of [5, 6, 7, 1 << 16]) {
    const chunks: Uint8Array[] = [];
    let calls = 0;
    writePieces(pieces, {
      writeSync(bytes) {
        calls++;
        const taken = bytes.slice(0, 7);
        chunks.push(taken);
        return taken.length;
      },
    }, bufferSize);
    const written = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      written.set(chunk, at);
      at += chunk.length;
    }
    assert.deepEqual(written, new TextEncoder().encode(pieces.join("")), `buffer of ${bufferSize} bytes`);
    assert.ok(calls > 1);
  }
  assert.throws(() => writePieces(["a"], { writeSync: (bytes) => bytes.length }, 3), RangeError);
});
