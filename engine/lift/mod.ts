/**
 * Lift: a unified diff or SEARCH/REPLACE blocks become a verified structural
 * plan (ARCHITECTURE.md, "Lift").
 *
 * 1. The input is read (`unified_diff.ts`, `search_replace.ts`) and applied
 *    to the repository's files in memory (`apply.ts`): the target text of
 *    every file and its changed regions. A hunk that does not apply is an
 *    error naming it; the others are still lifted.
 * 2. Each file's regions become steps (`lift_file.ts`): the tree diff pairs
 *    nodes of the current and target trees, the shapes propose the most
 *    specific steps (`shapes.ts`), and a step is kept only when replaying it
 *    reproduces the change exactly (`replay.ts`).
 * 3. The whole plan is verified with `verifyPlan` (layers 0–6, levels
 *    L0–L6) and replayed from the original files; `exact` says the replay
 *    reproduced every target byte for byte.
 *
 * Lift reads the repository and never writes to it: every edit lives in an
 * overlay of the document store.
 *
 * @module
 */

import { budgetExceeded, budgetIssue } from "../budget.ts";
import { error, type Issue, partition, warning } from "../issue.ts";
import type { DocumentStore } from "../parse/documents.ts";
import { verifyPlan } from "../verify/mod.ts";
import { newTargetIssues } from "../verify/levels/l0_target.ts";
import { type Applied, applyBlocks, applyHunks } from "./apply.ts";
import { liftFile } from "./lift_file.ts";
import { replayPlan, Simulation } from "./replay.ts";
import { parseSearchReplace } from "./search_replace.ts";
import { type FilePatch, parseUnifiedDiff } from "./unified_diff.ts";

export { parseUnifiedDiff } from "./unified_diff.ts";
export { parseSearchReplace } from "./search_replace.ts";

/** What to lift: exactly one of the two. */
export interface LiftInput {
  /** A git-format unified diff. */
  diff?: string;
  /** Aider-style SEARCH/REPLACE blocks. */
  search_replace?: string;
}

/** Provenance of one hunk (or block). */
export interface LiftedHunk {
  file: string;
  /** 0-based hunk index in the input. */
  index: number;
  /** Plan steps the hunk became. */
  steps: number[];
  /** Whether every change of the hunk became steps. */
  lifted: boolean;
  /** The tier of each of `steps`. */
  tiers: number[];
  /** The kind of each of `steps` (template name, `fragment`, or op). */
  kinds: string[];
}

/** The result of `lift` (ARCHITECTURE.md). */
export interface LiftResult {
  success: boolean;
  /** An ordinary plan document (a list of steps). */
  plan: Record<string, unknown>[];
  hunks: LiftedHunk[];
  /** The in-memory replay of `plan` reproduced the input's result byte for byte. */
  exact: boolean;
  errors: Issue[];
  warnings: Issue[];
}

interface FileWork {
  path: string;
  applied: Applied;
  hunkIndices: number[];
}

