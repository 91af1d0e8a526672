/**
 * `graphplan batch`: the agent on a selection of SWE-bench instances, each
 * in its own container, `-w` at a time, with resume, a batch cost cap and
 * progress (a live view at a terminal, log lines otherwise).
 *
 * @module
 */

import {
  type Command,
  EXIT,
  type ParsedArgs,
  printJson,
  refuse,
  stringOption,
  UsageError,
} from "./command.ts";
import { BATCH_OPTIONS, BATCH_OPTIONS_HELP, batchConfig, checkBatchOptions } from "./batch_options.ts";
import {
  BatchBusyError,
  type BatchSummary,
  DatasetError,
  LineProgress,
  LiveProgress,
  liveViewFits,
  loadInstances,
  predsFile,
  runBatch,
  selectInstances,
  SelectionError,
  type TaskRow,
} from "../agent/swebench/mod.ts";
import { outputDirOption } from "./output_dir.ts";
import { OutputWriteError } from "../agent/trajectory/mod.ts";
import type { Issue } from "../engine/base/issue.ts";
import { preflightIssue } from "./preflight.ts";
import { resolve } from "../engine/base/node_builtins.ts";
import { readFailure } from "../engine/base/read_failure.ts";

const command: Command = {
  name: "batch",
  summary: "Run the agent on a batch of SWE-bench instances (workers, resume, cost cap)",
  usage: "[--subset NAME|FILE] [selection] [-w N] [-o OUT] [--model NAME] [--strategy NAME]\n" +
    "       [--cost-limit USD] [-c SPEC]...",
  help: `
Runs \`graphplan run\` on each selected instance, in a container of its own
(the instance's SWE-bench image, the repository in /testbed) with its own
helper session. Writes OUT/preds.json after each instance (what the
SWE-bench harness reads), OUT/ID/ID.traj.json, OUT/exit_statuses.yaml
({status: [ids]}) and OUT/batch.json (per instance: status, cost, steps,
wall time, phase reached, fallback point).

Running the same command again resumes: instances in OUT's predictions are
skipped, one cut off by a killed batch is run again from scratch, and the
containers a killed batch left are removed first. One batch at a time
writes to OUT: a second one is refused (exit 2) while the first runs; the
lock of a killed one is free at once. When --max-setup-failures (3)
instances in a row cannot start their container with the same error (a
wrong --image or --env), no new instance starts and the batch says why.
Ctrl-C (or SIGTERM) stops
the batch and removes its containers; a second Ctrl-C exits at once.

${BATCH_OPTIONS_HELP}

Examples:
  graphplan batch --subset lite --slice :20 -w 4 --model openai/gpt-5-mini -o runs/lite
  graphplan batch --subset verified --filter '^django__' --cost-limit 25 -o runs/django
  graphplan batch --subset swebench_lite.parquet --shard 0/4 -o /shared/runs/shard0
  graphplan batch --subset lite --slice :10 --strategy rfsn --model openai/gpt-5-mini -o runs/rfsn

Exit: 0 every selected instance ran to an end (solved or not), 1 some did not
(cost limit, a container that did not start, a stop after repeated setup
errors, an internal error: they are not
in the predictions, so running the command again retries them), 2 usage
error (another batch is running in OUT included), 130/143 interrupted.`,
  options: { ...BATCH_OPTIONS },
  async run(args) {
    if (args.positionals.length > 0) {
      throw new UsageError(`Unexpected arguments: ${args.positionals.map((a) => `"${a}"`).join(" ")}`);
    }
    const { workers, costLimit, maxSetupFailures, format, seed } = checkBatchOptions(args);
    const json = args.values.json === true;
    const outDir = (await outputDirOption(args, "graphplan-batch"))!;
    const config = await batchConfig(args);
    const source = stringOption(args, "subset", "lite")!;
    const split = stringOption(args, "split", "test")!;
    const rows = await selectedRows(args, { source, split, seed });
    if (typeof rows === "number") return rows;
    // A missing key, an unknown price or no container CLI fails here once, not once per instance.
    const problem = await preflightIssue(config);
    if (problem) return refuse("batch", problem, { json, exit: EXIT.usage });
    const live = !json &&
      liveViewFits({ terminal: Deno.stderr.isTerminal(), rows: terminalRows(), term: Deno.env.get("TERM") });
    const summary = await runBatch({
      config,
      rows,
      outDir,
      workers,
      redoExisting: args.values["redo-existing"] === true,
      predsFormat: format,
      costLimit,
      maxSetupFailures,
      progress: live ? new LiveProgress() : new LineProgress(),
      describe: {
        dataset: source,
        split,
        selected: rows.length,
        model: config.model.name,
        strategy: config.agent.strategy,
        ...(stringOption(args, "shard") ? { shard: stringOption(args, "shard") } : {}),
      },
    }).catch((err) =>
      err instanceof BatchBusyError || err instanceof OutputWriteError ? err : Promise.reject(err)
    );
    if (summary instanceof BatchBusyError) {
      return refuse("batch", { code: "batch-busy", severity: "error", message: summary.message }, {
        json,
        exit: EXIT.usage,
      });
    }
    if (summary instanceof OutputWriteError) {
      return refuse("batch", unwritable(summary), { json, exit: EXIT.rejected });
    }
    if (json) printSummary(summary, resolve(outDir), resolve(predsFile(outDir, format)));
    return summary.exitCode;
  },
};

