/**
 * A batch's own outputs read back at its start, and mended when they are
 * damaged. `preds.json` and `batch.json` are written atomically, so damage
 * comes from elsewhere: a disk that filled up under another program, an
 * editor, a copy cut short, a directory made in their place. Treating such
 * a file as empty would redo paid work and, on the next write, replace
 * every earlier record without a word; stopping with a stack helps nobody.
 *
 * So a damaged file (not JSON, the wrong shape, a directory) is renamed
 * aside as `NAME.damaged-TIMESTAMP` (never deleted, never overwritten, see
 * trajectory/set_aside.ts) and its content rebuilt from what each instance wrote itself,
 * `OUT/ID/ID.traj.json`:
 *
 * - a prediction for each trajectory that ended (an exit status that is not
 *   one of {@linkcode UNFINISHED}) with its submission and model name, so
 *   those instances are skipped as before and the others run again;
 * - a record for each trajectory: status, cost, steps, times, last phase
 *   (`Interrupted` for one that was cut off before it ended).
 *
 * Each recovery is reported ({@linkcode Recovery}), so the batch can say
 * what it did.
 *
 * @module
 */

import { join } from "../../engine/base/node_builtins.ts";
import { instanceIdProblem } from "../instance_id.ts";
import { trajectoryPath } from "../trajectory/mod.ts";
import { readOrSetAside } from "../trajectory/set_aside.ts";
import { parsePreds, type Prediction, PREDS_FILES } from "./preds.ts";
import { type InstanceRecord, parseBatchDocument, UNFINISHED } from "./report.ts";

/** One damaged file kept aside and what was rebuilt in its place. */
export interface Recovery {
  /** The damaged file's path. */
  file: string;
  /** Its name now (in the same directory). */
  keptAs: string;
  /** What was wrong with it. */
  problem: string;
  /** Entries rebuilt from the trajectories. */
  rebuilt: number;
  /** `prediction` or `record`: what was rebuilt. */
  what: string;
}

/** What a batch output holds, after any recovery. */
export interface RecoveredOutputs {
  preds: Record<string, Prediction>;
  records: Record<string, InstanceRecord>;
  recoveries: Recovery[];
}

/** What one trajectory says about its instance. */
interface TrajectorySummary {
  id: string;
  status: string | null;
  submission: string;
  model: string;
  cost: number;
  calls: number;
  startedAt?: string;
  updatedAt?: string;
  phase: string;
}

/** Read the predictions and batch.json of `outDir`, mending damaged ones (see the module notes). */
export async function readBatchOutputs(outDir: string): Promise<RecoveredOutputs> {
  const recoveries: Recovery[] = [];
  let trajectories: TrajectorySummary[] | undefined;
  const summaries = async () => trajectories ??= await readTrajectories(outDir);

  const preds: Record<string, Prediction> = {};
  let predsDamaged: { file: string; keptAs: string; problem: string } | undefined;
  for (const name of PREDS_FILES) {
    const path = join(outDir, name);
    const read = await readOrSetAside(path, (text) => parsePreds(text, path), {
      emptyIsValid: name.endsWith(".jsonl"),
    });
    if (read.damage) predsDamaged ??= read.damage;
    for (const record of read.value ?? []) preds[record.instance_id] = record;
  }
  if (predsDamaged) {
    let rebuilt = 0;
    for (const t of await summaries()) {
      if (t.status === null || UNFINISHED.has(t.status) || Object.hasOwn(preds, t.id)) continue;
      preds[t.id] = { instance_id: t.id, model_name_or_path: t.model, model_patch: t.submission };
      rebuilt += 1;
    }
    recoveries.push({ ...predsDamaged, rebuilt, what: "prediction" });
  }

  const path = join(outDir, "batch.json");
  const read = await readOrSetAside(path, parseBatchDocument);
  let records = read.value ?? {};
  if (read.damage) {
    records = Object.fromEntries((await summaries()).map((t) => [t.id, recordOf(t)]));
    recoveries.push({ ...read.damage, rebuilt: Object.keys(records).length, what: "record" });
  }
  return { preds, records, recoveries };
}

/** The summary of every readable `ID/ID.traj.json` in `outDir` whose folder name is a valid id. */
async function readTrajectories(outDir: string): Promise<TrajectorySummary[]> {
  const out: TrajectorySummary[] = [];
  for await (const entry of Deno.readDir(outDir)) {
    if (!entry.isDirectory || instanceIdProblem(entry.name)) continue;
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(await Deno.readTextFile(trajectoryPath(outDir, entry.name)));
    } catch {
      continue;
    }
    const info = (doc?.info ?? {}) as Record<string, unknown>;
    const stats = (info.model_stats ?? {}) as Record<string, unknown>;
    const config = (info.config ?? {}) as { model?: { name?: unknown } };
    const phases = Array.isArray(info.phases) ? info.phases as { name?: unknown }[] : [];
    const last = phases.at(-1)?.name;
    out.push({
      id: entry.name,
      status: typeof info.exit_status === "string" ? info.exit_status : null,
      submission: typeof info.submission === "string" ? info.submission : "",
      model: typeof config.model?.name === "string" ? config.model.name : "unknown",
      cost: typeof stats.cost === "number" ? stats.cost : 0,
      calls: typeof stats.calls === "number" ? stats.calls : 0,
      startedAt: typeof info.started_at === "string" ? info.started_at : undefined,
      updatedAt: typeof info.updated_at === "string" ? info.updated_at : undefined,
      phase: typeof last === "string" ? last : "none",
    });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** The batch.json record a trajectory stands for (`Interrupted` when it did not end). */
function recordOf(t: TrajectorySummary): InstanceRecord {
  const seconds = t.startedAt && t.updatedAt ? (Date.parse(t.updatedAt) - Date.parse(t.startedAt)) / 1000 : 0;
  return {
    instance_id: t.id,
    status: t.status ?? "Interrupted",
    cost: t.cost,
    steps: t.calls,
    wall_time: Number.isFinite(seconds) ? seconds : 0,
    phase: t.phase,
    ...(t.startedAt ? { started_at: t.startedAt } : {}),
    ...(t.updatedAt ? { ended_at: t.updatedAt } : {}),
  };
}