/** Lift `input` against the repository of `store` (see the module notes); writes nothing. */
export async function lift(store: DocumentStore, input: LiftInput): Promise<LiftResult> {
  const issues: Issue[] = [];
  const work: FileWork[] = [];
  const given = [input.diff, input.search_replace].filter((value) => typeof value === "string");
  if (given.length !== 1) {
    issues.push(error("params-invalid", 'Give exactly one of "diff" and "search_replace"', {
      hint: "a unified diff as a string, or SEARCH/REPLACE blocks as a string",
    }));
    return finish([], [], false, issues);
  }
  if (typeof input.diff === "string") {
    const parsed = parseUnifiedDiff(input.diff);
    issues.push(...parsed.issues);
    for (const patch of parsed.files) {
      const refusal = unliftable(patch);
      if (refusal) {
        issues.push(refusal);
        continue;
      }
      const doc = await readDoc(store, patch.path, issues);
      if (!doc) continue;
      const applied = applyHunks(doc.text, patch.hunks, { file: patch.path, eol: doc.eol });
      work.push({ path: patch.path, applied, hunkIndices: patch.hunks.map((hunk) => hunk.index) });
    }
  } else {
    const parsed = parseSearchReplace(input.search_replace!);
    issues.push(...parsed.issues);
    const byFile = new Map<string, typeof parsed.blocks>();
    for (const block of parsed.blocks) byFile.set(block.file, [...byFile.get(block.file) ?? [], block]);
    for (const [path, blocks] of byFile) {
      const doc = await readDoc(store, path, issues);
      if (!doc) continue;
      const applied = applyBlocks(doc.text, blocks, { file: path, eol: doc.eol });
      work.push({ path, applied, hunkIndices: blocks.map((block) => block.index) });
    }
  }
  for (const item of work) issues.push(...item.applied.issues);

  const sim = new Simulation(store);
  const hunks: LiftedHunk[] = [];
  for (const item of work) {
    if (budgetExceeded()) break;
    // Syntax newer than the declared Python: no step can reproduce the change, so say why at once.
    const tooNew = await syntaxTooNew(store, item);
    if (tooNew.length > 0) {
      issues.push(...tooNew);
      for (const index of item.hunkIndices) {
        hunks.push({ file: item.path, index, steps: [], lifted: false, tiers: [], kinds: [] });
      }
      continue;
    }
    const lifted = await liftFile(sim, item.path, item.applied.regions);
    const failed = new Set(
      item.applied.issues.map((issue) => Number(/^(?:Hunk|Block) (\d+)/.exec(issue.message)?.[1] ?? -1)),
    );
    for (const index of item.hunkIndices) {
      const parts = lifted.filter((region) => region.hunk === index || region.alsoHunks?.includes(index));
      // Steps in plan order, each with its tier and kind.
      const made = parts.flatMap((region) =>
        region.steps.map((step, k) => ({ step, tier: region.tiers[k], kind: region.kinds[k] }))
      ).sort((a, b) => a.step - b.step);
      const ok = !failed.has(index) && parts.every((region) => region.lifted);
      hunks.push({
        file: item.path,
        index,
        steps: made.map((m) => m.step),
        lifted: ok,
        tiers: made.map((m) => m.tier),
        kinds: made.map((m) => m.kind),
      });
      for (const region of parts) {
        if (!region.reason) continue;
        issues.push(warning(
          "lift-tier-0",
          `Hunk ${index} of "${item.path}" became ${
            region.kinds.join(", ")
          } (tier 0): no tier 1-3 step reproduces ${region.reason}`,
          {
            file: item.path,
            line: region.line,
            hint: "the change has a shape the templates and fragments do not cover",
          },
        ));
      }
      if (!ok && !failed.has(index)) {
        issues.push(
          error(
            "hunk-not-lifted",
            `Hunk ${index} of "${item.path}" could not be lifted: no step reproduces it exactly`,
            {
              file: item.path,
              line: parts[0]?.line,
            },
          ),
        );
      }
    }
  }
  hunks.sort((a, b) => a.index - b.index);
  const plan = sim.steps;
  let exact = false;
  if (budgetExceeded()) return outOfBudget(plan, hunks, issues);
  if (plan.length > 0) {
    const verified = await verifyPlan(store, plan);
    issues.push(...verified.errors, ...verified.warnings.map((issue) => ({ ...issue })));
    const replay = await replayPlan(store, plan);
    if (replay.failed) {
      issues.push(
        error("replay-failed", `The lifted plan failed at step ${replay.failed.step} when replayed`, {
          step: replay.failed.step,
          hint: replay.failed.issues[0]?.message,
        }),
      );
    } else {
      exact = work.every((item) =>
        (replay.texts.get(item.path) ?? null) === item.applied.after ||
        (!replay.texts.has(item.path) && item.applied.regions.length === 0)
      );
      for (const item of work) {
        const got = replay.texts.get(item.path);
        if (got !== undefined && got !== item.applied.after) {
          issues.push(
            error("replay-inexact", `Replaying the lifted plan does not reproduce "${item.path}" exactly`, {
              file: item.path,
              line: firstDifference(got, item.applied.after),
            }),
          );
        }
      }
    }
  }
  // the budget ran out in verification or replay: their failures say nothing about the plan
  if (budgetExceeded()) return outOfBudget(plan, hunks, issues);
  return finish(plan, hunks, exact, issues);
}

