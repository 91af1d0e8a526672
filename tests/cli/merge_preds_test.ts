/**
 * `graphplan merge-preds` on batch outputs with real trajectories: each
 * instance's folder comes with its prediction and record (the later
 * non-empty patch's input; the last input for an instance with none), and
 * `graphplan inspect` on the merged directory links every trajectory.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { demoRun, fallbackRun, writeBatch } from "../agent/trajectory/inspect/_runs.ts";
import { graphplan } from "../e2e/_support.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const read = (path: string) => Deno.readTextFile(path);

Deno.test(
  "merge-preds copies each instance's folder from the input its prediction came from; inspect links them",
  SLOW,
  async () => {
    const [demo, fallback] = [await demoRun(), await fallbackRun()];
    const dir = await Deno.makeTempDir({ prefix: "gp_merge_" });
    try {
      const patch = JSON.parse(await read(demo.trajectory)).info.submission as string;
      const base = { phase: "submit", cost: 0.01, steps: 3, wall_time: 10 };
      const a = join(dir, "shard-0"), b = join(dir, "shard-1");
      await Deno.mkdir(a), await Deno.mkdir(b);
      await writeBatch(a, [
        { ...base, id: "shop__orders-101", status: "Submitted", from: demo.trajectory, patch },
        { ...base, id: "shop__orders-102", status: "Submitted", from: demo.trajectory, patch: "" },
        { ...base, id: "shop__billing-7", status: "Running", from: demo.trajectory },
      ]);
      await writeBatch(b, [
        { ...base, id: "shop__orders-102", status: "FallbackSubmitted", from: fallback.trajectory, patch },
        { ...base, id: "shop__billing-7", status: "LimitsExceeded", from: fallback.trajectory },
        { ...base, id: "shop__billing-9", status: "BatchCostLimit" },
      ]);
      // Other things a run may leave in an instance folder come along; a folder that is no instance does not.
      await Deno.writeTextFile(join(a, "shop__orders-101", "helper.log"), "helper: 3 requests\n");
      await Deno.mkdir(join(a, "slurm"));
      await Deno.writeTextFile(join(a, "slurm", "1_0.log"), "slurm log\n");

      const merged = join(dir, "merged");
      const result = await graphplan(["merge-preds", a, b, "-o", merged, "--json"]);
      assert.equal(result.code, 0, result.stderr);
      const doc = JSON.parse(result.stdout);
      assert.deepEqual(doc.duplicates, [{ instance_id: "shop__orders-102", sources: [a, b], kept: b }]);
      assert.deepEqual(doc.unpredicted_duplicates, [{
        instance_id: "shop__billing-7",
        sources: [a, b],
        kept: b,
      }]);
      assert.deepEqual(doc.copied, [
        { instance_id: "shop__billing-7", from: b },
        { instance_id: "shop__orders-101", from: a },
        { instance_id: "shop__orders-102", from: b },
      ]);

      const entries = [...Deno.readDirSync(merged)].map((e) => e.name).sort();
      assert.deepEqual(entries, [
        "batch.json",
        "exit_statuses.yaml",
        "preds.json",
        "shop__billing-7",
        "shop__orders-101",
        "shop__orders-102",
      ]);
      for (const [id, from] of [["shop__orders-101", a], ["shop__orders-102", b], ["shop__billing-7", b]]) {
        const trajectory = join(id, `${id}.traj.json`);
        assert.equal(await read(join(merged, trajectory)), await read(join(from, trajectory)), id);
      }
      assert.equal(await read(join(merged, "shop__orders-101", "helper.log")), "helper: 3 requests\n");
      const preds = JSON.parse(await read(join(merged, "preds.json")));
      assert.deepEqual(Object.keys(preds).sort(), ["shop__orders-101", "shop__orders-102"]);
      assert.equal(preds["shop__orders-102"].model_patch, patch);
      const records = JSON.parse(await read(join(merged, "batch.json"))).instances;
      assert.equal(records["shop__orders-102"].status, "FallbackSubmitted", "the record of the kept input");
      assert.equal(records["shop__billing-7"].status, "LimitsExceeded");
      assert.equal(records["shop__billing-9"].status, "BatchCostLimit");

      // Text mode names both kinds of duplicate.
      const text = await graphplan(["merge-preds", a, b, "-o", join(dir, "merged-text")]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stderr, /"shop__orders-102" is in ".*shard-0", ".*shard-1": kept ".*shard-1"/);
      assert.match(text.stderr, /"shop__billing-7" \(no prediction\) is in .*: kept ".*shard-1"/);
      assert.match(
        text.stderr,
        /2 prediction\(s\) from 2 directories in .*preds\.json, 3 instance folder\(s\) copied/,
      );

      // The merged directory reads as one batch: a row per instance, a page per trajectory.
      const page = join(dir, "merged.html");
      const inspected = await graphplan(["inspect", merged, "-o", page]);
      assert.equal(inspected.code, 0, inspected.stderr);
      const html = await read(page);
      assert.equal(html.match(/<tr data-status=/g)?.length, 4);
      for (const id of ["shop__orders-101", "shop__orders-102", "shop__billing-7"]) {
        const row = html.slice(html.indexOf(`data-id="${id}"`));
        const link = /<a href="([^"]+)">/.exec(row.slice(0, row.indexOf("</tr>")))?.[1];
        assert.ok(link, `${id} links to its trajectory page`);
        assert.match(await read(join(dir, decodeURIComponent(link!))), new RegExp(`Trajectory ${id}`));
      }
      const lone = html.slice(html.indexOf('data-id="shop__billing-9"'));
      assert.doesNotMatch(lone.slice(0, lone.indexOf("</tr>")), /<a href=/, "no trajectory, no link");
    } finally {
      await Deno.remove(dir, { recursive: true });
      await demo.cleanup();
      await fallback.cleanup();
    }
  },
);

Deno.test(
  "merge-preds into one of its inputs keeps that input's folders and replaces the others' older copies",
  SLOW,
  async () => {
    const demo = await demoRun();
    const dir = await Deno.makeTempDir({ prefix: "gp_merge_" });
    try {
      const patch = JSON.parse(await read(demo.trajectory)).info.submission as string;
      const base = { phase: "submit", cost: 0.01, steps: 3, wall_time: 10 };
      const a = join(dir, "a"), b = join(dir, "b");
      await Deno.mkdir(a), await Deno.mkdir(b);
      await writeBatch(a, [{ ...base, id: "x-1", status: "Submitted", from: demo.trajectory, patch }]);
      await writeBatch(b, [{ ...base, id: "x-1", status: "Submitted", from: demo.trajectory, patch: "" }]);
      await Deno.writeTextFile(join(b, "x-1", "note.txt"), "b's attempt\n");
      const result = await graphplan(["merge-preds", b, a, "-o", b]);
      assert.equal(result.code, 0, result.stderr);
      // a's non-empty patch wins over b's empty one, and a's folder (without b's note) replaces b's.
      assert.deepEqual([...Deno.readDirSync(join(b, "x-1"))].map((e) => e.name), ["x-1.traj.json"]);
      assert.equal(JSON.parse(await read(join(b, "preds.json")))["x-1"].model_patch, patch);
      assert.deepEqual([...Deno.readDirSync(b)].map((e) => e.name).filter((n) => n.includes("merge")), []);
    } finally {
      await Deno.remove(dir, { recursive: true });
      await demo.cleanup();
    }
  },
);

Deno.test(
  "merge-preds warns about a DIR that is no batch output, and names an unmatched shell pattern",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_merge_" });
    try {
      // The parent of the shards given by mistake: no preds.json, no batch.json.
      const shard = join(dir, "shard-0");
      await Deno.mkdir(shard);
      const text = await graphplan(["merge-preds", dir, "-o", join(dir, "merged")]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(
        text.stderr,
        new RegExp(
          `^merge-preds: "${dir}" holds no preds\\.json, preds\\.jsonl or batch\\.json: it adds no predictions$`,
          "m",
        ),
      );
      const json = await graphplan(["merge-preds", dir, "-o", join(dir, "merged"), "--json"]);
      assert.deepEqual(JSON.parse(json.stdout).warnings.map((w: { code: string }) => w.code), [
        "not-batch-output",
      ]);
      const unmatched = await graphplan(["merge-preds", join(dir, "lite", "shard-*"), "-o", dir]);
      assert.equal(unmatched.code, 2);
      assert.match(unmatched.stderr, /No directory ".*shard-\*": the shell pattern matched nothing/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
