/**
 * Which instances a batch runs. The steps apply in a fixed order, so the
 * same options always pick the same instances on every machine:
 *
 * 1. `instances`: only these ids (an id the dataset lacks is an error);
 * 2. `shuffle`: a seeded Fisher-Yates shuffle (mulberry32, default seed 42);
 * 3. `filter`: ids matching the regular expression;
 * 4. `slice`: `A:B` as in Python (`:10`, `5:`, `-3:`);
 * 5. `shard`: `K/N` keeps every N-th instance starting at K (0-based), so
 *    the N shards are disjoint, cover the selection, and differ in size by
 *    at most one.
 *
 * @module
 */

import type { TaskRow } from "./dataset.ts";

/** The selection options of `graphplan batch`. */
export interface Selection {
  /** Ids to keep (from `--instances FILE`). */
  instances?: string[];
  shuffle?: boolean;
  /** Seed of the shuffle (default 42). */
  seed?: number;
  /** A regular expression over instance ids. */
  filter?: string;
  /** `A:B`, Python slice syntax without a step. */
  slice?: string;
  /** `K/N`, 0 ≤ K < N. */
  shard?: string;
}

/** A selection option that cannot be used. */
export class SelectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SelectionError";
  }
}

/** The instances `selection` picks from `rows`, in run order. */
export function selectInstances(rows: readonly TaskRow[], selection: Selection = {}): TaskRow[] {
  let picked = [...rows];
  if (selection.instances) {
    const known = new Set(rows.map((row) => row.instance_id));
    const missing = selection.instances.filter((id) => !known.has(id));
    if (missing.length > 0) {
      const shown = missing.slice(0, 5).map((id) => `"${id}"`).join(", ");
      throw new SelectionError(
        `${missing.length} listed instance${
          missing.length === 1 ? " is" : "s are"
        } not in the dataset: ${shown}` +
          (missing.length > 5 ? ", ..." : ""),
      );
    }
    const wanted = new Set(selection.instances);
    picked = picked.filter((row) => wanted.has(row.instance_id));
  }
  if (selection.shuffle) picked = shuffled(picked, selection.seed ?? 42);
  if (selection.filter !== undefined) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(selection.filter);
    } catch (err) {
      throw new SelectionError(`Invalid --filter "${selection.filter}": ${(err as Error).message}`);
    }
    picked = picked.filter((row) => pattern.test(row.instance_id));
  }
  if (selection.slice !== undefined) {
    const [start, end] = parseSlice(selection.slice, picked.length);
    picked = picked.slice(start, end);
  }
  if (selection.shard !== undefined) {
    const { index, count } = parseShard(selection.shard);
    picked = picked.filter((_, position) => position % count === index);
  }
  return picked;
}

/** `A:B` as start and end indexes into a list of `length`. */
export function parseSlice(text: string, length: number): [number, number] {
  const match = /^\s*(-?\d+)?\s*:\s*(-?\d+)?\s*$/.exec(text);
  if (!match) {
    throw new SelectionError(`Invalid --slice "${text}": use START:END, e.g. "0:10", ":5" or "-3:"`);
  }
  const at = (value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    return n < 0 ? Math.max(0, length + n) : Math.min(n, length);
  };
  return [at(match[1], 0), at(match[2], length)];
}

/** `K/N` as shard index and count. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || index >= count) {
    throw new SelectionError(`Invalid --shard "${text}": use K/N with 0 <= K < N, e.g. "0/4"`);
  }
  return { index, count };
}

/** A copy of `items` in the order a seeded shuffle gives. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  const random = mulberry32(seed);
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** A small seeded generator of floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
