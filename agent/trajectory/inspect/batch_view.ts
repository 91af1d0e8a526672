/**
 * A batch output directory as the batch page shows it. `graphplan batch`
 * writes, in its output directory:
 *
 * - `batch.json`: `{batch, updated_at, instances: {id: {instance_id, status,
 *   cost, steps, wall_time, phase, fallback_point?, error?, started_at?,
 *   ended_at?, ...}}}`;
 * - `exit_statuses.yaml`: `{status: [ids]}`;
 * - `preds.json` (a dict or a list of `{instance_id, model_name_or_path,
 *   model_patch}`) or `preds.jsonl`;
 * - `<id>/<id>.traj.json` per instance.
 *
 * Each file is optional: an instance known only from its trajectory (a run
 * directory with several runs, or a batch killed before its records were
 * written) gets a row from the trajectory; a row's status comes from
 * batch.json, then exit_statuses.yaml, then the trajectory.
 *
 * @module
 */

import { parse as parseYaml } from "yaml";
import { join } from "../../../engine/base/node_builtins.ts";
import { trajectoryPath } from "../mod.ts";
import { furthestPhase } from "./format.ts";

type Dict = Record<string, unknown>;

/** One instance of the batch. */
export interface InstanceRow {
  id: string;
  status: string;
  /** The last phase entered, as batch.json records it (or the trajectory's last phase). */
  phase: string;
  /** Index in the phase machine of the furthest structured phase reached (-1 none). */
  reached: number;
  fallbackPoint?: string;
  steps?: number;
  cost?: number;
  wallTime?: number;
  error?: string;
  /** Whether a non-empty patch is in the predictions (or, without them, in the trajectory). */
  patched?: boolean;
  patchLines?: number;
  /** The trajectory's path, when it exists. */
  trajectory?: string;
}

/** The batch page's model. */
export interface BatchView {
  dir: string;
  /** What batch.json says about the batch (dataset, model, workers, ...). */
  batch: Dict;
  updatedAt?: string;
  rows: InstanceRow[];
  /** Problems reading the files (each file is optional; a damaged one is reported, not fatal). */
  notes: string[];
}

function dict(value: unknown): Dict {
  return value && typeof value === "object" && !Array.isArray(value) ? value as Dict : {};
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

/** Whether `dir` looks like a batch output (it has batch.json or exit_statuses.yaml). */
export async function isBatchDir(dir: string): Promise<boolean> {
  return await exists(join(dir, "batch.json")) || await exists(join(dir, "exit_statuses.yaml"));
}

/** The ids with a `<id>/<id>.traj.json` in `dir`, sorted. */
export async function trajectoryIds(dir: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory && await exists(trajectoryPath(dir, entry.name))) ids.push(entry.name);
  }
  return ids.sort();
}

function parsePreds(text: string, jsonl: boolean): Dict[] {
  if (jsonl) return text.split("\n").filter((line) => line.trim()).map((line) => dict(JSON.parse(line)));
  const data = JSON.parse(text);
  return (Array.isArray(data) ? data : Object.values(dict(data))).map(dict);
}

/** Summary facts of a trajectory for its row: status, last phase, furthest phase, fallback, stats. */
async function fromTrajectory(
  path: string,
): Promise<Partial<InstanceRow> & { submission?: string } | string> {
  try {
    const doc = dict(JSON.parse(await Deno.readTextFile(path)));
    const info = dict(doc.info);
    const names = (Array.isArray(info.phases) ? info.phases : []).map((phase) => String(dict(phase).name));
    const stats = dict(info.model_stats);
    const start = Date.parse(String(info.started_at)), end = Date.parse(String(info.updated_at));
    return {
      status: typeof info.exit_status === "string" ? info.exit_status : "Running",
      phase: names[names.length - 1] ?? "none",
      reached: furthestPhase(names),
      fallbackPoint: typeof dict(info.fallback).point === "string"
        ? String(dict(info.fallback).point)
        : undefined,
      steps: num(stats.calls),
      cost: num(stats.cost),
      wallTime: Number.isFinite(end - start) ? (end - start) / 1000 : undefined,
      submission: typeof info.submission === "string" ? info.submission : undefined,
    };
  } catch (err) {
    return `"${path}" could not be read: ${(err as Error).message}`;
  }
}

/** Read the batch in `dir`. */
export async function readBatch(dir: string): Promise<BatchView> {
  const notes: string[] = [];
  let doc: Dict = {};
  const batchText = await readText(join(dir, "batch.json"));
  if (batchText !== undefined) {
    try {
      doc = dict(JSON.parse(batchText));
    } catch (err) {
      notes.push(`batch.json is not valid JSON: ${(err as Error).message}`);
    }
  }
  const statusOf = new Map<string, string>();
  const yamlText = await readText(join(dir, "exit_statuses.yaml"));
  if (yamlText !== undefined) {
    try {
      for (const [status, ids] of Object.entries(dict(parseYaml(yamlText)))) {
        for (const id of Array.isArray(ids) ? ids : []) statusOf.set(String(id), status);
      }
    } catch (err) {
      notes.push(`exit_statuses.yaml is not valid YAML: ${(err as Error).message}`);
    }
  }
  const preds = new Map<string, string>();
  for (const name of ["preds.json", "preds.jsonl"]) {
    const predsText = await readText(join(dir, name));
    if (predsText === undefined) continue;
    try {
      for (const record of parsePreds(predsText, name.endsWith(".jsonl"))) {
        if (typeof record.instance_id === "string") {
          preds.set(record.instance_id, typeof record.model_patch === "string" ? record.model_patch : "");
        }
      }
    } catch (err) {
      notes.push(`${name} could not be read: ${(err as Error).message}`);
    }
  }
  const records = dict(doc.instances);
  const withTrajectory = new Set(await trajectoryIds(dir));
  const ids = [...new Set([...Object.keys(records), ...statusOf.keys(), ...withTrajectory, ...preds.keys()])]
    .sort();
  const rows: InstanceRow[] = [];
  for (const id of ids) {
    const record = dict(records[id]);
    // Only folders found on disk have a path: an id read from a file may not name one (`..`).
    const path = withTrajectory.has(id) ? trajectoryPath(dir, id) : undefined;
    const traj = path ? await fromTrajectory(path) : {};
    if (typeof traj === "string") notes.push(traj);
    const t = typeof traj === "string" ? {} : traj;
    const phase = typeof record.phase === "string" ? record.phase : t.phase ?? "none";
    const patch = preds.get(id) ?? t.submission;
    rows.push({
      id,
      status: typeof record.status === "string" ? record.status : statusOf.get(id) ?? t.status ?? "unknown",
      phase,
      reached: t.reached ??
        furthestPhase([phase, ...(typeof record.fallback_point === "string" ? [record.fallback_point] : [])]),
      fallbackPoint: typeof record.fallback_point === "string" ? record.fallback_point : t.fallbackPoint,
      steps: num(record.steps) ?? t.steps,
      cost: num(record.cost) ?? t.cost,
      wallTime: num(record.wall_time) ?? t.wallTime,
      error: typeof record.error === "string" ? record.error : undefined,
      patched: patch === undefined ? undefined : patch.trim() !== "",
      patchLines: patch === undefined
        ? undefined
        : patch.split("\n").filter((line) => /^[+-]/.test(line) && !/^(\+\+\+|---) /.test(line)).length,
      trajectory: path,
    });
  }
  return {
    dir,
    batch: dict(doc.batch),
    updatedAt: typeof doc.updated_at === "string" ? doc.updated_at : undefined,
    rows,
    notes,
  };
}