/**
 * The instances of the dataset that `--instances`, `--shuffle`, `--filter`,
 * `--slice` and `--shard` select (an empty selection is said, not refused);
 * a refusal's exit code for a dataset or selection that does not work or an
 * instance with no problem statement.
 */
async function selectedRows(
  args: ParsedArgs,
  { source, split, seed }: { source: string; split: string; seed?: number },
): Promise<TaskRow[] | number> {
  const json = args.values.json === true;
  let rows: TaskRow[];
  let all: TaskRow[];
  try {
    all = await loadInstances(source, { split, log: (line) => console.error(line) });
    const instancesFile = stringOption(args, "instances");
    const instances = instancesFile === undefined ? undefined : (await readInstancesFile(instancesFile))
      .split("\n").map((line) => line.trim()).filter((line) => line !== "" && !line.startsWith("#"));
    rows = selectInstances(all, {
      instances,
      shuffle: args.values.shuffle === true,
      seed,
      filter: stringOption(args, "filter"),
      slice: stringOption(args, "slice"),
      shard: stringOption(args, "shard"),
    });
  } catch (err) {
    if (
      err instanceof DatasetError || err instanceof SelectionError || err instanceof Deno.errors.NotFound ||
      err instanceof InstancesFileError
    ) {
      return refuse("batch", {
        code: "dataset-invalid",
        severity: "error",
        message: (err as Error).message,
      }, { json, exit: EXIT.usage });
    }
    throw err;
  }
  if (rows.length === 0 && !args.values.json) {
    // Not an error (a shard of a short list can be empty), but a typo in a pattern usually is why.
    console.error(
      `batch: no instance selected from the ${all.length} in "${source}": check --filter, --slice, ` +
        `--instances and --shard`,
    );
  }
  const empty = rows.filter((row) =>
    typeof row.problem_statement !== "string" || !row.problem_statement.trim()
  );
  if (empty.length > 0) {
    const message = `${empty.length} instance(s) have no "problem_statement": ` +
      empty.slice(0, 5).map((row) => `"${row.instance_id}"`).join(", ");
    return refuse("batch", { code: "dataset-invalid", severity: "error", message }, {
      json,
      exit: EXIT.usage,
    });
  }
  return rows;
}

/** The `--json` document of a batch: snake_case, as every other command's, with where the outputs are. */
function printSummary(summary: BatchSummary, out: string, preds: string): void {
  printJson({
    success: summary.exitCode === 0,
    out,
    preds,
    selected: summary.selected,
    skipped: summary.skipped,
    ended: summary.ended,
    not_started: summary.notStarted,
    interrupted: summary.interrupted,
    cost: summary.cost,
    exit_statuses: summary.exitStatuses,
    exit_code: summary.exitCode,
    errors: summary.writeStop ? [unwritable(summary.writeStop)] : [],
    warnings: [],
  });
}

/** The issue of an output that could not be written (a full disk), saying what to do. */
function unwritable(err: OutputWriteError): Issue {
  const hint = `${err.diskFull ? "free some space" : "make it writable"}, then run the same command again`;
  return {
    code: "output-unwritable",
    severity: "error",
    message: `${err.message}; ${hint}`,
    file: err.path,
    hint,
  };
}

/** An `--instances` file that cannot be read. */
class InstancesFileError extends Error {}

async function readInstancesFile(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    throw new InstancesFileError(`Cannot read the --instances file "${path}": ${readFailure(err)}`);
  }
}

/** Rows of the terminal (0 for a pseudo-terminal without a size, where a live view cannot draw). */
function terminalRows(): number {
  try {
    return Deno.consoleSize().rows;
  } catch {
    return 0;
  }
}

export default command;
