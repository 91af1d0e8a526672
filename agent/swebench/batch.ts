/**
 * `graphplan batch`'s runner: the selected instances, each a
 * {@linkcode runTask} of its own in a container of its own with its own
 * helper session, `workers` at a time.
 *
 * - Resume: an instance already in the predictions is skipped (unless
 *   `redoExisting`); one cut off by a killed batch is not in them, so it is
 *   run again from scratch (its folder removed first), and the containers
 *   the killed batch left are removed by their label before anything starts.
 * - One batch per output directory: a second one is refused
 *   ({@linkcode BatchBusyError}, see out_lock.ts) before it reads or writes anything.
 * - Outputs: the predictions (see preds.ts) after each instance, batch.json
 *   and exit_statuses.yaml after each start and end (see report.ts), the
 *   trajectories by runTask.
 * - Cost: a {@linkcode CostBudget} decides whether the next instance may
 *   start; a blocked worker waits for a running instance to end and asks
 *   again, so a cheap instance frees room for the next.
 * - Setup failures: after `maxSetupFailures` instances in a row (default
 *   {@linkcode DEFAULT_MAX_SETUP_FAILURES}, 0 = never) end as
 *   `EnvironmentError` with the same error (their image and id left out,
 *   see {@linkcode setupErrorKey}), no new instance starts: a wrong
 *   `--image` or `--env` would fail every one of them the same way. The
 *   batch says why and ends with exit code 1; the instances not started have
 *   no prediction, so running the command again runs them.
 * - Ctrl-C / SIGTERM: no new instance starts, the running ones are stopped
 *   (their next model call ends them, their containers are removed at once,
 *   which ends the command in flight), every container with the batch's
 *   label is removed, the records are written; the exit code is 130 / 143.
 *   A second signal marks the running instances `Interrupted` in batch.json
 *   (written synchronously), exits at once and leaves the removal to a
 *   detached `rm -f`.
 * - Paths: instance ids are checked against the id rule (instance_id.ts)
 *   before anything starts, and `OUT/ID` is built by `pathInside`, so no
 *   id can lead a removal or a write outside OUT.
 * - Damaged outputs: a preds.json or batch.json that does not parse is kept
 *   aside and rebuilt from the trajectories (recover.ts), and the batch says so.
 * - A write that fails (a full disk): no new instance starts, the running
 *   ones are stopped as on Ctrl-C, and the batch ends with exit code 1
 *   naming the path; the same command run again after freeing space goes on.
 *
 * @module
 */

import { resolve } from "../../engine/base/node_builtins.ts";
import type { Config } from "../config.ts";
import { ContainerEnvironment, runCleanups, takeOverInterrupts } from "../env/mod.ts";
import { createModel } from "../model/mod.ts";
import { instanceImage, runTask, type RunTaskOutcome } from "../run.ts";
import { CostBudget } from "./budget.ts";
import { BatchContainers, batchKey, containerName } from "./containers.ts";
import { checkTaskRow, type TaskRow } from "../dataset.ts";
import { type PredsFormat, PredsStore } from "./preds.ts";
import { readBatchOutputs } from "./recover.ts";
import { OutputWriteError, pathInside } from "../trajectory/mod.ts";
import { type BatchProgress, errorGist, LineProgress } from "./progress.ts";
import { DEFAULT_MAX_SETUP_FAILURES, setupErrorKey } from "./setup_stop.ts";
import { lockOutDir } from "./out_lock.ts";
import { BatchReport, type InstanceRecord, UNFINISHED } from "./report.ts";
import { WatchedModel } from "./watched_model.ts";

/** What {@linkcode runBatch} needs. */
export interface BatchOptions {
  /** The config every instance runs with (`environment.type` docker or podman). */
  config: Config;
  /** The selected instances, in run order. */
  rows: TaskRow[];
  outDir: string;
  /** Instances at a time (default 1). */
  workers?: number;
  /** Run instances that already have a prediction again. */
  redoExisting?: boolean;
  predsFormat?: PredsFormat;
  /** The batch's cost cap in dollars; 0 or absent = none. */
  costLimit?: number;
  progress?: BatchProgress;
  /** What batch.json records about the batch (dataset, selection). */
  describe?: Record<string, unknown>;
  /** Lines of each instance's own log (runTask's), e.g. for a debug file. */
  log?: (line: string) => void;
  /**
   * Instances in a row that end in the same setup error (`EnvironmentError`) before no new one starts
   * (default {@linkcode DEFAULT_MAX_SETUP_FAILURES}); 0 = never stop for that.
   */
  maxSetupFailures?: number;
}