/**
 * The result of a lift whose work budget ran out: candidates refused for
 * want of budget are not shapes lift lacks, nor is a replay cut short a
 * wrong plan, so their issues give way to one `budget-exceeded`.
 */
function outOfBudget(plan: Record<string, unknown>[], hunks: LiftedHunk[], issues: Issue[]): LiftResult {
  const cutShort = new Set([
    "hunk-not-lifted",
    "lift-tier-0",
    "replay-failed",
    "replay-inexact",
    "budget-exceeded",
  ]);
  const kept = issues.filter((issue) => !cutShort.has(issue.code));
  const unfinished = hunks.map((hunk) => ({ ...hunk, lifted: hunk.lifted && hunk.steps.length > 0 }));
  return finish(plan, unfinished, false, [...kept, budgetIssue()]);
}

/**
 * Why a file's patch cannot become plan steps, or undefined when it can: a
 * plan edits the text of existing files in place, so creating, deleting,
 * renaming or copying a file, a binary change and a mode change are refused.
 */
function unliftable(patch: FilePatch): Issue | undefined {
  const refuse = (what: string, hint: string) =>
    error("diff-unsupported", `The diff ${what}: a plan edits the text of existing files only`, {
      file: patch.path,
      hint,
    });
  switch (patch.status) {
    case "added":
      return refuse(`creates "${patch.path}"`, "create the file outside the plan");
    case "deleted":
      return refuse(`deletes "${patch.path}"`, "delete the file outside the plan");
    case "renamed":
    case "copied":
      return refuse(
        `${patch.status === "renamed" ? "renames" : "copies"} "${patch.oldPath}" to "${patch.newPath}"`,
        `${
          patch.status === "renamed" ? "rename" : "copy"
        } the file outside the plan, then lift the content changes`,
      );
  }
  if (patch.binary) return refuse(`changes the binary file "${patch.path}"`, "binary files are not lifted");
  if (patch.oldMode !== patch.newMode) {
    return refuse(
      `changes the mode of "${patch.path}" from ${patch.oldMode} to ${patch.newMode}`,
      "change the mode outside the plan (chmod), then lift the content changes",
    );
  }
  return undefined;
}

/**
 * The `syntax-too-new` errors of a file's whole change (L0's rule,
 * `newTargetIssues`: new syntax in the changed region newer than the
 * declared Python and than what the file already used). Every candidate
 * step would fail L0 with them, and trying them all takes minutes on a
 * large file, so lift refuses the file first, naming the feature, the
 * declared minimum and where it was declared.
 */
async function syntaxTooNew(store: DocumentStore, item: FileWork): Promise<Issue[]> {
  if (item.applied.regions.length === 0) return [];
  const before = await store.get(item.path);
  if (before.file.language !== "python" || before.file.text === item.applied.after) return [];
  const after = await store.reparse(before, item.applied.after);
  const found = newTargetIssues(item.path, before, after, { step: 0, root: store.workspace.root });
  return found.map(({ step: _step, ...issue }) => ({
    ...issue,
    hint: `${issue.hint}; the hunks of "${item.path}" are not lifted`,
  }));
}

function finish(
  plan: Record<string, unknown>[],
  hunks: LiftedHunk[],
  exact: boolean,
  issues: Issue[],
): LiftResult {
  const { errors, warnings } = partition(issues);
  return { success: errors.length === 0 && exact, plan, hunks, exact, errors, warnings };
}

async function readDoc(store: DocumentStore, path: string, issues: Issue[]) {
  try {
    return (await store.get(path)).file;
  } catch (err) {
    const caught = err as { issues?: Issue[] };
    if (!caught.issues) throw err;
    issues.push(...caught.issues.map((issue) => ({ ...issue, file: issue.file ?? path })));
    return undefined;
  }
}

function firstDifference(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i).split("\n").length;
}
