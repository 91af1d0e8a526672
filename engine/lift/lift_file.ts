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
 *    when the file then reads exactly `T` and the post-checks pass. A
 *    candidate whose result differs from `T` only in line comments and
 *    whitespace is finished by `set_line_comment`, `relayout_node` and
 *    `set_blank_lines` steps (`Simulation.attempt`); a region that changes
 *    nothing else is lifted by those steps alone.
 * 4. One run of a body's statements replaced by another that no finer
 *    candidate or split reproduces: the new statements as fragments and the
 *    old ones deleted (`lateCandidates`, `replace_shapes.ts`).
 * 5. A change that inserts one new definition and that no candidate
 *    reproduces: a `copy_node` of the definition beside it, then its
 *    differing lines lifted one by one (`clone.ts`).
 * 6. In Python, new statements beside unchanged ones that nothing above
 *    reproduces (fragments lack a `del` and a one-line body): `insert_sibling`
 *    (tier 2), in the region and in the parts of a body's split that may
 *    fall to tier 0.
 * 7. Only when no formal step reproduces the change: `replace_node` on the
 *    innermost pair that works (tier 0), else the legacy `replace_code` on the
 *    region's lines (tier 0, reported as legacy).
 *
 * ## The work budget
 *
 * The search of one region can replay hundreds of candidates on a large
 * file, so the budget (`engine/base/budget.ts`) is looked at inside it, not only
 * between regions: before each candidate, each region and sub-region, and
 * around each run of a step (`Simulation`). The first look that finds it
 * spent throws `budget-exceeded`, which unwinds the whole search at once;
 * `liftFile` rolls the hunk in progress back and leaves it and the hunks
 * after it unlifted. A lift so passes its deadline by at most one step's
 * run or one post-check of one file, never by the rest of a region's
 * search.
 *
 * The search of a file runs on a share of what is left (`SEARCH_SHARE` in
 * `mod.ts`), a nested budget of its own: when that share is spent, the
 * hunks left are not given up but lifted coarsely, under what remains of
 * the request's budget, by `liftCoarsely`: the legacy `replace_code` of
 * each region's lines (tier 0), one step and one replay each, no search.
 * A large rewrite (7,000 lines of a 270 KB module replaced) so becomes a
 * plan that says it is tier 0, instead of no plan at all.
 *
 * @module
 */

import { checkBudget, isBudgetStop } from "../base/budget.ts";
import { alignNodes, spanPartner } from "../analysis/tree_diff.ts";
import { lineEnd, lineStart, nextLineStart } from "../edit/indent.ts";
import { applyEdits } from "../edit/text_edit.ts";
import type { Node } from "../parse/mod.ts";
import { detectTier } from "../plan/tiers.ts";
import type { Region } from "./apply.ts";
import { liftAsCopy } from "./clone.ts";
import { BODIES, layoutGaps } from "./layout.ts";
import type { Simulation } from "./replay.ts";
import {
  type Candidate,
  fallbackCandidates,
  formalCandidates,
  lastCandidates,
  lateCandidates,
  orderPairs,
  type Pair,
} from "./shapes.ts";

/** The steps one region became. */
export interface LiftedRegion {
  hunk: number;
  /** Other hunks this region covers (see `absorbWhitespace`). */
  alsoHunks?: number[];
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
  /**
   * A region left unlifted, in the offsets of the text `liftFile` left (for `liftCoarsely`): the budget
   * ran out before it, or (`alone`) no step reproduced its hunk on its own.
   */
  region?: Region;
  /** Set when the region's hunk was searched and no step reproduced it alone (not the budget). */
  alone?: boolean;
}

