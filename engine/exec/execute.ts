/**
 * The plan executor: every step a transaction, the plan all or nothing.
 *
 * A step runs in a fresh `StepContext` over the plan's `DocumentStore`: the
 * operator resolves its targets, pre-checks and computes its edits in memory
 * (`ctx.edit`). Then every changed file goes through the post-checks
 * (`checks.ts`); any error fails the step before a byte is written. Only
 * then is each file written: its original journaled (durable, outside the
 * repository), the new bytes written atomically beside it and renamed over
 * it, mode and BOM kept. When a step fails, every file the plan wrote so far
 * is restored from the journal and the result says `rolled_back`; when all
 * steps pass, the journal is committed (deleted).
 *
 * A dry run executes the same steps on an overlay of the store: nothing is
 * written and the result carries the unified diff.
 *
 * @module
 */

import { error, type Issue, IssueError, partition, warning, withContext } from "../issue.ts";
import type { Document, DocumentStore } from "../parse/documents.ts";
import { encodeSource } from "../workspace.ts";
import { StepContext } from "../edit/operator.ts";
import { settleWarnings } from "../verify/levels/settle.ts";
import { atomicWrite, tempPathFor } from "./atomic_write.ts";
import { defaultPostChecks, type FileChange, type PostCheck } from "./checks.ts";
import { unifiedDiff } from "./diff.ts";
import { hasPendingJournal, Journal } from "./journal.ts";
import { countWrite, maybePause } from "./test_hooks.ts";
import type { Compilers } from "../verify/compile/mod.ts";
import { promoteWarnings } from "../verify/strict.ts";

/** Runs one plan step: computes its edits through `ctx`, returns its output (read-only ops). */
export type StepRunner<S> = (step: S, ctx: StepContext) => Promise<unknown>;

/** Options of `executePlan`. */
export interface ExecuteOptions<S> {
  /** The operator dispatch (the real one is `defaultRunStep` in `wiring.ts`). */
  runStep: StepRunner<S>;
  /** Post-checks for every changed file; default `defaultPostChecks()` (L0–L6). */
  checks?: PostCheck[];
  /** Compute everything, write nothing, return the diff. */
  dryRun?: boolean;
  /**
   * Compile every changed file with the environment's interpreters after the
   * last step (`engine/verify/compile`); a new failure rolls the plan back.
   */
  compilers?: Compilers;
  /**
   * Warning codes that count as errors (`engine/verify/strict.ts`), judged on
   * the plan's settled warnings after the last step: one left rolls the plan back.
   */
  strict?: readonly string[];
}

/** The outcome of a plan (ARCHITECTURE.md, "Helper protocol"). */
export interface PlanResult {
  success: boolean;
  rolled_back: boolean;
  /** The 0-based step that failed. */
  failed_step?: number;
  errors: Issue[];
  warnings: Issue[];
  /** Files whose bytes differ from before the plan, in the order first changed. */
  files_changed: string[];
  /** Each executed step's output (null for pure edits). */
  outputs: unknown[];
  /** Dry run only: the unified diff of the whole plan. */
  diff?: string;
  /** The interpreters the changed files were compiled with (`"python3.11"`), or null when none was used. */
  compiled?: string | null;
}

