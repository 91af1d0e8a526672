/**
 * Lifting the changed regions of one file into steps.
 *
 * ## The walk
 *
 * Regions are taken from the last to the first, so the offsets of the ones
 * not lifted yet stay valid in the current text. For one region:
 *
 * 1. The target text `T` is the current text with the region replaced. The
 *    region is narrowed to the characters that really differ (common prefix
 *    and suffix dropped), and `T` is parsed (incrementally, from the current
 *    tree).
 * 2. **Pairs**: every named node of the current tree that contains the
 *    narrowed region, innermost first, paired with the node of `T`'s tree at
 *    the same place (same start, end moved by the length change, same type;
 *    `spanPartner` of the tree diff). A node whose partner is missing (its
 *    type changed) is skipped: its parent pairs up instead.
 * 3. **Candidates**: for each pair, innermost first, the tier 1–3 steps of
 *    its shape (`shapes.ts`); each is replayed on a scratch copy and kept
 *    when the file then reads exactly `T` and the post-checks pass.
 * 4. Only when no formal step reproduces the change: `replace_node` on the
 *    innermost pair that works (tier 0), else the legacy `replace_code` on the
 *    region's lines (tier 0, reported as legacy).
 *
 * @module
 */

import { spanPartner } from "../analysis/tree_diff.ts";
import { lineEnd, lineStart, nextLineStart } from "../edit/indent.ts";
import type { Node } from "../parse/mod.ts";
import type { Region } from "./apply.ts";
import type { Simulation } from "./replay.ts";
import { type Candidate, fallbackCandidates, formalCandidates, type Pair } from "./shapes.ts";

/** The steps one region became. */
export interface LiftedRegion {
  hunk: number;
  /** Indices into the simulation's steps. */
  steps: number[];
  tiers: number[];
  kinds: string[];
  /** Why no tier 1–3 step was found (set when a tier-0 step was used). */
  reason?: string;
  /** 1-based line of the region in the file before the change. */
  line: number;
  /** Whether steps reproduce the region (a region that changes nothing counts as lifted). */
  lifted: boolean;
}

/** Lift every region of `file` (regions in offsets of the file as it is in `sim`). */
export async function liftFile(sim: Simulation, file: string, regions: Region[]): Promise<LiftedRegion[]> {
  const out: LiftedRegion[] = [];
  const ordered = [...regions].sort((a, b) => b.start - a.start);
  for (const region of ordered) {
    const before = sim.steps.length;
    const doc = await sim.doc(file);
    const line = doc.file.text.slice(0, region.start).split("\n").length;
    const result = await liftRegion(sim, file, region);
    out.push({
      hunk: region.hunk,
      steps: Array.from({ length: sim.steps.length - before }, (_, k) => before + k),
      tiers: result?.tiers ?? [],
      kinds: result?.kinds ?? [],
      ...(result?.reason ? { reason: result.reason } : {}),
      line,
      lifted: result !== undefined,
    });
  }
  return out.reverse();
}

interface RegionResult {
  tiers: number[];
  kinds: string[];
  reason?: string;
}

async function liftRegion(sim: Simulation, file: string, region: Region): Promise<RegionResult | undefined> {
  const doc = await sim.doc(file);
  const text = doc.file.text;
  const expected = text.slice(0, region.start) + region.replacement + text.slice(region.end);
  if (expected === text) return { tiers: [], kinds: [] };
  const old = text.slice(region.start, region.end);
  const fresh = region.replacement;
  let prefix = 0;
  while (prefix < old.length && prefix < fresh.length && old[prefix] === fresh[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < old.length - prefix && suffix < fresh.length - prefix &&
    old[old.length - 1 - suffix] === fresh[fresh.length - 1 - suffix]
  ) suffix++;
  const start = region.start + prefix;
  const end = region.end - suffix;
  const delta = expected.length - text.length;
  const target = await sim.state.reparse(doc, expected);
  const pairs = pairsAround(doc.tree.rootNode, target.tree.rootNode, start, end, delta);

  const accept = async (candidate: Candidate) => {
    const steps = await sim.attempt(candidate.builders, file, expected);
    return steps ? { tiers: steps.map(() => candidate.tier), kinds: steps.map((s) => stepKind(s)) } : undefined;
  };
  const tried = new Set<string>();
  for (const pair of pairs) {
    for (const candidate of formalCandidates(file, pair, { doc })) {
      tried.add(candidate.kind);
      const done = await accept(candidate);
      if (done) return done;
    }
  }
  const innermost = pairs[0]?.before.type ?? "file";
  const reason = `a change of a "${innermost}"` + (tried.size ? ` (tried: ${[...tried].join(", ")})` : " (no formal shape)");
  for (const pair of pairs) {
    for (const candidate of fallbackCandidates(file, pair)) {
      const done = await accept(candidate);
      if (done) return { ...done, reason };
    }
  }
  const legacy = await sim.attempt([async () => replaceCodeStep(file, text, expected, region)], file, expected);
  if (legacy) return { tiers: [0], kinds: ["replace_code"], reason };
  return undefined;
}

/** The step kind of a built step, for reports: the template, `fragment`, or the op. */
export function stepKind(step: Record<string, unknown>): string {
  if (typeof step.template === "string") return step.template;
  if ("fragment" in step) return "fragment";
  return String(step.op);
}

/** Named nodes around [start, end), innermost first, with their partners in the target tree. */
function pairsAround(root: Node, targetRoot: Node, start: number, end: number, delta: number): Pair[] {
  const pairs: Pair[] = [];
  let node: Node | null = root.descendantForIndex(start, Math.max(start, end - 1));
  while (node && (node.startIndex > start || node.endIndex < end)) node = node.parent;
  for (; node; node = node.parent) {
    if (!node.isNamed) continue;
    const partner = spanPartner(targetRoot, node, delta);
    if (partner) pairs.push({ before: node, after: partner });
  }
  return pairs;
}

/** The legacy last resort: the region's whole lines, with context lines until they occur once. */
function replaceCodeStep(file: string, text: string, expected: string, region: Region): Record<string, unknown> {
  let from = lineStart(text, region.start);
  let to = region.end > region.start ? nextLineStart(text, Math.max(region.start, region.end - 1)) : region.end;
  if (to <= from) to = nextLineStart(text, from);
  const count = (pattern: string) => text.split(pattern).length - 1;
  while (count(text.slice(from, to)) !== 1 && (from > 0 || to < text.length)) {
    if (from > 0) from = lineStart(text, from - 1);
    if (to < text.length) to = nextLineStart(text, lineEnd(text, to));
  }
  const delta = expected.length - text.length;
  return {
    op: "replace_code",
    params: { file, pattern: text.slice(from, to), replacement: expected.slice(from, to + delta) },
  };
}
