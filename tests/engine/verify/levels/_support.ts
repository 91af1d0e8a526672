/**
 * Helpers for the L0–L6 tests: write files into a temporary workspace, edit
 * one through a `StepContext` as an operator would, and run the checks.
 *
 * @module
 */

import { StepContext } from "../../../../engine/edit/operator.ts";
import type { TextEdit } from "../../../../engine/edit/text_edit.ts";
import type { Issue } from "../../../../engine/base/issue.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { type CheckEnv, type FileChange, runEditChecks } from "../../../../engine/verify/levels/mod.ts";
import { corpusBeforeFiles } from "../../../_support/corpus.ts";

/** A step that edited one file, ready to check. */
export interface EditedStep {
  change: FileChange;
  env: CheckEnv;
  errors: Issue[];
  warnings: Issue[];
  dir: string;
}

/** Edits of a text, built from it. */
export type EditFn = (text: string) => TextEdit[] | Promise<TextEdit[]>;

/** Replace the single occurrence of `old` (or the `nth`) in the text by `replacement`. */
export function replace(old: string, replacement: string, nth = 0): (text: string) => TextEdit[] {
  return (text: string) => {
    let start = -1;
    for (let i = 0; i <= nth; i++) {
      start = text.indexOf(old, start + 1);
      if (start === -1) throw new Error(`Text not found: "${old}" (#${i})`);
    }
    return [{ start, end: start + old.length, replacement }];
  };
}

/** Insert `insertion` right after the first occurrence of `anchor`. */
export function insertAfter(anchor: string, insertion: string): (text: string) => TextEdit[] {
  return (text: string) => {
    const at = text.indexOf(anchor);
    if (at === -1) throw new Error(`Text not found: "${anchor}"`);
    return [{ start: at + anchor.length, end: at + anchor.length, replacement: insertion }];
  };
}

/**
 * Write `files` into a temporary workspace, apply `edit` to `path` through a
 * StepContext (step 3) and run every level. The caller removes `dir`.
 */
export async function editAndCheck(
  files: Record<string, string>,
  path: string,
  edit: EditFn,
  replacedKinds?: (string | undefined)[],
): Promise<EditedStep> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-levels-" });
  for (const [name, text] of Object.entries(files)) {
    const target = `${dir}/${name}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(target, text);
  }
  const store = new DocumentStore(Workspace.open(dir));
  const ctx = new StepContext(store, 3);
  const before = await ctx.store.get(path);
  await ctx.edit(path, "test", await edit(before.file.text), replacedKinds);
  const [changed] = await ctx.changedFiles();
  const change: FileChange = changed
    ? { ...changed, records: ctx.records }
    : { path, before, after: before, records: ctx.records };
  const env: CheckEnv = { step: ctx.step, store: ctx.store };
  const { errors, warnings } = await runEditChecks(change, env);
  return { change, env, errors, warnings, dir };
}

/** Issues of one level. */
export function ofLevel(issues: Issue[], level: string): Issue[] {
  return issues.filter((issue) => issue.level === level);
}

/** A corpus `before` file of an instance, by path (throws when absent). */
export async function corpusFile(instance: string, path: string): Promise<{ path: string; text: string }> {
  const found = (await corpusBeforeFiles()).find((file) => file.id === instance && file.path === path);
  if (!found) throw new Error(`Corpus file not found: "${instance}" "${path}"`);
  return { path: found.path, text: found.text };
}

/** The text of the file at `path` (a system header, say), or undefined when it is not there. */
export function readOrUndefined(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** Whether `program --version` runs and succeeds here (a compiler the test needs as its oracle). */
export function runs(program: string): boolean {
  try {
    return new Deno.Command(program, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}
