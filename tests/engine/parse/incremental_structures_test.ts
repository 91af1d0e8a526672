/**
 * The structures that spare a plan step from reading the whole file give
 * exactly what the whole-file computations they replace gave, on a corpus
 * file through hundreds of random edits (inserted and deleted lines, broken
 * code, CRLF, `global` and star-import lines):
 *
 * - the line breaks carried from document to document (`lineBreaks`), the
 *   legacy line table and the edit's points, against a scan of the text;
 * - `diffEdit` told the edit's window, and `editBetween` (the re-parse's
 *   edit), against the plain prefix/suffix diff;
 * - the children overlapping a span (`childrenIn`), against a filter of all
 *   children;
 * - the leaf walk that starts by position (`leaves.ts`, L2's windows),
 *   against a TreeCursor walk from the root;
 * - "already present" from the lines next to an insertion, against a split
 *   of the whole file;
 * - the star-import count of the changed lines, against a count over both
 *   texts; the module scope's `global` names, against a fresh scope.
 *
 * The oracles below are the whole-file computations as they were (the
 * legacy line table was `splitLines` of the whole text).
 *
 * @module
 */

import assert from "node:assert/strict";
import { moduleScope } from "../../../engine/analysis/scope.ts";
import { fewerStarImports } from "../../../engine/analysis/lost_names.ts";
import { repeatedAt } from "../../../engine/edit/already_present.ts";
import { lineTable } from "../../../engine/edit/legacy/_util.ts";
import { splitLines } from "../../../engine/edit/fuzzy.ts";
import { childrenIn } from "../../../engine/parse/children_in.ts";
import { type Document, DocumentStore, pointAt } from "../../../engine/parse/documents.ts";
import { diffEdit, editBetween } from "../../../engine/parse/documents.ts";
import { LeafWalk } from "../../../engine/parse/leaves.ts";
import { lineBreaks } from "../../../engine/parse/line_index.ts";
import { type Node, parse, type Tree } from "../../../engine/parse/mod.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { insertTarget } from "../../_support/insert_plans.ts";
import { mulberry32 } from "../../_support/random.ts";

const SNIPPETS = [
  "def gp_f(a):\n    return a\n",
  "import os.path as gp_osp\n",
  "from os.path import *\n",
  "class GpC:\n    attr = 1\n",
  "def gp_g():\n    global gp_declared, gp_other\n    gp_declared = 1\n",
  "if True:\n    gp_cond = 1\r\nelse:\n    gp_other = 2\n",
  "gp_broken = (\n",
  'x = "unterminated\n',
  "    indented_gp = 1\n",
  "\n\n",
];

// ---------------------------------------------------------------- oracles (the whole-file computations)

function scanBreaks(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) out.push(i);
  return out;
}

function plainDiff(before: string, after: string) {
  let start = 0;
  const min = Math.min(before.length, after.length);
  while (start < min && before[start] === after[start]) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before[endBefore - 1] === after[endAfter - 1]) {
    endBefore--;
    endAfter--;
  }
  return {
    startIndex: start,
    oldEndIndex: endBefore,
    newEndIndex: endAfter,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, endBefore),
    newEndPosition: pointAt(after, endAfter),
  };
}

function repeatedBySplit(text: string, at: number, replacement: string): number | undefined {
  const normalize = (line: string) => line.replace(/\s+$/, "");
  const added = replacement.replace(/\r\n?/g, "\n");
  const atLineStart = at === 0 || text[at - 1] === "\n";
  const atLineEnd = at === text.length || text[at] === "\n" || text.startsWith("\r\n", at);
  if (!(atLineStart && added.endsWith("\n")) && !(atLineEnd && added.startsWith("\n"))) return undefined;
  const lines = added.split("\n").map(normalize).filter((line) => line !== "");
  if (lines.length === 0) return undefined;
  const all = text.split("\n").map(normalize);
  const split = text.slice(0, at).split("\n").length - (atLineStart ? 1 : 0);
  const repeats = (indices: number[]) =>
    indices.length === lines.length && indices.every((index, i) => all[index] === lines[i]);
  const above: number[] = [];
  for (let i = split - 1; i >= 0 && above.length < lines.length; i--) if (all[i] !== "") above.unshift(i);
  if (repeats(above)) return above[0] + 1;
  const below: number[] = [];
  for (let i = split; i < all.length && below.length < lines.length; i++) if (all[i] !== "") below.push(i);
  if (repeats(below)) return below[0] + 1;
  return undefined;
}

