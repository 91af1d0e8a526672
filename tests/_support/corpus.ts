/**
 * Access to `../shared/corpus`: 187 real SWE-bench edits with full before
 * and after files. Tests that need it skip, saying why, when it is absent.
 *
 * @module
 */

import { QUICK, quickSkip } from "./quick.ts";
import { skipReason } from "./skips.ts";

/** One file touched by a gold patch. */
export interface CorpusFile {
  path: string;
  before: string;
  after: string;
}

/** One SWE-bench instance of the corpus. */
export interface CorpusInstance {
  instance_id: string;
  repo: string;
  base_commit: string;
  problem_statement: string;
  patch: string;
  files: CorpusFile[];
}

/** Where the corpus lives (override with GRAPHPLAN_CORPUS). */
export const CORPUS_PATH = Deno.env.get("GRAPHPLAN_CORPUS") ??
  new URL("../../../shared/corpus/swebench-heldin.jsonl.gz", import.meta.url).pathname;

let cached: CorpusInstance[] | undefined;

/** Whether the corpus file is present (never in the quick tier, which skips the corpus sweeps). */
export function corpusAvailable(): boolean {
  if (QUICK) return false;
  try {
    return Deno.statSync(CORPUS_PATH).isFile;
  } catch {
    return false;
  }
}

/** Reason to skip a corpus test, or undefined when the corpus is there (recorded for the run's summary). */
export const CORPUS_SKIP = skipReason(
  quickSkip("corpus sweeps") ??
    (corpusAvailable()
      ? undefined
      : Deno.env.get("GRAPHPLAN_CORPUS")
      ? `corpus not found at ${CORPUS_PATH} (GRAPHPLAN_CORPUS)`
      : `../shared/corpus not found (looked for ${CORPUS_PATH})`),
);

/** Every instance of the corpus (read and decompressed once per process). */
export async function loadCorpus(): Promise<CorpusInstance[]> {
  if (cached) return cached;
  const file = await Deno.open(CORPUS_PATH);
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  cached = text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
  return cached!;
}

/** Every distinct `before` file of a language's extension, keyed by instance and path. */
export async function corpusBeforeFiles(ext = ".py"): Promise<{ id: string; path: string; text: string }[]> {
  const out: { id: string; path: string; text: string }[] = [];
  for (const instance of await loadCorpus()) {
    for (const file of instance.files) {
      if (file.path.endsWith(ext)) out.push({ id: instance.instance_id, path: file.path, text: file.before });
    }
  }
  return out;
}

/**
 * Write an instance's `before` files into a fresh temporary repository and
 * return its path (the caller removes it).
 */
export async function materialize(
  instance: CorpusInstance,
  which: "before" | "after" = "before",
): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-corpus-" });
  for (const file of instance.files) {
    const target = `${dir}/${file.path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(target, file[which]);
  }
  return dir;
}