/** Lift every region of `file` (regions in offsets of the file as it is in `sim`). */
export async function liftFile(sim: Simulation, file: string, given: Region[]): Promise<LiftedRegion[]> {
  const out: LiftedRegion[] = [];
  const regions = absorbWhitespace((await sim.doc(file)).tree.rootNode, given);
  const hunks = [...new Set(regions.map((region) => region.hunk))];
  const byHunk = hunks.map((hunk) => regions.filter((region) => region.hunk === hunk));
  byHunk.sort((a, b) => b[0].start - a[0].start);
  // Hunks no step reproduces alone, rolled back, their offsets counted from the file's end: the hunks
  // lifted after them lie before them (hunks go last to first), so those offsets stay true.
  const refused: { region: Region; fromStart: number; fromEnd: number }[] = [];
  for (const [k, group] of byHunk.entries()) {
    const mark = await sim.mark([file]);
    try {
      const lifted = await liftHunk(sim, file, group, mark);
      if (lifted.every((region) => region.lifted)) {
        out.push(...lifted);
        continue;
      }
      sim.rollback(mark);
      const length = (await sim.doc(file)).file.text.length;
      refused.push(
        ...group.map((region) => ({
          region,
          fromStart: length - region.start,
          fromEnd: length - region.end,
        })),
      );
    } catch (err) {
      if (!isBudgetStop(err)) throw err;
      // The budget ran out: this hunk and the ones not reached stay unlifted (the caller reports it).
      sim.rollback(mark);
      out.push(...await unlifted(sim, file, byHunk.slice(k).flat()));
      break;
    }
  }
  const length = (await sim.doc(file)).file.text.length;
  out.push(
    ...(await unlifted(
      sim,
      file,
      refused.map(({ region, fromStart, fromEnd }) => ({
        ...region,
        start: length - fromStart,
        end: length - fromEnd,
      })),
    )).map((entry) => ({ ...entry, alone: true })),
  );
  return out.sort((a, b) => a.line - b.line);
}

/** Regions left unlifted, each with its line in the current text (`region` keeps them for `liftCoarsely`). */
async function unlifted(sim: Simulation, file: string, regions: Region[]): Promise<LiftedRegion[]> {
  const text = (await sim.doc(file)).file.text;
  return regions.map((region) => ({
    hunk: region.hunk,
    ...(region.alsoHunks ? { alsoHunks: region.alsoHunks } : {}),
    steps: [],
    tiers: [],
    kinds: [],
    line: text.slice(0, region.start).split("\n").length,
    lifted: false,
    region,
  }));
}

/**
 * Lift, without any search, the regions `liftFile` left when its budget ran
 * out (those with a `region`): together they become one legacy
 * `replace_code` (tier 0) from the first of them to the last, kept when its
 * replay reproduces them and the post-checks pass. One step, not one a
 * region: the regions of a large rewrite lean on each other (a binding
 * removed in one, its uses in the next), so a state between them can be
 * refused where the end is sound. They come back as they were when the
 * step fails or the caller's budget, under which this runs, is spent.
 */
export async function liftCoarsely(
  sim: Simulation,
  file: string,
  given: LiftedRegion[],
  reason: string,
): Promise<LiftedRegion[]> {
  const left = given.filter((entry) => entry.region && !entry.lifted);
  if (left.length === 0) return given;
  const text = (await sim.doc(file)).file.text;
  const regions = left.map((entry) => entry.region!).sort((a, b) => a.start - b.start);
  let replacement = "";
  regions.forEach((region, k) => {
    replacement += region.replacement +
      (k + 1 < regions.length ? text.slice(region.end, regions[k + 1].start) : "");
  });
  const hunks = [...new Set(regions.flatMap((region) => [region.hunk, ...(region.alsoHunks ?? [])]))];
  const merged: Region = { hunk: hunks[0], start: regions[0].start, end: regions.at(-1)!.end, replacement };
  const expected = text.slice(0, merged.start) + merged.replacement + text.slice(merged.end);
  const before = sim.steps.length;
  let steps: Record<string, unknown>[] | undefined;
  try {
    steps = await sim.attempt(
      [() => Promise.resolve(replaceCodeStep(file, text, expected, merged))],
      file,
      expected,
    );
  } catch (err) {
    // `attempt` adopts nothing until its last check: a stop leaves the simulation as it was
    if (!isBudgetStop(err)) throw err;
  }
  if (!steps) return given;
  const coarse: LiftedRegion = {
    hunk: hunks[0],
    ...(hunks.length > 1 ? { alsoHunks: hunks.slice(1) } : {}),
    steps: Array.from({ length: sim.steps.length - before }, (_, k) => before + k),
    tiers: steps.map((step) => detectTier(step)),
    kinds: steps.map((step) => stepKind(step)),
    reason,
    line: Math.min(...left.map((entry) => entry.line)),
    lifted: true,
  };
  return [...given.filter((entry) => !left.includes(entry)), coarse].sort((a, b) => a.line - b.line);
}

