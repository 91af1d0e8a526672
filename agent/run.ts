/**
 * One task, start to end: the environment (a host directory or a container,
 * with the repository copied in when one is given; in a container its
 * history after HEAD is made unreachable, see common/history.ts), the
 * helper deployed into it, the model, the phase machine, and the outputs:
 * `<out>/<id>/<id>.traj.json` and `<out>/preds.json`.
 *
 * ```ts
 * const outcome = await runTask({ config, task: "Fix ...", instanceId: "demo", outDir: "runs", repo: "." });
 * ```
 *
 * @module
 */

import { resolve } from "../engine/node_builtins.ts";
import type { Config } from "./config.ts";
import {
  CONTAINER_DEFAULTS,
  ContainerEnvironment,
  createEnvironment,
  type Environment,
  type EnvironmentConfig,
  type MainSession,
  onStop,
} from "./env/mod.ts";
import {
  deployHelper,
  type DeployInfo,
  gateFinalPatch,
  type Helper,
  HelperError,
  type HelperLaunch,
  limitArgs,
  mainSession,
  plannedLaunch,
  pruneHistory,
  rollBack,
  SessionHelper,
  sessionShell,
  snapshotTree,
  type StepProgress,
  workTreeProblem,
} from "./common/mod.ts";
import { createModel, type Model, ModelError, type ModelStats, totalStats } from "./model/mod.ts";
import { renderTemplate } from "./template.ts";
import { savePrediction, Trajectory } from "./trajectory/mod.ts";
import { dockerInstanceId } from "./dataset.ts";
import { emptyTimings, type RunTimings, timedEnvironment, timedHelper } from "./timings.ts";
import { strategyNamed } from "./strategies.ts";
import { type RunPlanPath, runPlanPath } from "./run_dir.ts";

/** What {@linkcode runTask} needs. */
export interface RunTaskOptions {
  config: Config;
  /** The problem statement. */
  task: string;
  instanceId: string;
  outDir: string;
  /**
   * The repository on the host: the working directory of the `local`
   * environment; copied into the container (to `environment.cwd`) otherwise.
   */
  repo?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** The model (default: built from `config.model`). */
  model?: Model;
  /** Write the prediction into `<outDir>/preds.json` (default true; a batch keeps its own). */
  savePreds?: boolean;
  /** Container name and labels (docker, podman), so a batch can find its containers. */
  container?: { name?: string; labels?: Record<string, string> };
  /** Structured progress: the phase entered, and each model step with the cost so far. */
  onProgress?: (event: RunProgress) => void;
  /** Called with the environment once it is started (a batch closes it on Ctrl-C). */
  onEnvironment?: (env: Environment) => void;
  /** Told what the user should know once (the runtime's `run -i` did not work); also logged. */
  onWarning?: (message: string) => void;
}

/** One progress event of {@linkcode runTask}. */
export interface RunProgress {
  /** The phase the run is in (`setup`, `explore`, ..., `fallback`). */
  phase: string;
  /** Model calls so far. */
  step?: number;
  /** Dollars spent so far. */
  cost?: number;
}

/** How the task ended. */
export interface RunTaskOutcome {
  exitStatus: string;
  submission: string;
  trajectoryPath: string;
  predsPath: string;
  /** True when a non-empty patch was submitted. */
  patched: boolean;
  fallback?: { point: string; reason: string };
  helper?: DeployInfo;
  /** Why the run ended without a patch, when an error ended it (also in the trajectory). */
  error?: string;
  /** The signal that stopped the run (exit status `Interrupted`). */
  signal?: Deno.Signal;
  /** Where the wall time went (container start, helper deployment and requests, commands). */
  timings: RunTimings;
  /** Calls, tokens and dollars of every model the run asked (a strategy may ask several candidates). */
  stats: ModelStats;
}

/** The image for a dataset instance from `environment.image_template`. */
export function instanceImage(config: Config, instanceId: string): string {
  return renderTemplate(config.environment.image_template, {
    instance_id: instanceId,
    instance_id_docker: dockerInstanceId(instanceId),
  }, { name: "environment.image_template" });
}

/** Run the agent on one task and write its trajectory and prediction. */
export async function runTask(options: RunTaskOptions): Promise<RunTaskOutcome> {
  // SIGINT/SIGTERM stop the run at its next safe point (see env/cleanup.ts).
  const stop = new AbortController();
  let signal: Deno.Signal | undefined;
  const unregister = onStop((received) => {
    signal = received;
    options.log?.(`[${options.instanceId}] ${received}: stopping after the current step (again to quit now)`);
    stop.abort(received);
  });
  try {
    const outcome = await runStoppable(options, stop.signal);
    return signal && outcome.exitStatus === "Interrupted" ? { ...outcome, signal } : outcome;
  } finally {
    unregister();
  }
}