/** Execute `steps` in order over `store` as one transaction (see the module notes). */
export async function executePlan<S>(
  store: DocumentStore,
  steps: readonly S[],
  options: ExecuteOptions<S>,
): Promise<PlanResult> {
  const dryRun = options.dryRun ?? false;
  const checks = options.checks ?? defaultPostChecks();
  const target = dryRun ? store.overlay() : store;
  const journal = dryRun ? null : Journal.begin(store.workspace);
  const warnings: Issue[] = [];
  if (dryRun && hasPendingJournal(store.workspace)) {
    warnings.push(
      warning("journal-pending", "An earlier plan did not finish: the files may hold part of its edits", {
        hint: `run "graphplan rollback --repo ${store.workspace.root}" before applying`,
      }),
    );
  }
  const outputs: unknown[] = [];
  const firstSeen = new Map<string, Document>();
  const lastStep = new Map<string, number>();

  const fail = async (step: number, errors: Issue[]): Promise<PlanResult> => {
    let restored = true;
    if (journal) {
      try {
        const report = await journal.rollback();
        restored = report.success;
        errors = [...errors, ...report.errors];
      } catch (err) {
        restored = false;
        errors = [
          ...errors,
          error("rollback-failed", `Cannot restore the files of the plan: ${(err as Error).message}`, {
            hint: `the journal is kept: run "graphplan rollback --repo ${store.workspace.root}"`,
          }),
        ];
      }
      for (const path of firstSeen.keys()) store.invalidate(path);
    }
    return {
      success: false,
      // False only when restoring failed (the journal is then kept for `graphplan rollback`).
      rolled_back: restored,
      failed_step: step,
      errors,
      warnings,
      files_changed: [],
      outputs,
      compiled: null,
    };
  };

  for (let index = 0; index < steps.length; index++) {
    const ctx = new StepContext(target, index);
    let output: unknown;
    let changes: FileChange[];
    const issues: Issue[] = [];
    try {
      output = await options.runStep(steps[index], ctx);
      changes = await ctx.changedFiles();
      for (const change of changes) {
        for (const check of checks) issues.push(...await check(change, ctx));
      }
    } catch (err) {
      if (err instanceof IssueError) return await fail(index, withContext(err.issues, { step: index }));
      await fail(index, []);
      throw err;
    }
    const split = partition(withContext([...ctx.warnings, ...issues], { step: index }));
    warnings.push(...split.warnings);
    if (split.errors.length > 0) return await fail(index, split.errors);
    for (const change of changes) {
      if (!firstSeen.has(change.path)) firstSeen.set(change.path, change.before);
      lastStep.set(change.path, index);
      try {
        if (journal) await writeChange(store, journal, change);
        else target.set(change.after);
      } catch (err) {
        const issues = err instanceof IssueError ? err.issues : [
          error("write-failed", `Cannot write "${change.path}": ${(err as Error).message}`, {
            file: change.path,
          }),
        ];
        return await fail(index, withContext(issues, { step: index }));
      }
    }
    outputs.push(output ?? null);
  }

  const filesChanged: string[] = [];
  let diff = "";
  for (const [path, before] of firstSeen) {
    const after = await target.get(path);
    if (after.file.text === before.file.text && after.file.bom === before.file.bom) continue;
    filesChanged.push(path);
    if (dryRun) diff += unifiedDiff(path, withBom(before), withBom(after));
  }
  // As `verify` reports them: a step's name warning that a later step made untrue is dropped.
  const settled = promoteWarnings(await settleWarnings(warnings, target), options.strict ?? []);
  if (settled.errors.length > 0) {
    const failed = await fail(settled.errors[0].step ?? steps.length - 1, settled.errors);
    return { ...failed, warnings: settled.warnings };
  }
  let compiled: string | null = null;
  if (options.compilers) {
    const inputs = [];
    for (const [path, before] of firstSeen) {
      const after = await target.get(path);
      const language = after.file.language;
      inputs.push({
        path,
        language,
        before: before.file.text,
        after: after.file.text,
        step: lastStep.get(path),
      });
    }
    const report = await options.compilers.check(inputs);
    compiled = report.compiled;
    if (report.errors.length > 0) {
      const failed = await fail(report.errors[0].step ?? steps.length - 1, report.errors);
      return { ...failed, compiled };
    }
  }
  journal?.commit();
  const result: PlanResult = {
    success: true,
    rolled_back: false,
    errors: [],
    warnings: settled.warnings,
    files_changed: filesChanged,
    outputs,
    compiled,
  };
  if (dryRun) result.diff = diff;
  return result;
}

function withBom(doc: Document): string {
  return doc.file.bom ? "\ufeff" + doc.file.text : doc.file.text;
}

/**
 * Write one changed file: check the disk still holds what the step read,
 * journal the original, then replace the file atomically.
 */
async function writeChange(store: DocumentStore, journal: Journal, change: FileChange): Promise<void> {
  const { abs } = store.workspace.resolve(change.path);
  const expected = encodeSource(change.before.file.text, change.before.file.bom);
  let disk: Uint8Array;
  let mode: number | null;
  try {
    mode = Deno.statSync(abs).mode;
    disk = Deno.readFileSync(abs);
  } catch (err) {
    throw new IssueError(
      error("file-unreadable", `Cannot read "${change.path}" before writing it: ${(err as Error).message}`, {
        file: change.path,
      }),
    );
  }
  if (!sameBytes(disk, expected)) {
    throw new IssueError(
      error("file-changed-on-disk", `File "${change.path}" changed on disk while the plan ran`, {
        file: change.path,
        hint: "run the plan again on the current file",
      }),
    );
  }
  const bytes = encodeSource(change.after.file.text, change.after.file.bom);
  const n = countWrite();
  journal.recordOriginal(change.path, abs);
  const temp = tempPathFor(abs);
  journal.recordWrite(change.path, bytes, temp);
  await maybePause(n, "journal");
  await atomicWrite(abs, bytes, { mode, tempPath: temp, beforeRename: () => maybePause(n, "temp") });
  store.set({ ...change.after, file: { ...change.after.file, absPath: abs, mode } }, true);
  await maybePause(n, "rename");
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