/** Lift the regions of one hunk: each alone, or the hunk as one region when that is better. */
async function liftHunk(
  sim: Simulation,
  file: string,
  group: Region[],
  mark: Awaited<ReturnType<Simulation["mark"]>>,
): Promise<LiftedRegion[]> {
  let lifted = await liftRegions(sim, file, group, { left: ATTEMPTS });
  const formal = (list: LiftedRegion[]) => list.every((r) => r.lifted && r.tiers.every((t) => t > 0));
  if (group.length > 1 && !formal(lifted)) {
    // The runs of a hunk may not stand alone (a statement split over two runs): lift the hunk as one region.
    const separate = lifted;
    const separateState = await sim.save([file]);
    sim.rollback(mark);
    const text = (await sim.doc(file)).file.text;
    const sorted = [...group].sort((a, b) => a.start - b.start);
    let replacement = "";
    sorted.forEach((region, k) => {
      replacement += region.replacement +
        (k + 1 < sorted.length ? text.slice(region.end, sorted[k + 1].start) : "");
    });
    const merged = { hunk: group[0].hunk, start: sorted[0].start, end: sorted.at(-1)!.end, replacement };
    lifted = await liftRegions(sim, file, [merged], { left: ATTEMPTS });
    const better = formal(lifted) || (lifted.every((r) => r.lifted) && !separate.every((r) => r.lifted));
    if (!better) {
      // the separate lift again, as it was (its search is deterministic: running it twice costs twice)
      sim.restore(separateState);
      lifted = separate;
    }
  }
  return lifted;
}

