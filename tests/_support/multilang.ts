/**
 * Access to `../shared/corpus/multilang-heldin.jsonl.gz`: 108 real fix
 * commits, 12 per language (JavaScript, TypeScript, Go, Rust, Java, Ruby,
 * PHP, C, C++), with whole files before and after. Tests that need it skip,
 * saying why, when it is absent.
 *
 * @module
 */

import { skipReason } from "./skips.ts";

/** One real commit of the corpus. */
export interface MultilangCommit {
  lang: string;
  repo: string;
  sha: string;
  subject: string;
  diff: string;
  files: { path: string; before: string; after: string }[];
}

/** The corpus path (relative to the repository, as every test expects it). */
export const MULTILANG_PATH = new URL("../../../shared/corpus/multilang-heldin.jsonl.gz", import.meta.url)
  .pathname;

/** Why the multilang figures are missing, or undefined when the corpus is there. */
export const MULTILANG_SKIP = skipReason(
  (() => {
    try {
      return Deno.statSync(MULTILANG_PATH).isFile ? undefined : `${MULTILANG_PATH} is not a file`;
    } catch {
      return `../shared/corpus/multilang-heldin.jsonl.gz not found (looked for ${MULTILANG_PATH})`;
    }
  })(),
);

/** The seed of the held-out choice. */
export const HOLDOUT_SEED = 27;

let cached: MultilangCommit[] | undefined;

/** Every commit of the corpus, in file order (read once per process). */
export async function loadMultilang(): Promise<MultilangCommit[]> {
  if (cached) return cached;
  const file = await Deno.open(MULTILANG_PATH);
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  cached = text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
  return cached!;
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The held-out shas: a third of each language's commits, by a shuffle seeded with {@link HOLDOUT_SEED}. */
export function heldOut(commits: readonly MultilangCommit[]): Set<string> {
  const next = random(HOLDOUT_SEED);
  const out = new Set<string>();
  const byLang = new Map<string, MultilangCommit[]>();
  for (const commit of commits) byLang.set(commit.lang, [...(byLang.get(commit.lang) ?? []), commit]);
  for (const list of [...byLang.values()]) {
    const order = list.map((commit) => ({ commit, key: next() })).sort((a, b) => a.key - b.key);
    for (const { commit } of order.slice(0, Math.round(list.length / 3))) out.add(commit.sha);
  }
  return out;
}

/** The `before` text of one file of one commit (by sha prefix and path). */
export async function multilangFile(sha: string, path: string): Promise<string> {
  const commit = (await loadMultilang()).find((c) => c.sha.startsWith(sha));
  const file = commit?.files.find((f) => f.path === path);
  if (!file) throw new Error(`multilang corpus file ${sha}:${path} not found`);
  return file.before;
}
