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
 *   A second signal exits at once and leaves the removal to a detached
 *   `rm -f`.
 *
 * @module
 */

import { join, resolve } from "../../engine/node_builtins.ts";
import type { Config } from "../config.ts";
import { ContainerEnvironment, type Environment, runCleanups, takeOverInterrupts } from "../env/mod.ts";
import { createModel } from "../model/mod.ts";
import { instanceImage, runTask, type RunTaskOutcome } from "../run.ts";
import { CostBudget } from "./budget.ts";
import { BatchContainers, batchKey, containerName } from "./containers.ts";
import type { TaskRow } from "./dataset.ts";
import { type PredsFormat, PredsStore, readPredsDir } from "./preds.ts";
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
  /** Dollars spent in this run. */
  cost: number;
  /** Every record's status (earlier runs' too) → ids. */
  exitStatuses: Record<string, string[]>;
  /**
   * 0 every selected instance has ended; 1 some did not (cost cap, a container that did not start, a
   * stop after repeated setup errors, an internal error: run again to retry them); 130/143 interrupted.
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
  const outDir = resolve(options.outDir);
  await Deno.mkdir(outDir, { recursive: true });
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

  const existing = await readPredsDir(outDir);
  const selectedIds = new Set(rows.map((row) => row.instance_id));
  const done = new Set(
    options.redoExisting ? [] : Object.keys(existing).filter((id) => selectedIds.has(id)),
  );
  const earlier = await BatchReport.readEarlier(outDir);
  const kept = Object.fromEntries(Object.entries(earlier).filter(([id]) => Object.hasOwn(existing, id)));
  if (options.redoExisting) { for (const id of selectedIds) delete kept[id]; }
  const preds = new PredsStore(outDir, format, existing);
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
  await report.flush();

  const abort = new AbortController();
  let interrupted: "SIGINT" | "SIGTERM" | null = null;
  const live = new Map<string, Environment>();
  let wake: () => void = () => {};
  let ended = new Promise<void>((resolve) => wake = resolve);
  const signalEnd = () => {
    wake();
    ended = new Promise<void>((resolve) => wake = resolve);
  };

  const release = takeOverInterrupts((signal) => {
    if (interrupted) {
      containers.removeDetached();
      progress.close();
      Deno.exit(signal === "SIGINT" ? 130 : 143);
    }
    interrupted = signal;
    abort.abort();
    progress.event({ type: "interrupt", signal, running: live.size });
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
    await Deno.remove(join(outDir, id), { recursive: true }).catch(() => {});
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
    if (interrupted) {
      record.status = "Interrupted";
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

  const running = new Set<string>();
  let capReported = false;
  const worker = async () => {
    while (queue.length > 0 && !interrupted && !setupStop) {
      if (!budget.canStart()) {
        if (running.size === 0) break;
        await ended;
        continue;
      }
      const row = queue.shift()!;
      running.add(row.instance_id);
      try {
        await runOne(row);
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
      if (setupStop) {
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
      await report.flush();
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
      cost: runCost,
      exitStatuses: statuses,
      exitCode: stopped === "SIGINT"
        ? 130
        : stopped === "SIGTERM"
        ? 143
        : (capReported || setupStop || failed > 0)
        ? 1
        : 0,
    };
  }
}
