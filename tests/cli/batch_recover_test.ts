/**
 * A batch's own outputs found damaged in `-o`: a truncated, empty,
 * wrong-type or directory `preds.json`, or a corrupt `batch.json`, is kept
 * aside byte for byte (never replaced), rebuilt from the instances'
 * trajectories, and the batch says what it did; no exit 3, no stack. The
 * trajectories are real ones written by the Trajectory class.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { Trajectory } from "../../agent/trajectory/mod.ts";
import { graphplan } from "../e2e/_support.ts";
import { fakeDocker, scriptedBatch } from "./_batch_support.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const PATCH = "diff --git a/app/service.py b/app/service.py\n--- a/app/service.py\n+++ b/app/service.py\n";

/**
 * `-o` as a batch left it: `a__b-1` ended Submitted with a patch, `a__b-2` was cut off (no exit status),
 * its preds.json and batch.json intact; a dataset of both; a container CLI that cannot start anything.
 */
async function batchOutput() {
  const root = await Deno.makeTempDir({ prefix: "gp_batch_recover_" });
  const out = join(root, "out");
  const done = new Trajectory(out, "a__b-1", { config: { model: { name: "scripted/demo" } } });
  done.startPhase("setup");
  done.finish("Submitted", PATCH);
  await done.save();
  const cut = new Trajectory(out, "a__b-2", { config: { model: { name: "scripted/demo" } } });
  cut.startPhase("explore");
  await cut.save();
  const preds = {
    "a__b-1": { instance_id: "a__b-1", model_name_or_path: "scripted/demo", model_patch: PATCH },
  };
  await Deno.writeTextFile(join(out, "preds.json"), JSON.stringify(preds, null, 2) + "\n");
  const record = {
    instance_id: "a__b-1",
    status: "Submitted",
    cost: 0.5,
    steps: 7,
    wall_time: 3,
    phase: "submit",
  };
  await Deno.writeTextFile(
    join(out, "batch.json"),
    JSON.stringify({ batch: {}, updated_at: "", instances: { "a__b-1": record } }, null, 2),
  );
  const dataset = join(root, "d.jsonl");
  await Deno.writeTextFile(
    dataset,
    [
      '{"instance_id": "a__b-1", "problem_statement": "Fix it"}',
      '{"instance_id": "a__b-2", "problem_statement": "Fix it"}',
    ]
      .join("\n") + "\n",
  );
  const docker = await fakeDocker(root, "echo 'Cannot connect to the Docker daemon' >&2\nexit 125");
  return { root, out, args: scriptedBatch(dataset, docker, out) };
}

/** The names in `dir` that start with `prefix`. */
async function named(dir: string, prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) if (entry.name.startsWith(prefix)) names.push(entry.name);
  return names.sort();
}

const DAMAGED_PREDS: [string, string | null, RegExp][] = [
  ["truncated", '{\n  "a__b-1": {\n    "instance_id": "a__b-1",\n    "model_pa', /JSON/],
  ["empty", "", /it is empty/],
  ["a number", "42\n", /it holds a number, not a list or an object/],
  ["a string", '"preds"\n', /it holds a string, not a list or an object/],
  [
    "records without a patch",
    '[{"instance_id": "a__b-1"}]',
    /a record without "instance_id" and "model_patch"/,
  ],
  ["a directory", null, /it is a directory/],
];