export { DEFAULT_MAX_SETUP_FAILURES, setupErrorKey } from "./setup_stop.ts";

/** How a batch ended. */
export interface BatchSummary {
  selected: number;
  /** Instances skipped because they had a prediction. */
  skipped: number;
  /** Instances that ran to an end in this run. */
  ended: number;
  /** Instances the cost cap kept from starting. */
  notStarted: number;
  /** The signal that stopped the batch, if one did. */
  interrupted: "SIGINT" | "SIGTERM" | null;
  /** Why no new instance started after repeated setup errors (`maxSetupFailures`), if that happened. */
  setupStop: { count: number; error: string } | null;
  /** The output that could not be written (a full disk), which stopped the batch, if one did. */
  writeStop: OutputWriteError | null;
  /** Dollars spent in this run. */
  cost: number;
  /** Every record's status (earlier runs' too) → ids. */
  exitStatuses: Record<string, string[]>;
  /**
   * 0 every selected instance has ended; 1 some did not (cost cap, a container that did not start, a
   * stop after repeated setup errors, an output that could not be written, an internal error: run again
   * to retry them); 130/143 interrupted.
   */
  exitCode: number;
}

/** The config of one instance: its image (from the template unless `environment.image` is set), /testbed. */
export function instanceConfig(config: Config, instanceId: string): Config {
  return {
    ...config,
    environment: {
      ...config.environment,
      image: config.environment.image || instanceImage(config, instanceId),
      cwd: config.environment.cwd || "/testbed",
    },
  };
}

/** Run a batch; see the module doc. */
export async function runBatch(options: BatchOptions): Promise<BatchSummary> {
  if (options.config.environment.type === "local") {
    throw new Error('A batch runs each instance in a container: set the environment to "docker" or "podman"');
  }
  options.rows.forEach((row, index) => checkTaskRow(row, `Selected instance ${index + 1}`));
  const outDir = resolve(options.outDir);
  await Deno.mkdir(outDir, { recursive: true }).catch((err) => {
    throw new OutputWriteError(outDir, err);
  });
  // Before anything is read or swept: a second batch on this directory would remove the first's containers.
  const lock = await lockOutDir(outDir);
  try {
    return await runLocked(options, outDir);
  } finally {
    lock.release();
  }
}

/**
 * The batch once its directory is locked: resume from its outputs, run the
 * queue `workers` at a time under the interrupt handler, then the summary.
 */
async function runLocked(options: BatchOptions, outDir: string): Promise<BatchSummary> {
  const run = await BatchRun.resume(options, outDir);
  const release = takeOverInterrupts((signal) => run.interrupt(signal));
  // The signal handler stays until the very end: a second Ctrl-C during the last sweep still exits at
  // once and leaves the removal to the detached process (the default action would kill this process
  // in the middle of its own removals).
  try {
    return await run.finish();
  } finally {
    release();
  }
}

/** What one instance's run came to, before it is recorded. */
interface InstanceRun {
  outcome?: RunTaskOutcome;
  error?: Error;
  model?: WatchedModel;
}

/** One batch run in a locked output directory: its queue, its outputs and how far it got. */
class BatchRun {
  readonly #options: BatchOptions;
  readonly #outDir: string;
  readonly #workers: number;
  readonly #progress: BatchProgress;
  readonly #preds: PredsStore;
  readonly #report: BatchReport;
  readonly #budget: CostBudget;
  readonly #containers: BatchContainers;
  /** The instances not started yet, in run order. */
  readonly #queue: TaskRow[];
  readonly #skipped: number;
  readonly #abort = new AbortController();
  #interrupted: "SIGINT" | "SIGTERM" | null = null;
  /** The instances started and not ended. */
  readonly #running = new Set<string>();
  #wake: () => void = () => {};
  /** Settles when an instance ends (a worker the cost cap blocks waits for it). */
  #ended = new Promise<void>((resolve) => this.#wake = resolve);
  #runCost = 0;
  #endedCount = 0;
  #failed = 0;
  /** The setup errors in a row (by key), and the stop they caused. */
  #setupRun = { key: "", count: 0 };
  #setupStop: { count: number; error: string } | null = null;
  #writeStop: OutputWriteError | null = null;
  #capReported = false;
  #started = 0;

