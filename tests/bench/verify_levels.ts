/**
 * Benchmark of the edit-level checks L0–L6: a few hundred generated edits
 * on corpus files, each applied through a `StepContext`, then every level
 * run on the changed file. Prints p50/p95 per step (all levels together)
 * and per level. Standalone: `deno run -A tests/bench/verify_levels.ts`;
 * from a harness: `await benchVerifyLevels()`.
 *
 * Edit mix per file: a gold-patch hunk widened to whole statements, an
 * expression wrapped in a call, a statement appended to a function body, a
 * new import, a parameter added without a default (which makes L5 scan the
 * repository), and a body reduced to `pass`.
 *
 * @module
 */

import { StepContext } from "../../engine/edit/operator.ts";
import type { TextEdit } from "../../engine/edit/text_edit.ts";
import { diffEdit, type Document, DocumentStore } from "../../engine/parse/documents.ts";
import type { Node } from "../../engine/parse/mod.ts";
import { EDIT_CHECKS, type FileChange } from "../../engine/verify/levels/mod.ts";
import { Workspace } from "../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus, materialize } from "../_support/corpus.ts";
import type { BenchSection } from "./context.ts";
import { round, rowAtMost } from "./stats.ts";
import { mulberry32 as random } from "../_support/random.ts";

/** Figures of one benchmark run, in milliseconds. */
export interface VerifyLevelsFigures {
  edits: number;
  files: number;
  p50: number;
  p95: number;
  max: number;
  /** p50 and p95 per level, "L0".."L6". */
  levels: Record<string, { p50: number; p95: number }>;
}

interface Generated {
  kind: string;
  edits: TextEdit[];
  replacedKinds?: (string | undefined)[];
}

function nodesOfType(doc: Document, type: string): Node[] {
  return doc.tree.rootNode.descendantsOfType(type).filter((node): node is Node => node !== null);
}

function indentOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return text.slice(lineStart, offset).match(/^[ \t]*/)![0];
}

/** The block-level node around [start, end) in `doc`: the smallest statement or definition containing it. */
function widen(doc: Document, start: number, end: number): [number, number] {
  let node: Node | null = doc.tree.rootNode.descendantForIndex(start, Math.max(start, end - 1));
  while (node && node.parent && !/(_statement|_definition)$/.test(node.type)) node = node.parent;
  if (!node || node.type === "module") return [start, end];
  return [Math.min(start, node.startIndex), Math.max(end, node.endIndex)];
}

