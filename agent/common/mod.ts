/**
 * What every strategy uses: the helper in the task's environment (its
 * client `helper.ts`, its deployment `deploy.ts` with the warm Deno cache
 * `deno_seed.ts`, and the commands run through its session
 * `session_shell.ts`), the run's baseline and patch (`baseline.ts`),
 * the container's history cut at HEAD (`history.ts`), undoing an
 * unfinished plan (`rollback.ts`), the exceptions that end a run
 * (`run_end.ts`), the gate on a final patch (`final_gate.ts`), the
 * helper's lift report (`lift_report.ts`) and what a strategy is
 * (`strategy.ts`). Strategies import this folder, never each other.
 *
 * @module
 */

export {
  BaselineError,
  type ChangesOptions,
  changesSince,
  snapshotTree,
  type WorkTreeProblem,
  workTreeProblem,
} from "./baseline.ts";
export { type FinalGateOptions, type FinalGateRecord, gateFinalPatch } from "./final_gate.ts";
export { pruneHistory } from "./history.ts";
export { helperIssues, rollBack, type RollbackOutcome } from "./rollback.ts";
export type { LiftInput, LiftReport } from "./lift_report.ts";
export type { StepProgress, Strategy, StrategyOutcome, StrategyRun } from "./strategy.ts";
export { exceededLimit, FormatErrorLimit, Interrupted, LimitsExceeded, Submitted } from "./run_end.ts";
export { type Helper, HelperError, serveArgv, SessionHelper } from "./helper.ts";
export { sessionShell, type SessionShellEnvironment, type ShellCounts } from "./session_shell.ts";
export {
  CONTAINER_HELPER_DIR,
  deployHelper,
  type DeployInfo,
  ensureBundle,
  type HelperLaunch,
  helperLaunch,
  isCompiled,
  launchSeed,
  limitArgs,
  mainSession,
  MOUNTED_HELPER_DIR,
  mountedLaunch,
  plannedLaunch,
  SEEDED_START,
} from "./deploy.ts";
export { CODE_CACHE_HIT, type DenoSeed, denoSeed } from "./deno_seed.ts";
