/**
 * A damaged `preds.json` under `run`'s output directory is kept aside,
 * never replaced: `savePrediction` renames it to `preds.json.damaged-...`
 * (its bytes intact), starts a new file with the run's prediction, and
 * returns what it set aside so the run can say so.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { readPreds, savePrediction } from "../../../agent/trajectory/mod.ts";

const PREDICTION = {
  instance_id: "sample-1",
  model_name_or_path: "scripted/demo",
  model_patch: "diff --git a/x b/x\n",
};

const DAMAGED: [string, string | null, RegExp][] = [
  ["cut short", '{"a__b-1": {"instance_id": "a__b-1", "model_pa', /JSON/],
  ["empty", "", /it is empty/],
  [
    "a list (another tool's format)",
    '[{"instance_id": "a", "model_patch": ""}]',
    /it is a list, not an object/,
  ],
  ["a number", "7", /it is a number/],
  ["a record without a patch", '{"a": {"instance_id": "a"}}', /the record of "a" has no "model_patch"/],
  ["a directory", null, /it is a directory/],
];

for (const [kind, text, problem] of DAMAGED) {
  Deno.test(`savePrediction: a preds.json that is ${kind} is kept aside and a new one started`, async () => {
    const out = await Deno.makeTempDir({ prefix: "gp_set_aside_" });
    try {
      const path = join(out, "preds.json");
      if (text === null) await Deno.mkdir(path);
      else await Deno.writeTextFile(path, text);
      const damage = await savePrediction(out, PREDICTION);
      assert.ok(damage, "reported");
      assert.equal(damage.file, path);
      assert.match(damage.problem, problem);
      assert.match(damage.keptAs, /\/preds\.json\.damaged-\d{8}T\d{6}Z$/);
      if (text !== null) assert.equal(await Deno.readTextFile(damage.keptAs), text);
      else assert.ok((await Deno.stat(damage.keptAs)).isDirectory);
      assert.deepEqual(await readPreds(out), { "sample-1": PREDICTION });
      // A second save finds the new file in order.
      assert.equal(await savePrediction(out, { ...PREDICTION, instance_id: "sample-2" }), undefined);
      assert.deepEqual(Object.keys(await readPreds(out)).sort(), ["sample-1", "sample-2"]);
    } finally {
      await Deno.remove(out, { recursive: true });
    }
  });
}