function generate(doc: Document, after: string | undefined, pick: () => number): Generated[] {
  const text = doc.file.text;
  const out: Generated[] = [];
  const choose = <T>(items: T[]): T | undefined =>
    items.length ? items[Math.floor(pick() * items.length)] : undefined;
  if (after !== undefined) {
    const edit = diffEdit(text, after);
    if (edit) {
      const [start, end] = widen(doc, edit.startIndex, edit.oldEndIndex);
      const tail = text.length - end;
      out.push({
        kind: "gold",
        edits: [{ start, end, replacement: after.slice(start, after.length - tail) }],
      });
    }
  }
  const calls = nodesOfType(doc, "call");
  for (let i = 0; i < 2; i++) {
    const call = choose(calls);
    if (call) {
      out.push({
        kind: "wrap-call",
        edits: [{ start: call.startIndex, end: call.endIndex, replacement: `list(${call.text})` }],
        replacedKinds: ["call"],
      });
    }
  }
  const functions = nodesOfType(doc, "function_definition");
  const fn = choose(functions);
  const body = fn?.childForFieldName("body");
  if (fn && body) {
    const last = body.namedChild(body.namedChildCount - 1)!;
    const indent = indentOf(text, last.startIndex);
    out.push({
      kind: "append-statement",
      edits: [{
        start: last.endIndex,
        end: last.endIndex,
        replacement: `\n${indent}checked_value = len(str(${fn.childForFieldName("name")!.text}))`,
      }],
    });
    const params = fn.childForFieldName("parameters")!;
    out.push({
      kind: "add-parameter",
      edits: [{
        start: params.endIndex - 1,
        end: params.endIndex - 1,
        replacement: params.namedChildCount ? ", extra_flag" : "extra_flag",
      }],
    });
    const first = body.namedChild(0)!;
    out.push({
      kind: "stub-body",
      edits: [{ start: first.startIndex, end: body.endIndex, replacement: "pass" }],
      replacedKinds: ["block"],
    });
  }
  out.push({ kind: "add-import", edits: [{ start: 0, end: 0, replacement: "import json_helpers_x\n" }] });
  return out;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Run the benchmark on up to `maxFiles` corpus files (default 60, about 400 edits). */
export async function benchVerifyLevels(
  options: { maxFiles?: number; seed?: number } = {},
): Promise<VerifyLevelsFigures> {
  const pick = random(options.seed ?? 1);
  const corpus = await loadCorpus();
  const maxFiles = options.maxFiles ?? 60;
  const totals: number[] = [];
  const perLevel: number[][] = EDIT_CHECKS.map(() => []);
  let files = 0;
  let step = 0;
  for (const instance of corpus) {
    if (files >= maxFiles) break;
    const dir = await materialize(instance);
    try {
      const store = new DocumentStore(Workspace.open(dir));
      for (const file of instance.files) {
        if (!file.path.endsWith(".py") || files >= maxFiles) continue;
        files++;
        const doc = await store.get(file.path);
        for (const generated of generate(doc, file.after, pick)) {
          const ctx = new StepContext(store, step++);
          try {
            await ctx.edit(file.path, generated.kind, generated.edits, generated.replacedKinds);
          } catch {
            continue;
          }
          const [changed] = await ctx.changedFiles();
          if (!changed) continue;
          const change: FileChange = { ...changed, records: ctx.records };
          const env = { step: ctx.step, store: ctx.store };
          let total = 0;
          for (let level = 0; level < EDIT_CHECKS.length; level++) {
            const t0 = performance.now();
            await EDIT_CHECKS[level](change, env);
            const elapsed = performance.now() - t0;
            perLevel[level].push(elapsed);
            total += elapsed;
          }
          totals.push(total);
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  totals.sort((a, b) => a - b);
  const levels: Record<string, { p50: number; p95: number }> = {};
  perLevel.forEach((times, level) => {
    times.sort((a, b) => a - b);
    levels[`L${level}`] = { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
  });
  return {
    edits: totals.length,
    files,
    p50: percentile(totals, 0.5),
    p95: percentile(totals, 0.95),
    max: totals[totals.length - 1] ?? 0,
    levels,
  };
}

/** The harness section (`deno task bench verify-levels` once listed in run.ts `SECTIONS`). */
export const verifyLevelsSection: BenchSection = {
  name: "verify-levels",
  description: "edit-level checks L0-L6 per step on generated corpus edits (goal p95 <= 20 ms)",
  async run() {
    if (CORPUS_SKIP) {
      return [{
        section: "verify-levels",
        metric: "L0-L6 per step p95",
        value: null,
        unit: "ms",
        note: CORPUS_SKIP,
      }];
    }
    const figures = await benchVerifyLevels();
    const note = `${figures.edits} edits on ${figures.files} files`;
    return [
      { section: "verify-levels", metric: "L0-L6 per step p50", value: round(figures.p50), unit: "ms", note },
      rowAtMost({
        section: "verify-levels",
        metric: "L0-L6 per step p95",
        value: round(figures.p95),
        unit: "ms",
        note,
      }, 20),
    ];
  },
};

if (import.meta.main) {
  if (CORPUS_SKIP) {
    console.log(`skipped: ${CORPUS_SKIP}`);
  } else {
    const figures = await benchVerifyLevels();
    const ms = (value: number) => `${value.toFixed(2)} ms`;
    console.log(`verify levels: ${figures.edits} edits on ${figures.files} files`);
    console.log(`  per step (L0-L6): p50 ${ms(figures.p50)}, p95 ${ms(figures.p95)}, max ${ms(figures.max)}`);
    for (const [level, { p50, p95 }] of Object.entries(figures.levels)) {
      console.log(`  ${level}: p50 ${ms(p50)}, p95 ${ms(p95)}`);
    }
  }
}
