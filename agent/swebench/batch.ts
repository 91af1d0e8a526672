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

import { resolve } from "../../engine/node_builtins.ts";
import type { Config } from "../config.ts";
import { ContainerEnvironment, type Environment, runCleanups, takeOverInterrupts } from "../env/mod.ts";
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

async function runLocked(options: BatchOptions, outDir: string): Promise<BatchSummary> {
  const { config, rows } = options;
  const workers = Math.max(1, options.workers ?? 1);
  const progress = options.progress ?? new LineProgress();
  const format = options.predsFormat ?? "dict";

  // A damaged preds.json or batch.json is kept aside and rebuilt from the trajectories (recover.ts).
  const { preds: existing, records: earlier, recoveries } = await readBatchOutputs(outDir);
  for (const recovery of recoveries) progress.event({ type: "recovered", ...recovery });
  const selectedIds = new Set(rows.map((row) => row.instance_id));
  const done = new Set(
    options.redoExisting ? [] : Object.keys(existing).filter((id) => selectedIds.has(id)),
  );
  const kept = Object.fromEntries(Object.entries(earlier).filter(([id]) => Object.hasOwn(existing, id)));
  if (options.redoExisting) { for (const id of selectedIds) delete kept[id]; }
  const preds = new PredsStore(outDir, format, existing);
  let writeStop: OutputWriteError | null = null;
  const stopWriting = (err: unknown) => {
    if (!(err instanceof OutputWriteError)) throw err;
    writeStop ??= err;
  };
  if (recoveries.some((recovery) => recovery.what === "prediction")) await preds.flush().catch(stopWriting);
  const report = new BatchReport(outDir, { ...options.describe, workers, preds_format: format }, kept);
  const budget = new CostBudget(options.costLimit ?? 0, config.agent.cost_limit);
  for (const record of Object.values(kept)) budget.addEarlier(record.cost);

  const executable = config.environment.executable || config.environment.type;
  const containers = new BatchContainers(executable, await batchKey(outDir));
  progress.event({ type: "sweep", removed: await containers.sweep() });

  const queue = rows.filter((row) => !done.has(row.instance_id));
  const skipped = rows.length - queue.length;
  progress.event({
    type: "start",
    total: rows.length,
    skipped,
    todo: queue.length,
    workers,
    costLimit: budget.cap,
  });
  await report.flush().catch(stopWriting);

  const abort = new AbortController();
  let interrupted: "SIGINT" | "SIGTERM" | null = null;
  const live = new Map<string, Environment>();
  /** The instances started and not ended (in `live` too once their environment is up). */
  const running = new Set<string>();
  let wake: () => void = () => {};
  let ended = new Promise<void>((resolve) => wake = resolve);
  const signalEnd = () => {
    wake();
    ended = new Promise<void>((resolve) => wake = resolve);
  };

  const release = takeOverInterrupts((signal) => {
    if (interrupted) {
      containers.removeDetached();
      // What this process leaves must be true: the instances it stops are not running any more.
      try {
        report.endRunning(`the batch was stopped by a second ${signal}`);
        report.flushSync();
      } catch { /* the disk may be full: the next run reads "Running" as cut off */ }
      progress.close();
      Deno.exit(signal === "SIGINT" ? 130 : 143);
    }
    interrupted = signal;
    abort.abort();
    progress.event({ type: "interrupt", signal, running: running.size });
    void runCleanups();
    signalEnd();
  });

  let runCost = 0;
  let endedCount = 0;
  let failed = 0;
  const maxSetupFailures = options.maxSetupFailures ?? DEFAULT_MAX_SETUP_FAILURES;
  /** The setup errors in a row (by key), and the stop they caused. */
  let setupRun = { key: "", count: 0 };
  let setupStop: { count: number; error: string } | null = null;
  const noteEnd = (id: string, record: InstanceRecord) => {
    if (record.status !== "EnvironmentError") {
      setupRun = { key: "", count: 0 };
      return;
    }
    const key = setupErrorKey(record.error ?? "", {
      id,
      image: instanceConfig(config, id).environment.image ?? "",
    });
    setupRun = { key, count: setupRun.key === key ? setupRun.count + 1 : 1 };
    if (maxSetupFailures > 0 && setupRun.count >= maxSetupFailures && !setupStop) {
      setupStop = { count: setupRun.count, error: errorGist(record.error ?? "") };
    }
  };
  const runOne = async (row: TaskRow): Promise<void> => {
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
    budget.start(id);
    await Deno.remove(pathInside(outDir, id), { recursive: true }).catch((err) => {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    });
    await report.set(record);
    progress.event({ type: "instance-start", id });
    let outcome: RunTaskOutcome | undefined;
    let error: Error | undefined;
    let model: WatchedModel | undefined;
    try {
      model = new WatchedModel(await createModel(config.model), {
        signal: abort.signal,
        onCall: (stats) => budget.update(id, stats.cost),
      });
      outcome = await runTask({
        config: instanceConfig(config, id),
        task: row.problem_statement,
        instanceId: id,
        outDir,
        model,
        savePreds: false,
        container: { name: containerName(containers.key, id), labels: containers.labels },
        log: options.log,
        onWarning: (message) => progress.event({ type: "warning", id, message }),
        onEnvironment: (env) => {
          live.set(id, env);
          if (env instanceof ContainerEnvironment) record.container = env.container;
        },
        onProgress: (event) => {
          if (event.step !== undefined) {
            record.steps = event.step;
            record.cost = event.cost ?? record.cost;
            // Every model the run asks (rfsn's candidates are not the watched model) counts.
            budget.update(id, record.cost);
            progress.event({ type: "step", id, phase: event.phase, step: event.step, cost: record.cost });
          } else if (event.phase !== record.phase) {
            record.phase = event.phase;
            progress.event({ type: "phase", id, phase: event.phase });
          }
        },
      });
    } catch (err) {
      error = err as Error;
    } finally {
      live.delete(id);
    }
    // The trajectory could not be written (a full disk): the batch stops, this instance runs again.
    if (error instanceof OutputWriteError) writeStop ??= error;
    const stats = outcome?.stats ?? model?.stats;
    const cost = stats?.cost ?? 0;
    budget.finish(id, cost);
    runCost += cost;
    Object.assign(record, {
      cost,
      steps: stats?.calls ?? 0,
      wall_time: (performance.now() - started) / 1000,
      ended_at: new Date().toISOString(),
    });
    if (outcome) record.timings = outcome.timings;
    if (interrupted || writeStop) {
      record.status = "Interrupted";
      if (writeStop) record.error = `stopped: ${(writeStop as OutputWriteError).message}`;
    } else if (error || !outcome) {
      record.status = "InternalError";
      record.error = error?.message ?? "no outcome";
      failed += 1;
    } else {
      record.status = outcome.exitStatus;
      if (outcome.fallback) record.fallback_point = outcome.fallback.point;
      if (outcome.error) record.error = outcome.error;
      if (UNFINISHED.has(record.status)) {
        failed += 1;
        if (!interrupted) noteEnd(id, record);
      } else {
        await preds.put({
          instance_id: id,
          model_name_or_path: config.model.name,
          model_patch: outcome.submission,
        });
        endedCount += 1;
        noteEnd(id, record);
      }
    }
    await report.set(record);
    progress.event({
      type: "instance-end",
      id,
      status: record.status,
      cost,
      steps: record.steps,
      seconds: record.wall_time,
      ...(record.error && record.status !== "Submitted" ? { error: record.error } : {}),
    });
  };

  let capReported = false;
  const worker = async () => {
    while (queue.length > 0 && !interrupted && !setupStop && !writeStop) {
      if (!budget.canStart()) {
        if (running.size === 0) break;
        await ended;
        continue;
      }
      const row = queue.shift()!;
      running.add(row.instance_id);
      try {
        await runOne(row);
      } catch (err) {
        stopWriting(err);
        // The others stop as on Ctrl-C: their outputs could not be written either.
        abort.abort();
        void runCleanups();
      } finally {
        running.delete(row.instance_id);
        signalEnd();
      }
    }
  };
  const started = performance.now();
  // The signal handler stays until the very end: a second Ctrl-C during the last sweep still exits at
  // once and leaves the removal to the detached process (the default action would kill this process
  // in the middle of its own removals).
  try {
    return await finish();
  } finally {
    release();
  }

  async function finish(): Promise<BatchSummary> {
    try {
      await Promise.all(Array.from({ length: workers }, worker));
      if (writeStop) {
        const stop = writeStop as OutputWriteError;
        progress.event({
          type: "write-stop",
          error: stop.message,
          diskFull: stop.diskFull,
          left: queue.length,
        });
      } else if (setupStop) {
        progress.event({ type: "setup-stop", ...setupStop, left: queue.length });
      } else if (!interrupted && queue.length > 0) {
        capReported = true;
        progress.event({
          type: "cost-cap",
          spent: budget.spent,
          committed: budget.committed,
          cap: budget.cap,
          left: queue.length,
        });
        for (const row of queue) {
          await report.set({
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
    } finally {
      await containers.sweep().catch(() => []);
      // No instance runs any more: one whose end could not be recorded (a full disk) is not left "Running".
      report.endRunning(writeStop ? `stopped: ${(writeStop as OutputWriteError).message}` : "stopped");
      await report.flush().catch(stopWriting);
    }
    const statuses = report.exitStatuses();
    progress.event({
      type: "end",
      done: endedCount,
      cost: runCost,
      statuses: Object.fromEntries(Object.entries(statuses).map(([status, ids]) => [status, ids.length])),
      seconds: (performance.now() - started) / 1000,
      outDir,
      preds: preds.path,
      left: rows.length - skipped - endedCount,
      interrupted: interrupted !== null,
    });
    progress.close();
    const stopped = interrupted as "SIGINT" | "SIGTERM" | null;
    return {
      selected: rows.length,
      skipped,
      ended: endedCount,
      notStarted: capReported || setupStop ? queue.length : 0,
      interrupted: stopped,
      setupStop,
      writeStop,
      cost: runCost,
      exitStatuses: statuses,
      exitCode: stopped === "SIGINT"
        ? 130
        : stopped === "SIGTERM"
        ? 143
        : (capReported || setupStop || writeStop || failed > 0)
        ? 1
        : 0,
    };
  }
}
