/**
 * Transactional execution of edit plans: the executor, post-checks, the
 * journal with rollback, atomic writes and unified diffs.
 *
 * @module
 */

export { type ExecuteOptions, executePlan, type PlanResult, type StepRunner } from "./execute.ts";
export {
  defaultPostChecks,
  editLevelChecks,
  type FileChange,
  newSyntaxProblems,
  noNewSyntaxProblems,
  type PostCheck,
} from "../verify/post_checks.ts";
export {
  checkJournal,
  hasPendingJournal,
  Journal,
  type RollbackReport,
  rollbackRepository,
} from "./journal.ts";
export { atomicWrite } from "./atomic_write.ts";
export { unifiedDiff } from "./diff.ts";
export { journalDirFor, stateHome } from "./state_dir.ts";
export { type ParsedSteps, parsePlanSteps, type PlanParser, type PlanStep } from "./wiring.ts";
