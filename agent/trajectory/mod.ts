/**
 * A run's record: `<out>/<id>/<id>.traj.json` holds the conversation, what
 * each phase did (plan files and steps, verification reports, executed
 * steps), the exit status, the submission, the model's usage and the config.
 * The agent calls `save()` after every step; each save replaces the file
 * atomically, so a crash leaves the last complete state.
 *
 * ```json
 * {"trajectory_format": "graphplan-1", "instance_id": "astropy__astropy-12907",
 *  "info": {"exit_status": "Submitted", "submission": "diff --git ...",
 *           "model_stats": {"cost": 0.04, "calls": 12, "input_tokens": 81000, "output_tokens": 3100,
 *                           "instance_cost": 0.04, "api_calls": 12},
 *           "phases": [{"name": "explore", "status": "done", "started_at": "...", "steps": 7}, ...],
 *           "config": {...}, "version": "0.1.0", "started_at": "...", "updated_at": "..."},
 *  "messages": [{"role": "system", "content": "..."}, ...]}
 * ```
 *
 * @module
 */

import type { Message, ModelStats } from "../model/types.ts";
import { VERSION } from "../../version.ts";
import { writeJsonAtomic } from "./atomic.ts";
import { pathInside } from "./inside_root.ts";

export { OutputWriteError, serialize, writeJsonAtomic, writeTextAtomic } from "./atomic.ts";
export { OutsideRootError, pathInside } from "./inside_root.ts";
export { type Prediction, predsPath, readPreds, savePrediction } from "./preds.ts";

/** The format tag written into every trajectory. */
export const TRAJECTORY_FORMAT = "graphplan-1";

/** What one phase did; the phase machine adds its own fields. */
export interface PhaseRecord {
  name: string;
  /** `running` until ended; then e.g. `done`, `failed`, `fallback`. */
  status: string;
  started_at: string;
  ended_at?: string;
  [key: string]: unknown;
}

/** The `info` part of a trajectory. */
export interface TrajectoryInfo {
  /** `Submitted`, `LimitsExceeded`, an error class name, ...; null while running. */
  exit_status: string | null;
  submission: string;
  model_stats: ModelStats;
  phases: PhaseRecord[];
  config: unknown;
  version: string;
  started_at: string;
  updated_at: string;
  [key: string]: unknown;
}

/**
 * The trajectory's path for `instanceId` in `outDir`; an id that would lead
 * outside `outDir` is refused (see inside_root.ts).
 */
export function trajectoryPath(outDir: string, instanceId: string): string {
  return pathInside(outDir, instanceId, `${instanceId}.traj.json`);
}

/** A trajectory being recorded. */
export class Trajectory {
  readonly instanceId: string;
  readonly path: string;
  readonly messages: Message[] = [];
  readonly info: TrajectoryInfo;
  readonly #stats?: () => ModelStats;
  readonly #onPhase?: (record: PhaseRecord) => void;

  constructor(
    outDir: string,
    instanceId: string,
    options: { config?: unknown; stats?: () => ModelStats; onPhase?: (record: PhaseRecord) => void } = {},
  ) {
    this.instanceId = instanceId;
    this.path = trajectoryPath(outDir, instanceId);
    this.#stats = options.stats;
    this.#onPhase = options.onPhase;
    const now = new Date().toISOString();
    this.info = {
      exit_status: null,
      submission: "",
      model_stats: { cost: 0, calls: 0, input_tokens: 0, output_tokens: 0, instance_cost: 0, api_calls: 0 },
      phases: [],
      config: options.config ?? null,
      version: VERSION,
      started_at: now,
      updated_at: now,
    };
  }

  /** Append messages (kept as given, `extra` included). */
  add(...messages: Message[]): void {
    this.messages.push(...messages);
  }

  /** Start recording a phase; end it with {@linkcode Trajectory.endPhase}. */
  startPhase(name: string, details: Record<string, unknown> = {}): PhaseRecord {
    const record: PhaseRecord = { name, status: "running", started_at: new Date().toISOString(), ...details };
    this.info.phases.push(record);
    this.#onPhase?.(record);
    return record;
  }

  /** Mark `record` ended with `status`, adding `details`. */
  endPhase(record: PhaseRecord, status: string, details: Record<string, unknown> = {}): void {
    Object.assign(record, details, { status, ended_at: new Date().toISOString() });
    this.#onPhase?.(record);
  }

  /** Record how the run ended. */
  finish(exitStatus: string, submission = ""): void {
    this.info.exit_status = exitStatus;
    this.info.submission = submission;
  }

  /** The document as saved. */
  toJSON(): Record<string, unknown> {
    return {
      trajectory_format: TRAJECTORY_FORMAT,
      instance_id: this.instanceId,
      info: this.info,
      messages: this.messages,
    };
  }

  /** Write the file atomically, with fresh model stats. */
  save(): Promise<void> {
    if (this.#stats) this.info.model_stats = { ...this.#stats() };
    this.info.updated_at = new Date().toISOString();
    return writeJsonAtomic(this.path, this.toJSON());
  }
}

/** Read a saved trajectory. */
export async function readTrajectory(path: string): Promise<
  { trajectory_format: string; instance_id: string; info: TrajectoryInfo; messages: Message[] }
> {
  return JSON.parse(await Deno.readTextFile(path));
}
