/**
 * A full disk under a real batch: the scripted demo in a real podman
 * container, `-o` on a small tmpfs filled up but for a few pages. The batch
 * stops (exit 1, not 3) naming the file it could not write, leaves no
 * container and no instance "Running"; once the space is freed, the same
 * command fixes the instance and writes its prediction. Skipped where
 * podman is absent or a tmpfs cannot be mounted (not root).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { fillDisk, mountTmpfs, tmpfsSkip, unmount } from "../_support/tmpfs.ts";
import {
  batchContainers,
  batchScratch,
  demoScript,
  PODMAN_SKIP,
  removeTestbedImage,
  runBatchCli,
} from "./_batch_support.ts";
import { FIX, readJson } from "./_support.ts";

const SKIP = PODMAN_SKIP || tmpfsSkip();
if (SKIP) console.log(`batch_disk_full_test: skipped: ${SKIP}`);

Deno.test({
  name:
    "e2e batch: a full disk stops the batch in words; after freeing space the same command fixes the instance",
  ignore: !!SKIP,
  fn: async () => {
    const ctx = await batchScratch(1);
    const disk = join(ctx.root, "disk");
    await Deno.mkdir(disk);
    assert.equal(mountTmpfs(disk, "2m"), "");
    try {
      const out = join(disk, "out");
      const script = await demoScript(ctx.root);
      const args = ["--subset", ctx.dataset, "-o", out];
      const filler = join(disk, "filler");
      await fillDisk(filler, 12 * 1024);
      const full = await runBatchCli(script, args);
      assert.equal(full.code, 1, full.stderr);
      assert.doesNotMatch(full.stderr, /^\s+at /m, "no stack");
      assert.match(
        full.stderr,
        new RegExp(
          `Cannot write "${out}/[^"]+": no space left on the device; free some space, then run the same`,
        ),
      );
      assert.deepEqual(await batchContainers(out), [], "no container is left");
      const records = await readJson<{ instances: Record<string, { status: string }> }>(
        join(out, "batch.json"),
      )
        .catch(() => ({ instances: {} }));
      for (const record of Object.values(records.instances)) assert.notEqual(record.status, "Running");

      await Deno.remove(filler);
      const again = await runBatchCli(script, args);
      assert.equal(again.code, 0, again.stderr);
      const preds = await readJson<Record<string, { model_patch: string }>>(join(out, "preds.json"));
      assert.ok(preds["demo__sample-1"].model_patch.includes(`+        ${FIX}`), JSON.stringify(preds));
      const after = await readJson<{ instances: Record<string, { status: string }> }>(
        join(out, "batch.json"),
      );
      assert.equal(after.instances["demo__sample-1"].status, "Submitted");
    } finally {
      unmount(disk);
      await ctx.cleanup();
      await removeTestbedImage();
    }
  },
});
