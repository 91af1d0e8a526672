/**
 * `<out>/preds.json`, the file the SWE-bench harness reads:
 * `{instance_id: {instance_id, model_name_or_path, model_patch}}`. Each
 * finished instance rewrites it whole, atomically; updates from parallel
 * workers in this process are queued so none is lost.
 *
 * @module
 */

import { join } from "../../engine/node_builtins.ts";
import { serialize, writeTextAtomic } from "./atomic.ts";
import { readFailure } from "../../engine/read_failure.ts";

/** One prediction. */
export interface Prediction {
  instance_id: string;
  model_name_or_path: string;
  model_patch: string;
}

/** The predictions file's path in `outDir`. */
export function predsPath(outDir: string): string {
  return join(outDir, "preds.json");
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

/** Add or replace `prediction` in `<outDir>/preds.json`. */
export function savePrediction(outDir: string, prediction: Prediction): Promise<void> {
  const path = predsPath(outDir);
  return serialize(`${path}#update`, async () => {
    const preds = await readPreds(outDir);
    preds[prediction.instance_id] = prediction;
    await writeTextAtomic(path, JSON.stringify(preds, null, 2) + "\n");
  });
}