  private constructor(
    options: BatchOptions,
    outDir: string,
    parts: {
      preds: PredsStore;
      report: BatchReport;
      budget: CostBudget;
      containers: BatchContainers;
      queue: TaskRow[];
    },
  ) {
    this.#options = options;
    this.#outDir = outDir;
    this.#workers = Math.max(1, options.workers ?? 1);
    this.#progress = options.progress ?? new LineProgress();
    this.#preds = parts.preds;
    this.#report = parts.report;
    this.#budget = parts.budget;
    this.#containers = parts.containers;
    this.#queue = parts.queue;
    this.#skipped = options.rows.length - parts.queue.length;
  }

  /**
   * Resume from `outDir`: damaged outputs rebuilt (recover.ts), the instances
   * with a prediction skipped (unless `redoExisting`), the earlier records and
   * their cost kept, the killed batch's containers swept, the start announced.
   */
  static async resume(options: BatchOptions, outDir: string): Promise<BatchRun> {
    const { config, rows } = options;
    const progress = options.progress ?? new LineProgress();
    const format = options.predsFormat ?? "dict";
    const { preds: existing, records: earlier, recoveries } = await readBatchOutputs(outDir);
    for (const recovery of recoveries) progress.event({ type: "recovered", ...recovery });
    const selectedIds = new Set(rows.map((row) => row.instance_id));
    const done = new Set(
      options.redoExisting ? [] : Object.keys(existing).filter((id) => selectedIds.has(id)),
    );
    const kept = Object.fromEntries(Object.entries(earlier).filter(([id]) => Object.hasOwn(existing, id)));
    if (options.redoExisting) { for (const id of selectedIds) delete kept[id]; }
    const workers = Math.max(1, options.workers ?? 1);
    const executable = config.environment.executable || config.environment.type;
    const run = new BatchRun({ ...options, progress }, outDir, {
      preds: new PredsStore(outDir, format, existing),
      report: new BatchReport(outDir, { ...options.describe, workers, preds_format: format }, kept),
      budget: new CostBudget(options.costLimit ?? 0, config.agent.cost_limit),
      containers: new BatchContainers(executable, await batchKey(outDir)),
      queue: rows.filter((row) => !done.has(row.instance_id)),
    });
    if (recoveries.some((recovery) => recovery.what === "prediction")) {
      await run.#preds.flush().catch((err) => run.#stopWriting(err));
    }
    for (const record of Object.values(kept)) run.#budget.addEarlier(record.cost);
    await run.#announce();
    return run;
  }

