import assert from "node:assert/strict";
import { join } from "node:path";
import {
  mergePredsDirs,
  type Prediction,
  PREDS_FORMATS,
  PredsStore,
  readPredsDir,
  renderPreds,
} from "../../../agent/swebench/preds.ts";
import { predsPath, savePrediction } from "../../../agent/trajectory/mod.ts";

const pred = (id: string, patch: string): Prediction => ({
  instance_id: id,
  model_name_or_path: "m",
  model_patch: patch,
});

Deno.test("preds: each format is written whole and reads back the same", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_preds_" });
  try {
    for (const format of PREDS_FORMATS) {
      const out = join(dir, format);
      const store = new PredsStore(out, format);
      await Promise.all([
        store.put(pred("a__b-1", "diff a")),
        store.put(pred("c__d-2", "")),
        store.put(pred("a__b-1", "diff a2")),
      ]);
      const text = await Deno.readTextFile(store.path);
      if (format === "dict") assert.deepEqual(Object.keys(JSON.parse(text)), ["a__b-1", "c__d-2"]);
      if (format === "list") assert.ok(Array.isArray(JSON.parse(text)));
      if (format === "jsonl") assert.equal(text.trim().split("\n").length, 2);
      assert.deepEqual(await readPredsDir(out), {
        "a__b-1": pred("a__b-1", "diff a2"),
        "c__d-2": pred("c__d-2", ""),
      });
      // No temp files are left behind.
      assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name), [store.path.split("/").at(-1)]);
    }
    assert.deepEqual(await readPredsDir(join(dir, "absent")), {});
    await Deno.writeTextFile(join(dir, "preds.json"), "{broken");
    await assert.rejects(readPredsDir(dir), /Cannot parse ".*preds\.json"/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("preds: merging keeps the later non-empty patch and reports every duplicate", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_merge_" });
  try {
    const [a, b, c] = ["a", "b", "c"].map((name) => join(dir, name));
    const sa = new PredsStore(a, "dict");
    await sa.put(pred("x-1", "old x"));
    await sa.put(pred("y-1", "y from a"));
    const sb = new PredsStore(b, "jsonl");
    await sb.put(pred("x-1", "new x"));
    await sb.put(pred("y-1", ""));
    await new PredsStore(c, "list").put(pred("z-1", "z"));
    const { preds, duplicates } = await mergePredsDirs([a, b, c]);
    assert.deepEqual(preds, {
      "x-1": pred("x-1", "new x"),
      "y-1": pred("y-1", "y from a"),
      "z-1": pred("z-1", "z"),
    });
    assert.deepEqual(duplicates, [
      { instance_id: "x-1", sources: [a, b], kept: b },
      { instance_id: "y-1", sources: [a, b], kept: a },
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("preds: a single run's preds.json and a batch's dict file are the same text, from the one writer", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gp_preds_" });
  try {
    const records = [
      pred("a__b-1", "diff --git a/x b/x\n+it's `$x`\n"),
      pred("c__d-2", ""),
      pred("é__ü-3", "ü"),
    ];
    const single = join(dir, "single");
    // Parallel single-run saves to one file: queued, none lost.
    await Promise.all(records.map((record) => savePrediction(single, record)));
    const batch = new PredsStore(join(dir, "batch"), "dict");
    for (const record of records) await batch.put(record);
    const singleText = await Deno.readTextFile(predsPath(single));
    assert.equal(singleText, await Deno.readTextFile(batch.path));
    assert.equal(singleText, renderPreds(Object.fromEntries(records.map((r) => [r.instance_id, r])), "dict"));
    assert.deepEqual(Object.keys(await readPredsDir(single)), records.map((r) => r.instance_id));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
