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

import { resolve } from "../engine/base/node_builtins.ts";
import { shellQuote } from "./env/shell_quote.ts";
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
  type StrategyOutcome,
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

/** A run with its plan path: setup, the strategy, the outputs; the helper and environment closed at the end. */
async function runPrepared(
  options: RunTaskOptions,
  planPath: RunPlanPath,
  stop: AbortSignal,
): Promise<RunTaskOutcome> {
  const run = await TaskRun.open(options, planPath, stop);
  try {
    return await run.run();
  } finally {
    await run.close();
  }
}

/** One task's run: its model, trajectory, environment and helper, from setup to the outputs. */
class TaskRun {
  readonly #options: RunTaskOptions;
  readonly #planPath: RunPlanPath;
  readonly #stop: AbortSignal;
  readonly #log: (line: string) => void;
  readonly #model: Model | undefined;
  readonly #modelError: ModelError | undefined;
  /** The models the run asks: the run's own, or the strategy's candidates (set when it starts). */
  #asked: Model[];
  readonly #trajectory: Trajectory;
  readonly #setup: ReturnType<Trajectory["startPhase"]>;
  readonly #timings = emptyTimings();
  readonly #serveArgs: string[];
  #env: Environment | undefined;
  #helper: Helper | undefined;
  #helperFailure: Error | undefined;
  #deployed: DeployInfo | undefined;
  #planned: { launch?: HelperLaunch; runArgs: string[] } = { runArgs: [] };
  /** The container runs the helper's session as its main process. */
  #viaMain = false;

  private constructor(
    options: RunTaskOptions,
    context: { planPath: RunPlanPath; stop: AbortSignal; model?: Model; modelError?: ModelError },
  ) {
    this.#options = options;
    this.#planPath = context.planPath;
    this.#stop = context.stop;
    this.#log = options.log ?? (() => {});
    this.#model = context.model;
    this.#modelError = context.modelError;
    this.#asked = context.model ? [context.model] : [];
    this.#serveArgs = limitArgs(options.config.environment.helper_limits);
    this.#trajectory = this.#openTrajectory();
    // Recorded first: a run that fails in setup still shows what it was asked to do.
    this.#trajectory.info.task = options.task;
    this.#setup = this.#trajectory.startPhase("setup", { environment: options.config.environment.type });
  }

  /** The run with its model (a model that cannot be made ends the run in setup, with its exit status). */
  static async open(options: RunTaskOptions, planPath: RunPlanPath, stop: AbortSignal): Promise<TaskRun> {
    let model: Model | undefined = options.model;
    let modelError: ModelError | undefined;
    try {
      model ??= await createModel(options.config.model);
    } catch (err) {
      if (!(err instanceof ModelError)) throw err;
      modelError = err;
    }
    return new TaskRun(options, { planPath, stop, model, modelError });
  }