  /** Sweep the containers a killed batch left, say what will run, write the first records. */
  async #announce(): Promise<void> {
    this.#progress.event({ type: "sweep", removed: await this.#containers.sweep() });
    this.#progress.event({
      type: "start",
      total: this.#options.rows.length,
      skipped: this.#skipped,
      todo: this.#queue.length,
      workers: this.#workers,
      costLimit: this.#budget.cap,
    });
    await this.#report.flush().catch((err) => this.#stopWriting(err));
  }

  /** A write that failed stops the batch (the first one is reported); any other error is a bug. */
  #stopWriting(err: unknown): void {
    if (!(err instanceof OutputWriteError)) throw err;
    this.#writeStop ??= err;
  }

  /** Wake the workers waiting for an end, and arm the next wait. */
  #signalEnd(): void {
    this.#wake();
    this.#ended = new Promise<void>((resolve) => this.#wake = resolve);
  }

  /** Ctrl-C / SIGTERM: the first stops the batch gently, a second exits at once (see the module doc). */
  interrupt(signal: "SIGINT" | "SIGTERM"): void {
    if (this.#interrupted) {
      this.#containers.removeDetached();
      // What this process leaves must be true: the instances it stops are not running any more.
      try {
        this.#report.endRunning(`the batch was stopped by a second ${signal}`);
        this.#report.flushSync();
      } catch { /* the disk may be full: the next run reads "Running" as cut off */ }
      this.#progress.close();
      Deno.exit(signal === "SIGINT" ? 130 : 143);
    }
    this.#interrupted = signal;
    this.#abort.abort();
    this.#progress.event({ type: "interrupt", signal, running: this.#running.size });
    void runCleanups();
    this.#signalEnd();
  }

  /** Run the queue, say why it stopped, sweep, write the records and sum up. */
  async finish(): Promise<BatchSummary> {
    this.#started = performance.now();
    try {
      await Promise.all(Array.from({ length: this.#workers }, () => this.#worker()));
      await this.#reportStop();
    } finally {
      await this.#containers.sweep().catch(() => []);
      // No instance runs any more: one whose end could not be recorded (a full disk) is not left "Running".
      this.#report.endRunning(this.#writeStop ? `stopped: ${this.#writeStop.message}` : "stopped");
      await this.#report.flush().catch((err) => this.#stopWriting(err));
    }
    return this.#summary();
  }

  /** One worker: the next instance while the batch goes on and the cost cap lets it start. */
  async #worker(): Promise<void> {
    while (this.#queue.length > 0 && !this.#interrupted && !this.#setupStop && !this.#writeStop) {
      if (!this.#budget.canStart()) {
        if (this.#running.size === 0) break;
        await this.#ended;
        continue;
      }
      const row = this.#queue.shift()!;
      this.#running.add(row.instance_id);
      try {
        await this.#runOne(row);
      } catch (err) {
        this.#stopWriting(err);
        // The others stop as on Ctrl-C: their outputs could not be written either.
        this.#abort.abort();
        void runCleanups();
      } finally {
        this.#running.delete(row.instance_id);
        this.#signalEnd();
      }
    }
  }

  /** Why instances were left in the queue (a write, setup errors, the cost cap), said and recorded. */
  async #reportStop(): Promise<void> {
    const left = this.#queue.length;
    if (this.#writeStop) {
      const stop = this.#writeStop;
      this.#progress.event({ type: "write-stop", error: stop.message, diskFull: stop.diskFull, left });
    } else if (this.#setupStop) {
      this.#progress.event({ type: "setup-stop", ...this.#setupStop, left });
    } else if (!this.#interrupted && left > 0) {
      this.#capReported = true;
      const budget = this.#budget;
      this.#progress.event({
        type: "cost-cap",
        spent: budget.spent,
        committed: budget.committed,
        cap: budget.cap,
        left,
      });
      for (const row of this.#queue) {
        await this.#report.set({
          instance_id: row.instance_id,
          status: "BatchCostLimit",
          cost: 0,
          steps: 0,
          wall_time: 0,
          phase: "none",
          error: `the batch cost limit of $${budget.cap} was reached before this instance could start`,
        });
      }
    }
  }

  /** The end event and the summary, with the exit code the module doc promises. */
  #summary(): BatchSummary {
    const rows = this.#options.rows;
    const statuses = this.#report.exitStatuses();
    this.#progress.event({
      type: "end",
      done: this.#endedCount,
      cost: this.#runCost,
      statuses: Object.fromEntries(Object.entries(statuses).map(([status, ids]) => [status, ids.length])),
      seconds: (performance.now() - this.#started) / 1000,
      outDir: this.#outDir,
      preds: this.#preds.path,
      left: rows.length - this.#skipped - this.#endedCount,
      interrupted: this.#interrupted !== null,
    });
    this.#progress.close();
    const stopped = this.#interrupted;
    const setupStop = this.#setupStop;
    return {
      selected: rows.length,
      skipped: this.#skipped,
      ended: this.#endedCount,
      notStarted: this.#capReported || setupStop ? this.#queue.length : 0,
      interrupted: stopped,
      setupStop,
      writeStop: this.#writeStop,
      cost: this.#runCost,
      exitStatuses: statuses,
      exitCode: stopped === "SIGINT"
        ? 130
        : stopped === "SIGTERM"
        ? 143
        : (this.#capReported || setupStop || this.#writeStop || this.#failed > 0)
        ? 1
        : 0,
    };
  }

  /** One instance: its folder cleared and its start recorded, its run, its end recorded. */
  async #runOne(row: TaskRow): Promise<void> {
    const id = row.instance_id;
    const started = performance.now();
    const record: InstanceRecord = {
      instance_id: id,
      status: "Running",
      cost: 0,
      steps: 0,
      wall_time: 0,
      phase: "setup",
      started_at: new Date().toISOString(),
    };
    this.#budget.start(id);
    await Deno.remove(pathInside(this.#outDir, id), { recursive: true }).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
    await this.#report.set(record);
    this.#progress.event({ type: "instance-start", id });
    const result = await this.#runInstance(row, record);
    await this.#recordEnd(record, started, result);
  }

  /** {@linkcode runTask} in the instance's own container, its model watched for cost and Ctrl-C. */
  async #runInstance(row: TaskRow, record: InstanceRecord): Promise<InstanceRun> {
    const { config } = this.#options;
    const id = row.instance_id;
    const result: InstanceRun = {};
    try {
      result.model = new WatchedModel(await createModel(config.model), {
        signal: this.#abort.signal,
        onCall: (stats) => this.#budget.update(id, stats.cost),
      });
      result.outcome = await runTask({
        config: instanceConfig(config, id),
        task: row.problem_statement,
        instanceId: id,
        outDir: this.#outDir,
        model: result.model,
        savePreds: false,
        container: { name: containerName(this.#containers.key, id), labels: this.#containers.labels },
        log: this.#options.log,
        onWarning: (message) => this.#progress.event({ type: "warning", id, message }),
        onEnvironment: (env) => {
          if (env instanceof ContainerEnvironment) record.container = env.container;
        },
        onProgress: (event) => this.#onProgress(id, record, event),
      });
    } catch (err) {
      result.error = err as Error;
    }
    return result;
  }

  /** A step or a phase change of a running instance: its record, the budget and the progress display. */
  #onProgress(
    id: string,
    record: InstanceRecord,
    event: { phase: string; step?: number; cost?: number },
  ): void {
    if (event.step !== undefined) {
      record.steps = event.step;
      record.cost = event.cost ?? record.cost;
      // Every model the run asks (rfsn's candidates are not the watched model) counts.
      this.#budget.update(id, record.cost);
      this.#progress.event({ type: "step", id, phase: event.phase, step: event.step, cost: record.cost });
    } else if (event.phase !== record.phase) {
      record.phase = event.phase;
      this.#progress.event({ type: "phase", id, phase: event.phase });
    }
  }

  /** The instance's end: its cost and status recorded, its prediction written, its end announced. */
  async #recordEnd(
    record: InstanceRecord,
    started: number,
    { outcome, error, model }: InstanceRun,
  ): Promise<void> {
    const id = record.instance_id;
    // The trajectory could not be written (a full disk): the batch stops, this instance runs again.
    if (error instanceof OutputWriteError) this.#writeStop ??= error;
    const stats = outcome?.stats ?? model?.stats;
    const cost = stats?.cost ?? 0;
    this.#budget.finish(id, cost);
    this.#runCost += cost;
    Object.assign(record, {
      cost,
      steps: stats?.calls ?? 0,
      wall_time: (performance.now() - started) / 1000,
      ended_at: new Date().toISOString(),
    });
    if (outcome) record.timings = outcome.timings;
    if (this.#interrupted || this.#writeStop) {
      record.status = "Interrupted";
      if (this.#writeStop) record.error = `stopped: ${this.#writeStop.message}`;
    } else if (error || !outcome) {
      record.status = "InternalError";
      record.error = error?.message ?? "no outcome";
      this.#failed += 1;
    } else {
      await this.#recordOutcome(record, outcome);
    }
    await this.#report.set(record);
    this.#progress.event({
      type: "instance-end",
      id,
      status: record.status,
      cost,
      steps: record.steps,
      seconds: record.wall_time,
      ...(record.error && record.status !== "Submitted" ? { error: record.error } : {}),
    });
  }

  /** An instance that ran to an end: its status, and its prediction unless it did not finish. */
  async #recordOutcome(record: InstanceRecord, outcome: RunTaskOutcome): Promise<void> {
    const id = record.instance_id;
    record.status = outcome.exitStatus;
    if (outcome.fallback) record.fallback_point = outcome.fallback.point;
    if (outcome.error) record.error = outcome.error;
    if (UNFINISHED.has(record.status)) {
      this.#failed += 1;
      if (!this.#interrupted) this.#noteEnd(id, record);
      return;
    }
    await this.#preds.put({
      instance_id: id,
      model_name_or_path: this.#options.config.model.name,
      model_patch: outcome.submission,
    });
    this.#endedCount += 1;
    this.#noteEnd(id, record);
  }

  /** Count setup errors in a row by their key; `maxSetupFailures` of one key stop new starts. */
  #noteEnd(id: string, record: InstanceRecord): void {
    if (record.status !== "EnvironmentError") {
      this.#setupRun = { key: "", count: 0 };
      return;
    }
    const key = setupErrorKey(record.error ?? "", {
      id,
      image: instanceConfig(this.#options.config, id).environment.image ?? "",
    });
    const run = { key, count: this.#setupRun.key === key ? this.#setupRun.count + 1 : 1 };
    this.#setupRun = run;
    const max = this.#options.maxSetupFailures ?? DEFAULT_MAX_SETUP_FAILURES;
    if (max > 0 && run.count >= max && !this.#setupStop) {
      this.#setupStop = { count: run.count, error: errorGist(record.error ?? "") };
    }
  }
}
