/**
 * Access to `../shared/corpus/multilang-heldin.jsonl.gz`: 108 real small fix
 * commits, 12 in each of nine languages, with whole files before and after.
 * Tests that need it skip, saying why, when it is absent and in the quick tier (a corpus sweep).
 *
 * Two held-out thirds (4 of each language's 12 commits), each fixed by a
 * seed: the name checks were built without `heldOut`'s commits, the
 * templates and lift tiers for other languages without `liftHeldOut`'s.
 * They were chosen independently in parallel work, so each measures only
 * the work built without it.
 *
 * @module
 */

import { mulberry32 } from "./random.ts";
import { quickSkip } from "./quick.ts";
import { skipReason } from "./skips.ts";

/** One file of a commit. */
export interface MultilangFile {
  path: string;
  before: string;
  after: string;
}

/** One commit of the corpus. */
export interface MultilangCommit {
  lang: string;
  repo: string;
  sha: string;
  subject: string;
  diff: string;
  files: MultilangFile[];
  /**
   * A directory holding the whole repository before the change (an absolute
   * path), when the instance brings one (`unseen_trees.ts`); without it the
   * files' `before` texts alone make the repository.
   */
  tree?: string;
}

/** Where the corpus lives. */
export const MULTILANG_PATH =
  new URL("../../../shared/corpus/multilang-heldin.jsonl.gz", import.meta.url).pathname;

function present(): boolean {
  try {
    return Deno.statSync(MULTILANG_PATH).isFile;
  } catch {
    return false;
  }
}

/** Reason to skip a multilang corpus test, or undefined when the corpus is there. */
export const MULTILANG_SKIP = skipReason(
  quickSkip("corpus sweeps") ??
    (present()
      ? undefined
      : `../shared/corpus/multilang-heldin.jsonl.gz not found (looked for ${MULTILANG_PATH})`),
);

let cached: MultilangCommit[] | undefined;

/** Every commit of the corpus (read once per process). */
export async function loadMultilang(): Promise<MultilangCommit[]> {
  if (cached) return cached;
  const file = await Deno.open(MULTILANG_PATH);
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  cached = text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
  return cached!;
}

/**
 * Commits read from a file in the corpus format (`instance_id`, `repo`,
 * `language`, `patch`, `files`), as `tests/bench/unseen_multilang.ts` writes
 * them: each instance becomes a commit whose `sha` is its id.
 */
export async function loadInstances(path: string): Promise<MultilangCommit[]> {
  const file = await Deno.open(path);
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => {
    const row = JSON.parse(line);
    return {
      lang: row.language,
      repo: row.repo,
      sha: row.instance_id,
      subject: "",
      diff: row.patch,
      files: row.files,
      // a tree is named relative to the data file
      tree: typeof row.tree === "string"
        ? new URL(row.tree, new URL(path, `file://${Deno.cwd()}/`)).pathname
        : undefined,
    };
  });
}

/** The seed of the held-out split (fixed: the split must not move between runs). */
export const HOLDOUT_SEED = 27;

/** Whether a commit belongs to the held-out third: per language, 4 of its commits by sha order, shuffled with `HOLDOUT_SEED`. */
export function heldOut(commits: readonly MultilangCommit[]): Set<string> {
  const out = new Set<string>();
  const random = mulberry32(HOLDOUT_SEED);
  const languages = [...new Set(commits.map((c) => c.lang))].sort();
  for (const lang of languages) {
    const of = commits.filter((c) => c.lang === lang).map((c) => c.sha).sort();
    for (let i = of.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [of[i], of[j]] = [of[j], of[i]];
    }
    for (const sha of of.slice(0, Math.round(of.length / 3))) out.add(sha);
  }
  return out;
}

/**
 * The third held out while the templates and lift tiers beyond Python were
 * built: per language, commits in file order keyed by draws of a generator
 * seeded with `HOLDOUT_SEED`, the lowest third of the keys.
 */
export function liftHeldOut(commits: readonly MultilangCommit[]): Set<string> {
  const next = mulberry32(HOLDOUT_SEED);
  const out = new Set<string>();
  const byLang = new Map<string, MultilangCommit[]>();
  for (const commit of commits) byLang.set(commit.lang, [...(byLang.get(commit.lang) ?? []), commit]);
  for (const list of byLang.values()) {
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

/** Write `files` (path → text) into a fresh temporary directory and return it (the caller removes it). */
export async function writeTree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-multilang-" });
  for (const [path, text] of Object.entries(files)) {
    const target = `${dir}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(target, text);
  }
  return dir;
}