  /** Told once (a run warns at most once): logged, recorded as `info.warnings` and passed to the caller. */
  #warn(message: string): void {
    this.#log(`[${this.#options.instanceId}] setup: warning: ${message}`);
    this.#trajectory.info.warnings = [message];
    this.#options.onWarning?.(message);
  }

  /** The trajectory, with the models' stats and the progress lines of its phases. */
  #openTrajectory(): Trajectory {
    const { config, instanceId, outDir } = this.#options;
    return new Trajectory(outDir, instanceId, {
      config,
      stats: this.#model ? () => totalStats(this.#asked) : undefined,
      onPhase: (record) => {
        if (record.status === "running") this.#options.onProgress?.({ phase: record.name });
        if (record.name === "setup") return;
        if (record.status === "running" && !["explore", "plan", "submit", "fallback"].includes(record.name)) {
          return;
        }
        this.#log(`[${instanceId}] ${record.name}: ${phaseDetail(record)}`);
      },
    });
  }

  /** SETUP (environment, work tree, helper, journal, shell, baseline), the strategy, the gate, the outputs. */
  async run(): Promise<RunTaskOutcome> {
    if (!this.#model) return await this.#finishEarly(this.#modelError!.exitStatus, this.#modelError!);
    let env: Environment;
    try {
      env = await this.#startEnvironment();
    } catch (err) {
      return await this.#finishEarly("EnvironmentError", err as Error);
    }
    // Before any model call or edit: without a git work tree every patch would be empty.
    const noWorkTree = await workTreeProblem(env);
    if (noWorkTree?.kind === "not-a-work-tree") {
      return await this.#finishEarly("NotAGitRepository", new Error(noWorkTree.message));
    }
    await this.#deployHelper(env);
    const unfinished = await this.#recoverJournal(env);
    if (unfinished) return await this.#finishEarly("JournalPending", unfinished);
    env = this.#throughSession(env);
    const baseline = await this.#endSetup(env);
    let result = await this.#runStrategy(env, this.#model, baseline);
    result = await gateSubmission(env, {
      config: this.#options.config,
      trajectory: this.#trajectory,
      baseline,
    }, result);
    return await this.#outputs(result);
  }

  /** The helper's session and the environment closed (the run's very end). */
  async close(): Promise<void> {
    if (this.#helper instanceof SessionHelper) await this.#helper.close().catch(() => {});
    await this.#env?.close().catch(() => {});
  }

  /**
   * The environment started (with the helper's files mounted when it can be),
   * the repository copied in, a container's later history hidden, the plan
   * path made.
   */
  async #startEnvironment(): Promise<Environment> {
    const { config, instanceId } = this.#options;
    const envConfig = this.#environmentConfig();
    this.#log(`[${instanceId}] setup: starting the ${envConfig.type} environment`);
    const starting = performance.now();
    this.#planned = await plannedLaunch(config.environment).catch((err) => {
      this.#helperFailure = err as Error;
      return { runArgs: [] };
    });
    const main = envConfig.type !== "local" && config.environment.helper_main
      ? mainSession(this.#planned.launch, envConfig.cwd ?? CONTAINER_DEFAULTS.cwd, this.#serveArgs)
      : undefined;
    const started = await startEnvironment(envConfig, this.#planned, {
      name: this.#options.container?.name,
      main,
    });
    const env = this.#env = started.env;
    this.#viaMain = started.main;
    if (env instanceof ContainerEnvironment && env.warning) this.#warn(env.warning);
    this.#timings.container_start = (performance.now() - starting) / 1000;
    this.#options.onEnvironment?.(env);
    if (envConfig.type !== "local" && this.#options.repo) {
      const made = await env.execute(`mkdir -p ${shellQuote(env.cwd)}`, { timeout: 60 });
      if (made.returncode !== 0) throw new Error(`Cannot create "${env.cwd}": ${made.output.trim()}`);
      await env.copyIn(`${resolve(this.#options.repo)}/.`, env.cwd);
    }
    if (envConfig.type !== "local") {
      // The container's copy keeps HEAD's history only: no later commit in reach of the model (common/history.ts).
      this.#log(`[${instanceId}] setup: hiding the repository's later history`);
      this.#trajectory.info.history = await pruneHistory(env);
    }
    await this.#planPath.prepare(env);
    return env;
  }

  /** The environment's settings for this run: its directory (the repository's) and the batch's labels. */
  #environmentConfig(): EnvironmentConfig {
    const { config, repo, container } = this.#options;
    const envConfig = { ...config.environment };
    if (envConfig.type === "local") {
      envConfig.cwd = resolve(repo ?? envConfig.cwd ?? Deno.cwd());
    } else if (repo && !envConfig.cwd) {
      envConfig.cwd = "/repo";
    }
    if (container?.labels && envConfig.type !== "local") {
      const labels = Object.entries(container.labels).flatMap(([k, v]) => ["--label", `${k}=${v}`]);
      envConfig.run_args = [...(envConfig.run_args ?? []), ...labels];
    }
    return envConfig;
  }

  /** The helper deployed; when it cannot be, the run goes on without it (the reason kept for the strategy). */
  async #deployHelper(env: Environment): Promise<void> {
    const { config, instanceId } = this.#options;
    this.#log(`[${instanceId}] setup: deploying the helper`);
    try {
      if (this.#helperFailure) throw this.#helperFailure;
      const result = await deployHelper(env, {
        timeout: config.environment.helper_timeout,
        serveArgs: this.#serveArgs,
        launch: this.#planned.launch,
        main: this.#viaMain,
      });
      this.#helper = result.helper;
      const deployed = this.#deployed = result.info;
      this.#timings.helper_deploy = deployed.seconds;
      this.#log(
        `[${instanceId}] setup: helper ${deployed.version} (${deployed.mode}) ready in ${
          deployed.seconds.toFixed(1)
        } s`,
      );
    } catch (err) {
      this.#helperFailure = err as Error;
      this.#log(`[${instanceId}] setup: the helper is unavailable: ${this.#helperFailure.message}`);
    }
  }

  /**
   * A plan an earlier run left unfinished (killed mid-EXECUTE) rolled back
   * before anything else, so it cannot leak into this run's patch; the error
   * that keeps the run from starting when it cannot be.
   */
  async #recoverJournal(env: Environment): Promise<Error | undefined> {
    if (!this.#helper) return undefined;
    const recovery = await rollBack(this.#helper);
    if (recovery.restored.length > 0) {
      this.#log(
        `[${this.#options.instanceId}] setup: rolled back an unfinished plan: ${
          recovery.restored.join(", ")
        }`,
      );
      this.#trajectory.info.recovered_journal = recovery;
    }
    if (recovery.success) return undefined;
    const why = recovery.errors.map((issue) => issue.message).join("; ");
    return new Error(
      `An unfinished plan on this repository could not be rolled back: ${why}; ` +
        `run "graphplan rollback --repo ${env.cwd}" (see its hint), then start again`,
    );
  }

  /** In a container, the commands go through the helper's session (one exec each when it is gone). */
  #throughSession(env: Environment): Environment {
    const { config } = this.#options;
    if (
      !(this.#helper instanceof SessionHelper) || env.type === "local" || config.environment.shell === "exec"
    ) {
      return env;
    }
    const shell = sessionShell(env, this.#helper, config.environment);
    // By reference: every save of the trajectory has the counts so far.
    this.#trajectory.info.shell = shell.counts;
    // The run closes the wrapper, as it closes the environment it wraps.
    return this.#env = shell;
  }

  /**
   * The working tree as the run found it (the user's own untracked files and
   * edits included) recorded: the patch is diffed from it
   * (common/baseline.ts). The setup phase ends.
   */
  async #endSetup(env: Environment): Promise<string | undefined> {
    const baseline = await recordBaseline(env, this.#trajectory);
    this.#trajectory.endPhase(this.#setup, this.#helper ? "done" : "helper_unavailable", {
      cwd: env.cwd,
      ...(this.#deployed ? { helper: this.#deployed } : { helper_error: this.#helperFailure?.message }),
    });
    await this.#trajectory.save();
    return baseline;
  }

  /** The strategy `agent.strategy` names (agent/strategies.ts) on the task, with the environment and helper timed. */
  async #runStrategy(env: Environment, model: Model, baseline: string | undefined): Promise<StrategyOutcome> {
    const { config, task } = this.#options;
    const strategy = strategyNamed(config.agent.strategy);
    const candidates = strategy.candidateModels?.(config) ?? [];
    this.#asked = candidates.length > 0
      ? await Promise.all(candidates.map((candidate) => createModel(candidate)))
      : [model];
    return await strategy.run({
      task,
      config,
      models: this.#asked,
      env: timedEnvironment(env, this.#timings),
      trajectory: this.#trajectory,
      helper: this.#timedHelper(),
      stop: this.#stop,
      onStep: (progress) => this.#onStep(progress),
      baseline,
    });
  }

  /**
   * The helper for the strategy, its calls timed; throws why it is missing
   * when it was not deployed. The run closes the helper at its very end: its
   * session also runs the gate's commands.
   */
  #timedHelper(): () => Helper {
    const helper = this.#helper;
    const timedHelperCalls = helper
      ? timedHelper({ call: helper.call.bind(helper), close: () => Promise.resolve() }, this.#timings)
      : undefined;
    return () => {
      if (timedHelperCalls) return timedHelperCalls;
      throw this.#helperFailure ?? new HelperError("The helper was not deployed");
    };
  }

  /** One model step: a progress event and a progress line with its first command. */
  #onStep(progress: StepProgress): void {
    this.#options.onProgress?.({ phase: progress.phase, step: progress.step, cost: progress.cost });
    const command = progress.commands[0]?.split("\n")[0].slice(0, 80) ?? "(no command)";
    this.#log(
      `[${this.#options.instanceId}] ${progress.phase} step ${progress.step} $${
        progress.cost.toFixed(4)
      }: ${command}`,
    );
  }

  /** The prediction written (unless a batch keeps its own) and the outcome. */
  async #outputs(result: StrategyOutcome): Promise<RunTaskOutcome> {
    const patched = /^(Fallback)?Submitted$/.test(result.exitStatus) && result.submission.trim() !== "";
    await this.#savePrediction(result.submission);
    const trajectory = this.#trajectory;
    return {
      exitStatus: result.exitStatus,
      submission: result.submission,
      trajectoryPath: trajectory.path,
      predsPath: resolve(this.#options.outDir, "preds.json"),
      patched,
      ...(result.fallback ? { fallback: result.fallback } : {}),
      ...(this.#deployed ? { helper: this.#deployed } : {}),
      ...(typeof trajectory.info.error === "string" ? { error: firstLineOf(trajectory.info.error) } : {}),
      timings: this.#timings,
      stats: totalStats(this.#asked),
    };
  }

  /** A run that ends in setup: the setup phase failed, an empty prediction, the outcome saying why. */
  async #finishEarly(status: string, err: Error): Promise<RunTaskOutcome> {
    const trajectory = this.#trajectory;
    trajectory.endPhase(this.#setup, "failed", { error: err.message });
    trajectory.info.error = err.message;
    trajectory.finish(status);
    await trajectory.save();
    await this.#savePrediction("");
    return {
      exitStatus: status,
      submission: "",
      trajectoryPath: trajectory.path,
      predsPath: resolve(this.#options.outDir, "preds.json"),
      patched: false,
      error: err.message,
      timings: this.#timings,
      stats: totalStats(this.#asked),
    };
  }

  /** `<outDir>/preds.json` gets this run's prediction (`savePreds`, default true). */
  async #savePrediction(patch: string): Promise<void> {
    const { config, instanceId, outDir } = this.#options;
    if (!(this.#options.savePreds ?? true)) return;
    await savePredictionSaying(outDir, this.#log, {
      instance_id: instanceId,
      model_name_or_path: config.model.name,
      model_patch: patch,
    });
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
