/**
 * Lift: a unified diff, SEARCH/REPLACE blocks or an `apply_patch` (V4A)
 * document become a verified structural plan (ARCHITECTURE.md, "Lift").
 *
 * 1. The input is read (`unified_diff.ts`, `search_replace.ts`,
 *    `apply_patch.ts`) and applied to the repository's files in memory
 *    (`apply.ts`): the target text of every file and its changed regions.
 *    A hunk that does not apply is an error naming it; the others are still
 *    lifted. Created, deleted and renamed files and mode changes become
 *    whole-file steps (`whole_files.ts`): creations and renames first, then
 *    the text steps, then mode changes and deletions.
 * 2. Each file's regions become steps (`lift_file.ts`): the tree diff pairs
 *    nodes of the current and target trees, the shapes propose the most
 *    specific steps (`shapes.ts`), and a step is kept only when replaying it
 *    reproduces the change exactly (`replay.ts`). The search of a file may
 *    spend `SEARCH_SHARE` of the budget left; the hunks it has not lifted
 *    by then become tier-0 `replace_code` steps without a search
 *    (`liftCoarsely`), so verification and replay still fit in the rest.
 *    Hunks that no step reproduces on their own (one opens a namespace or
 *    an `#if` that a later one closes, so the file between them is refused)
 *    are lifted the same way, together, as one step.
 * 3. The whole plan is verified with `verifyPlan` (layers 0–6, levels
 *    L0–L6) and replayed from the original files; `exact` says the replay
 *    reproduced every target byte for byte.
 *
 * Lift reads the repository and never writes to it: every edit lives in an
 * overlay of the document store.
 *
 * @module
 */

import { budgetExceeded, budgetIssue, remainingSeconds, withBudget } from "../base/budget.ts";
import { error, type Issue, partition, warning } from "../base/issue.ts";
import type { DocumentStore } from "../parse/documents.ts";
import { verifyPlan } from "../verify/mod.ts";
import { newTargetIssues } from "../verify/levels/l0_target.ts";
import { applyBlocks } from "./apply.ts";
import { isApplyPatch, parseApplyPatch, resolveApplyPatch } from "./apply_patch.ts";
import { liftCoarsely, liftFile } from "./lift_file.ts";
import { type Replayed, replayPlan, Simulation } from "./replay.ts";
import { parseSearchReplace } from "./search_replace.ts";
import { type FilePatch, parseUnifiedDiff } from "./unified_diff.ts";
import { type FileWork, planFile } from "./whole_files.ts";

export { parseUnifiedDiff } from "./unified_diff.ts";
export { parseSearchReplace } from "./search_replace.ts";
export { isApplyPatch, parseApplyPatch } from "./apply_patch.ts";

/** What to lift: exactly one of the three. */
export interface LiftInput {
  /** A git-format unified diff (an `apply_patch` document given here is read as one). */
  diff?: string;
  /** Aider-style SEARCH/REPLACE blocks. */
  search_replace?: string;
  /** An OpenAI `apply_patch` (V4A) document. */
  apply_patch?: string;
}

/**
 * Provenance of one hunk (or block). A whole-file step that no hunk
 * carries (a rename, a mode change, an empty new file, a deletion written
 * without its lines) is listed with `index` -1.
 */
