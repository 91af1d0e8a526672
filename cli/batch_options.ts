/**
 * The options of `graphplan batch`, shared with `graphplan slurm` and
 * `graphplan k8s`, which accept the same options and write them into the
 * command each of their tasks runs (with `--shard` added per task).
 *
 * @module
 */

import type { OptionSpec, ParsedArgs } from "./command.ts";
import { stringOption, UsageError } from "./command.ts";
import { type Config, ConfigError, isOverride, mergeConfigSpecs, validateConfig } from "../agent/config.ts";
import {
  DEFAULT_STRATEGY,
  isStrategyName,
  strategyChoices,
  unknownStrategyMessage,
} from "../agent/config/strategy_sections.ts";
import { STRATEGIES } from "../agent/strategies.ts";
// The modules themselves, not swebench/mod.ts: `run` imports this file, and the batch runner's live view
// (log-update) reads the terminal's environment when it loads, which `run --help` must not need.
import { PREDS_FORMATS, type PredsFormat } from "../agent/swebench/preds.ts";
import { selectInstances, SelectionError } from "../agent/swebench/select.ts";
import { DEFAULT_MAX_SETUP_FAILURES } from "../agent/swebench/setup_stop.ts";

/** Every option of `graphplan batch`. */
export const BATCH_OPTIONS: OptionSpec = {
  subset: { type: "string" },
  split: { type: "string" },
  slice: { type: "string" },
  filter: { type: "string" },
  shuffle: { type: "boolean" },
  seed: { type: "string" },
  shard: { type: "string" },
  instances: { type: "string" },
  workers: { type: "string", short: "w" },
  output: { type: "string", short: "o" },
  "redo-existing": { type: "boolean" },
  "preds-format": { type: "string" },
  "cost-limit": { type: "string" },
  "instance-cost-limit": { type: "string" },
  "max-setup-failures": { type: "string" },
  env: { type: "string" },
  image: { type: "string" },
  "image-template": { type: "string" },
  model: { type: "string" },
  strategy: { type: "string" },
  gate: { type: "string" },
  config: { type: "string", short: "c", multiple: true },
};

/** The option lines of the batch help, also shown by slurm and k8s. */
export const BATCH_OPTIONS_HELP = `Instances:
  --subset NAME        lite (default), verified, full, a Hugging Face name (owner/name; downloaded
                       once as parquet into ~/.cache/graphplan/datasets), or a .json, .jsonl(.gz)
                       or .parquet file in the SWE-bench schema
  --split NAME         dataset split (default: test)
  --instances FILE     only these ids (one a line)
  --shuffle            shuffle (seeded, --seed N, default 42)
  --filter REGEX       ids matching REGEX
  --slice A:B          Python slice of the selection (":10", "5:", "-3:")
  --shard K/N          every N-th instance from K (0-based), after the options above

Run:
  -w, --workers N      instances in parallel, each in its own container (default 1)
  -o, --output OUT     output directory (default: graphplan-batch)
  --redo-existing      run instances already in OUT's predictions again
  --preds-format F     dict (default: preds.json keyed by id), list (preds.json as a list)
                       or jsonl (preds.jsonl)
  --cost-limit USD     the whole batch's cap: no instance starts once the spent sum plus what
                       running ones may still spend reaches it (exceeded by at most one instance's cap)
  --instance-cost-limit USD  each instance's cap (= -c agent.cost_limit=USD; default 3)
  --max-setup-failures N  stop starting instances after N in a row could not start their
                       container with the same error, e.g. a wrong --image (default 3; 0 = never)
  --env TYPE           docker (default) or podman
  --image IMAGE        one image for every instance (default: environment.image_template,
                       docker.io/swebench/sweb.eval.x86_64.{id}:latest; the repository in /testbed)
  --image-template T   the image per instance, with {{instance_id}} or {{instance_id_docker}}
  --model NAME         provider/model (= -c model.name=NAME)
${strategyOptionHelp()}
  --gate MODE          refuse (default): a final patch that weakens the tests goes back to the agent
                       with the gate's reasons and is withdrawn if it still does (GateRefused);
                       report: only record the gate's verdict (info.gate) (= -c gate.mode=MODE)
  -c, --config SPEC    a YAML file or a key.path=value override; repeatable`;