/** Whether two texts differ at most in what follows a `#` on their lines (and whitespace). */
function commentsOnly(a: string, b: string): boolean {
  const code = (text: string) => text.replace(/#[^\n]*/g, "").replace(/\s+/g, "");
  return code(a) === code(b);
}

/** Whether a region changes only whitespace (blank lines, trailing spaces, indentation of nothing). */
function whitespaceOnly(text: string, region: Region): boolean {
  return text.slice(region.start, region.end).replace(/\s+/g, "") === region.replacement.replace(/\s+/g, "");
}

/**
 * No structural step changes only whitespace: a whitespace-only region
 * inside a function that has another change is merged with that change
 * (the text between them included), so one step (typically
 * `replace_function_body`) reproduces both. Other regions are kept.
 */
function absorbWhitespace(root: Node, regions: Region[]): Region[] {
  const text = root.text;
  const functionOf = (region: Region): Node | undefined => {
    let node: Node | null = root.descendantForIndex(region.start, Math.max(region.start, region.end - 1));
    while (
      node &&
      !(node.type === "function_definition" && node.startIndex <= region.start &&
        node.endIndex > region.start)
    ) {
      node = node.parent;
    }
    return node ?? undefined;
  };
  let list = [...regions].sort((a, b) => a.start - b.start);
  for (const blank of regions.filter((region) => whitespaceOnly(text, region))) {
    const fn = functionOf(blank);
    if (!fn) continue;
    const partner = list.find((other) =>
      other !== blank && !whitespaceOnly(text, other) && other.start >= fn.startIndex &&
      other.start < fn.endIndex
    );
    if (!partner || !list.includes(blank)) continue;
    // Everything from the first to the last of the two becomes one region (regions between included).
    const from = Math.min(blank.start, partner.start);
    const to = Math.max(blank.end, partner.end);
    const inside = list.filter((region) => region.start >= from && region.end <= to);
    const replacement = applyEdits(
      text.slice(from, to),
      inside.map((region) => ({ ...region, start: region.start - from, end: region.end - from })),
    );
    const hunks = new Set(inside.flatMap((region) => [region.hunk, ...(region.alsoHunks ?? [])]));
    hunks.delete(partner.hunk);
    const merged: Region = { hunk: partner.hunk, alsoHunks: [...hunks], start: from, end: to, replacement };
    list = [...list.filter((region) => !inside.includes(region)), merged].sort((a, b) => a.start - b.start);
  }
  return list;
}

/** Lift regions of one file from the last to the first. */
async function liftRegions(
  sim: Simulation,
  file: string,
  regions: Region[],
  budget: { left: number },
): Promise<LiftedRegion[]> {
  const out: LiftedRegion[] = [];
  for (const region of [...regions].sort((a, b) => b.start - a.start)) {
    const before = sim.steps.length;
    const doc = await sim.doc(file);
    const line = doc.file.text.slice(0, region.start).split("\n").length;
    const result = await liftRegion(sim, file, region, { depth: 0, budget });
    out.push({
      hunk: region.hunk,
      ...(region.alsoHunks ? { alsoHunks: region.alsoHunks } : {}),
      steps: Array.from({ length: sim.steps.length - before }, (_, k) => before + k),
      tiers: result?.tiers ?? [],
      kinds: result?.kinds ?? [],
      ...(result?.reason ? { reason: result.reason } : {}),
      line,
      lifted: result !== undefined,
    });
  }
  return out;
}

interface RegionResult {
  tiers: number[];
  kinds: string[];
  reason?: string;
}

/**
 * How many formal candidates the regions of one hunk may replay (splits
 * included; the hunk lifted as one region gets its own) before lift settles
 * for fallbacks: a
 * deterministic bound on the search, which otherwise grows with the nested
 * pairs times the parts of each split (thousands of replays on a large
 * multi-part change).
 */
const ATTEMPTS = 80;

/** How many pairs, innermost first, the tier-0 `replace_node` fallback tries before `replace_code`. */
const FALLBACK_PAIRS = 3;

interface Search {
  /** Split depth (a split's parts are lifted one level deeper; at most 2). */
  depth: number;
  /** Formal replays left for the whole top-level region. */
  budget: { left: number };
  /**
   * A part of the last split of a body (the one that may fall to tier 0):
   * it tries `insert_sibling` too before its own fallback.
   */
  last?: boolean;
}

async function liftRegion(
  sim: Simulation,
  file: string,
  region: Region,
  search: Search,
): Promise<RegionResult | undefined> {
  checkBudget();
  const doc = await sim.doc(file);
  const text = doc.file.text;
  const expected = text.slice(0, region.start) + region.replacement + text.slice(region.end);
  if (expected === text) return { tiers: [], kinds: [] };
  const old = text.slice(region.start, region.end);
  const fresh = region.replacement;
  const { prefix, suffix } = narrow(old, fresh);
  const start = region.start + prefix;
  const end = region.end - suffix;
  const delta = expected.length - text.length;
  const target = await sim.state.reparse(doc, expected);
  // A whole-line insertion or deletion can be placed a few characters later with the same result (after
  // the indentation instead of before it): nodes around either placement pair up.
  const slid = slide(text, start, end, fresh.slice(prefix, fresh.length - suffix));
  const around = pairsAround(doc.tree.rootNode, target.tree.rootNode, start, end, delta);
  if (slid) {
    const more = pairsAround(doc.tree.rootNode, target.tree.rootNode, slid.start, slid.end, delta);
    for (const pair of more) if (!around.some((p) => p.before.id === pair.before.id)) around.push(pair);
    around.sort((a, b) => size(a.before) - size(b.before) || b.before.startIndex - a.before.startIndex);
  }
  const pairs = orderPairs(withinReach(around), doc.file.language);
  // One part that is this change placed elsewhere (a line inserted before or after the indentation) and
  // meets the same nodes: its search would repeat this one.
  const samePairs = (part: Omit<Region, "hunk">) => {
    const trim = narrow(text.slice(part.start, part.end), part.replacement);
    const found = withinReach(
      pairsAround(
        doc.tree.rootNode,
        target.tree.rootNode,
        part.start + trim.prefix,
        part.end - trim.suffix,
        delta,
      ),
    );
    const ids = (list: Pair[]) => list.map((p) => p.before.id).sort().join();
    return ids(found) === ids(around.filter((pair) => pairs.includes(pair)));
  };

  const accept = async (candidate: Candidate) => {
    checkBudget();
    const steps = await sim.attempt(candidate.builders, file, expected);
    return steps
      ? { tiers: steps.map((step) => detectTier(step)), kinds: steps.map((step) => stepKind(step)) }
      : undefined;
  };
  const tried = new Set<string>();
  const formalAt = async (pair: Pair) => {
    for (const candidate of formalCandidates(file, pair, { doc })) {
      if (search.budget.left-- <= 0) return undefined;
      tried.add(candidate.kind);
      const done = await accept(candidate);
      if (done) return done;
    }
    return undefined;
  };
  // Several parts of one node changed: lift each changed child (and each changed stretch between children).
  const split = async (pair: Pair, formalOnly: boolean): Promise<RegionResult | undefined> => {
    if (search.depth >= 2 || search.budget.left <= 0) return undefined;
    const parts = splitNode(pair, text, expected);
    const same = parts.length === 1 && parts[0].start === region.start && parts[0].end === region.end;
    if (parts.length === 0 || same || (parts.length === 1 && samePairs(parts[0]))) return undefined;
    const mark = await sim.mark([file]);
    const results: RegionResult[] = [];
    for (const part of parts.sort((a, b) => b.start - a.start)) {
      const result = await liftRegion(sim, file, { ...part, hunk: region.hunk }, {
        depth: search.depth + 1,
        budget: search.budget,
        last: !formalOnly,
      });
      if (!result || (formalOnly && result.tiers.some((tier) => tier === 0))) break;
      results.push(result);
    }
    if (results.length === parts.length && (await sim.doc(file)).file.text === expected) {
      const reasons = results.map((r) => r.reason).filter((r) => r !== undefined);
      return {
        tiers: results.flatMap((r) => r.tiers),
        kinds: results.flatMap((r) => r.kinds),
        ...(reasons.length ? { reason: reasons.join("; ") } : {}),
      };
    }
    sim.rollback(mark);
    return undefined;
  };
  if (layoutGaps(old, fresh) || commentsOnly(old, fresh)) {
    // Whitespace and line comments only: no candidate but the steps `attempt` adds to finish one.
    const done = await accept({ tier: 1, kind: "relayout_node", builders: [] });
    if (done) return done;
  }
  for (const pair of pairs) {
    const done = await formalAt(pair) ?? await split(pair, true);
    if (done) return done;
  }
  // One run of statements replaced by another, where the split found no finer steps.
  for (const pair of pairs) {
    for (const candidate of lateCandidates(file, pair, { doc })) {
      tried.add(candidate.kind);
      const done = await accept(candidate);
      if (done) return done;
    }
  }
  // A new definition: a copy of its neighbour, adapted (`clone.ts`).
  const inserted = fresh.slice(prefix, fresh.length - suffix);
  if (search.depth < 2 && start === end && inserted.trim() !== "") {
    const budget = { left: ATTEMPTS };
    const copied = await liftAsCopy(
      sim,
      file,
      { start, inserted, expected, target: target.tree.rootNode },
      (part) => liftRegion(sim, file, { ...part, hunk: region.hunk }, { depth: search.depth + 1, budget }),
    );
    if (copied) return copied;
  }
  const body = pairs.find((pair) => BODIES.has(pair.before.type));
  if (body) {
    const done = await split(body, false);
    if (done) return done;
  }
  // New statements fragments cannot say (a `del`, a `global`, a one-line `def f(): ...` overload): inserted
  // as code beside their siblings, in the region itself and in the parts of a body's last split (those of
  // the first, formal-only split would end it before the candidates the split is tried ahead of).
  for (const pair of search.depth === 0 || search.last ? pairs : []) {
    for (const candidate of lastCandidates(file, pair, { doc })) {
      tried.add(candidate.kind);
      const done = await accept(candidate);
      if (done) return done;
    }
  }
  const innermost = pairs[0]?.before.type ?? "file";
  const reason = old.replace(/\s+/g, "") === fresh.replace(/\s+/g, "")
    ? "a whitespace-only change (blank lines, trailing spaces)"
    : `a change of a "${innermost}"` +
      (search.budget.left <= 0
        ? " (search bound reached)"
        : tried.size
        ? ` (tried: ${[...tried].join(", ")})`
        : " (no formal shape)");
  // replace_node on the innermost few pairs: when those do not reproduce it, larger ones rarely do.
  for (const pair of pairs.slice(0, FALLBACK_PAIRS)) {
    for (const candidate of fallbackCandidates(file, pair)) {
      const done = await accept(candidate);
      if (done) return { ...done, reason };
    }
  }
  const legacy = await sim.attempt(
    [() => Promise.resolve(replaceCodeStep(file, text, expected, region))],
    file,
    expected,
  );
  if (legacy) return { tiers: [0], kinds: ["replace_code"], reason };
  return undefined;
}

/**
 * The changes inside one node as separate regions: each named child that
 * changed in place (its text becomes its partner's), and each stretch
 * between unchanged or changed children whose text differs (inserted or
 * deleted statements with the blank lines around them, changed punctuation).
 */
function splitNode(pair: Pair, text: string, expected: string): Omit<Region, "hunk">[] {
  const left = pair.before.namedChildren.filter((c): c is Node => !!c);
  const right = pair.after.namedChildren.filter((c): c is Node => !!c);
  const alignment = alignNodes(left, right);
  const anchors = [
    ...alignment.same.map(([i, j]) => ({ i, j, changed: false })),
    ...alignment.changed.map(([i, j]) => ({ i, j, changed: true })),
  ]
    .sort((a, b) => a.i - b.i);
  const out: Omit<Region, "hunk">[] = [];
  let previous = { beforeEnd: pair.before.startIndex, afterEnd: pair.after.startIndex };
  const gap = (beforeStart: number, afterStart: number) => {
    if (text.slice(previous.beforeEnd, beforeStart) !== expected.slice(previous.afterEnd, afterStart)) {
      out.push({
        start: previous.beforeEnd,
        end: beforeStart,
        replacement: expected.slice(previous.afterEnd, afterStart),
      });
    }
  };
  for (const anchor of anchors) {
    const b = left[anchor.i];
    const a = right[anchor.j];
    gap(b.startIndex, a.startIndex);
    if (anchor.changed) out.push({ start: b.startIndex, end: b.endIndex, replacement: a.text });
    previous = { beforeEnd: b.endIndex, afterEnd: a.endIndex };
  }
  gap(pair.before.endIndex, pair.after.endIndex);
  return out;
}

/** The step kind of a built step, for reports: the template, `fragment`, or the op. */
export function stepKind(step: Record<string, unknown>): string {
  if (typeof step.template === "string") return step.template;
  if ("fragment" in step) return "fragment";
  return String(step.op);
}

const size = (node: Node) => node.endIndex - node.startIndex;

/**
 * The same pure insertion or deletion moved right past leading whitespace
 * (deleting `"    x\n"` before `"    y"` equals deleting `"x\n    "` after the
 * indentation), or undefined when it is neither or cannot move.
 */
function slide(
  text: string,
  start: number,
  end: number,
  inserted: string,
): { start: number; end: number } | undefined {
  let s = start;
  let e = end;
  let added = inserted;
  if (e > s && added === "") {
    while (e < text.length && /\s/.test(text[s]) && text[s] === text[e]) {
      s++;
      e++;
    }
  } else if (e === s && added !== "") {
    while (s < text.length && /\s/.test(added[0]) && added[0] === text[s]) {
      added = added.slice(1) + added[0];
      s++;
      e++;
    }
  } else return undefined;
  return s === start ? undefined : { start: s, end: e };
}

/**
 * Named nodes containing [start, end] (touching counts: an insertion at a
 * node's end can extend it), innermost first, with their partners in the
 * target tree.
 */
function pairsAround(root: Node, targetRoot: Node, start: number, end: number, delta: number): Pair[] {
  const seen = new Map<number, Node>();
  const leaves = [root.descendantForIndex(start, Math.max(start, end - 1))];
  if (start > 0) leaves.push(root.descendantForIndex(start - 1, start - 1));
  if (end === start) leaves.push(root.descendantForIndex(start, start));
  for (const leaf of leaves) {
    for (let node: Node | null = leaf; node; node = node.parent) {
      if (node.isNamed && node.startIndex <= start && node.endIndex >= end) seen.set(node.id, node);
    }
  }
  const pairs: Pair[] = [];
  const nodes = [...seen.values()].sort((a, b) => size(a) - size(b) || b.startIndex - a.startIndex);
  for (const node of nodes) {
    const partner = spanPartner(targetRoot, node, delta);
    if (partner) pairs.push({ before: node, after: partner });
  }
  return pairs;
}

/** The lengths of the common prefix and (not overlapping it) common suffix of two texts. */
function narrow(old: string, fresh: string): { prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < old.length && prefix < fresh.length && old[prefix] === fresh[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < old.length - prefix && suffix < fresh.length - prefix &&
    old[old.length - 1 - suffix] === fresh[fresh.length - 1 - suffix]
  ) suffix++;
  return { prefix, suffix };
}

/**
 * A node at least this large (characters) is a candidate only when it is
 * also within `REACH_FACTOR` times the innermost pair's size: see `withinReach`.
 */
const REACH_MIN = 64 * 1024;
const REACH_FACTOR = 16;

/**
 * The pairs (innermost first) without the ones far larger than the change's
 * innermost node: past `REACH_MIN` characters and `REACH_FACTOR` times the
 * innermost pair. A step on such a node carries or re-checks its whole text
 * (a 700 KB dict literal for one changed line of one of its strings), each
 * replay costs parses of that text, and where the smaller pairs found no
 * formal step the larger ones do not either: the search goes to the
 * fallbacks of the smaller pairs instead.
 */
function withinReach(pairs: Pair[]): Pair[] {
  if (pairs.length === 0) return pairs;
  const limit = Math.max(REACH_MIN, REACH_FACTOR * size(pairs[0].before));
  return pairs.filter((pair) => size(pair.before) <= limit);
}

/** The legacy last resort: the region's whole lines, with context lines until they occur once. */
function replaceCodeStep(
  file: string,
  text: string,
  expected: string,
  region: Region,
): Record<string, unknown> {
  let from = lineStart(text, region.start);
  let to = region.end > region.start
    ? nextLineStart(text, Math.max(region.start, region.end - 1))
    : region.end;
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