async function runStoppable(options: RunTaskOptions, stop: AbortSignal): Promise<RunTaskOutcome> {
  const planPath = await runPlanPath(options.config);
  try {
    return await runPrepared({ ...options, config: planPath.config }, planPath, stop);
  } finally {
    await planPath.remove();
  }
}

async function runPrepared(
  options: RunTaskOptions,
  planPath: RunPlanPath,
  stop: AbortSignal,
): Promise<RunTaskOutcome> {
  const { config, instanceId, outDir } = options;
  const log = options.log ?? (() => {});
  let model: Model | undefined = options.model;
  let modelError: ModelError | undefined;
  try {
    model ??= await createModel(config.model);
  } catch (err) {
    if (!(err instanceof ModelError)) throw err;
    modelError = err;
  }
  // The models the run asks: the run's own, or the strategy's candidates (set below).
  let asked: Model[] = model ? [model] : [];
  const stats = model ? () => totalStats(asked) : undefined;
  const trajectory = new Trajectory(outDir, instanceId, {
    config,
    stats,
    onPhase: (record) => {
      if (record.status === "running") options.onProgress?.({ phase: record.name });
      if (record.name === "setup") return;
      if (record.status === "running" && !["explore", "plan", "submit", "fallback"].includes(record.name)) {
        return;
      }
      log(`[${instanceId}] ${record.name}: ${phaseDetail(record)}`);
    },
  });
  // Recorded first: a run that fails in setup still shows what it was asked to do.
  trajectory.info.task = options.task;
  const setup = trajectory.startPhase("setup", { environment: config.environment.type });
  let env: Environment | undefined;
  let helper: Helper | undefined;
  let helperFailure: Error | undefined;
  let deployed: DeployInfo | undefined;
  let planned: { launch?: HelperLaunch; runArgs: string[] } = { runArgs: [] };
  /** The container runs the helper's session as its main process. */
  let viaMain = false;
  const serveArgs = limitArgs(config.environment.helper_limits);
  const savePreds = options.savePreds ?? true;
  const timings = emptyTimings();
  const finishEarly = async (status: string, err: Error) => {
    trajectory.endPhase(setup, "failed", { error: err.message });
    trajectory.info.error = err.message;
    trajectory.finish(status);
    await trajectory.save();
    if (savePreds) {
      await savePredictionSaying(outDir, log, {
        instance_id: instanceId,
        model_name_or_path: config.model.name,
        model_patch: "",
      });
    }
    return {
      exitStatus: status,
      submission: "",
      trajectoryPath: trajectory.path,
      predsPath: resolve(outDir, "preds.json"),
      patched: false,
      error: err.message,
      timings,
      stats: totalStats(asked),
    };
  };
  try {
    if (!model) return await finishEarly(modelError!.exitStatus, modelError!);
    const envConfig = { ...config.environment };
    if (envConfig.type === "local") {
      envConfig.cwd = resolve(options.repo ?? envConfig.cwd ?? Deno.cwd());
    } else if (options.repo && !envConfig.cwd) {
      envConfig.cwd = "/repo";
    }
    log(`[${instanceId}] setup: starting the ${envConfig.type} environment`);
    try {
      if (options.container?.labels && envConfig.type !== "local") {
        const labels = Object.entries(options.container.labels).flatMap(([k, v]) => ["--label", `${k}=${v}`]);
        envConfig.run_args = [...(envConfig.run_args ?? []), ...labels];
      }
      const starting = performance.now();
      planned = await plannedLaunch(config.environment).catch((err) => {
        helperFailure = err as Error;
        return { runArgs: [] };
      });
      const main = envConfig.type !== "local" && config.environment.helper_main
        ? mainSession(planned.launch, envConfig.cwd ?? CONTAINER_DEFAULTS.cwd, serveArgs)
        : undefined;
      const started = await startEnvironment(envConfig, planned, { name: options.container?.name, main });
      env = started.env;
      viaMain = started.main;
      if (env instanceof ContainerEnvironment && env.warning) {
        log(`[${instanceId}] setup: warning: ${env.warning}`);
        trajectory.info.warnings = [env.warning];
        options.onWarning?.(env.warning);
      }
      timings.container_start = (performance.now() - starting) / 1000;
      options.onEnvironment?.(env);
      if (envConfig.type !== "local" && options.repo) {
        const made = await env.execute(`mkdir -p '${env.cwd.replace(/'/g, `'\\''`)}'`, { timeout: 60 });
        if (made.returncode !== 0) throw new Error(`Cannot create "${env.cwd}": ${made.output.trim()}`);
        await env.copyIn(`${resolve(options.repo)}/.`, env.cwd);
      }
      if (envConfig.type !== "local") {
        // The container's copy keeps HEAD's history only: no later commit in reach of the model (common/history.ts).
        log(`[${instanceId}] setup: hiding the repository's later history`);
        trajectory.info.history = await pruneHistory(env);
      }
      await planPath.prepare(env);
    } catch (err) {
      return await finishEarly("EnvironmentError", err as Error);
    }
    // Before any model call or edit: without a git work tree every patch would be empty.
    const noWorkTree = await workTreeProblem(env);
    if (noWorkTree?.kind === "not-a-work-tree") {
      return await finishEarly("NotAGitRepository", new Error(noWorkTree.message));
    }
    log(`[${instanceId}] setup: deploying the helper`);
    try {
      if (helperFailure) throw helperFailure;
      const result = await deployHelper(env, {
        timeout: config.environment.helper_timeout,
        serveArgs,
        launch: planned.launch,
        main: viaMain,
      });
      helper = result.helper;
      deployed = result.info;
      timings.helper_deploy = deployed.seconds;
      log(
        `[${instanceId}] setup: helper ${deployed.version} (${deployed.mode}) ready in ${
          deployed.seconds.toFixed(1)
        } s`,
      );
    } catch (err) {
      helperFailure = err as Error;
      log(`[${instanceId}] setup: the helper is unavailable: ${helperFailure.message}`);
    }
    if (helper) {
      // A plan an earlier run left unfinished (killed mid-EXECUTE) is rolled
      // back before anything else, so it cannot leak into this run's patch;
      // if it cannot be, the run does not start.
      const recovery = await rollBack(helper);
      if (recovery.restored.length > 0) {
        log(`[${instanceId}] setup: rolled back an unfinished plan: ${recovery.restored.join(", ")}`);
        trajectory.info.recovered_journal = recovery;
      }
      if (!recovery.success) {
        const why = recovery.errors.map((issue) => issue.message).join("; ");
        return await finishEarly(
          "JournalPending",
          new Error(
            `An unfinished plan on this repository could not be rolled back: ${why}; ` +
              `run "graphplan rollback --repo ${env.cwd}" (see its hint), then start again`,
          ),
        );
      }
    }
    // The working tree as the run found it (the user's own untracked files
    // and edits included): the patch is diffed from it (common/baseline.ts).
    // In a container, the commands go through the helper's session (one exec each when it is gone).
    if (helper instanceof SessionHelper && env.type !== "local" && config.environment.shell !== "exec") {
      const shell = sessionShell(env, helper, config.environment);
      // By reference: every save of the trajectory has the counts so far.
      trajectory.info.shell = shell.counts;
      env = shell;
    }
    const baseline = await recordBaseline(env, trajectory);
    trajectory.endPhase(setup, helper ? "done" : "helper_unavailable", {
      cwd: env.cwd,
      ...(deployed ? { helper: deployed } : { helper_error: helperFailure?.message }),
    });
    await trajectory.save();

    // The run closes the helper at its very end: its session also runs the gate's commands.
    const timedHelperCalls = helper
      ? timedHelper({ call: helper.call.bind(helper), close: () => Promise.resolve() }, timings)
      : undefined;
    const helperOf = () => {
      if (timedHelperCalls) return timedHelperCalls;
      throw helperFailure ?? new HelperError("The helper was not deployed");
    };
    const timedEnv = timedEnvironment(env, timings);
    const onStep = (progress: StepProgress) => {
      options.onProgress?.({ phase: progress.phase, step: progress.step, cost: progress.cost });
      const command = progress.commands[0]?.split("\n")[0].slice(0, 80) ?? "(no command)";
      log(`[${instanceId}] ${progress.phase} step ${progress.step} $${progress.cost.toFixed(4)}: ${command}`);
    };
    const strategy = strategyNamed(config.agent.strategy);
    const candidates = strategy.candidateModels?.(config) ?? [];
    asked = candidates.length > 0
      ? await Promise.all(candidates.map((candidate) => createModel(candidate)))
      : [model];
    let result = await strategy.run({
      task: options.task,
      config,
      models: asked,
      env: timedEnv,
      trajectory,
      helper: helperOf,
      stop,
      onStep,
      baseline,
    });
    result = await gateSubmission(env, { config, trajectory, baseline }, result);
    const patched = /^(Fallback)?Submitted$/.test(result.exitStatus) && result.submission.trim() !== "";
    if (savePreds) {
      await savePredictionSaying(outDir, log, {
        instance_id: instanceId,
        model_name_or_path: config.model.name,
        model_patch: result.submission,
      });
    }
    return {
      exitStatus: result.exitStatus,
      submission: result.submission,
      trajectoryPath: trajectory.path,
      predsPath: resolve(outDir, "preds.json"),
      patched,
      ...(result.fallback ? { fallback: result.fallback } : {}),
      ...(deployed ? { helper: deployed } : {}),
      ...(typeof trajectory.info.error === "string" ? { error: firstLineOf(trajectory.info.error) } : {}),
      timings,
      stats: totalStats(asked),
    };
  } finally {
    if (helper instanceof SessionHelper) await helper.close().catch(() => {});
    await env?.close().catch(() => {});
  }
}

/** {@linkcode savePrediction}, saying when a damaged preds.json was kept aside. */
async function savePredictionSaying(
  outDir: string,
  log: (line: string) => void,
  prediction: Parameters<typeof savePrediction>[1],
): Promise<void> {
  const damage = await savePrediction(outDir, prediction);
  if (damage) {
    log(
      `[${prediction.instance_id}] "${damage.file}" was damaged (${damage.problem}): kept it as ` +
        `"${damage.keptAs}"; the new file holds this run's prediction (merge the old one by hand if needed)`,
    );
  }
}

/**
 * The gate on the final patch (either strategy), recorded as `info.gate`;
 * under `gate.mode: refuse` a patch that weakens tests is withdrawn (exit
 * status `GateRefused`).
 */
async function gateSubmission<R extends { exitStatus: string; submission: string }>(
  env: Environment,
  run: { config: Config; trajectory: Trajectory; baseline?: string },
  result: R,
): Promise<R> {
  const { config, trajectory } = run;
  const policy = { mode: config.gate.mode, allow: config.gate.allow };
  try {
    const record = await gateFinalPatch(env, result.submission, { policy, base: run.baseline });
    trajectory.info.gate = record;
    if (record.refused && policy.mode === "refuse") {
      trajectory.finish("GateRefused", "");
      result = { ...result, exitStatus: "GateRefused", submission: "" };
    }
  } catch (err) {
    trajectory.info.gate = {
      skipped: `the gate could not run: ${(err as Error).message}`,
      policy,
      refused: false,
    };
  }
  await trajectory.save();
  return result;
}

/**
 * Start the environment with the helper's files mounted (`planned.runArgs`);
 * when the runtime refuses the mounts, start it without them, and the helper
 * is copied in instead.
 */
async function startEnvironment(
  config: EnvironmentConfig,
  planned: { launch?: HelperLaunch; runArgs: string[] },
  options: { name?: string; main?: MainSession },
): Promise<{ env: Environment; main: boolean }> {
  const { name, main } = options;
  if (planned.runArgs.length === 0) return { env: await createEnvironment(config, { name }), main: false };
  try {
    const run_args = [...config.run_args ?? [], ...planned.runArgs];
    const env = await createEnvironment({ ...config, run_args }, { name, main });
    // Started detached when the runtime's `run -i` did not start the session (agent/env/main_session.ts).
    return { env, main: env instanceof ContainerEnvironment && env.mainPending };
  } catch (err) {
    if (!planned.launch?.fallback) throw err;
    planned.launch = planned.launch.fallback;
    planned.runArgs = [];
    return { env: await createEnvironment(config, { name }), main: false };
  }
}

/**
 * Write the working tree as a git tree (the index is not changed) and
 * record it as `info.baseline` (`{tree}`, or `{error}` when git cannot:
 * the submission is then the submit command's output, as before).
 */
async function recordBaseline(env: Environment, trajectory: Trajectory): Promise<string | undefined> {
  try {
    const tree = await snapshotTree(env);
    trajectory.info.baseline = { tree };
    return tree;
  } catch (err) {
    // A BaselineError (not a git repository, git missing) or the environment's own failure.
    trajectory.info.baseline = { error: (err as Error).message };
    return undefined;
  }
}

/**
 * How a phase record reads in a progress line: `started`, or its status, the
 * method and why: the reason it gives, else its first error (`verify: failed
 * (verify_plan): Cannot resolve locator: ... (and 2 more)`).
 */
function phaseDetail(record: Record<string, unknown>): string {
  if (record.status === "running") return "started";
  const method = typeof record.method === "string" ? ` (${record.method})` : "";
  if (typeof record.reason === "string") return `${record.status}${method}: ${record.reason}`;
  const errors = Array.isArray(record.errors)
    ? record.errors.filter((issue) => typeof issue?.message === "string") as { message: string }[]
    : [];
  if (errors.length === 0) return `${record.status}${method}`;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  return `${record.status}${method}: ${firstLineOf(errors[0].message).slice(0, 300)}${more}`;
}

function firstLineOf(text: string): string {
  const nl = text.indexOf("\n");
  return nl === -1 ? text : text.slice(0, nl);
}
