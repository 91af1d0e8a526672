/**
 * `graphplan slurm --shards N [batch options]`: writes a Slurm job-array
 * script running the batch as N shards; `--submit` submits it with sbatch
 * and prints the job id.
 *
 * @module
 */

import { resolve } from "../engine/base/node_builtins.ts";
import { type Command, EXIT, printJson, refuse, stringOption, UsageError } from "./command.ts";
import {
  BATCH_OPTIONS,
  BATCH_OPTIONS_HELP,
  batchArgv,
  batchConfig,
  checkBatchOptions,
  countOption,
} from "./batch_options.ts";
import { selfCommand } from "../agent/swebench/launcher.ts";
import { slurmScript, submitSlurm } from "../agent/swebench/slurm.ts";
import { outputDirOption } from "./output_dir.ts";

const command: Command = {
  name: "slurm",
  summary: "Write (and with --submit, sbatch) a Slurm job array running a batch as shards",
  usage: "--shards N [--partition P] [--cpus-per-task C] [--mem M] [--time T] [--submit] [batch options]",
  help: `
Writes a job-array script (#SBATCH --array=0-(N-1)): array task K runs
\`graphplan batch [batch options] --shard K/N -o OUT/shard-K\`, K being
SLURM_ARRAY_TASK_ID. OUT (-o, default graphplan-batch) must be on storage
every node sees. When every task has ended, merge the shards:
\`graphplan merge-preds OUT/shard-* -o OUT\`.

Slurm:
  --shards N           array tasks (required)
  --partition P        #SBATCH --partition
  --cpus-per-task C    #SBATCH --cpus-per-task
  --mem M              #SBATCH --mem (e.g. 16G)
  --time T             #SBATCH --time (e.g. 12:00:00)
  --max-parallel P     at most P tasks at a time (--array=0-(N-1)%P)
  --job-name NAME      #SBATCH --job-name (default graphplan-batch)
  --sbatch LINE        another #SBATCH line, e.g. --sbatch=--account=lab; repeatable
  --script FILE        where to write the script (default OUT/graphplan-batch.sbatch)
  --graphplan CMD      the command that runs graphplan on the nodes (default: this one)
  --submit             submit with sbatch and print the job id

${BATCH_OPTIONS_HELP}

Example:
  graphplan slurm --shards 8 --partition gpu --time 12:00:00 --subset lite -w 4 \\
    --model openai/gpt-5-mini -o /shared/runs/lite --submit

Exit: 0 written (and submitted), 1 sbatch failed, 2 usage error.`,
  options: {
    ...BATCH_OPTIONS,
    shards: { type: "string" },
    partition: { type: "string" },
    "cpus-per-task": { type: "string" },
    mem: { type: "string" },
    time: { type: "string" },
    "max-parallel": { type: "string" },
    "job-name": { type: "string" },
    sbatch: { type: "string", multiple: true },
    script: { type: "string" },
    graphplan: { type: "string" },
    submit: { type: "boolean" },
  },
  async run(args) {
    if (args.positionals.length > 0) {
      throw new UsageError(`Unexpected arguments: ${args.positionals.map((a) => `"${a}"`).join(" ")}`);
    }
    if (args.values.shards === undefined) throw new UsageError("Give the number of shards: --shards N");
    if (args.values.shard !== undefined) {
      throw new UsageError("--shard is set per array task: give --shards N");
    }
    const shards = countOption(args, "shards", 1);
    checkBatchOptions(args);
    await batchConfig(args, { files: false });
    const outDir = resolve((await outputDirOption(args, "graphplan-batch"))!);
    const graphplan = stringOption(args, "graphplan");
    const script = slurmScript({
      shards,
      graphplan: graphplan ? graphplan.split(/\s+/).filter(Boolean) : selfCommand(),
      batchArgs: batchArgv(args, { exclude: ["shard", "output"] }),
      outDir,
      jobName: stringOption(args, "job-name"),
      partition: stringOption(args, "partition"),
      cpusPerTask: args.values["cpus-per-task"] === undefined
        ? undefined
        : countOption(args, "cpus-per-task", 1),
      mem: stringOption(args, "mem"),
      time: stringOption(args, "time"),
      maxParallel: args.values["max-parallel"] === undefined
        ? undefined
        : countOption(args, "max-parallel", 1),
      extra: (args.values.sbatch as string[] | undefined) ?? [],
      workdir: Deno.cwd(),
    });
    const path = resolve(stringOption(args, "script", `${outDir}/graphplan-batch.sbatch`)!);
    await Deno.mkdir(`${outDir}/slurm`, { recursive: true });
    await Deno.writeTextFile(path, script, { mode: 0o755 });
    let jobId: string | undefined;
    if (args.values.submit) {
      try {
        jobId = await submitSlurm(path);
      } catch (err) {
        return refuse(
          "slurm",
          { code: "sbatch-failed", severity: "error", message: (err as Error).message },
          { json: args.values.json === true, exit: EXIT.rejected },
        );
      }
    }
    if (args.values.json) {
      printJson({ success: true, script: path, shards, out: outDir, job_id: jobId ?? null });
    } else if (jobId) console.log(jobId);
    else console.log(path);
    console.error(
      `slurm: ${shards} shard(s) in ${path}${
        jobId ? `, submitted as job ${jobId}` : " (submit: sbatch " + path + ")"
      }`,
    );
    return EXIT.ok;
  },
};

export default command;
