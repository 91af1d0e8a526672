/**
 * `graphplan run`: the agent on one task, in a host directory or a
 * container. Prints the submitted patch on stdout and progress, the exit
 * status and the output paths on stderr; exit 0 when a patch was
 * submitted, 1 when none was, 130/143 when SIGINT/SIGTERM stopped it (the
 * run still ends at a safe point: trajectory `Interrupted`, preds.json).
 *
 * @module
 */

import { basename, join, resolve } from "../engine/base/node_builtins.ts";
import { type Command, EXIT, type ParsedArgs, refuse, stringOption, UsageError } from "./command.ts";
import { readFailure } from "../engine/base/read_failure.ts";
import { strategyOption, strategyOptionHelp } from "./batch_options.ts";
import { strategyNames } from "../agent/config/strategy_sections.ts";
import { type Config, ConfigError, loadConfig } from "../agent/config.ts";
import { DatasetError, findInstance } from "../agent/dataset.ts";
import { instanceImage, runTask, type RunTaskOutcome } from "../agent/run.ts";
import { Workspace } from "../engine/workspace.ts";
import { outputDirOption } from "./output_dir.ts";
import { preflightIssue } from "./preflight.ts";
import { LocalEnvironment } from "../agent/env/mod.ts";
import { workTreeProblem } from "../agent/common/mod.ts";
import { INSTANCE_ID_RULE, instanceIdProblem, quoteId } from "../agent/instance_id.ts";

/** Said on stderr when a run starts with `--env local`: the model's commands are not confined. */
export const LOCAL_NOTICE =
  "run: --env local: the model's commands run on this machine as the current user, " +
  "with all your permissions (only plans are confined to the repository); to run them in a container " +
  "instead: --env podman (or docker) --image IMAGE";

const command: Command = {
  name: "run",
  summary: "Run the GraphPlan agent on a task and print the patch it submits",
  usage: "(--repo DIR --task TEXT | --task-file FILE | --instance ID --dataset FILE)\n" +
    `       [--strategy ${
      strategyNames().join("|")
    }] [--env local|docker|podman] [--image IMAGE] [--model NAME]\n` +
    "       [-c FILE|key=value]... [-o OUT]",
  help: `
Runs EXPLORE → GRAPH → PLAN → VERIFY → EXECUTE → SUBMIT (falling back to a
plain step loop where a phase cannot go on), then prints the submitted patch
on stdout. Progress lines (phase, step, cost) go to stderr.

Task:
  --task TEXT          the problem statement (with --repo DIR, default .)
  --task-file FILE     the problem statement from a file
  --instance ID        a SWE-bench instance from --dataset FILE (JSONL, optionally .gz);
                       for --env local the repository is --repo, for containers the image
                       defaults to environment.image_template (SWE-bench names)
  --id NAME            the instance id for --task/--task-file (default: the repository's name)

Options:
  --env TYPE           local (default), docker or podman (= -c environment.type=TYPE)
  --image IMAGE        container image (= -c environment.image=IMAGE)
  --model NAME         provider/model, e.g. openai/gpt-5-mini (= -c model.name=NAME)
${strategyOptionHelp()}
  -c, --config SPEC    a YAML file or a key.path=value override; repeatable, applied in order
  -o, --output OUT     output directory (default: graphplan-runs): OUT/ID/ID.traj.json, OUT/preds.json

Examples:
  graphplan run --repo . --task "Fix the crash in parse()" --model openai/gpt-5-mini
  graphplan run --instance astropy__astropy-12907 --dataset swebench.jsonl.gz --env podman
  graphplan run --repo proj --task-file issue.md -c model.base_url=http://localhost:8000/v1

Ctrl-C (SIGINT) or SIGTERM stops the run after the current step: a plan being applied
finishes or rolls back, the trajectory ends "Interrupted", preds.json is written. A second
signal quits at once.

Every final patch passes the gate's no-test-weakening check (info.gate in the
trajectory; gate.mode refuse withdraws a patch that weakens tests: GateRefused).

With --env local the model's shell commands run on this machine as you (only plans are
confined to the repository); --env podman or docker runs them in a container. The repository
must be a git work tree (git init && git add -A && git commit -m base); the model (provider,
key, price) and the container CLI are checked before the run starts.

Exit: 0 a patch was submitted, 1 none (limits, errors, empty patch, Stuck, GateRefused) or the
repository is not a git work tree, 2 usage error (a model or container CLI that cannot work
included), 130/143 stopped by SIGINT/SIGTERM.`,
  options: {
    task: { type: "string" },
    "task-file": { type: "string" },
    instance: { type: "string" },
    dataset: { type: "string" },
    id: { type: "string" },
    env: { type: "string" },
    image: { type: "string" },
    model: { type: "string" },
    strategy: { type: "string" },
    config: { type: "string", short: "c", multiple: true },
    output: { type: "string", short: "o" },
  },
  async run(args) {
    if (args.positionals.length > 0) {
      throw new UsageError(`Unexpected arguments: ${args.positionals.map((a) => `"${a}"`).join(" ")}`);
    }
    checkTaskSource(args);
    const outDir = (await outputDirOption(args, "graphplan-runs"))!;
    const specs = configSpecs(args);
    const json = args.values.json === true;
    const source = await readTask(args);
    if (typeof source === "number") return source;
    const { task } = source;
    let repo = stringOption(args, "repo");
    const config = await loadRunConfig(specs, { ...source, repo, json });
    if (typeof config === "number") return config;
    const local = config.environment.type === "local";
    if (local) {
      repo ??= config.environment.cwd ?? ".";
      // Checked before the environment starts: a missing directory would otherwise fail its first command.
      Workspace.open(repo);
    }
    const refused = await repoRefusal(repo, local, json);
    if (refused !== undefined) return refused;
    const problem = await preflightIssue(config);
    if (problem) return refuse("run", problem, { json, exit: EXIT.usage });
    if (local) console.error(LOCAL_NOTICE);
    const instanceId = source.instanceId ?? sanitizeId(basename(resolve(repo ?? ".")));
    if (config.environment.type === "local" && repo !== undefined) await keepOutOfPatch(outDir, repo);

    const outcome = await runTask({
      config,
      task,
      instanceId,
      outDir,
      repo,
      log: (line) => console.error(line),
    });
    return await reportOutcome(instanceId, outcome);
  },
};

