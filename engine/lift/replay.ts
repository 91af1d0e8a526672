/**
 * Running lifted steps in memory: the same dispatcher and post-checks as
 * `verifyPlan` and `executePlan` (`runStep` in a `StepContext`, then L0–L6
 * on every changed file), over an overlay of the repository's documents,
 * so nothing is ever written.
 *
 * - `Simulation.attempt` runs candidate steps on a scratch overlay of the
 *   current state and keeps them only when the file ends up exactly as
 *   expected and no blocking post-check (L0–L2) reports an error: that is
 *   how lift decides whether a step reproduces a change.
 * - `replayPlan` runs a finished plan from the original files and returns
 *   every file's final text, for the byte-exact comparison with the diff's
 *   target.
 *
 * @module
 */

import { checkBudget } from "../base/budget.ts";
import { runStep } from "../ops/dispatch.ts";
import { type FileChangeOf, StepContext } from "../edit/operator.ts";
import { noNewSyntaxProblems, type PostCheck } from "../verify/post_checks.ts";
import { checkContainment, checkKinds, runEditChecks } from "../verify/levels/mod.ts";
import { type Issue, IssueError } from "../base/issue.ts";
import type { Document, DocumentStore } from "../parse/documents.ts";
import { parsePlan } from "../plan/mod.ts";
import { spacingSteps } from "./spacing.ts";
import { layoutSteps } from "./layout.ts";
import { lineCommentSteps } from "./line_comments.ts";
import { ownCommentSteps } from "./own_comments.ts";
import { gitModeOf } from "../base/file_mode.ts";
import { sha256Hex } from "../base/node_builtins.ts";

/** Builds a step against the scratch state as the earlier steps of its candidate left it. */
export type StepBuilder = (state: DocumentStore) => Promise<Record<string, unknown> | undefined>;

/** A step run without its post-checks (`runOne`'s `ran`): what it changed, checked once its candidate holds. */
interface Ran {
  step: unknown;
  changes: FileChangeOf[];
  ctx: StepContext;
}

/**
 * Runs one step on `state` (an overlay it may change); returns the issues
 * that stopped it. With `ran`, a step that ran is recorded there with what
 * it changed, for `checkChanges` later.
 */
async function runOne(
  state: DocumentStore,
  step: unknown,
  index: number,
  checks: PostCheck[],
  ran?: Ran[],
): Promise<Issue[]> {
  const parsed = parsePlan([step]);
  if (!parsed.plan) return parsed.issues.filter((issue) => issue.severity === "error");
  const normalized = { ...parsed.plan.steps[0], index };
  const ctx = new StepContext(state, index);
  try {
    await runStep(normalized, ctx, parsed.plan);
  } catch (err) {
    if (err instanceof IssueError) return err.issues;
    throw err;
  }
  const changes = await ctx.changedFiles();
  const errors = await checkChanges(changes, ctx, checks);
  if (errors.length === 0) {
    for (const change of changes) {
      if (change.deleted) state.remove(change.path);
      else state.set(change.after);
    }
    ran?.push({ step, changes, ctx });
  }
  return errors;
}

/**
 * The errors `checks` find in what one step changed. The blocking checks
 * read the change, the step's records and the repository root, never the
 * other documents of the state, so they may run after later steps.
 */
async function checkChanges(
  changes: FileChangeOf[],
  ctx: StepContext,
  checks: PostCheck[],
): Promise<Issue[]> {
  const errors: Issue[] = [];
  for (const change of changes) {
    for (const check of checks) {
      errors.push(...(await check(change, ctx)).filter((issue) => issue.severity === "error"));
    }
  }
  return errors;
}

/** A digest of a step and the texts it turned into others (`Simulation.passes`). */
function fingerprint(step: unknown, changes: FileChangeOf[]): string {
  const texts = changes.map((change) => {
    const { path, created = false, deleted = false, before, after } = change;
    return [path, created, deleted, before.file.text, after.file.text];
  });
  return sha256Hex(JSON.stringify([step, texts]));
}

/**
 * The post-checks that can reject a step: L0 (syntax), L1 (kinds), L2
 * (containment). L3–L6 only ever warn, so a candidate's fate never depends
 * on them; the finished plan gets all levels from `verifyPlan`.
 */
