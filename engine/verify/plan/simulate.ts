/**
 * Plan verification (seed 002, phase 3): the whole plan simulated in
 * memory, each step checked against the files as the earlier steps left
 * them, every problem collected.
 *
 * ## The walk
 *
 * The plan is validated (`parsePlan`, layer 0: operators, parameters,
 * paths); a step with schema errors is reported and skipped, the others go
 * on. The simulation state is an overlay of the store (`store.overlay()`):
 * nothing is ever written. For each step, in order:
 *
 * 1. layer 0 on the current state (files exist, classes and functions in
 *    the graph, line numbers in range), layer 1's duplicate-method check,
 *    layer 2 (line drift through the earlier steps' edits) and layer 4
 *    (where a renamed name occurs);
 * 2. the step runs through the real dispatcher (`runStep`) in a
 *    `StepContext` over the state, exactly as `executePlan` would run it:
 *    a locator resolves against the tree the earlier steps produced (layer
 *    0b; inside a composed operator, after its earlier primitives, so
 *    runtime-bound variables resolve), a pattern is searched with the fuzzy
 *    layers (layer 1), and what the operator throws or warns gets the layer
 *    of its code (`layerOf`);
 * 3. the executor's post-checks run on every changed file (by default
 *    `defaultPostChecks()`: L0 syntax, L1–L2 errors, L3–L6 warnings, each
 *    issue with its `level`); a new syntax error is also layer 5, the
 *    preflight syntax of the simulated replacement;
 * 4. when the step has no error, its result becomes the new state, and
 *    layer 3 (a `replace_code` match inside a string or comment) and layer 6
 *    (module-level symbols renamed, deleted or re-signed that files outside
 *    the plan import) look at what it did.
 *
 * A step with an error leaves the state as it was (the last good state),
 * and the walk goes on; the issues of a later step on a file a failed step
 * meant to edit say in their hint that they may follow from that failure.
 *
 * @module
 */

import { declaredPythonMinimum } from "../../analysis/python_version.ts";
import { type EditRecord, StepContext } from "../../edit/operator.ts";
import { runStep } from "../../ops/dispatch.ts";
import { defaultPostChecks, type FileChange, type PostCheck } from "../post_checks.ts";
import type { CodeGraph } from "../../graph/mod.ts";
import { budgetExceeded, budgetIssue } from "../../base/budget.ts";
import { capIssues, error, type Issue, IssueError, partition } from "../../base/issue.ts";
import { limits } from "../../base/limits.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import type { Tree } from "../../parse/mod.ts";
import type { NormalizedPlan, NormalizedStep } from "../../plan/mod.ts";
import { contentChecks, layerOf } from "./content.ts";
import { patternContext } from "./context.ts";
import { DriftTracker, lineStepFile } from "./drift.ts";
import { tryGet } from "./graphs.ts";
import { ImpactAnalyzer } from "./impact.ts";
import { renameOccurrences } from "./occurrences.ts";
import { stepFiles, verifySteps } from "./steps.ts";
import { structuralChecks } from "./structure.ts";
import { explainStaleLocator } from "./stale_locator.ts";
import { settleWarnings } from "../levels/settle.ts";
import { judgeDangling } from "../levels/l3_dangling.ts";
import { deletedModuleImports } from "./deleted_modules.ts";
import { finalUsesBeforeBinding } from "../levels/l3_use_before_binding.ts";
import type { CompileInput, Compilers } from "../compile/mod.ts";
import { promoteWarnings } from "../strict.ts";

/** Options of `verifyPlan`. */
export interface VerifyOptions {
  /** Post-checks run on every simulated step; default `defaultPostChecks()` (L0–L6), as when executing. */
  checks?: PostCheck[];
  /** The code graph, for layer 6's import graph; default: a scan of the repository's files. */
  graph?: CodeGraph;
  /** Called after each step with its index and the milliseconds its verification took (benchmarks). */
  onStep?: (step: number, ms: number) => void;
  /** Compile the simulated result with the environment's interpreters (`engine/verify/compile`). */
  compilers?: Compilers;
  /** Warning codes that count as errors (`strict.ts`); judged on the settled warnings. */
  strict?: readonly string[];
}

/** The verification report (ARCHITECTURE.md: `verify_plan` → `{passed, errors, warnings}`). */
export interface VerifyResult {
  passed: boolean;
  errors: Issue[];
  warnings: Issue[];
  /** The interpreters the simulated result was compiled with (`"python3.11"`), or null when none was used. */
  compiled?: string | null;
}

/** A step that failed, and the files it meant to edit (empty: unknown). */
interface Failure {
  step: number;
  files: Set<string>;
}