for (const [kind, text, problem] of DAMAGED_PREDS) {
  Deno.test(
    `batch: a preds.json that is ${kind} is kept aside and rebuilt from the trajectories`,
    SLOW,
    async () => {
      const { root, out, args } = await batchOutput();
      try {
        const preds = join(out, "preds.json");
        await Deno.remove(preds);
        if (text === null) {
          await Deno.mkdir(preds);
          await Deno.writeTextFile(join(preds, "inside.txt"), "kept\n");
        } else await Deno.writeTextFile(preds, text);
        const result = await graphplan(args);
        // 1: a__b-2's container cannot start; never 3, never a stack.
        assert.equal(result.code, 1, result.stderr);
        assert.doesNotMatch(result.stderr, /^\s+at /m);
        assert.match(
          result.stderr,
          /^batch: ".*\/out\/preds\.json" was damaged \((.*)\): kept it as ".*\/out\/preds\.json\.damaged-\d{8}T\d{6}Z" and rebuilt 1 prediction\(s\) from the instances' trajectories; the rest run again/m,
        );
        assert.match(result.stderr.split("\n").find((line) => line.includes("was damaged"))!, problem);
        // The finished instance is not run again: its prediction came back from its trajectory.
        assert.match(result.stderr, /^batch: 2 selected, 1 already in preds, 1 to run with 1 worker$/m);
        assert.doesNotMatch(result.stderr, /a__b-1: started/);
        const rebuilt = JSON.parse(await Deno.readTextFile(preds));
        assert.deepEqual(rebuilt, {
          "a__b-1": { instance_id: "a__b-1", model_name_or_path: "scripted/demo", model_patch: PATCH },
        });
        // The damaged file is kept as it was.
        const [kept] = await named(out, "preds.json.damaged-");
        assert.ok(kept, "kept aside");
        if (text === null) assert.equal(await Deno.readTextFile(join(out, kept, "inside.txt")), "kept\n");
        else assert.equal(await Deno.readTextFile(join(out, kept)), text);
        // A second run finds everything in order and keeps the aside file.
        const again = await graphplan(args);
        assert.equal(again.code, 1, again.stderr);
        assert.doesNotMatch(again.stderr, /was damaged/);
        assert.deepEqual(await named(out, "preds.json.damaged-"), [kept]);
      } finally {
        await Deno.remove(root, { recursive: true });
      }
    },
  );
}

Deno.test(
  "batch: a corrupt batch.json is kept aside and its records rebuilt, not silently replaced",
  SLOW,
  async () => {
    const { root, out, args } = await batchOutput();
    try {
      const damaged = '{"batch": {}, "instances": {"a__b-1": {"status": "Subm';
      await Deno.writeTextFile(join(out, "batch.json"), damaged);
      const result = await graphplan(args);
      assert.equal(result.code, 1, result.stderr);
      assert.doesNotMatch(result.stderr, /^\s+at /m);
      assert.match(
        result.stderr,
        /^batch: ".*\/out\/batch\.json" was damaged \(.*JSON.*\): kept it as ".*\/out\/batch\.json\.damaged-\d{8}T\d{6}Z" and rebuilt 2 record\(s\) from the instances' trajectories/m,
      );
      const [kept] = await named(out, "batch.json.damaged-");
      assert.equal(await Deno.readTextFile(join(out, kept)), damaged);
      const records = JSON.parse(await Deno.readTextFile(join(out, "batch.json"))).instances;
      // The finished instance's record is back (from its trajectory); the cut-off one ran again.
      assert.equal(records["a__b-1"].status, "Submitted");
      assert.equal(records["a__b-1"].phase, "setup");
      assert.equal(records["a__b-2"].status, "EnvironmentError");
      assert.deepEqual(Object.keys(records).sort(), ["a__b-1", "a__b-2"]);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
);

Deno.test("batch: a batch.json of the wrong shape is kept aside too", SLOW, async () => {
  const { root, out, args } = await batchOutput();
  try {
    await Deno.writeTextFile(join(out, "batch.json"), '{"instances": [1, 2]}\n');
    const result = await graphplan(args);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /batch\.json" was damaged \(it has no "instances" object\)/);
    assert.equal((await named(out, "batch.json.damaged-")).length, 1);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test(
  "merge-preds: a damaged input preds.json is refused in words (exit 1) and left as it was",
  SLOW,
  async () => {
    const { root, out } = await batchOutput();
    try {
      await Deno.writeTextFile(join(out, "preds.json"), '{"a__b-1": ');
      const merged = join(root, "merged");
      const result = await graphplan(["merge-preds", out, "-o", merged]);
      assert.equal(result.code, 1, result.stderr);
      assert.doesNotMatch(result.stderr, /^\s+at /m);
      assert.match(
        result.stderr,
        /Cannot parse ".*\/out\/preds\.json": .*; run the same graphplan batch command on that directory again/,
      );
      assert.equal(await Deno.readTextFile(join(out, "preds.json")), '{"a__b-1": ');
      assert.deepEqual(await named(out, "preds.json.damaged-"), []);
      await assert.rejects(Deno.stat(merged), Deno.errors.NotFound);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
);
