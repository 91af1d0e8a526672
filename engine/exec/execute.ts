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

import { declaredPythonMinimum } from "../analysis/python_version.ts";
import { error, type Issue, IssueError, partition, warning, withContext } from "../base/issue.ts";
import type { Document, DocumentStore } from "../parse/documents.ts";
import { encodeSource } from "../workspace.ts";
import { StepContext } from "../edit/operator.ts";
import { settleWarnings } from "../verify/levels/settle.ts";
import { judgeDangling } from "../verify/levels/l3_dangling.ts";
import { finalUsesBeforeBinding } from "../verify/levels/l3_use_before_binding.ts";
import { atomicWrite, tempPathFor } from "./atomic_write.ts";
import {
  checkDirectory,
  type ConfinedFile,
  entryExists,
  readConfined,
  removeConfined,
  splitPath,
} from "./confined.ts";
import { gitModeOf } from "../base/file_mode.ts";
import { deletedModuleImports } from "../verify/plan/deleted_modules.ts";
import { defaultPostChecks, type FileChange, type PostCheck } from "../verify/post_checks.ts";
import { unifiedDiff } from "./diff.ts";
import { hasPendingJournal, Journal, runningPlanPid } from "./journal.ts";
import { countWrite, maybePause, maybeThrow } from "./test_hooks.ts";
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
  const running = dryRun ? runningPlanPid(store.workspace) : null;
  if (running !== null) {
    warnings.push(
      warning("journal-busy", `Another plan is running on this repository (GraphPlan process ${running})`, {
        hint: "the files may change under this dry run: run it again once that plan has finished",
      }),
    );
  } else if (dryRun && hasPendingJournal(store.workspace)) {
    warnings.push(
      warning("journal-pending", "An earlier plan did not finish: the files may hold part of its edits", {
        hint: `run "graphplan rollback --repo ${store.workspace.root}" before applying`,
      }),
    );
  }
  const outputs: unknown[] = [];
  const firstSeen = new Map<string, Document>();
  /** Files the plan created (their `firstSeen` document is an empty stand-in). */
  const created = new Set<string>();
  /** The last step that changed each file (a compile failure is blamed on it). */
  const lastStep = new Map<string, number>();
  /** Set once the plan ended in a commit or a rollback (or was a dry run). */
  let settled = dryRun;

  const fail = async (step: number, errors: Issue[]): Promise<PlanResult> => {
    settled = true;
    const restored = journal
      ? await restore(journal, store, [...firstSeen.keys()])
      : { ok: true, errors: [] };
    return {
      success: false,
      // False only when restoring failed (the journal is then kept for `graphplan rollback`).
      rolled_back: restored.ok,
      failed_step: step,
      errors: [...errors, ...restored.errors],
      warnings,
      files_changed: [],
      outputs,
      compiled: null,
    };
  };

  let index = 0;
  try {
    for (; index < steps.length; index++) {
      const ctx = new StepContext(target, index);
      let output: unknown;
      let changes: FileChange[];
      const issues: Issue[] = [];
      try {
        output = await options.runStep(steps[index], ctx);
        changes = await ctx.changedFiles();
        for (const change of changes) {
          for (const check of checks) for (const issue of await check(change, ctx)) issues.push(issue);
        }
      } catch (err) {
        if (err instanceof IssueError) return await fail(index, withContext(err.issues, { step: index }));
        throw err;
      }
      const split = partition(withContext([...ctx.warnings, ...issues], { step: index }));
      for (const issue of split.warnings) warnings.push(issue);
      if (split.errors.length > 0) return await fail(index, split.errors);
      for (const change of changes) {
        if (change.created && !firstSeen.has(change.path)) created.add(change.path);
        if (!firstSeen.has(change.path)) firstSeen.set(change.path, change.before);
        lastStep.set(change.path, index);
        try {
          if (journal) writeChange(store, journal, change);
          else if (change.deleted) target.remove(change.path);
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
      maybeThrow(index);
      outputs.push(output ?? null);
    }

    // Uses left without their binding are judged on the whole plan: still dangling, the plan fails.
    const dangling = await judgeDangling(warnings, firstSeen, target);
    warnings.length = 0;
    for (const issue of dangling.warnings) warnings.push(issue);
    if (dangling.errors.length > 0) {
      return await fail(dangling.errors[0].step ?? steps.length - 1, dangling.errors);
    }
    const deletedModules = await deletedModuleImports(firstSeen, created, target, lastStep);
    if (deletedModules.length > 0) {
      return await fail(deletedModules[0].step ?? steps.length - 1, deletedModules);
    }
    const early = await finalUsesBeforeBinding(firstSeen, target, lastStep);
    if (early.length > 0) return await fail(early[0].step ?? steps.length - 1, early);
    const filesChanged: string[] = [];
    let diff = "";
    for (const [path, before] of firstSeen) {
      const exists = await target.exists(path);
      if (!exists && created.has(path)) continue;
      const after = exists ? await target.get(path) : before;
      const [oldMode, newMode] = [gitModeOf(before.file.mode), gitModeOf(after.file.mode)];
      const same = after.file.text === before.file.text && after.file.bom === before.file.bom;
      if (exists && !created.has(path) && same && oldMode === newMode) continue;
      filesChanged.push(path);
      if (!dryRun) continue;
      diff += unifiedDiff(path, created.has(path) ? "" : withBom(before), exists ? withBom(after) : "", {
        created: created.has(path),
        deleted: !exists,
        oldMode,
        newMode,
      });
    }
    // As `verify` reports them: a step's name warning that a later step made untrue is dropped.
    const judged = promoteWarnings(await settleWarnings(warnings, target, firstSeen), options.strict ?? []);
    if (judged.errors.length > 0) {
      const failed = await fail(judged.errors[0].step ?? steps.length - 1, judged.errors);
      return { ...failed, warnings: judged.warnings };
    }
    let compiled: string | null = null;
    if (options.compilers) {
      const inputs = [];
      for (const [path, before] of firstSeen) {
        if (!(await target.exists(path))) continue; // deleted by the plan
        const after = await target.get(path);
        inputs.push({
          path,
          language: after.file.language,
          before: before.file.text,
          after: after.file.text,
          step: lastStep.get(path),
        });
      }
      const report = await options.compilers.check(inputs, {
        pythonMinimum: declaredPythonMinimum(store.workspace.root),
        root: store.workspace.root,
      });
      compiled = report.compiled;
      if (report.errors.length > 0) {
        const failed = await fail(report.errors[0].step ?? steps.length - 1, report.errors);
        return { ...failed, compiled };
      }
    }
    journal?.commit();
    settled = true;
    const result: PlanResult = {
      success: true,
      rolled_back: false,
      errors: [],
      warnings: judged.warnings,
      files_changed: filesChanged,
      outputs,
      compiled,
    };
    if (dryRun) result.diff = diff;
    return result;
  } catch (err) {
    // A bug or an exhausted resource (a RangeError, out of memory in a
    // step): whatever threw, a plan that wrote files must not stay half
    // applied. Roll back, then let the error surface as an internal error
    // that says what happened to the files.
    if (settled || !journal) throw err;
    // A refusal met after the steps (a file whose directory was swapped for a symlink, read again for
    // the result) is a failed plan like any other, not a bug.
    if (err instanceof IssueError) {
      const step = Math.min(index, steps.length - 1);
      return await fail(step, withContext(err.issues, { step }));
    }
    settled = true;
    const restored = await restore(journal, store, [...firstSeen.keys()]);
    const e = err instanceof Error ? err : new Error(String(err));
    const outcome = restored.ok
      ? "every file of the plan was restored"
      : `restoring the files failed, the journal is kept: run "graphplan rollback --repo ${store.workspace.root}"`;
    const wrapped = new Error(`Step ${index} failed unexpectedly (${outcome}): ${e.message}`, { cause: e });
    wrapped.stack = `${wrapped.message}\n${(e.stack ?? "").split("\n").slice(1).join("\n")}`;
    throw wrapped;
  }
}

/** Roll back `journal`, never throwing: the outcome and its problems. */
async function restore(
  journal: Journal,
  store: DocumentStore,
  paths: readonly string[],
): Promise<{ ok: boolean; errors: Issue[] }> {
  let outcome: { ok: boolean; errors: Issue[] };
  try {
    const report = await journal.rollback();
    outcome = { ok: report.success, errors: report.errors };
  } catch (err) {
    outcome = {
      ok: false,
      errors: [
        error("rollback-failed", `Cannot restore the files of the plan: ${(err as Error).message}`, {
          hint: `the journal is kept: run "graphplan rollback --repo ${store.workspace.root}"`,
        }),
      ],
    };
  }
  for (const path of paths) store.invalidate(path);
  return outcome;
}

/** The file's text as written (BOM and CR-only line endings restored). */
function withBom(doc: Document): string {
  const text = doc.file.cr ? doc.file.text.replaceAll("\n", "\r") : doc.file.text;
  return doc.file.bom ? "\ufeff" + text : text;
}

/**
 * Write one changed file: check the disk still holds what the step read,
 * journal the original, then replace the file atomically.
 */
function writeChange(store: DocumentStore, journal: Journal, change: FileChange): void {
  const { abs } = store.workspace.resolve(change.path);
  if (change.created) return createFile(store, journal, change, abs);
  const expected = encodeSource(change.before.file.text, change.before.file.bom, change.before.file.cr);
  let disk: ConfinedFile | null;
  try {
    disk = readConfined(abs);
  } catch (err) {
    if (err instanceof IssueError) throw err;
    throw new IssueError(
      error("file-unreadable", `Cannot read "${change.path}" before writing it: ${(err as Error).message}`, {
        file: change.path,
      }),
    );
  }
  if (!disk || !sameBytes(disk.bytes, expected)) {
    throw new IssueError(
      error("file-changed-on-disk", `File "${change.path}" changed on disk while the plan ran`, {
        file: change.path,
        hint: "run the plan again on the current file",
      }),
    );
  }
  const n = countWrite();
  journal.recordOriginal(change.path, abs, disk);
  if (change.deleted) {
    journal.recordWrite(change.path, null, null);
    maybePause(n, "journal");
    removeConfined(abs);
    store.invalidate(change.path);
    maybePause(n, "rename");
    return;
  }
  const bytes = encodeSource(change.after.file.text, change.after.file.bom, change.after.file.cr);
  const temp = tempPathFor(abs);
  journal.recordWrite(change.path, bytes, temp);
  maybePause(n, "journal");
  // A `set_mode` step changed the mode bits; otherwise the file keeps its own.
  const mode = gitModeOf(change.after.file.mode) === gitModeOf(disk.mode)
    ? disk.mode
    : change.after.file.mode;
  atomicWrite(abs, bytes, {
    mode,
    owner: disk,
    tempPath: temp,
    beforeRename: () => maybePause(n, "temp"),
  });
  store.set({ ...change.after, file: { ...change.after.file, absPath: abs, mode } }, true);
  maybePause(n, "rename");
}

/**
 * Write a file a step created: it must still not exist; the directories it
 * needs are journaled before they are made (a rollback removes them again
 * while empty), then the file is written atomically with its mode.
 */
function createFile(store: DocumentStore, journal: Journal, change: FileChange, abs: string): void {
  const dirs: string[] = [];
  for (let dir = splitPath(abs).dir; dir.length > store.workspace.root.length; dir = splitPath(dir).dir) {
    if (entryExists(dir)) break;
    dirs.unshift(dir);
  }
  if (dirs.length === 0 && readConfined(abs) !== null) {
    throw new IssueError(
      error("file-changed-on-disk", `File "${change.path}" appeared on disk while the plan ran`, {
        file: change.path,
        hint: "run the plan again: create_file makes new files only",
      }),
    );
  }
  const n = countWrite();
  journal.recordOriginal(change.path, abs, null, { createdDirs: dirs });
  const bytes = encodeSource(change.after.file.text, change.after.file.bom, change.after.file.cr);
  const temp = tempPathFor(abs);
  journal.recordWrite(change.path, bytes, temp);
  maybePause(n, "journal");
  for (const dir of dirs) {
    checkDirectory(splitPath(dir).dir);
    Deno.mkdirSync(dir);
  }
  atomicWrite(abs, bytes, {
    mode: change.after.file.mode,
    tempPath: temp,
    beforeRename: () => maybePause(n, "temp"),
  });
  store.set({ ...change.after, file: { ...change.after.file, absPath: abs } }, true);
  maybePause(n, "rename");
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