/** Verify a plan document against the repository of `store` (see the module notes); writes nothing. */
export async function verifyPlan(
  store: DocumentStore,
  planJson: unknown,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  const { plan, slots, issues: schema } = verifySteps(planJson);
  const issues: Issue[] = [...schema];
  const raw = rawStepList(planJson);
  const state = store.overlay();
  const planFiles = new Set<string>();
  for (const step of raw) for (const file of stepFiles(step)) planFiles.add(file);
  const walk: Walk = {
    plan,
    base: store,
    simulated: new Set(),
    state,
    checks: options.checks ?? defaultPostChecks(),
    drift: new DriftTracker(),
    impact: new ImpactAnalyzer(state, planFiles, options.graph),
    lastStep: new Map(),
  };
  const failures: Failure[] = [];
  for (let index = 0; index < slots.length; index++) {
    if (budgetExceeded()) {
      // The steps from here on are not verified: one issue says so.
      if (!issues.some((issue) => issue.code === "budget-exceeded")) {
        issues.push({ ...budgetIssue(), step: index, layer: "0" });
      }
      break;
    }
    const step = slots[index];
    const files = stepFiles(step ? step.params : raw[index]);
    if (!step) {
      failures.push({ step: index, files });
      continue;
    }
    const started = performance.now();
    const found = await verifyStep(step, walk);
    options.onStep?.(index, performance.now() - started);
    const cause = failures.find((failure) =>
      failure.files.size === 0 || files.size === 0 || [...files].some((file) => failure.files.has(file))
    );
    for (const item of (cause ? found.map((issue) => consequence(issue, cause.step)) : found)) {
      issues.push(item);
    }
    if (found.some((issue) => issue.severity === "error")) failures.push({ step: index, files });
  }
  let compiled: string | null = null;
  if (options.compilers) {
    const report = await options.compilers.check(await simulatedFiles(store, walk), {
      pythonMinimum: declaredPythonMinimum(store.workspace.root),
      root: store.workspace.root,
    });
    compiled = report.compiled;
    for (const issue of report.errors) issues.push({ ...issue, layer: "5" });
  }
  // By step (a stable sort: the plan's own problems first, then each step's in the order found).
  issues.sort((a, b) => (a.step ?? -1) - (b.step ?? -1));
  const { errors, warnings } = partition(issues);
  // uses left without their binding are judged on the whole plan: errors unless a later step repaired them
  const originals = new Map<string, Document>();
  for (const path of [...state.ownPaths(), ...state.removedPaths()]) {
    const got = await tryGet(store, path);
    if (got.doc) originals.set(path, got.doc);
  }
  const dangling = await judgeDangling(warnings, originals, state);
  for (const issue of dangling.errors) errors.push(issue);
  const created = new Set([...walk.lastStep.keys()].filter((path) => !originals.has(path)));
  for (const issue of await deletedModuleImports(originals, created, state, walk.lastStep)) {
    errors.push({ ...issue, layer: "6" });
  }
  // a function left reading a local before binding it, judged on the final files too
  for (const issue of await finalUsesBeforeBinding(originals, state, walk.lastStep)) errors.push(issue);
  // warnings a later step resolved (a helper defined below its first use) are dropped; strict codes left count
  const settled = promoteWarnings(
    await settleWarnings(dangling.warnings, state, originals),
    options.strict ?? [],
  );
  for (const issue of settled.errors) errors.push(issue);
  errors.sort((a, b) => (a.step ?? -1) - (b.step ?? -1));
  const perCode = limits().max_issues_per_code;
  return {
    passed: errors.length === 0,
    errors: capIssues(errors, perCode),
    warnings: capIssues(settled.warnings, perCode),
    compiled,
  };
}

/** Every file the simulation changed, with its text before the plan and after it. */
async function simulatedFiles(store: DocumentStore, walk: Walk): Promise<CompileInput[]> {
  const out: CompileInput[] = [];
  for (const [path, step] of walk.lastStep) {
    if (!(await walk.state.exists(path))) continue; // deleted by the plan
    const after = await walk.state.get(path);
    let before = "";
    try {
      before = (await store.get(path)).file.text;
    } catch {
      // a file the plan creates
    }
    out.push({ path, language: after.file.language, before, after: after.file.text, step });
  }
  return out;
}

interface Walk {
  plan: NormalizedPlan;
  /** The files as they were before the plan. */
  base: DocumentStore;
  /** Trees of the simulated state that the simulation parsed (the base store's are not deleted). */
  simulated: Set<Tree>;
  /** The simulated files after the steps so far that passed. */
  state: DocumentStore;
  checks: PostCheck[];
  drift: DriftTracker;
  impact: ImpactAnalyzer;
  /** The step that last changed each file. */
  lastStep: Map<string, number>;
}

/** Every issue of one step; on success the state moves on by the step's edits. */
async function verifyStep(step: NormalizedStep, walk: Walk): Promise<Issue[]> {
  const issues = await structuralChecks(step, walk.state);
  if (hasErrors(issues)) return issues;
  for (const item of await contentChecks(step, walk.state)) issues.push(item);
  const lineFile = lineStepFile(step);
  if (lineFile !== undefined) {
    const got = await tryGet(walk.state, lineFile);
    if (got.doc) { for (const item of walk.drift.check(step, got.doc.file.path)) issues.push(item); }
  }
  if (step.op === "rename_symbol" && typeof step.params.file === "string") {
    const got = await tryGet(walk.state, step.params.file);
    if (got.doc) { for (const item of renameOccurrences(step, got.doc)) issues.push(item); }
  }

  const ctx = new StepContext(walk.state, step.index);
  try {
    return await simulateStep(step, walk, ctx, issues);
  } finally {
    await releaseTrees(ctx.records, walk);
  }
}