const BLOCKING_CHECKS: PostCheck[] = [
  noNewSyntaxProblems,
  async (change, ctx) => {
    const records = ctx.records.filter((record) => record.file === change.path);
    const { errors } = await runEditChecks({ ...change, records }, { step: ctx.step, store: ctx.store }, [
      checkKinds,
      checkContainment,
    ]);
    return errors;
  },
];

/** The lift's running state: the files as the accepted steps left them. */
export class Simulation {
  /** The current state (an overlay of the repository). */
  readonly state: DocumentStore;
  /** Accepted steps, in order. */
  readonly steps: Record<string, unknown>[] = [];
  private readonly checks: PostCheck[];
  /** Fingerprints of steps whose changes passed the checks (`passes`): a search meets the same step often. */
  private readonly passed = new Set<string>();

  constructor(base: DocumentStore, checks: PostCheck[] = BLOCKING_CHECKS) {
    this.state = base.overlay();
    this.checks = checks;
  }

  /** A point to come back to with `rollback` (the steps so far and the current documents of `files`). */
  async mark(files: string[]): Promise<{ steps: number; docs: Document[] }> {
    const docs: Document[] = [];
    for (const file of files) docs.push(await this.state.get(file));
    return { steps: this.steps.length, docs };
  }

  /** Forget the steps accepted since `mark` and restore its documents. */
  rollback(mark: { steps: number; docs: Document[] }): void {
    this.steps.length = mark.steps;
    for (const doc of mark.docs) this.state.set(doc);
  }

  /** The steps and the documents of `files` as they are now, for `restore`. */
  async save(files: string[]): Promise<{ steps: Record<string, unknown>[]; docs: Document[] }> {
    return { steps: [...this.steps], docs: (await this.mark(files)).docs };
  }

  /** Return to what `save` saw, whatever was accepted or rolled back since. */
  restore(saved: { steps: Record<string, unknown>[]; docs: Document[] }): void {
    this.steps.length = 0;
    this.steps.push(...saved.steps);
    for (const doc of saved.docs) this.state.set(doc);
  }

  /** The current document of `path`. */
  async doc(path: string): Promise<Document> {
    return await this.state.get(path);
  }

  /**
   * Build and run one step on a scratch copy of the state and keep it when
   * it runs and its blocking post-checks pass, whatever text it leaves (the
   * first step of a candidate whose later steps are found afterwards, see
   * `clone.ts`); undefined, and nothing changed, otherwise. Throws
   * `budget-exceeded` once the work budget is spent (see `lift_file.ts`).
   */
  async apply(build: StepBuilder): Promise<Record<string, unknown> | undefined> {
    checkBudget();
    const scratch = this.state.overlay();
    const step = await build(scratch);
    if (!step) return undefined;
    const issues = await runOne(scratch, step, this.steps.length, this.checks);
    checkBudget(); // a step refused for want of budget is no verdict on the step
    if (issues.length) return undefined;
    await this.adopt(scratch);
    this.steps.push(step);
    return step;
  }

  /**
   * Run a whole-file step (`create_file`, `delete_file`, `rename_file`,
   * `set_mode`) and keep it whatever the post-checks say: the diff makes
   * that change, so the plan must hold it, and `verifyPlan` reports what is
   * wrong with it. Returns the issues that stopped it from running (the
   * file to create exists, say); nothing is kept then.
   */
  async fileStep(step: Record<string, unknown>): Promise<Issue[]> {
    const scratch = this.state.overlay();
    const issues = await runOne(scratch, step, this.steps.length, []);
    if (issues.length > 0) return issues;
    await this.adopt(scratch);
    this.steps.push(step);
    return [];
  }

  /** Make what `scratch` (an overlay of the state) changed part of the state. */
  private async adopt(scratch: DocumentStore): Promise<void> {
    for (const path of scratch.ownPaths()) this.state.set(await scratch.get(path));
    for (const path of scratch.removedPaths()) this.state.remove(path);
  }

