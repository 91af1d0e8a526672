/**
 * A tiny operator dispatch for executor tests (the real one lives in
 * engine/ops/dispatch.ts): steps are
 *
 * - `{op: "replace", file, old, new, all?}`: replace the first (or every)
 *   occurrence of `old`, failing with `pattern-not-found` when absent;
 * - `{op: "edits", file, edits: [{start, end, replacement}]}`: raw text edits;
 * - `{op: "fail"}`: an operator pre-check that fails;
 * - `{op: "read", file}`: a read-only step returning the file's line count;
 * - `{op: "external", file, text}`: another process overwrites the file on
 *   disk while the plan runs (no edit);
 * - `{op: "create", file, text, mode?}`, `{op: "delete", file}`,
 *   `{op: "mode", file, mode}`: the whole-file changes of `StepContext`.
 *
 * @module
 */

import { fail } from "../../../engine/base/issue.ts";
import type { StepContext } from "../../../engine/edit/operator.ts";
import type { TextEdit } from "../../../engine/edit/text_edit.ts";
import type { GitMode } from "../../../engine/base/file_mode.ts";
import type { ParsedSteps } from "../../../engine/exec/wiring.ts";

/** A test step. */
export type TestStep =
  | { op: "replace"; file: string; old: string; new: string; all?: boolean }
  | { op: "edits"; file: string; edits: TextEdit[] }
  | { op: "fail" }
  | { op: "read"; file: string }
  | { op: "external"; file: string; text: string }
  | { op: "create"; file: string; text: string; mode?: GitMode }
  | { op: "delete"; file: string }
  | { op: "mode"; file: string; mode: GitMode };

/** Run one test step through `ctx`. */
export async function runTestStep(step: unknown, ctx: StepContext): Promise<unknown> {
  const s = step as TestStep;
  switch (s.op) {
    case "replace": {
      const doc = await ctx.store.get(s.file);
      const edits: TextEdit[] = [];
      for (
        let at = doc.file.text.indexOf(s.old);
        at !== -1;
        at = doc.file.text.indexOf(s.old, at + s.old.length)
      ) {
        edits.push({ start: at, end: at + s.old.length, replacement: s.new });
        if (!s.all) break;
      }
      if (edits.length === 0) {
        fail("pattern-not-found", `Pattern not found in "${s.file}": "${s.old}"`, { file: s.file });
      }
      await ctx.edit(s.file, "replace", edits);
      return null;
    }
    case "edits":
      await ctx.edit(s.file, "edits", s.edits);
      return null;
    case "fail":
      fail("template-precondition", "The test operator's pre-check failed");
      break;
    case "external":
      Deno.writeTextFileSync(`${ctx.store.workspace.root}/${s.file}`, s.text);
      return null;
    case "read":
      return { lines: (await ctx.store.get(s.file)).file.text.split("\n").length };
    case "create":
      await ctx.createFile(s.file, s.text, s.mode);
      return null;
    case "delete":
      await ctx.deleteFile(s.file);
      return null;
    case "mode":
      await ctx.setMode(s.file, s.mode);
      return null;
  }
  fail("unknown-operator", `Unknown test op "${(s as { op: string }).op}"`);
}

/** A plan parser for test steps: the plan is the array itself, unvalidated, run by `runTestStep`. */
export function parseTestPlan(json: unknown): Promise<ParsedSteps> {
  return Promise.resolve({ steps: json as unknown[], issues: [], runStep: runTestStep });
}
