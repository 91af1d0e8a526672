/**
 * `<out>/preds.json`, the file the SWE-bench harness reads:
 * `{instance_id: {instance_id, model_name_or_path, model_patch}}`. Each
 * finished instance rewrites it whole, atomically; updates from parallel
 * workers in this process are queued so none is lost. A file there that is
 * not such an object (cut short, a list, a directory) is renamed aside,
 * never replaced (see set_aside.ts), and a new one started.
 *
 * @module
 */

import { join } from "../../engine/node_builtins.ts";
import { serialize, writeTextAtomic } from "./atomic.ts";
import { readOrSetAside, type SetAside } from "./set_aside.ts";
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

/**
 * Add or replace `prediction` in `<outDir>/preds.json`; when the file there
 * was damaged, it is kept aside and the new file holds this prediction
 * only: what was set aside is returned, for the caller to say.
 */
export function savePrediction(outDir: string, prediction: Prediction): Promise<SetAside | undefined> {
  const path = predsPath(outDir);
  return serialize(`${path}#update`, async () => {
    const read = await readOrSetAside(path, parseDict);
    const preds = read.value ?? {};
    preds[prediction.instance_id] = prediction;
    await writeTextAtomic(path, JSON.stringify(preds, null, 2) + "\n");
    return read.damage;
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
