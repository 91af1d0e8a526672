/**
 * Shared scaffolding for the edit-operator tests: a temporary repository, a
 * step context over it, corpus files by name, and `node --check` for JS.
 *
 * @module
 */

import { StepContext } from "../../../engine/edit/operator.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { skipReason } from "../../_support/skips.ts";

/** A step context over a fresh temporary repository holding `files` (written byte for byte). */
export async function contextWith(files: Record<string, string>): Promise<{ ctx: StepContext; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-edit-" });
  for (const [path, text] of Object.entries(files)) {
    const target = `${dir}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(target, text);
  }
  const store = new DocumentStore(Workspace.open(dir));
  return { ctx: new StepContext(store, 0), dir };
}

/** The current (in-memory) text of `path` in the step. */
export async function textOf(ctx: StepContext, path: string): Promise<string> {
  return (await ctx.store.get(path)).file.text;
}

/** The `before` text of a corpus file, by instance and path. */
export async function corpusFile(instance: string, path: string): Promise<string> {
  const found = (await loadCorpus()).find((i) => i.instance_id === instance)?.files.find((f) =>
    f.path === path
  );
  if (!found) throw new Error(`corpus file ${instance}:${path} not found`);
  return found.before;
}

export { CORPUS_SKIP };

let nodeAvailable: boolean | undefined;

/** Reason to skip `node --check` assertions, or undefined. */
export function nodeSkip(): string | undefined {
  if (nodeAvailable === undefined) {
    try {
      nodeAvailable = new Deno.Command("node", { args: ["--version"] }).outputSync().success;
    } catch {
      nodeAvailable = false;
    }
  }
  return skipReason(nodeAvailable ? undefined : "node not found on PATH");
}

/** Assert that `node --check` accepts `source` as an ES module (no-op without node). */
export async function assertNodeParses(source: string): Promise<void> {
  if (nodeSkip()) return;
  const file = await Deno.makeTempFile({ suffix: ".mjs" });
  await Deno.writeTextFile(file, source);
  const out = await new Deno.Command("node", { args: ["--check", file], stderr: "piped" }).output();
  await Deno.remove(file);
  if (!out.success) {
    throw new Error(`node rejects the result: ${new TextDecoder().decode(out.stderr)}\n---\n${source}`);
  }
}

/**
 * Assert that `after` equals `before` except for the region between a common
 * prefix and suffix covering `changed` lines at most.
 */
export function changedLines(
  before: string,
  after: string,
): { prefix: number; removed: string; added: string } {
  let start = 0;
  while (start < before.length && before[start] === after[start]) start++;
  let endB = before.length;
  let endA = after.length;
  while (endB > start && endA > start && before[endB - 1] === after[endA - 1]) {
    endB--;
    endA--;
  }
  return { prefix: start, removed: before.slice(start, endB), added: after.slice(start, endA) };
}
