/**
 * The batch's own records beside `preds.json`:
 *
 * - `OUT/batch.json`: per instance its status (the run's exit status, or
 *   `Running`, `Interrupted`, `BatchCostLimit`, `InternalError`), cost,
 *   steps, wall time, the phase it reached and where it fell back;
 * - `OUT/exit_statuses.yaml`: mini-swe-agent's summary, `{status: [ids]}`.
 *
 * Both are rewritten atomically after each event, so a killed batch leaves
 * them readable; `Running` in a file left by a killed batch marks the
 * instances that were cut off.
 *
 * @module
 */

import { stringify } from "yaml";
import { join } from "../../engine/base/node_builtins.ts";
import { serialize, writeJsonAtomic, writeTextAtomic, writeTextAtomicSync } from "../trajectory/atomic.ts";
import type { RunTimings } from "../timings.ts";

/** What batch.json says about one instance. */
export interface InstanceRecord {
  instance_id: string;
  status: string;
  cost: number;
  steps: number;
  /** Seconds from start to end. */
  wall_time: number;
  /** The last phase entered (`setup`, `explore`, ..., `fallback`). */
  phase: string;
  /** Where the GraphPlan phases handed over to the step loop, when they did. */
  fallback_point?: string;
  error?: string;
  started_at?: string;
  ended_at?: string;
  /** The container's name (removed when the instance ends). */
  container?: string;
  /** Where the wall time went (see agent/timings.ts). */
  timings?: RunTimings;
}

/** The batch.json document. */
export interface BatchDocument {
  /** What was run: the dataset, the selection's size, the model. */
  batch: Record<string, unknown>;
  updated_at: string;
  instances: Record<string, InstanceRecord>;
}

/**
 * Statuses of instances that did not run to an end: never in the
 * predictions, so a resume runs them again. `EnvironmentError` (the
 * container did not start, the image could not be pulled) is one: it says
 * nothing about the model.
 */
export const UNFINISHED = new Set([
  "Running",
  "Interrupted",
  "BatchCostLimit",
  "InternalError",
  "EnvironmentError",
]);

/**
 * The instance records of a batch.json's text; an error saying what is
 * wrong when it is not JSON or not `{instances: {ID: {instance_id, status}}}`.
 */
export function parseBatchDocument(text: string): Record<string, InstanceRecord> {
  const doc = JSON.parse(text) as Partial<BatchDocument> | null;
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) throw new Error("it is not a JSON object");
  const instances = doc.instances;
  if (!instances || typeof instances !== "object" || Array.isArray(instances)) {
    throw new Error('it has no "instances" object');
  }
  for (const [id, record] of Object.entries(instances)) {
    if (!record || typeof record !== "object" || typeof record.status !== "string") {
      throw new Error(`the record of "${id}" has no "status"`);
    }
  }
  return instances;
}

/** The records of a batch, written after each change. */
export class BatchReport {
  readonly outDir: string;
  readonly batch: Record<string, unknown>;
  readonly instances: Record<string, InstanceRecord>;

  constructor(outDir: string, batch: Record<string, unknown>, earlier: Record<string, InstanceRecord> = {}) {
    this.outDir = outDir;
    this.batch = batch;
    this.instances = { ...earlier };
  }

  /** The records of an earlier run in `outDir` (none when absent or unreadable). */
  static async readEarlier(outDir: string): Promise<Record<string, InstanceRecord>> {
    try {
      const doc = JSON.parse(await Deno.readTextFile(join(outDir, "batch.json"))) as BatchDocument;
      return doc && typeof doc.instances === "object" ? doc.instances : {};
    } catch {
      return {};
    }
  }

  /** Set the record of one instance and rewrite both files. */
  set(record: InstanceRecord): Promise<void> {
    this.instances[record.instance_id] = record;
    return this.flush();
  }

  /** `{status: [ids]}` over every record. */
  exitStatuses(): Record<string, string[]> {
    const groups: Record<string, string[]> = {};
    for (const record of Object.values(this.instances)) {
      (groups[record.status] ??= []).push(record.instance_id);
    }
    for (const ids of Object.values(groups)) ids.sort();
    return Object.fromEntries(Object.entries(groups).sort(([a], [b]) => a.localeCompare(b)));
  }

  /** Mark every record still `Running` as `Interrupted` with `error` (nothing is written). */
  endRunning(error: string): void {
    const now = new Date().toISOString();
    for (const record of Object.values(this.instances)) {
      if (record.status === "Running") Object.assign(record, { status: "Interrupted", error, ended_at: now });
    }
  }

  /** Rewrite batch.json and exit_statuses.yaml. */
  flush(): Promise<void> {
    return serialize(join(this.outDir, "batch.json#report"), async () => {
      await writeJsonAtomic(join(this.outDir, "batch.json"), this.#document());
      await writeTextAtomic(join(this.outDir, "exit_statuses.yaml"), stringify(this.exitStatuses()));
    });
  }

  /**
   * {@linkcode BatchReport.flush} without waiting: for a process about to
   * exit at once (a second Ctrl-C), where no queued write would finish.
   */
  flushSync(): void {
    writeTextAtomicSync(join(this.outDir, "batch.json"), JSON.stringify(this.#document(), null, 2) + "\n");
    writeTextAtomicSync(join(this.outDir, "exit_statuses.yaml"), stringify(this.exitStatuses()));
  }

  #document(): BatchDocument {
    return { batch: this.batch, updated_at: new Date().toISOString(), instances: this.instances };
  }
}