/** Exactly one of `--task`, `--task-file` and `--instance` (with `--dataset`), or a usage error. */
function checkTaskSource(args: ParsedArgs): void {
  const sources =
    [stringOption(args, "task"), stringOption(args, "task-file"), stringOption(args, "instance")]
      .filter((value) => value !== undefined).length;
  if (sources !== 1) throw new UsageError("Give exactly one of --task, --task-file and --instance");
  if (stringOption(args, "instance") !== undefined && stringOption(args, "dataset") === undefined) {
    throw new UsageError("--instance needs --dataset FILE");
  }
}

/** The `-c` settings with the flags that stand for settings (`--env`, `--image`, `--strategy`, `--model`). */
function configSpecs(args: ParsedArgs): string[] {
  const specs = [...((args.values.config as string[] | undefined) ?? [])];
  const envType = stringOption(args, "env");
  if (envType) specs.push(`environment.type=${envType}`);
  const image = stringOption(args, "image");
  if (image) specs.push(`environment.image=${JSON.stringify(image)}`);
  const strategy = strategyOption(args);
  if (strategy) specs.unshift(`agent.strategy=${strategy}`);
  const modelName = stringOption(args, "model");
  if (modelName) specs.push(`model.name=${JSON.stringify(modelName)}`);
  return specs;
}

/** The run's task and its source: the instance (with its id and image) or the text. */
interface TaskSource {
  task: string;
  instanceId?: string;
  /** The instance's image, when the task is a dataset instance. */
  imageDefault?: (config: Config) => string;
  /** Whether the task is a dataset instance. */
  instance: boolean;
}

/** The task from `--task`, `--task-file` or `--instance`, with `--id` checked; a refusal's exit code for a bad dataset. */
async function readTask(args: ParsedArgs): Promise<TaskSource | number> {
  const text = stringOption(args, "task");
  const taskFile = stringOption(args, "task-file");
  const instance = stringOption(args, "instance");
  const instanceId = stringOption(args, "id");
  const idProblem = instanceId === undefined ? undefined : instanceIdProblem(instanceId);
  if (idProblem) {
    throw new UsageError(`Invalid --id ${quoteId(instanceId)}: ${idProblem}; ${INSTANCE_ID_RULE}`);
  }
  let source: TaskSource;
  try {
    if (instance !== undefined) {
      const row = await findInstance(stringOption(args, "dataset")!, instance);
      source = {
        task: row.problem_statement,
        instanceId: row.instance_id,
        imageDefault: (config) => instanceImage(config, row.instance_id),
        instance: true,
      };
    } else if (taskFile !== undefined) {
      const task = await Deno.readTextFile(taskFile).catch((err) => {
        if (err instanceof Deno.errors.NotCapable) throw err;
        throw new UsageError(`Cannot read the task file "${taskFile}": ${readFailure(err)}`);
      });
      source = { task, instanceId, instance: false };
    } else {
      source = { task: text!, instanceId, instance: false };
    }
  } catch (err) {
    if (err instanceof DatasetError || err instanceof Deno.errors.NotFound) {
      return refuse(
        "run",
        { code: "dataset-invalid", severity: "error", message: (err as Error).message },
        { json: args.values.json === true, exit: EXIT.usage },
      );
    }
    throw err;
  }
  if (source.task.trim() === "") throw new UsageError("The task is empty");
  return source;
}

