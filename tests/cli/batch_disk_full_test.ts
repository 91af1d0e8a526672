/**
 * A full disk under `-o`, for real: a small tmpfs mounted here (root only;
 * skipped, saying why, where mounting is not allowed). The batch stops with
 * exit 1 and a message naming the path it could not write and what to do,
 * never exit 3; the files it had written stay valid; once space is freed
 * the same command runs the instances to their end.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fillDisk, mountTmpfs, tmpfsSkip, unmount } from "../_support/tmpfs.ts";
import { graphplan } from "../e2e/_support.ts";
import { fakeDocker, scriptedBatch } from "./_batch_support.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const SKIP = tmpfsSkip();

Deno.test({
  name:
    "batch: a full disk stops the batch naming the path (exit 1); after freeing space the same command finishes",
  ignore: SKIP !== undefined || SLOW.ignore,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_batch_full_" });
    const disk = join(dir, "disk");
    await Deno.mkdir(disk);
    assert.equal(mountTmpfs(disk, "1m"), "");
    try {
      const dataset = join(dir, "d.jsonl");
      await Deno.writeTextFile(
        dataset,
        ["a__b-1", "a__b-2"].map((id) => JSON.stringify({ instance_id: id, problem_statement: "Fix it" }))
          .join("\n") + "\n",
      );
      // Every instance ends in setup (EnvironmentError) after writing its trajectory.
      const docker = await fakeDocker(dir, "echo 'Cannot connect to the Docker daemon' >&2\nexit 125");
      const out = join(disk, "out");
      const args = scriptedBatch(dataset, docker, out);
      // The first run: room for everything but the trajectories.
      const first = await graphplan(args);
      assert.equal(first.code, 1, first.stderr);
      await Deno.remove(join(out, "a__b-1"), { recursive: true }).catch(() => {});
      // Fill the disk, leaving a few pages.
      const filler = join(disk, "filler");
      await fillDisk(filler, 8 * 1024);
      const full = await graphplan(args);
      assert.equal(full.code, 1, full.stderr);
      assert.doesNotMatch(full.stderr, /^\s+at /m, "no stack");
      assert.match(
        full.stderr,
        new RegExp(
          `Cannot write "${disk}/out/[^"]+": no space left on the device; free some space, then run the same command again`,
        ),
      );
      // What is there still parses (written atomically).
      JSON.parse(await Deno.readTextFile(join(out, "batch.json")));
      const records = JSON.parse(await Deno.readTextFile(join(out, "batch.json"))).instances;
      for (const record of Object.values(records) as { status: string }[]) {
        assert.notEqual(record.status, "Running");
      }
      // Free the space: the same command runs both instances to an end.
      await Deno.remove(filler);
      const again = await graphplan(args);
      assert.equal(again.code, 1, again.stderr);
      assert.doesNotMatch(again.stderr, /no space left/);
      const after = JSON.parse(await Deno.readTextFile(join(out, "batch.json"))).instances;
      assert.deepEqual(
        Object.fromEntries(Object.entries(after).map(([id, r]) => [id, (r as { status: string }).status])),
        { "a__b-1": "EnvironmentError", "a__b-2": "EnvironmentError" },
      );
      for (const id of ["a__b-1", "a__b-2"]) {
        const trajectory = JSON.parse(await Deno.readTextFile(join(out, id, `${id}.traj.json`)));
        assert.equal(trajectory.info.exit_status, "EnvironmentError");
      }
    } finally {
      unmount(disk);
      await Deno.remove(dir, { recursive: true });
    }
  },
});