  /**
   * Build and run `builders` in order on a scratch copy of the state; when
   * every step runs and `file` then reads exactly `expected` (after
   * `set_line_comment`, `relayout_node` and `set_blank_lines` steps when only
   * line comments and whitespace differ, see `line_comments.ts`, `layout.ts`
   * and `spacing.ts`),
   * keep them and return the steps, else return undefined and change nothing.
   * Throws `budget-exceeded` once the work budget is spent, between any two
   * runs of a step (`lift_file.ts`).
   */
  async attempt(
    builders: StepBuilder[],
    file: string,
    expected: string,
  ): Promise<Record<string, unknown>[] | undefined> {
    const scratch = this.state.overlay();
    const steps: Record<string, unknown>[] = [];
    const ran: Ran[] = [];
    const run = async (step: Record<string, unknown>) => {
      const issues = await runOne(scratch, step, this.steps.length + steps.length, [], ran);
      if (issues.length === 0) steps.push(step);
      return issues.length === 0;
    };
    for (const build of builders) {
      checkBudget();
      const step = await build(scratch);
      if (!step) return undefined;
      const text = (await scratch.get(file)).file.text;
      const ok = await run(step);
      checkBudget(); // a step refused for want of budget is no verdict on the step
      if (!ok || (await scratch.get(file)).file.text === text) return undefined;
    }
    const got = await scratch.get(file);
    if (got.file.text !== expected) {
      // Only comments and layout differ: the own-line and line comment steps (tier 2, 1), then the
      // layout and spacing steps (tier 1) finish the candidate.
      for (const step of await ownCommentSteps(scratch, got, expected) ?? []) {
        if (!await run(step)) return undefined;
      }
      const commented = await scratch.get(file);
      for (const step of await lineCommentSteps(scratch, commented, expected) ?? []) {
        if (!await run(step)) return undefined;
      }
      const laid = await scratch.get(file);
      for (
        const step of laid.file.text === expected ? [] : await layoutSteps(scratch, laid, expected) ?? []
      ) {
        if (!await run(step)) return undefined;
      }
      const now = await scratch.get(file);
      if (now.file.text !== expected) {
        const spacing = await spacingSteps(scratch, now, expected);
        if (!spacing) return undefined;
        for (const step of spacing) {
          if (!await run(step)) return undefined;
        }
        if ((await scratch.get(file)).file.text !== expected) return undefined;
      }
    }
    // The same post-checks as verification, on the steps of a candidate that holds only (they cost more
    // than a run), on what each step changed as it ran.
    for (const { step, changes, ctx } of ran) {
      checkBudget();
      const ok = await this.passes(step, changes, ctx);
      checkBudget();
      if (!ok) return undefined;
    }
    await this.adopt(scratch);
    this.steps.push(...steps);
    return steps;
  }

  /**
   * Whether the blocking checks pass on what a step changed. A search meets
   * the same step on the same text again and again (the parts of a split,
   * the same region alone and merged), so a pass is remembered for the same
   * step turning the same texts into the same others.
   */
  private async passes(step: unknown, changes: FileChangeOf[], ctx: StepContext): Promise<boolean> {
    const key = fingerprint(step, changes);
    if (this.passed.has(key)) return true;
    if ((await checkChanges(changes, ctx, this.checks)).length > 0) return false;
    this.passed.add(key);
    return true;
  }
}

/** What replaying a plan left: every file it touched, as text and git mode, and the files it deleted. */
export interface Replayed {
  texts: Map<string, string>;
  /** Git modes (`"100644"`, `"100755"`) of the files in `texts`; null when unknown. */
  modes: Map<string, string | null>;
  removed: Set<string>;
  failed?: { step: number; issues: Issue[] };
}

/** Run `plan` (a list of steps) on an overlay of `base`: each file's final state, or the first failure. */
export async function replayPlan(base: DocumentStore, plan: unknown[]): Promise<Replayed> {
  const state = base.overlay();
  for (let index = 0; index < plan.length; index++) {
    const issues = await runOne(state, plan[index], index, []);
    if (issues.length) {
      return { texts: new Map(), modes: new Map(), removed: new Set(), failed: { step: index, issues } };
    }
  }
  const texts = new Map<string, string>();
  const modes = new Map<string, string | null>();
  for (const path of state.ownPaths()) {
    const doc = await state.get(path);
    texts.set(path, doc.file.text);
    modes.set(path, gitModeOf(doc.file.mode));
  }
  return { texts, modes, removed: new Set(state.removedPaths()) };
}
