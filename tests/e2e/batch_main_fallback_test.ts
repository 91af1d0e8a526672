/**
 * `graphplan batch` with a container runtime whose `run -i` never answers:
 * a stand-in `podman` that is the real one except that `run -i` starts the
 * container detached and then passes nothing on (the helper as the
 * container's main process never reaches GraphPlan). The run must complete
 * through the fallback (`run -d`, the session opened with `exec -i`), say so
 * once, and later containers must skip the attempt. No wait in the test
 * depends on how fast the machine is: the stand-in never answers, so only
 * the stall watch's probes (agent/env/main_session.ts) end the attempt.
 * Skipped where podman is absent.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { skipReason } from "../_support/skips.ts";
import {
  batchContainers,
  batchScratch,
  demoScript,
  PODMAN_SKIP,
  removeTestbedImage,
  runBatchCli,
} from "./_batch_support.ts";
import { FIX, readJson } from "./_support.ts";

const SKIP = skipReason(PODMAN_SKIP);

type Info = {
  exit_status: string;
  warnings?: string[];
  shell?: { session: number; exec: number; lost: number };
  phases: { name: string; helper?: { main?: boolean; mounted?: boolean } }[];
};

/** A `podman` in `dir` whose `run -i` starts the container detached and never answers; it logs each call. */
async function stallingPodman(dir: string): Promise<{ path: string; calls: () => Promise<string[]> }> {
  const real = new TextDecoder().decode(
    (await new Deno.Command("bash", { args: ["-c", "type -P podman"], stdout: "piped" }).output()).stdout,
  ).trim();
  const log = join(dir, "calls.log");
  // Named podman, so GraphPlan treats it as podman (rm -t 0, HOSTNAME). After `run -d`, `cat` holds
  // stdout open (fd 3) and writes nothing to it: an ended or closed stdout would be a plain failure.
  const path = join(dir, "podman");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\necho "$1 $2" >> '${log}'\n` +
      `if [ "$1" = run ] && [ "$2" = -i ]; then\n  shift 2\n` +
      `  '${real}' run -d "$@" >/dev/null || exit $?\n  exec cat 3>&1 >/dev/null\nfi\n` +
      `exec '${real}' "$@"\n`,
    { mode: 0o755 },
  );
  const calls = async () => (await Deno.readTextFile(log).catch(() => "")).split("\n").filter(Boolean);
  return { path, calls };
}

Deno.test({
  name: "e2e batch: a runtime whose run -i never answers: the batch completes through run -d + exec -i, " +
    "warned once",
  ignore: SKIP !== "",
  async fn() {
    const ctx = await batchScratch(2);
    try {
      const podman = await stallingPodman(ctx.root);
      const script = await demoScript(ctx.root);
      const result = await runBatchCli(script, [
        "--subset",
        ctx.dataset,
        "-w",
        "1",
        "-o",
        ctx.out,
        "-c",
        `environment.executable=${podman.path}`,
      ]);
      assert.equal(result.code, 0, result.stderr);
      const warnings = result.stderr.split("\n").filter((line) => line.startsWith("batch: warning: "));
      assert.equal(warnings.length, 1, result.stderr);
      assert.match(
        warnings[0],
        new RegExp(
          `^batch: warning: demo__sample-1: The helper could not run as the container's main process: ` +
            `"${podman.path} run -i" started the container but never passed on its output; .*"run -d".*` +
            `"exec -i" \\(set environment\\.helper_main=false to skip the attempt\\)$`,
        ),
      );
      const calls = await podman.calls();
      assert.equal(calls.filter((call) => call === "run -i").length, 1, "the second container skipped it");
      assert.equal(calls.filter((call) => call === "run -d").length, 2, calls.join("\n"));
      for (const id of ctx.ids) {
        const { info } = await readJson<{ info: Info }>(join(ctx.out, id, `${id}.traj.json`));
        assert.equal(info.exit_status, "Submitted");
        // The commands went through the helper's session, opened with exec -i from the mounts.
        assert.equal(info.shell?.exec, 0, JSON.stringify(info.shell));
        assert.ok(info.shell!.session >= 7, JSON.stringify(info.shell));
        const helper = info.phases.find((phase) => phase.name === "setup")?.helper;
        assert.deepEqual([helper?.main, helper?.mounted], [undefined, true], JSON.stringify(helper));
        assert.equal(info.warnings?.length ?? 0, id === "demo__sample-1" ? 1 : 0);
      }
      const preds = await readJson<{ [id: string]: { model_patch: string } }>(join(ctx.out, "preds.json"));
      for (const id of ctx.ids) assert.ok(preds[id].model_patch.includes(`+        ${FIX}`), id);
      assert.deepEqual(await batchContainers(ctx.out), [], "no container is left");
    } finally {
      await ctx.cleanup();
    }
  },
});

Deno.test({
  name: "e2e batch: remove the test image (main fallback)",
  ignore: SKIP !== "",
  fn: removeTestbedImage,
});
