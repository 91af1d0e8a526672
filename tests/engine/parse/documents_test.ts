/**
 * Documents: an incremental re-parse after an edit must give exactly the
 * tree a fresh parse gives (same nodes, same UTF-16 spans), on real corpus
 * edits and on chains of edits with non-ASCII text; the store reads through
 * to the disk and overlays never write.
 */

import assert from "node:assert/strict";
import { diffEdit, DocumentStore, pointAt } from "../../../engine/parse/documents.ts";
import { parse, type Tree } from "../../../engine/parse/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus, materialize } from "../../_support/corpus.ts";

if (CORPUS_SKIP) console.log(`documents_test: corpus tests skipped: ${CORPUS_SKIP}`);

/** The first node where two trees differ (type, span, missing flag), or undefined when identical. */
function firstDifference(a: Tree, b: Tree): string | undefined {
  const ca = a.walk();
  const cb = b.walk();
  try {
    for (;;) {
      const na = ca.currentNode;
      const nb = cb.currentNode;
      const sa = `${na.type}${
        na.isMissing ? "(missing)" : ""
      } ${na.startIndex}-${na.endIndex} ${ca.currentFieldName}`;
      const sb = `${nb.type}${
        nb.isMissing ? "(missing)" : ""
      } ${nb.startIndex}-${nb.endIndex} ${cb.currentFieldName}`;
      if (sa !== sb) return `incremental ${sa} vs fresh ${sb} (line ${na.startPosition.row + 1})`;
      const da = ca.gotoFirstChild();
      if (da !== cb.gotoFirstChild()) return `children differ at ${sa}`;
      if (da) continue;
      for (;;) {
        const sibling = ca.gotoNextSibling();
        if (sibling !== cb.gotoNextSibling()) return `siblings differ after ${sa}`;
        if (sibling) break;
        const up = ca.gotoParent();
        cb.gotoParent();
        if (!up) return undefined;
      }
    }
  } finally {
    ca.delete();
    cb.delete();
  }
}

async function assertReparseEqualsFresh(store: DocumentStore, path: string, before: string, after: string) {
  const doc = {
    file: { ...(await store.get(path)).file, text: before },
    tree: await parse("python", before),
  };
  const next = await store.reparse(doc, after);
  assert.equal(next.file.text, after);
  const fresh = await parse("python", after);
  assert.equal(firstDifference(next.tree, fresh), undefined, path);
  fresh.delete();
  doc.tree.delete();
  if (next.tree !== doc.tree) next.tree.delete();
}

/** A small deterministic random generator (tests must not vary between runs). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

Deno.test("diffEdit gives one span and UTF-16 points, null for equal texts", () => {
  assert.equal(diffEdit("same", "same"), null);
  const edit = diffEdit("a = 'é'\nb = 1\n", "a = 'é'\nb = 22\n")!;
  assert.equal(edit.startIndex, 12);
  assert.equal(edit.oldEndIndex, 13);
  assert.equal(edit.newEndIndex, 14);
  assert.deepEqual(edit.startPosition, { row: 1, column: 4 });
  // An astral character counts 2 UTF-16 units.
  assert.deepEqual(pointAt("😀x\ny", 2), { row: 0, column: 2 });
  assert.deepEqual(pointAt("😀x\ny", 4), { row: 1, column: 0 });
});

Deno.test({
  name: "incremental re-parse of every corpus gold edit equals a fresh parse",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const corpus = await loadCorpus();
    let checked = 0;
    for (const instance of corpus) {
      const pyFiles = instance.files.filter((file) => file.path.endsWith(".py"));
      if (pyFiles.length === 0) continue;
      const dir = await materialize(instance);
      try {
        const store = new DocumentStore(Workspace.open(dir));
        for (const file of pyFiles) {
          await assertReparseEqualsFresh(store, file.path, file.before, file.after);
          checked++;
        }
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
    assert.ok(checked >= 200, `only ${checked} files checked`);
  },
});

Deno.test({
  name: "chains of incremental edits with non-ASCII text stay equal to fresh parses",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const corpus = await loadCorpus();
    // Files that already hold non-ASCII text first, then others.
    const files = corpus.flatMap((instance) => instance.files.filter((file) => file.path.endsWith(".py")));
    const nonAscii = files.filter((file) => /[\u0080-\uffff]/.test(file.before));
    assert.ok(nonAscii.length > 0, "the corpus has files with non-ASCII text");
    const sample = [...nonAscii.slice(0, 6), ...files.filter((file) => !nonAscii.includes(file)).slice(0, 6)];
    const snippets = ["# café ✓ 😀 naïve\n", "x = 'Ω≈ç√∫ 𝔘𝔫𝔦'  # ünïcödé\n", "\n", "pass\n", "def f(:\n"];
    const next = random(42);
    const dir = await Deno.makeTempDir({ prefix: "graphplan-docs-" });
    try {
      for (const [index, file] of sample.entries()) {
        const path = `f${index}.py`;
        await Deno.writeTextFile(`${dir}/${path}`, file.before);
        const store = new DocumentStore(Workspace.open(dir));
        let doc = await store.get(path);
        for (let step = 0; step < 12; step++) {
          const lines = doc.file.text.split("\n");
          const at = Math.floor(next() * lines.length);
          const choice = next();
          if (choice < 0.4) {
            lines.splice(at, 0, snippets[Math.floor(next() * snippets.length)].replace(/\n$/, ""));
          } else if (choice < 0.7) {
            lines.splice(at, 1);
          } else {
            // Replace one character inside a line with an astral one.
            const line = lines[at] ?? "";
            const col = Math.floor(next() * (line.length + 1));
            lines[at] = `${line.slice(0, col)}😀${line.slice(col + 1)}`;
          }
          const text = lines.join("\n");
          const updated = await store.reparse(doc, text);
          const fresh = await parse("python", text);
          assert.equal(firstDifference(updated.tree, fresh), undefined, `${file.path} step ${step}`);
          fresh.delete();
          doc = updated;
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("DocumentStore reads through to disk, re-reads changed files, and overlays never write", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-docs-" });
  try {
    await Deno.writeTextFile(`${dir}/m.py`, "def f():\n    return 'ä'\n");
    const store = new DocumentStore(Workspace.open(dir));
    const first = await store.get("m.py");
    assert.equal(first.file.text, "def f():\n    return 'ä'\n");
    assert.equal(await store.get("./m.py"), first, "cached while the file is unchanged");

    // Changed on disk (different size): re-read and re-parsed.
    await Deno.writeTextFile(`${dir}/m.py`, "def f():\n    return 'äö'\n\ndef g():\n    pass\n");
    const second = await store.get("m.py");
    assert.notEqual(second, first);
    const fresh = await parse("python", second.file.text);
    assert.equal(firstDifference(second.tree, fresh), undefined);
    fresh.delete();

    // An overlay sees the parent's documents; its updates stay in memory.
    const overlay = store.overlay();
    assert.equal(overlay.isOverlay, true);
    const edited = await overlay.reparse(await overlay.get("m.py"), "x = 1\n");
    overlay.set(edited, true);
    assert.equal((await overlay.get("m.py")).file.text, "x = 1\n");
    assert.equal((await store.get("m.py")).file.text, second.file.text);
    assert.equal(await Deno.readTextFile(`${dir}/m.py`), second.file.text);
    assert.deepEqual(overlay.ownPaths(), ["m.py"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
