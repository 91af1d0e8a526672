/**
 * `graphplan merge-preds DIR... -o OUT`: the predictions of several batch
 * outputs (the shards of one batch) in one `OUT/preds.json`, with their
 * batch.json records, exit_statuses.yaml and instance folders (trajectories)
 * merged the same way (see agent/swebench/merge_outputs.ts). For an id in
 * several, the later non-empty patch wins; each such id is reported.
 *
 * @module
 */

import { type Command, EXIT, printJson, refuse, stringOption, UsageError } from "./command.ts";
import { mergeOutputs, PREDS_FORMATS, type PredsFormat } from "../agent/swebench/mod.ts";
import type { Issue } from "../engine/base/issue.ts";
import { join } from "../engine/base/node_builtins.ts";
import { outputDirOption } from "./output_dir.ts";

const command: Command = {
  name: "merge-preds",
  summary: "Merge the predictions of several batch outputs (shards) into one",
  usage: "DIR... -o OUT [--preds-format dict|list|jsonl] [--json]",
  help: `
Reads DIR/preds.json (a dict or a list) and DIR/preds.jsonl of each DIR, in
the order given, and writes OUT/preds.json (or preds.jsonl), plus
OUT/batch.json and OUT/exit_statuses.yaml from the DIRs' batch.json, and
copies each instance's folder (DIR/ID/ID.traj.json and what else is in it)
to OUT/ID, so "graphplan inspect OUT" shows the merged batch. An instance
in several DIRs keeps the later non-empty patch (an empty patch never
replaces a non-empty one), with the record and folder of the same DIR; one
without a prediction keeps the last DIR's. Every such instance is listed on
stderr (in "duplicates" and "unpredicted_duplicates" with --json). A DIR
with none of preds.json, preds.jsonl and batch.json is warned about
(not-batch-output, in "warnings" with --json).

Examples:
  graphplan merge-preds runs/shard-* -o runs
  graphplan merge-preds run_a run_b -o merged --preds-format jsonl

Exit: 0 merged, 1 a DIR's predictions are unreadable, 2 usage error.`,
  options: {
    output: { type: "string", short: "o" },
    "preds-format": { type: "string" },
  },
  async run(args) {
    const dirs = args.positionals;
    if (dirs.length === 0) throw new UsageError("Give the output directories to merge");
    const out = await outputDirOption(args);
    if (!out) throw new UsageError("Give the merged output directory: -o OUT");
    const format = stringOption(args, "preds-format", "dict")! as PredsFormat;
    if (!PREDS_FORMATS.includes(format)) {
      throw new UsageError(`--preds-format must be one of ${PREDS_FORMATS.join(", ")}: got "${format}"`);
    }
    for (const dir of dirs) {
      try {
        if (!(await Deno.stat(dir)).isDirectory) throw new UsageError(`"${dir}" is not a directory`);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) {
          // An unquoted shell pattern that matched nothing reaches us as it was typed.
          const unmatched = /[*?[]/.test(dir) ? ": the shell pattern matched nothing" : "";
          throw new UsageError(`No directory "${dir}"${unmatched}`);
        }
        throw err;
      }
    }
    const warnings = await notBatchOutputs(dirs);
    for (const warning of warnings) if (!args.values.json) console.error(`merge-preds: ${warning.message}`);
    let merged;
    try {
      merged = await mergeOutputs(dirs, out, { format });
    } catch (err) {
      // The inputs are read, never changed: the batch that wrote one mends it (recover.ts).
      const hint = "run the same graphplan batch command on that directory again (it keeps the damaged " +
        "file aside and rebuilds it from the trajectories), or move the file away";
      return refuse("merge-preds", {
        code: "preds-unreadable",
        severity: "error",
        message: `${(err as Error).message}; ${hint}`,
        hint,
      }, { json: args.values.json === true, exit: EXIT.rejected });
    }
    if (args.values.json) {
      printJson({
        success: true,
        path: merged.path,
        instances: merged.instances,
        duplicates: merged.duplicates,
        unpredicted_duplicates: merged.unpredictedDuplicates,
        copied: merged.copied,
        warnings,
      });
      return EXIT.ok;
    }
    for (const d of merged.duplicates) {
      console.error(
        `merge-preds: "${d.instance_id}" is in ${
          d.sources.map((s) => `"${s}"`).join(", ")
        }: kept "${d.kept}"`,
      );
    }
    for (const d of merged.unpredictedDuplicates) {
      console.error(
        `merge-preds: "${d.instance_id}" (no prediction) is in ${
          d.sources.map((s) => `"${s}"`).join(", ")
        }: kept "${d.kept}"`,
      );
    }
    console.error(
      `merge-preds: ${merged.instances} prediction(s) from ${dirs.length} director${
        dirs.length === 1 ? "y" : "ies"
      } in ${merged.path}, ${merged.copied.length} instance folder(s) copied`,
    );
    return EXIT.ok;
  },
};

/**
 * A warning for each DIR with none of preds.json, preds.jsonl and
 * batch.json: most likely the parent of the shards, or a typo, which would
 * otherwise merge as zero predictions without a word.
 */
async function notBatchOutputs(dirs: string[]): Promise<Issue[]> {
  const warnings: Issue[] = [];
  for (const dir of dirs) {
    const found = await Promise.all(
      ["preds.json", "preds.jsonl", "batch.json"].map((name) =>
        Deno.stat(join(dir, name)).then(() => true, () => false)
      ),
    );
    if (found.includes(true)) continue;
    warnings.push({
      code: "not-batch-output",
      severity: "warning",
      message: `"${dir}" holds no preds.json, preds.jsonl or batch.json: it adds no predictions`,
      hint: "give the output directories of graphplan batch (the shards, e.g. runs/lite/shard-*)",
    });
  }
  return warnings;
}

export default command;
