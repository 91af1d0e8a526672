/**
 * `<out>/preds.json`, the file the SWE-bench harness reads:
 * `{instance_id: {instance_id, model_name_or_path, model_patch}}`, and its
 * other shapes (`list`, `jsonl`; see {@linkcode PREDS_FORMATS}).
 *
 * {@linkcode writePreds} is the one writer of a predictions file, for a
 * single run ({@linkcode savePrediction}) and a batch (swebench/preds.ts's
 * `PredsStore`) alike: it rewrites the file whole, atomically, and queues the
 * writes of one file in this process so no update from a parallel worker is
 * lost. For a single run, a file there that is not such an object (cut short,
 * a list, a directory) is renamed aside, never replaced (see set_aside.ts),
 * and a new one started.
 *
 * @module
 */

import { join } from "../../engine/base/node_builtins.ts";
import { serialize, writeTextAtomic } from "./atomic.ts";
import { readOrSetAside, type SetAside } from "./set_aside.ts";
import { readFailure } from "../../engine/base/read_failure.ts";

/** One prediction. */
export interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  model_patch: string;
}

/** The shapes `--preds-format` offers. */
export const PREDS_FORMATS = ["dict", "list", "jsonl"] as const;
/** One of {@linkcode PREDS_FORMATS}. */
export type PredsFormat = typeof PREDS_FORMATS[number];

/** The predictions file's path in `outDir` (a single run's, the `dict` shape). */
export function predsPath(outDir: string): string {
  return predsFile(outDir, "dict");
}

/** The predictions file of `format` in `outDir`. */
export function predsFile(outDir: string, format: PredsFormat): string {
  return join(outDir, format === "jsonl" ? "preds.jsonl" : "preds.json");
}

/** `preds` as the text of a `format` file. */
export function renderPreds(preds: Record<string, Prediction>, format: PredsFormat): string {
  const records = Object.values(preds);
  if (format === "jsonl") return records.map((record) => JSON.stringify(record) + "\n").join("");
  return JSON.stringify(format === "list" ? records : preds, null, 2) + "\n";
}

/**
 * Rewrite the `format` predictions file of `outDir` with the predictions
 * `change` gives, whole and atomically. Writes of one file are queued in this
 * process and `change` runs in its turn, so a read-modify-write is never
 * interleaved with another; its `result` is returned.
 */
export function writePreds<T>(
  outDir: string,
  format: PredsFormat,
  change: () => Promise<{ preds: Record<string, Prediction>; result: T }>,
): Promise<T> {
  const path = predsFile(outDir, format);
  return serialize(`${path}#preds`, async () => {
    const { preds, result } = await change();
    await writeTextAtomic(path, renderPreds(preds, format));
    return result;
  });
}

/** Read `<outDir>/preds.json`; an absent file is empty. */
export async function readPreds(outDir: string): Promise<Record<string, Prediction>> {
  try {
    const data = JSON.parse(await Deno.readTextFile(predsPath(outDir)));
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return {};
    throw new Error(`Cannot read "${predsPath(outDir)}": ${readFailure(err)}`, { cause: err });
  }
}

/**
 * Add or replace `prediction` in `<outDir>/preds.json`; when the file there
 * was damaged, it is kept aside and the new file holds this prediction
 * only: what was set aside is returned, for the caller to say.
 */
export function savePrediction(outDir: string, prediction: Prediction): Promise<SetAside | undefined> {
  return writePreds(outDir, "dict", async () => {
    const read = await readOrSetAside(predsPath(outDir), parseDict);
    const preds = read.value ?? {};
    preds[prediction.instance_id] = prediction;
    return { preds, result: read.damage };
  });
}

/** A preds.json as `{id: prediction}`; an error saying what else it is. */
function parseDict(text: string): Record<string, Prediction> {
  const data = JSON.parse(text);
  if (!data || typeof data !== "object" || Array.isArray(data)) {
    throw new Error(
      `it is ${
        Array.isArray(data) ? "a list" : data === null ? "null" : `a ${typeof data}`
      }, not an object of predictions`,
    );
  }
  for (const [id, record] of Object.entries(data)) {
    if (!record || typeof record !== "object" || typeof (record as Prediction).model_patch !== "string") {
      throw new Error(`the record of "${id}" has no "model_patch"`);
    }
  }
  return data;
}