/** The leaves of a tree in document order, by a cursor walk (what L2 stepped through before). */
function cursorLeaves(tree: Tree): string[] {
  const out: string[] = [];
  const cursor = tree.walk();
  for (;;) {
    if (cursor.gotoFirstChild()) continue;
    out.push(key(cursor.currentNode));
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        cursor.delete();
        return out;
      }
    }
  }
}

const key = (node: Node) => `${node.type}@${node.startIndex}-${node.endIndex}`;

function starCount(text: string): number {
  return text.match(/^[ \t]*from[ \t]+\S+[ \t]+import[ \t]*\*/gm)?.length ?? 0;
}

// ---------------------------------------------------------------- the walk

/** A random edit of `text`: lines inserted (from SNIPPETS or copied from nearby), deleted or retyped. */
function randomEdit(text: string, random: () => number, snippets: readonly string[]): string {
  const lines = text.split("\n");
  const at = Math.floor(random() * lines.length);
  const choice = random();
  if (choice < 0.2 && lines.length > 30) lines.splice(at, 1 + Math.floor(random() * 4));
  else if (choice < 0.35) lines.splice(at, 0, ...lines.slice(Math.max(0, at - 3), at)); // a repeat
  else if (choice < 0.45 && lines[at]) {
    const line = lines[at];
    const cut = Math.floor(random() * line.length);
    lines[at] = line.slice(0, cut) + "é\r" + line.slice(cut + 1); // inside a line, a CR included
  } else {
    lines.splice(at, 0, ...snippets[Math.floor(random() * snippets.length)].split("\n").slice(0, -1));
  }
  return lines.join("\n");
}

