/**
 * `graphplan merge-preds`: several batch outputs (the shards of one batch,
 * or runs of one selection) merged into one output directory that reads
 * like a single batch's: the predictions, batch.json and
 * exit_statuses.yaml, and each instance's folder (`ID/ID.traj.json` and
 * whatever else the run left beside it), so `graphplan inspect` shows the
 * merged batch with a page per trajectory.
 *
 * One rule picks where each instance comes from, so its prediction, its
 * record and its trajectory always agree: the directory whose prediction
 * was kept (the later non-empty patch, see {@linkcode mergePredsDirs});
 * for an instance without a prediction (it did not finish anywhere), the
 * last directory given that has it. Instances found in several
 * directories are reported either way.
 *
 * Only real subdirectories of an input are copied, by their own names
 * (never a path built from an id read in a file), and only those that are
 * an instance: named by a record or prediction of that input, or holding
 * `NAME/NAME.traj.json`. Symlinks inside them are not followed (skipped).
 * Each folder is copied aside and renamed into place, replacing an older
 * one of the same name in the output.
 *
 * @module
 */

import { join } from "../../engine/base/node_builtins.ts";
import { pathInside } from "../trajectory/inside_root.ts";
import { BatchReport, type InstanceRecord } from "./report.ts";
import {
  type DuplicatePrediction,
  mergePredsDirs,
  type PredsFormat,
  PredsStore,
  readPredsDir,
} from "./preds.ts";

/** An instance found in several inputs: where it was, and which input was kept. */
export type DuplicateInstance = DuplicatePrediction;

/** What {@linkcode mergeOutputs} wrote. */
export interface MergeSummary {
  /** The predictions file written. */
  path: string;
  /** Predictions in it. */
  instances: number;
  /** Instances predicted by several inputs. */
  duplicates: DuplicatePrediction[];
  /** Instances with no prediction whose folder or record is in several inputs. */
  unpredictedDuplicates: DuplicateInstance[];
  /** Instance folders copied, with the input each came from. */
  copied: { instance_id: string; from: string }[];
}

/** What one input holds besides its predictions. */
interface Input {
  dir: string;
  records: Record<string, InstanceRecord>;
  /** Names of its instance folders. */
  folders: Set<string>;
}

/** Merge the batch outputs `dirs` into `out` (see the module notes). */
export async function mergeOutputs(
  dirs: readonly string[],
  out: string,
  options: { format?: PredsFormat } = {},
): Promise<MergeSummary> {
  const merged = await mergePredsDirs(dirs);
  const inputs: Input[] = [];
  for (const dir of dirs) {
    const records = await BatchReport.readEarlier(dir);
    const known = new Set([...Object.keys(records), ...Object.keys(await readPredsDir(dir))]);
    inputs.push({ dir, records, folders: await instanceFolders(dir, known) });
  }
  const ids = new Set<string>(merged.origins.keys());
  for (const input of inputs) {
    for (const id of [...Object.keys(input.records), ...input.folders]) ids.add(id);
  }
  const records: Record<string, InstanceRecord> = {};
  const copies: { instance_id: string; from: string }[] = [];
  const unpredictedDuplicates: DuplicateInstance[] = [];
  for (const id of [...ids].sort()) {
    const holders = inputs.filter((input) => Object.hasOwn(input.records, id) || input.folders.has(id));
    const origin = merged.origins.get(id);
    const chosen = holders.find((input) => input.dir === origin) ?? holders[holders.length - 1];
    if (!chosen) continue;
    if (origin === undefined && holders.length > 1) {
      unpredictedDuplicates.push({ instance_id: id, sources: holders.map((h) => h.dir), kept: chosen.dir });
    }
    const withRecord = [chosen, ...holders.toReversed()].find((input) => Object.hasOwn(input.records, id));
    if (withRecord) records[id] = withRecord.records[id];
    const withFolder = [chosen, ...holders.toReversed()].find((input) => input.folders.has(id));
    if (withFolder) copies.push({ instance_id: id, from: withFolder.dir });
  }
  await Deno.mkdir(out, { recursive: true });
  for (const copy of copies) {
    // Folder names read from disk, checked once more like every path built from data.
    await placeFolder(pathInside(copy.from, copy.instance_id), pathInside(out, copy.instance_id));
  }
  const store = new PredsStore(out, options.format ?? "dict", merged.preds);
  await store.flush();
  await new BatchReport(out, { merged_from: dirs }, records).flush();
  return {
    path: store.path,
    instances: store.size,
    duplicates: merged.duplicates,
    unpredictedDuplicates,
    copied: copies,
  };
}

/** The instance folders of `dir`: subdirectories named by `known` ids or holding NAME/NAME.traj.json. */
async function instanceFolders(dir: string, known: Set<string>): Promise<Set<string>> {
  const folders = new Set<string>();
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isDirectory) continue;
    if (known.has(entry.name) || await isFile(join(dir, entry.name, `${entry.name}.traj.json`))) {
      folders.add(entry.name);
    }
  }
  return folders;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.lstat(path)).isFile;
  } catch {
    return false;
  }
}

/** Copy the folder `from` to `to`, replacing it whole (nothing to do when they are the same folder). */
async function placeFolder(from: string, to: string): Promise<void> {
  const real = async (path: string) => await Deno.realPath(path).catch(() => null);
  if (await real(from) === await real(to)) return;
  const aside = `${to}.merge-${Deno.pid}.tmp`;
  await Deno.remove(aside, { recursive: true }).catch(() => {});
  await copyTree(from, aside);
  await Deno.remove(to, { recursive: true }).catch((err) => {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  });
  await Deno.rename(aside, to);
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to);
  for await (const entry of Deno.readDir(from)) {
    const source = join(from, entry.name), target = join(to, entry.name);
    if (entry.isDirectory) await copyTree(source, target);
    else if (entry.isFile) await Deno.copyFile(source, target);
  }
}
