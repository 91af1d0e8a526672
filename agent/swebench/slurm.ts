/**
 * A Slurm job array that runs a batch as N shards: array task K runs
 * `graphplan batch ... --shard K/N -o OUT/shard-K` (K from
 * `SLURM_ARRAY_TASK_ID`), all writing to OUT on shared storage; afterwards
 * `graphplan merge-preds OUT/shard-* -o OUT` merges them. `--submit` hands
 * the script to `sbatch --parsable` and returns the job id.
 *
 * @module
 */

import { join } from "../../engine/base/node_builtins.ts";
import { runProcess } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";

/** What the job-array script needs. */
export interface SlurmOptions {
  /** Number of shards (array tasks). */
  shards: number;
  /** The argv that runs graphplan on the cluster's nodes. */
  graphplan: string[];
  /** `graphplan batch` options, without `--shard` and `-o`. */
  batchArgs: string[];
  /** The output root (absolute; shared storage). */
  outDir: string;
  jobName?: string;
  partition?: string;
  cpusPerTask?: number;
  mem?: string;
  time?: string;
  /** Array tasks at a time (`--array=0-N%P`). */
  maxParallel?: number;
  /** More `#SBATCH` lines, e.g. `--account=lab`. */
  extra?: string[];
  /**
   * The directory the batch options' relative paths (`--subset FILE`,
   * `--instances FILE`, `-c FILE`) are relative to: the task changes to it
   * first, wherever `sbatch` is run from.
   */
  workdir?: string;
}

/** The output folder of shard `k`. */
export function shardDir(outDir: string, k: number | string): string {
  return join(outDir, `shard-${k}`);
}

/** The job-array script. */
export function slurmScript(options: SlurmOptions): string {
  const directives = [
    `--job-name=${options.jobName ?? "graphplan-batch"}`,
    `--array=0-${options.shards - 1}${options.maxParallel ? `%${options.maxParallel}` : ""}`,
    `--output=${join(options.outDir, "slurm", "%A_%a.log")}`,
    ...(options.partition ? [`--partition=${options.partition}`] : []),
    ...(options.cpusPerTask ? [`--cpus-per-task=${options.cpusPerTask}`] : []),
    ...(options.mem ? [`--mem=${options.mem}`] : []),
    ...(options.time ? [`--time=${options.time}`] : []),
    ...(options.extra ?? []),
  ];
  const command = [...options.graphplan, "batch", ...options.batchArgs].map(shellQuote).join(" ");
  const out = shellQuote(options.outDir);
  return [
    "#!/bin/bash",
    "# GraphPlan batch as a Slurm job array: one shard per array task.",
    "# Written by `graphplan slurm`; after every task has ended, merge the shards with",
    `#   ${[...options.graphplan, "merge-preds"].map(shellQuote).join(" ")} ${out}/shard-* -o ${out}`,
    ...directives.map((line) => `#SBATCH ${line}`),
    "set -euo pipefail",
    ...(options.workdir
      ? [
        "# Relative paths in the options are relative to where `graphplan slurm` ran.",
        `cd ${shellQuote(options.workdir)}`,
      ]
      : []),
    `shard="\${SLURM_ARRAY_TASK_ID:?not running as a Slurm array task}"`,
    `exec ${command} --shard "$shard/${options.shards}" -o ${out}/shard-"$shard"`,
    "",
  ].join("\n");
}

/** Submit `scriptPath` with `sbatch --parsable`; returns the job id. */
export async function submitSlurm(scriptPath: string, options: { sbatch?: string } = {}): Promise<string> {
  const result = await runProcess([options.sbatch ?? "sbatch", "--parsable", scriptPath], { timeout: 120 });
  if (result.returncode !== 0) {
    throw new Error(`sbatch failed (exit ${result.returncode}): ${result.output.trim()}`);
  }
  const id = result.output.trim().split("\n").at(-1)!.split(";")[0];
  if (!/^\d+$/.test(id)) throw new Error(`sbatch printed no job id: "${result.output.trim()}"`);
  return id;
}