export interface LiftedHunk {
  file: string;
  /** 0-based hunk index in the input; -1 for a whole-file step without a hunk. */
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

/** Lift `input` against the repository of `store` (see the module notes); writes nothing. */
export async function lift(store: DocumentStore, input: LiftInput): Promise<LiftResult> {
  const issues: Issue[] = [];
  const work: FileWork[] = [];
  const given = [input.diff, input.search_replace, input.apply_patch].filter((value) =>
    typeof value === "string"
  );
  if (given.length !== 1) {
    issues.push(error("params-invalid", 'Give exactly one of "diff", "search_replace" and "apply_patch"', {
      hint: "a unified diff, SEARCH/REPLACE blocks or an apply_patch document, as a string",
    }));
    return finish([], [], false, issues);
  }
  if (input.search_replace !== undefined) {
    const parsed = parseSearchReplace(input.search_replace);
    issues.push(...parsed.issues);
    const byFile = new Map<string, typeof parsed.blocks>();
    for (const block of parsed.blocks) byFile.set(block.file, [...byFile.get(block.file) ?? [], block]);
    for (const [path, blocks] of byFile) {
      const doc = await readDoc(store, path, issues);
      if (!doc) continue;
      const applied = applyBlocks(doc.text, blocks, { file: path, eol: doc.eol });
      const hunkIndices = blocks.map((block) => block.index);
      work.push({ path, applied, hunkIndices, before: [], after: [], expect: { text: applied.after } });
    }
  } else {
    for (const patch of await filePatches(store, input, issues)) {
      if (budgetExceeded()) break; // a file's work is bounded, a diff of many files is not
      const planned = await planFile(store, patch);
      issues.push(...planned.issues);
      if (planned.work) work.push(planned.work);
    }
  }
  for (const item of work) issues.push(...item.applied?.issues ?? []);

  const sim = new Simulation(store);
  const hunks: LiftedHunk[] = [];
  // Whole-file steps that come first (create, rename), then the text steps, then set_mode and delete.
  const fileSteps = new Map<FileWork, number[]>();
  const runFileSteps = async (item: FileWork, steps: Record<string, unknown>[]) => {
    for (const step of steps) {
      const stopped = await sim.fileStep(step);
      if (stopped.length > 0) {
        issues.push(...stopped.map((issue) => ({ ...issue, file: issue.file ?? item.path })));
      } else fileSteps.set(item, [...fileSteps.get(item) ?? [], sim.steps.length - 1]);
    }
  };
  for (const item of work) await runFileSteps(item, item.before);
  for (const item of work) {
    if (!item.applied) continue;
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
    hunks.push(...await liftRegions(sim, item, issues));
  }
  for (const item of work) await runFileSteps(item, item.after);
  for (const [item, steps] of fileSteps) hunks.push(...fileProvenance(item, steps, sim.steps));
  hunks.sort((a, b) => a.index - b.index || (a.steps[0] ?? 0) - (b.steps[0] ?? 0));
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
      exact = true;
      for (const item of work) {
        const problem = replayProblem(item, replay);
        if (problem === undefined) continue;
        exact = false;
        if (problem) issues.push(problem);
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

/** The file patches of a unified diff or an `apply_patch` document (auto-detected in `diff`). */
async function filePatches(store: DocumentStore, input: LiftInput, issues: Issue[]): Promise<FilePatch[]> {
  const text = input.apply_patch ?? input.diff!;
  if (input.apply_patch !== undefined || (isApplyPatch(text) && !/^(diff --git |--- |@@ -)/m.test(text))) {
    const parsed = parseApplyPatch(text);
    issues.push(...parsed.issues);
    const resolved = await resolveApplyPatch(parsed, async (path) => {
      try {
        return (await store.get(path)).file.text;
      } catch {
        return undefined;
      }
    });
    issues.push(...resolved.issues);
    return resolved.files;
  }
  const parsed = parseUnifiedDiff(text);
  issues.push(...parsed.issues);
  return parsed.files;
}

/**
 * The share of the budget left that the structural search of one file may
 * spend. The rest is for the coarse lift of what the search did not reach,
 * the other files, verification and replay: a plan's verification and
 * replay cost about what its accepted steps cost in the search, which also
 * tried the candidates it refused.
 */
const SEARCH_SHARE = 2 / 3;

/** The hunks of the regions no step reproduced on their own, in order. */
function alone(lifted: { hunk: number; alsoHunks?: number[]; alone?: boolean }[]): number[] {
  const hunks = lifted.filter((region) => region.alone).flatMap((
    region,
  ) => [region.hunk, ...region.alsoHunks ?? []]);
  return [...new Set(hunks)].sort((a, b) => a - b);
}

/** "hunk 3", "hunks 1 and 2", "hunks 1, 2 and 4". */
function hunkList(hunks: number[]): string {
  if (hunks.length === 1) return `hunk ${hunks[0]}`;
  return `hunks ${hunks.slice(0, -1).join(", ")} and ${hunks.at(-1)}`;
}

/** Lift the text changes of one file into steps; the provenance of each of its hunks. */
async function liftRegions(sim: Simulation, item: FileWork, issues: Issue[]): Promise<LiftedHunk[]> {
  const out: LiftedHunk[] = [];
  const applied = item.applied!;
  // no budget in force: no share either (withBudget(0) sets none), and the search runs to its end
  const share = (remainingSeconds() ?? 0) * SEARCH_SHARE;
  let lifted = await withBudget(share, () => liftFile(sim, item.path, applied.regions));
  if (lifted.some((region) => region.region) && !budgetExceeded()) {
    const reason = lifted.some((region) => region.region && !region.alone)
      ? `its changes within the search's share of the work budget (${
        Math.round(share)
      } s), so no search was made`
      : `${hunkList(alone(lifted))} alone (the file between is refused, as when one hunk opens a ` +
        "bracket or an `#if` that another closes), so they are one step";
    lifted = await liftCoarsely(sim, item.path, lifted, reason);
  }
  const failed = new Set(
    applied.issues.map((issue) => Number(/^(?:Hunk|Block) (\d+)/.exec(issue.message)?.[1] ?? -1)),
  );
  for (const index of item.hunkIndices) {
    const parts = lifted.filter((region) => region.hunk === index || region.alsoHunks?.includes(index));
    // Steps in plan order, each with its tier and kind.
    const made = parts.flatMap((region) =>
      region.steps.map((step, k) => ({ step, tier: region.tiers[k], kind: region.kinds[k] }))
    ).sort((a, b) => a.step - b.step);
    const ok = !failed.has(index) && parts.every((region) => region.lifted);
    out.push({
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
          { file: item.path, line: parts[0]?.line },
        ),
      );
    }
  }
  return out;
}

/**
 * The provenance of a file's whole-file steps: a created or deleted file's
 * hunks are its `create_file`/`delete_file` step; other whole-file steps
 * (rename, mode) are listed with index -1.
 */
function fileProvenance(item: FileWork, steps: number[], plan: Record<string, unknown>[]): LiftedHunk[] {
  const entry = (index: number, chosen: number[]): LiftedHunk => ({
    file: item.path,
    index,
    steps: chosen,
    lifted: true,
    tiers: chosen.map(() => 1),
    kinds: chosen.map((step) => String(plan[step].op)),
  });
  if (item.applied || item.hunkIndices.length === 0) return [entry(-1, steps)];
  return item.hunkIndices.map((index) => entry(index, steps));
}

/**
 * Whether the replay left `item`'s file as the diff does: undefined when it
 * did, else the issue saying where it differs (null when there is nothing to
 * point at, e.g. a step of the file did not run).
 */
function replayProblem(item: FileWork, replay: Replayed): Issue | null | undefined {
  const inexact = (what: string, line?: number) =>
    error("replay-inexact", `Replaying the lifted plan does not reproduce ${what}`, {
      file: item.path,
      line,
    });
  if (item.from !== undefined && !replay.removed.has(item.from)) {
    return inexact(`the rename of "${item.from}"`);
  }
  if (item.expect.text === null) {
    return replay.removed.has(item.path) ? undefined : inexact(`the deletion of "${item.path}"`);
  }
  const got = replay.texts.get(item.path);
  if (got === undefined) {
    const untouched = item.before.length === 0 && item.after.length === 0 &&
      item.applied?.regions.length === 0;
    return untouched ? undefined : null;
  }
  if (got !== item.expect.text) {
    return inexact(`"${item.path}" exactly`, firstDifference(got, item.expect.text));
  }
  if (item.expect.mode && replay.modes.get(item.path) !== item.expect.mode) {
    return inexact(`the mode ${item.expect.mode} of "${item.path}"`);
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
  // A renamed file is judged after its rename step; lift's replay and verification cover it there.
  if (!item.applied || item.applied.regions.length === 0 || item.from !== undefined) return [];
  const before = await store.get(item.path);
  if (before.file.language !== "python" || before.file.text === item.applied.after) return [];
  const after = await store.reparse(before, item.applied.after);
  // a warning (no version declared) refuses nothing: verification reports it with the plan
  const found = newTargetIssues(item.path, before, after, { step: 0, root: store.workspace.root })
    .filter((issue) => issue.severity === "error");
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
