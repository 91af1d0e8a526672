/**
 * L2 containment: every node outside the edit region is unchanged.
 *
 * Both trees are walked down to the changed spans: a node lying strictly
 * outside every span (not even touching one) is recorded by depth, type and
 * extent and not entered; a node wholly inside a span is skipped; a node
 * that straddles or touches a span is entered. Extents before the edit are
 * mapped through it, so equal extents mean equal text (the text outside the
 * spans did not change). The two records must be equal. An unclosed string
 * or bracket that swallows the code after it changes the following nodes;
 * an indentation change that re-parents the following statements changes
 * their depth; both fail. An edit whose effect stays inside its region
 * leaves the records equal.
 *
 * Cost: the nodes along the span boundaries and their siblings, read
 * through a TreeCursor without creating node objects.
 *
 * @module
 */

import { error, type Issue } from "../../issue.ts";
import type { LanguageId, Tree } from "../../parse/mod.ts";
import { kindCategory } from "./kinds.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { editSpans, lineAt, mapOffset } from "./region.ts";

interface Entry {
  depth: number;
  type: string;
  /** Extent in the text after the edit. */
  start: number;
  end: number;
}

/** L2: structure outside the changed spans. */
export function checkContainment(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  const spans = editSpans(change.before, change.after, change.records);
  if (spans.length === 0) return Promise.resolve([]);
  const language = change.after.file.language;
  const before = outside(
    language,
    change.before.tree,
    spans.map((span) => [span.beforeStart, span.beforeEnd]),
    (offset, side) => mapOffset(spans, offset, side),
  );
  const after = outside(language, change.after.tree, spans.map((span) => [span.afterStart, span.afterEnd]), (offset) => offset);
  const mismatch = firstMismatch(before, after);
  if (!mismatch) return Promise.resolve([]);
  const text = change.after.file.text;
  const where = mismatch.before ?? mismatch.after!;
  const line = lineAt(text, Math.min(where.start, text.length));
  const what = mismatch.before
    ? `the "${mismatch.before.type}" at line ${line} is no longer the same node`
    : `a new "${mismatch.after!.type}" appears at line ${line}`;
  return Promise.resolve([
    error("containment-violated", `Edit changes code outside its region in "${change.path}": ${what}`, {
      level: "L2",
      step: env.step,
      file: change.path,
      line,
      hint: "an unclosed string or bracket, or an indentation change, leaks into the following code",
    }),
  ]);
}

function firstMismatch(before: Entry[], after: Entry[]): { before?: Entry; after?: Entry } | undefined {
  const n = Math.max(before.length, after.length);
  for (let i = 0; i < n; i++) {
    const a = before[i];
    const b = after[i];
    if (!a || !b || a.depth !== b.depth || a.type !== b.type || a.start !== b.start || a.end !== b.end) {
      return { before: a, after: b };
    }
  }
  return undefined;
}

/**
 * The maximal subtrees lying strictly outside every span (not even touching
 * one), in document order with their depth: a DFS that descends only into
 * nodes that straddle or touch a span and skips nodes wholly inside one.
 */
function outside(
  language: LanguageId,
  tree: Tree,
  spans: [number, number][],
  map: (offset: number, side: "start" | "end") => number,
): Entry[] {
  const out: Entry[] = [];
  const cursor = tree.walk();
  let depth = 0;
  let descend = true;
  for (;;) {
    if (descend && cursor.gotoFirstChild()) {
      depth++;
    } else {
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || --depth === 0) {
          cursor.delete();
          return out;
        }
      }
    }
    const s = cursor.startIndex;
    const e = cursor.endIndex;
    descend = false;
    let inside = false;
    let near = false;
    for (const [start, end] of spans) {
      if (s >= start && e <= end) inside = true;
      else if (!(e < start || s > end)) near = true;
    }
    if (inside) continue;
    if (near) {
      descend = true;
      continue;
    }
    const type = cursor.nodeType;
    out.push({ depth: blockLevel(language, type) ? depth : -1, type, start: map(s, "start"), end: map(e, "end") });
  }
}

const BLOCK_CATEGORIES = new Set(["statement", "function", "class", "import", "declaration", "block"]);

/** Statements, definitions and blocks keep their depth; expressions may gain a wrapper. */
function blockLevel(language: LanguageId, type: string): boolean {
  const category = kindCategory(language, type);
  return category !== undefined && BLOCK_CATEGORIES.has(category);
}