/**
 * {@linkcode BATCH_OPTIONS_HELP} without the lines of the options in `exclude` (long names), for a
 * launcher that sets those itself and refuses them (k8s: `--shard`, `--output`, `--env`).
 */
export function batchOptionsHelp(exclude: readonly string[]): string {
  const out: string[] = [];
  let skipping = false;
  for (const line of BATCH_OPTIONS_HELP.split("\n")) {
    const option = /^ {2}(?:-\w, )?--([\w-]+)/.exec(line);
    // A line indented past the option column continues the option above it.
    if (option) skipping = exclude.includes(option[1]);
    else if (!/^ {3,}\S/.test(line)) skipping = false;
    if (!skipping) out.push(line);
  }
  return out.join("\n");
}

/** The batch options of `args` as a `graphplan batch` argument list (for scripts and manifests). */
export function batchArgv(args: ParsedArgs, options: { exclude?: string[] } = {}): string[] {
  const argv: string[] = [];
  for (const [name, declaration] of Object.entries(BATCH_OPTIONS)) {
    if (options.exclude?.includes(name)) continue;
    const value = args.values[name];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (declaration.type === "boolean") {
        if (item === true) argv.push(`--${name}`);
      } else {
        argv.push(`--${name}`, String(item));
      }
    }
  }
  return argv;
}

/** A positive integer option, or `fallback`. */
export function countOption(args: ParsedArgs, name: string, fallback: number): number {
  const value = args.values[name];
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new UsageError(`--${name} must be a positive integer: got "${value}"`);
  }
  return n;
}

/** A dollar amount option (0 allowed), or `fallback`. */
export function moneyOption(args: ParsedArgs, name: string, fallback: number): number {
  const value = args.values[name];
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    throw new UsageError(`--${name} must be a number of dollars: got "${value}"`);
  }
  return n;
}

/** The `--strategy` option (a registered name), or undefined when it is not given. */
export function strategyOption(args: ParsedArgs): string | undefined {
  const strategy = stringOption(args, "strategy");
  if (strategy === undefined) return undefined;
  if (!isStrategyName(strategy)) throw new UsageError(unknownStrategyMessage(strategy));
  return strategy;
}

/**
 * The `--strategy` lines of a help text: the registered names (the default marked) and what each
 * one is; a strategy's own defaults go under the `-c` specs.
 */
export function strategyOptionHelp(): string {
  return [
    `  --strategy NAME      ${strategyChoices(DEFAULT_STRATEGY)} (= -c agent.strategy=NAME, its defaults`,
    `                       under the -c specs):`,
    ...Object.entries(STRATEGIES).map(([name, { summary }]) =>
      `                         ${name}: ${summary}`
    ),
  ].join("\n");
}

/** The modes of `--gate`. */
const GATE_MODES = ["refuse", "report"] as const;

/** `--gate`, checked (undefined when not given: a batch refuses). */
export function gateOption(args: ParsedArgs): (typeof GATE_MODES)[number] | undefined {
  const mode = stringOption(args, "gate");
  if (mode === undefined) return undefined;
  if (!(GATE_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`Unknown gate mode "${mode}": use refuse or report`);
  }
  return mode as (typeof GATE_MODES)[number];
}

/** What {@linkcode checkBatchOptions} read. */
export interface BatchOptionValues {
  workers: number;
  costLimit: number;
  /** `--max-setup-failures` (default 3; 0 = never stop for setup errors). */
  maxSetupFailures: number;
  format: PredsFormat;
  seed?: number;
}

/**
 * The batch options that can be checked without the dataset (counts, dollars, the predictions
 * format, the seed, the strategy, --env, --filter and --slice syntax), as usage errors. `slurm` and
 * `k8s` call it too: what they write would otherwise fail in every task, after the job was queued.
 */
