/**
 * SWE-bench batches: instances from files or Hugging Face
 * ({@linkcode loadInstances}), the selection ({@linkcode selectInstances}),
 * the runner ({@linkcode runBatch}) with its predictions, records, cost
 * budget and progress views, and the scale-out files for Slurm and
 * Kubernetes.
 *
 * @module
 */

export {
  type BatchOptions,
  type BatchSummary,
  DEFAULT_MAX_SETUP_FAILURES,
  instanceConfig,
  runBatch,
  setupErrorKey,
} from "./batch.ts";
export { CostBudget } from "./budget.ts";
export { BATCH_LABEL, BatchContainers, batchKey, containerName } from "./containers.ts";
export {
  cacheRoot,
  datasetCacheDir,
  DatasetError,
  huggingFaceFiles,
  loadInstances,
  readInstanceFile,
  readParquet,
  SUBSETS,
  type TaskRow,
} from "./dataset.ts";
export {
  type DuplicatePrediction,
  mergePredsDirs,
  type Prediction,
  PREDS_FORMATS,
  predsFile,
  type PredsFormat,
  PredsStore,
  readPredsDir,
  renderPreds,
} from "./preds.ts";
export {
  type BatchEvent,
  type BatchProgress,
  duration,
  errorGist,
  eventLine,
  LineProgress,
  LiveProgress,
  liveViewFits,
} from "./progress.ts";
export { type DuplicateInstance, mergeOutputs, type MergeSummary } from "./merge_outputs.ts";
export { BatchBusyError, LOCK_NAME, lockOutDir, type OutDirLock } from "./out_lock.ts";
export {
  type BatchDocument,
  BatchReport,
  type InstanceRecord,
  parseBatchDocument,
  UNFINISHED,
} from "./report.ts";
export { readBatchOutputs, type RecoveredOutputs, type Recovery } from "./recover.ts";
export {
  parseShard,
  parseSlice,
  selectInstances,
  type Selection,
  SelectionError,
  shuffled,
} from "./select.ts";
export { InterruptedError, WatchedModel } from "./watched_model.ts";
export { K8S_RUNTIMES, k8sJob, k8sManifest, type K8sOptions } from "./k8s.ts";
export { selfCommand } from "./launcher.ts";
export { shardDir, type SlurmOptions, slurmScript, submitSlurm } from "./slurm.ts";
