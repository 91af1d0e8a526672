/**
 * Plans run the way a user runs them: `verifyPlan` in memory, then the
 * executor for real, over a temporary repository holding given files.
 *
 * @module
 */

import assert from "node:assert/strict";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { Workspace } from "../../engine/workspace.ts";
import { verifyPlan, type VerifyResult } from "../../engine/verify/mod.ts";
import { executePlan, type PlanResult } from "../../engine/exec/mod.ts";
import { parsePlanSteps } from "../../engine/exec/wiring.ts";
import { assertPythonParses } from "./python.ts";

/** A temporary repository holding `files` (path -> text); the caller removes `dir`. */
export async function tempRepo(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-plan-" });
  for (const [path, text] of Object.entries(files)) {
    const target = `${dir}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(target, text);
  }
  return dir;
}

/** Verify `plan` against the repository at `dir` (nothing is written). */
export async function verifyAt(dir: string, plan: unknown): Promise<VerifyResult> {
  return await verifyPlan(new DocumentStore(Workspace.open(dir)), plan);
}

/** Execute `plan` in the repository at `dir` (files are written when it succeeds). */
export async function applyAt(dir: string, plan: unknown): Promise<PlanResult> {
  const parsed = await parsePlanSteps(plan);
  const errors = parsed.issues.filter((issue) => issue.severity === "error");
  if (errors.length) throw new Error(`plan does not parse: ${JSON.stringify(errors)}`);
  return await executePlan(new DocumentStore(Workspace.open(dir)), parsed.steps, { runStep: parsed.runStep });
}

/**
 * `file` with `text`, in a fresh repository, after `plan` ran on it (it must
 * succeed, and verify without errors first when `verify` is set); CPython
 * must parse the result of a Python file.
 */
export async function afterPlan(
  file: { path: string; text: string },
  plan: unknown,
  options: { verify?: boolean } = {},
): Promise<string> {
  const dir = await tempRepo({ [file.path]: file.text });
  try {
    if (options.verify) assert.deepEqual((await verifyAt(dir, plan)).errors, []);
    const result = await applyAt(dir, plan);
    assert.equal(result.success, true, JSON.stringify(result.errors));
    const after = await Deno.readTextFile(`${dir}/${file.path}`);
    if (file.path.endsWith(".py")) await assertPythonParses(after);
    return after;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