export function checkBatchOptions(args: ParsedArgs): BatchOptionValues {
  const workers = countOption(args, "workers", 1);
  const costLimit = moneyOption(args, "cost-limit", 0);
  moneyOption(args, "instance-cost-limit", 0);
  const setupText = stringOption(args, "max-setup-failures");
  const maxSetupFailures = setupText === undefined ? DEFAULT_MAX_SETUP_FAILURES : Number(setupText);
  if (!Number.isInteger(maxSetupFailures) || maxSetupFailures < 0) {
    throw new UsageError(`--max-setup-failures must be a whole number, 0 for never: got "${setupText}"`);
  }
  const format = stringOption(args, "preds-format", "dict")! as PredsFormat;
  if (!PREDS_FORMATS.includes(format)) {
    throw new UsageError(`--preds-format must be one of ${PREDS_FORMATS.join(", ")}: got "${format}"`);
  }
  const seedText = stringOption(args, "seed");
  const seed = seedText === undefined ? undefined : Number(seedText);
  if (seed !== undefined && !Number.isInteger(seed)) {
    throw new UsageError(`--seed must be an integer: got "${seedText}"`);
  }
  if (seed !== undefined && args.values.shuffle !== true) {
    // Alone it would change nothing: the selection keeps the dataset's order.
    throw new UsageError(`--seed ${seedText} seeds --shuffle: add --shuffle, or leave --seed out`);
  }
  strategyOption(args);
  gateOption(args);
  const env = stringOption(args, "env");
  if (env !== undefined && env !== "docker" && env !== "podman") {
    throw new UsageError(`A batch runs in containers: use --env docker or --env podman, not "${env}"`);
  }
  try {
    // The syntax of the selection, on no rows (--shard is the launchers' own).
    selectInstances([], { filter: stringOption(args, "filter"), slice: stringOption(args, "slice") });
  } catch (err) {
    if (err instanceof SelectionError) throw new UsageError(err.message);
    throw err;
  }
  return { workers, costLimit, maxSetupFailures, format, seed };
}

/**
 * The config of a batch: `-c` specs, the shortcut options, docker by default. With `files: false`
 * the `-c` files are left out (slurm and k8s check the rest here; the files are read where the
 * tasks run).
 */
export async function batchConfig(args: ParsedArgs, options: { files?: boolean } = {}): Promise<Config> {
  const specs = ((args.values.config as string[] | undefined) ?? []).filter((spec) =>
    options.files !== false || isOverride(spec)
  );
  // A batch protects the benchmark: the gate refuses test weakening unless -c or --gate says otherwise.
  specs.unshift("gate.mode=refuse");
  // First, so that -c specs (and config/rfsn.yaml under them) refine the strategy's defaults.
  const strategy = strategyOption(args);
  if (strategy) specs.unshift(`agent.strategy=${strategy}`);
  const gate = gateOption(args);
  if (gate) specs.push(`gate.mode=${gate}`);
  const env = stringOption(args, "env");
  const pairs: [string, string | undefined][] = [
    ["environment.image", stringOption(args, "image")],
    ["environment.image_template", stringOption(args, "image-template")],
    ["model.name", stringOption(args, "model")],
  ];
  for (const [key, value] of pairs) if (value !== undefined) specs.push(`${key}=${JSON.stringify(value)}`);
  const instanceCap = stringOption(args, "instance-cost-limit");
  if (instanceCap !== undefined) {
    specs.push(`agent.cost_limit=${moneyOption(args, "instance-cost-limit", 0)}`);
  }
  try {
    // Each instance gets its image from environment.image_template unless one image is set for all,
    // so the config is checked with a stand-in image and given back without it.
    const data = await mergeConfigSpecs(specs);
    const environment = (data.environment ?? {}) as Record<string, unknown>;
    if (env !== undefined) environment.type = env;
    else if ((environment.type ?? "local") === "local") environment.type = "docker";
    if (environment.type !== "docker" && environment.type !== "podman") {
      throw new UsageError(
        `A batch runs in containers: use --env docker or --env podman, not "${environment.type}"`,
      );
    }
    const image = environment.image;
    if (!image) environment.image = "per-instance";
    const config = validateConfig({ ...data, environment });
    return {
      ...config,
      environment: { ...config.environment, image: image ? config.environment.image : null },
    };
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
}