/** Run the step in `ctx`, post-check it and, when it passes, move the state on (see `verifyStep`). */
async function simulateStep(
  step: NormalizedStep,
  walk: Walk,
  ctx: StepContext,
  issues: Issue[],
): Promise<Issue[]> {
  let changes: FileChange[] = [];
  const simulated: Issue[] = [];
  const checked: Issue[] = [];
  try {
    await runStep(step, ctx, walk.plan);
    changes = await ctx.changedFiles();
    for (const change of changes) {
      for (const check of walk.checks) for (const item of await check(change, ctx)) checked.push(item);
    }
  } catch (err) {
    if (err instanceof IssueError) {
      for (const item of err.issues) {
        simulated.push(await explainStaleLocator(item, step, walk.base, walk.lastStep));
      }
    } else {
      simulated.push(
        error("step-crashed", `The operator failed unexpectedly: ${(err as Error)?.message ?? err}`, {
          hint: "this is a bug in GraphPlan, not in the plan; the step cannot be verified",
        }),
      );
    }
  }
  for (const warning of ctx.warnings) {
    // Layer 4 reports where a renamed name is left alone, with the full classification.
    if (step.op === "rename_symbol" && warning.code === "rename-skipped-text") continue;
    simulated.push(warning);
  }
  for (const issue of simulated) issues.push(planLayer(issue, step));
  for (const issue of checked) {
    issues.push({
      ...issue,
      step: issue.step ?? step.index,
      ...(issue.code === "syntax-error" && issue.layer === undefined ? { layer: "5" } : {}),
    });
  }
  if (hasErrors(issues)) return issues;

  if (budgetExceeded()) {
    // The layers below read whole files: not started once the budget is spent.
    issues.push({ ...budgetIssue(), step: step.index, layer: "0" });
    return issues;
  }
  for (const change of changes) {
    if (change.deleted) walk.state.remove(change.path);
    else walk.state.set(change.after);
    walk.lastStep.set(change.path, step.index);
  }
  walk.drift.record(step.index, ctx.records);
  for (const item of patternContext(step, ctx.records)) issues.push(item);
  for (const item of await walk.impact.check(step, changes)) issues.push(item);
  return issues;
}

/**
 * Delete the trees of the step's documents that nothing reads any more:
 * those of its intermediate edits, of the simulated state it replaced, or of
 * all its edits when it failed. Only trees the simulation parsed are
 * deleted, never the base store's. A tree lives in the WebAssembly heap,
 * which never shrinks: left to the collector, the trees of a plan of
 * thousands of steps pile up there (parses wait for the collector once they
 * pass the budget of parse/mod.ts) and the helper keeps that memory.
 */
async function releaseTrees(records: readonly EditRecord[], walk: Walk): Promise<void> {
  const current = new Set<Tree>();
  const base = new Set<Tree>();
  for (const path of new Set(records.map((record) => record.file))) {
    try {
      current.add((await walk.state.get(path)).tree);
    } catch {
      // not readable in the state (the step failed on a file the plan creates): nothing to keep
    }
    try {
      base.add((await walk.base.get(path)).tree);
    } catch {
      // a file the plan creates
    }
  }
  const done = new Set<Tree>();
  for (const record of records) {
    for (const tree of [record.before.tree, record.after.tree]) {
      if (done.has(tree)) continue;
      done.add(tree);
      // the base store's tree (the state after a failed step still reads it) is never the simulation's
      if (current.has(tree)) {
        if (!base.has(tree)) walk.simulated.add(tree);
      } else if (tree === record.after.tree || walk.simulated.delete(tree)) tree.delete();
    }
  }
}

/** An issue the simulated operator raised, with its layer and the seed's `Step {i} ({op}):` prefix. */
function planLayer(issue: Issue, step: NormalizedStep): Issue {
  const message = /^Step \d/.test(issue.message)
    ? issue.message
    : `Step ${step.index} (${step.op}): ${issue.message}`;
  const path = issue.path;
  const inStep = path && (path[0] === "params" || path[0] === "op" || path[0] === "target");
  return {
    ...issue,
    message,
    step: issue.step ?? step.index,
    layer: issue.layer ?? layerOf(issue.code),
    ...(inStep ? { path: [...step.path, ...path] } : {}),
  };
}

/** Mark an issue of a step that comes after a failed step on the same files. */
function consequence(issue: Issue, failed: number): Issue {
  const note =
    `may follow from step ${failed} failing: this step was verified against the files as they were before step ${failed}`;
  return { ...issue, hint: issue.hint ? `${issue.hint}; ${note}` : note };
}

function hasErrors(issues: readonly Issue[]): boolean {
  return issues.some((issue) => issue.severity === "error");
}

function rawStepList(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  const plan = json && typeof json === "object" ? (json as { plan?: unknown }).plan : undefined;
  return Array.isArray(plan) ? plan : [];
}
