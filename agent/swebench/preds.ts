/**
 * A batch's predictions in the three shapes tools read:
 *
 * - `dict` (default): `OUT/preds.json`, `{instance_id: {instance_id, model_name_or_path, model_patch}}`,
 *   what the SWE-bench harness reads;
 * - `list`: `OUT/preds.json` as a JSON list of the same records;
 * - `jsonl`: `OUT/preds.jsonl`, one record a line.
 *
 * The file is rewritten whole and atomically after each instance (by
 * trajectory/preds.ts's `writePreds`, the one writer), so it is valid JSON
 * whenever a batch is killed. Reading accepts any of the shapes
 * (resume and `merge-preds` do not care which one a run chose).
 *
 * @module
 */

import { join } from "../../engine/base/node_builtins.ts";
import { type Prediction, predsFile, type PredsFormat, writePreds } from "../trajectory/preds.ts";
import { readFailure } from "../../engine/base/read_failure.ts";

export {
  type Prediction,
  PREDS_FORMATS,
  predsFile,
  type PredsFormat,
  renderPreds,
} from "../trajectory/preds.ts";

/** The names of the predictions files a batch output may hold. */
export const PREDS_FILES = ["preds.json", "preds.jsonl"] as const;

/**
 * The predictions in `outDir`: `preds.json` (dict or list) and
 * `preds.jsonl`, when present; a later record of the same id replaces an
 * earlier one. An absent directory or file is empty; a damaged one is an
 * error (never silently treated as empty, which would redo paid work).
 */
export async function readPredsDir(outDir: string): Promise<Record<string, Prediction>> {
  const preds: Record<string, Prediction> = {};
  for (const name of PREDS_FILES) {
    const path = join(outDir, name);
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) continue;
      throw new Error(`Cannot read "${path}": ${readFailure(err)}`);
    }
    for (const record of parsePreds(text, path)) preds[record.instance_id] = record;
  }
  return preds;
}

/**
 * The records of a predictions file's text (`path` tells JSONL from JSON and
 * names the file in errors); an error when it is not JSON, not a list or an
 * object of records, or a record lacks `instance_id` or `model_patch`.
 */
export function parsePreds(text: string, path: string): Prediction[] {
  let records: unknown[];
  try {
    if (path.endsWith(".jsonl")) {
      records = text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
    } else {
      const data = JSON.parse(text);
      if (!data || typeof data !== "object") {
        throw new Error(`it holds ${data === null ? "null" : `a ${typeof data}`}, not a list or an object`);
      }
      records = Array.isArray(data) ? data : Object.values(data);
    }
  } catch (err) {
    throw new Error(`Cannot parse "${path}": ${(err as Error).message}`);
  }
  for (const record of records) {
    const r = record as Partial<Prediction> | null;
    if (!r || typeof r.instance_id !== "string" || typeof r.model_patch !== "string") {
      throw new Error(`"${path}" holds a record without "instance_id" and "model_patch"`);
    }
  }
  return records as Prediction[];
}

/** The predictions of a running batch: added one at a time, written after each. */
export class PredsStore {
  readonly path: string;
  readonly #outDir: string;
  readonly #format: PredsFormat;
  readonly #preds: Record<string, Prediction>;

  constructor(outDir: string, format: PredsFormat, existing: Record<string, Prediction> = {}) {
    this.path = predsFile(outDir, format);
    this.#outDir = outDir;
    this.#format = format;
    this.#preds = { ...existing };
  }

  /** Whether `id` has a prediction. */
  has(id: string): boolean {
    return Object.hasOwn(this.#preds, id);
  }

  /** How many predictions there are. */
  get size(): number {
    return Object.keys(this.#preds).length;
  }

  /** Add or replace one prediction and rewrite the file. */
  put(prediction: Prediction): Promise<void> {
    this.#preds[prediction.instance_id] = prediction;
    return this.flush();
  }

  /** Rewrite the file with every prediction. */
  flush(): Promise<void> {
    return writePreds(
      this.#outDir,
      this.#format,
      () => Promise.resolve({ preds: this.#preds, result: undefined }),
    );
  }
}

/** Two outputs predicted the same instance. */
export interface DuplicatePrediction {
  instance_id: string;
  /** The output directories that had it, in the order given. */
  sources: string[];
  /** The directory whose prediction was kept. */
  kept: string;
}

/**
 * The predictions of `dirs` merged in order: for an id in several, the
 * later non-empty patch wins (an empty patch never replaces a non-empty
 * one); every such id is reported.
 */
export async function mergePredsDirs(
  dirs: readonly string[],
): Promise<{
  preds: Record<string, Prediction>;
  duplicates: DuplicatePrediction[];
  /** For every id, the directory whose prediction was kept. */
  origins: Map<string, string>;
}> {
  const preds: Record<string, Prediction> = {};
  const from = new Map<string, string[]>();
  const kept = new Map<string, string>();
  for (const dir of dirs) {
    for (const [id, record] of Object.entries(await readPredsDir(dir))) {
      from.set(id, [...(from.get(id) ?? []), dir]);
      const current = preds[id];
      if (!current || record.model_patch.trim() !== "" || current.model_patch.trim() === "") {
        preds[id] = record;
        kept.set(id, dir);
      }
    }
  }
  const duplicates = [...from].filter(([, sources]) => sources.length > 1).map(([id, sources]) => ({
    instance_id: id,
    sources,
    kept: kept.get(id)!,
  }));
  return { preds, duplicates, origins: kept };
}