/**
 * The config of `specs`, with an instance's image and `/testbed` as its
 * directory in a container when the settings give none; a refusal's exit
 * code when the config is invalid.
 */
async function loadRunConfig(
  specs: string[],
  source: TaskSource & { repo?: string; json: boolean },
): Promise<Config | number> {
  try {
    let config = await loadConfig(specs);
    if (config.environment.type !== "local" && !config.environment.image && source.imageDefault) {
      config = await loadConfig([
        ...specs,
        `environment.image=${JSON.stringify(source.imageDefault(config))}`,
      ]);
    }
    if (source.instance && config.environment.type !== "local" && !config.environment.cwd && !source.repo) {
      config = await loadConfig([...specs, "environment.cwd=/testbed"]);
    }
    return config;
  } catch (err) {
    if (err instanceof ConfigError) {
      return refuse("run", { code: "config-invalid", severity: "error", message: err.message }, {
        json: source.json,
        exit: EXIT.usage,
      });
    }
    throw err;
  }
}

/** The refusal's exit code when `repo` is not a git work tree (or, locally, git cannot run there). */
async function repoRefusal(
  repo: string | undefined,
  local: boolean,
  json: boolean,
): Promise<number | undefined> {
  if (repo === undefined) return undefined;
  // A container copies the repository with its .git: the host's answer holds there too.
  const problem = await workTreeProblem(new LocalEnvironment({ cwd: resolve(repo) }));
  if (problem && (local || problem.kind === "not-a-work-tree")) {
    const code = problem.kind === "not-a-work-tree" ? "repo-not-git" : "git-unavailable";
    return refuse("run", { code, severity: "error", message: problem.message }, {
      json,
      exit: EXIT.rejected,
    });
  }
  return undefined;
}

/** The patch on stdout, the run's end on stderr, and the exit code (130/143 after a signal). */
async function reportOutcome(instanceId: string, outcome: RunTaskOutcome): Promise<number> {
  if (outcome.submission.trim() !== "") {
    await Deno.stdout.write(
      new TextEncoder().encode(
        outcome.submission.endsWith("\n") ? outcome.submission : outcome.submission + "\n",
      ),
    );
  }
  const via = outcome.fallback
    ? ` (after falling back at ${outcome.fallback.point}: ${outcome.fallback.reason})`
    : "";
  console.error(`[${instanceId}] exit status: ${outcome.exitStatus}${via}`);
  if (outcome.error) console.error(`[${instanceId}] error: ${outcome.error}`);
  console.error(`[${instanceId}] trajectory: ${resolve(outcome.trajectoryPath)}`);
  console.error(`[${instanceId}] predictions: ${outcome.predsPath}`);
  if (!outcome.patched) console.error(`[${instanceId}] no patch was submitted`);
  // Stopped by a signal: the shell's convention (128 + the signal's number).
  if (outcome.signal) return outcome.signal === "SIGTERM" ? 143 : 130;
  return outcome.patched ? EXIT.ok : EXIT.rejected;
}

/**
 * Give an output directory inside the repository (the default
 * `graphplan-runs` when run from the repository's root) a `.gitignore` of
 * `*`: the patch is every change to the working tree that `git add -A`
 * sees (agent/common/baseline.ts), which would otherwise include the
 * run's own trajectory and preds.json, written during the run.
 */
async function keepOutOfPatch(outDir: string, repo: string): Promise<void> {
  const out = resolve(outDir);
  const root = resolve(repo);
  // Only strictly inside: `-o .` must not hide the repository from git.
  if (!out.startsWith(root.endsWith("/") ? root : `${root}/`)) return;
  await Deno.mkdir(out, { recursive: true });
  await Deno.writeTextFile(join(out, ".gitignore"), "# graphplan run outputs: kept out of the patch\n*\n", {
    createNew: true,
  }).catch((err) => {
    if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
  });
}

function sanitizeId(name: string): string {
  const id = name.replace(/[^\w.-]+/g, "_").replace(/^[._]+/, "");
  return id || "task";
}

export default command;