async function edited(
  rounds: number,
  seed: number,
  check: (before: Document, after: Document) => void | Promise<void>,
  snippets: readonly string[] = SNIPPETS,
) {
  const target = await insertTarget();
  const dir = await Deno.makeTempDir({ prefix: "graphplan-incremental-" });
  try {
    await Deno.mkdir(`${dir}/${target.path}`.replace(/\/[^/]+$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${target.path}`, target.text);
    const store = new DocumentStore(Workspace.open(dir));
    let doc = await store.get(target.path);
    const random = mulberry32(seed);
    for (let round = 0; round < rounds; round++) {
      const next = await store.reparse(doc, randomEdit(doc.file.text, random, snippets));
      await check(doc, next);
      doc = next;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "incremental: line breaks, line tables and edit points carried through 300 edits equal a scan's",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    await edited(300, 11, (before, after) => {
      const text = after.file.text;
      assert.deepEqual([...lineBreaks(after)], scanBreaks(text));
      // the edit tree-sitter got (points from the line index) equals the plain diff with scanned points
      assert.deepEqual(after.origin?.edit, plainDiff(before.file.text, text));
      // what the checks ask: the re-parse's edit when `after` came from `before`, else a diff of the texts
      assert.deepEqual(editBetween(before, after), plainDiff(before.file.text, text));
      assert.deepEqual(editBetween(after, before), plainDiff(text, before.file.text));
      const table = lineTable(after);
      const lines = splitLines(text);
      assert.equal(table.count, lines.length);
      for (let n = 1; n <= lines.length; n++) {
        const line = lines[n - 1];
        const got = [table.start(n), table.contentEnd(n), table.fullEnd(n), table.text(n)];
        const fullEnd = n < lines.length ? lines[n].start : text.length;
        assert.deepEqual(got, [line.start, line.end, fullEnd, line.text], `line ${n}`);
      }
    });
  },
});

Deno.test({
  name: "incremental: diffEdit told the edit's window gives the plain diff's edit",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const random = mulberry32(5);
    await edited(150, 12, (before) => {
      const text = before.file.text;
      // a replacement of a random span by text that may repeat what surrounds it (the diff then moves)
      const start = Math.floor(random() * text.length);
      const end = Math.min(text.length, start + Math.floor(random() * 40));
      const from = Math.max(0, start - Math.floor(random() * 30));
      const replacement = random() < 0.5 ? text.slice(from, start) + "gp" : text.slice(start, end) + "\n";
      const after = text.slice(0, start) + replacement + text.slice(end);
      const window = { start, oldEnd: end, newEnd: start + replacement.length };
      const expected = after === text ? null : plainDiff(text, after);
      assert.deepEqual(diffEdit(text, after, { window, breaks: lineBreaks(before) }), expected);
    });
  },
});

Deno.test({
  name: "incremental: the children overlapping a span and the leaf walk from a position equal full walks",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const random = mulberry32(9);
    let trees = 0;
    await edited(60, 13, (_before, after) => {
      const root = after.tree.rootNode;
      const children = root.children.filter((child): child is Node => child !== null);
      const leaves = cursorLeaves(after.tree);
      for (let probe = 0; probe < 40; probe++) {
        const start = Math.floor(random() * (after.file.text.length + 2));
        const end = start + Math.floor(random() * 200);
        const expected = children.filter((child) => child.endIndex >= start && child.startIndex <= end);
        assert.deepEqual(childrenIn(root, start, end).map(key), expected.map(key), `span ${start}-${end}`);
        // the first leaf ending after the offset, then a few steps each way
        const index = leaves.findIndex((leaf) => Number(leaf.split("-").pop()) > start);
        const first = LeafWalk.after(root, start);
        assert.equal(first ? key(first.node) : undefined, leaves[index], `leaf after ${start}`);
        first?.delete();
        const from = index === -1 ? leaves.length - 1 : index;
        const forward = LeafWalk.after(root, start) ?? LeafWalk.last(root);
        const backward = LeafWalk.after(root, start) ?? LeafWalk.last(root);
        for (let i = from; i < Math.min(leaves.length, from + 40); i++) {
          assert.equal(key(forward.node), leaves[i], `leaf ${i} of ${leaves.length}`);
          assert.equal(forward.next(), i + 1 < leaves.length);
        }
        for (let i = from; i >= Math.max(0, from - 40); i--) {
          assert.equal(key(backward.node), leaves[i], `leaf ${i} of ${leaves.length}`);
          assert.equal(backward.previous(), i > 0);
        }
        forward.delete();
        backward.delete();
      }
      trees++;
    });
    assert.equal(trees, 60);
  },
});

Deno.test({
  name:
    "incremental: already-present and the star-import count read near the edit agree with whole-file reads",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const random = mulberry32(21);
    let repeats = 0;
    await edited(200, 14, (before, after) => {
      assert.equal(
        fewerStarImports(before, after),
        starCount(after.file.text) < starCount(before.file.text),
      );
      const text = after.file.text;
      for (let probe = 0; probe < 20; probe++) {
        // an insertion point at a line start or end, adding lines copied from around it (often a repeat)
        const breaks = lineBreaks(after);
        const line = Math.floor(random() * (breaks.length + 1));
        const lineStart = line === 0 ? 0 : breaks[line - 1] + 1;
        const atEnd = random() < 0.5;
        const at = atEnd ? (line < breaks.length ? breaks[line] : text.length) : lineStart;
        const near = text.slice(Math.max(0, lineStart - 80), Math.min(text.length, at + 80)).split("\n");
        const count = 1 + Math.floor(random() * 3);
        const pick = near.slice(Math.floor(random() * near.length)).slice(0, count).join("\n");
        const replacement = atEnd ? `\n${pick}` : `${pick}\n`;
        const expected = repeatedBySplit(text, at, replacement);
        if (expected !== undefined) repeats++;
        assert.equal(repeatedAt(text, { start: at, end: at, replacement }), expected, `at ${at}`);
      }
    });
    assert.ok(repeats > 50, `only ${repeats} repeats were tried`);
  },
});

Deno.test({
  name: "incremental: the module scope's global names carried through 200 edits equal a fresh scope's",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    let declared = 0;
    let derived = 0;
    // no module-level star import or `global` among the snippets: the scope is carried, not recollected
    const snippets = SNIPPETS.filter((snippet) => !snippet.startsWith("from"));
    await edited(200, 15, async (before, after) => {
      const carried = moduleScope(after);
      if (moduleScope(before) && after.origin) derived++;
      const tree = await parse("python", after.file.text);
      const fresh = moduleScope({ file: after.file, tree });
      assert.deepEqual([...carried.declaredGlobal ?? []], [...fresh.declaredGlobal ?? []]);
      declared = Math.max(declared, fresh.declaredGlobal?.size ?? 0);
      tree.delete();
    }, snippets);
    assert.ok(declared >= 2, "no global statement was inserted");
    assert.equal(derived, 200);
  },
});
