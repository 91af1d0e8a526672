/**
 * `graphplan merge-preds DIR... -o OUT`: the predictions of several batch
 * outputs (the shards of one batch) in one `OUT/preds.json`, with their
 * batch.json records and exit_statuses.yaml merged the same way. For an id
 * in several, the later non-empty patch wins; each such id is reported.
 *
 * @module
 */

import { type Command, EXIT, printJson, stringOption, UsageError } from "./command.ts";
import {
  BatchReport,
  type InstanceRecord,
  mergePredsDirs,
  PREDS_FORMATS,
  type PredsFormat,
  PredsStore,
} from "../agent/swebench/mod.ts";

const command: Command = {
  name: "merge-preds",
  summary: "Merge the predictions of several batch outputs (shards) into one",
  usage: "DIR... -o OUT [--preds-format dict|list|jsonl] [--json]",
  help: `
Reads DIR/preds.json (a dict or a list) and DIR/preds.jsonl of each DIR, in
the order given, and writes OUT/preds.json (or preds.jsonl), plus
OUT/batch.json and OUT/exit_statuses.yaml from the DIRs' batch.json. An
instance in several DIRs keeps the later non-empty patch (an empty patch
never replaces a non-empty one); every such instance is listed on stderr
(in "duplicates" with --json).

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
    const out = stringOption(args, "output");
    if (!out) throw new UsageError("Give the merged output directory: -o OUT");
    const format = stringOption(args, "preds-format", "dict")! as PredsFormat;
    if (!PREDS_FORMATS.includes(format)) {
      throw new UsageError(`--preds-format must be one of ${PREDS_FORMATS.join(", ")}: got "${format}"`);
    }
    for (const dir of dirs) {
      try {
        if (!(await Deno.stat(dir)).isDirectory) throw new UsageError(`"${dir}" is not a directory`);
      } catch (err) {
        if (err instanceof Deno.errors.NotFound) throw new UsageError(`No directory "${dir}"`);
        throw err;
      }
    }
    let merged;
    try {
      merged = await mergePredsDirs(dirs);
    } catch (err) {
      console.error(`graphplan merge-preds: ${(err as Error).message}`);
      return EXIT.rejected;
    }
    const records: Record<string, InstanceRecord> = {};
    const keptDir = new Map(merged.duplicates.map((d) => [d.instance_id, d.kept]));
    for (const dir of dirs) {
      for (const [id, record] of Object.entries(await BatchReport.readEarlier(dir))) {
        if ((keptDir.get(id) ?? dir) === dir) records[id] = record;
      }
    }
    await Deno.mkdir(out, { recursive: true });
    const store = new PredsStore(out, format, merged.preds);
    await store.flush();
    await new BatchReport(out, { merged_from: dirs }, records).flush();
    for (const d of merged.duplicates) {
      if (!args.values.json) {
        console.error(
          `merge-preds: "${d.instance_id}" is in ${
            d.sources.map((s) => `"${s}"`).join(", ")
          }: kept "${d.kept}"`,
        );
      }
    }
    if (args.values.json) {
      printJson({ success: true, path: store.path, instances: store.size, duplicates: merged.duplicates });
    } else {
      console.error(
        `merge-preds: ${store.size} prediction(s) from ${dirs.length} director${
          dirs.length === 1 ? "y" : "ies"
        } in ${store.path}`,
      );
    }
    return EXIT.ok;
  },
};

export default command;
