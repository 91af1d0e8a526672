/**
 * Shared set-up for the legacy-operator, fuzzy and dispatch tests: a
 * temporary repository holding real corpus files, and a step context over it.
 *
 * @module
 */

import { StepContext } from "../../../engine/edit/operator.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { type CorpusInstance, loadCorpus } from "../../_support/corpus.ts";
import { tempRepo } from "../../_support/plans.ts";

/** A temporary repository with files, and a fresh step context for each step. */
export interface Repo {
  dir: string;
  store: DocumentStore;
  /** A step context over the repository (edits stay in memory). */
  ctx(step?: number): StepContext;
  /** The text of `path` as the step context sees it. */
  text(ctx: StepContext, path: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** A repository holding `files` (path → text). */
export async function makeRepo(files: Record<string, string>): Promise<Repo> {
  const dir = await tempRepo(files);
  const store = new DocumentStore(Workspace.open(dir));
  return {
    dir,
    store,
    ctx: (step = 0) => new StepContext(store, step),
    text: async (ctx, path) => (await ctx.store.get(path)).file.text,
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

/** One instance of the corpus by id. */
export async function corpusInstance(id: string): Promise<CorpusInstance> {
  const instance = (await loadCorpus()).find((item) => item.instance_id === id);
  if (!instance) throw new Error(`corpus instance ${id} not found`);
  return instance;
}

/** The before/after texts of one corpus file. */
export async function corpusFile(id: string, path: string): Promise<{ before: string; after: string }> {
  const file = (await corpusInstance(id)).files.find((item) => item.path === path);
  if (!file) throw new Error(`${path} not in ${id}`);
  return file;
}

/** The message of the IssueError `fn` rejects with, and its issues. */
export async function rejection(
  fn: () => Promise<unknown>,
): Promise<{ message: string; issues: import("../../../engine/base/issue.ts").Issue[] }> {
  try {
    await fn();
  } catch (err) {
    if (err instanceof Error && err.name === "IssueError") {
      return { message: err.message, issues: (err as unknown as { issues: [] }).issues };
    }
    throw err;
  }
  throw new Error("expected an IssueError, got success");
}
