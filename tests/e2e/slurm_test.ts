/**
 * `graphplan slurm --submit` on a real one-node Slurm cluster started by the
 * test from Debian's packages (slurm-wlm, munge): its own munge key and
 * socket, a slurm.conf in a temp dir with free ports, slurmctld and slurmd
 * as root. A 2-shard batch of the scripted demo task in podman runs as a
 * job array; the shards are merged with `graphplan merge-preds` and the
 * merged preds.json checked. Skipped with a one-line reason where Slurm or
 * podman is missing or the cluster does not come up.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  batchScratch,
  demoScript,
  has,
  PODMAN_SKIP,
  podmanEnv,
  removeTestbedImage,
  scriptedOptions,
} from "./_batch_support.ts";
import { FIX, readJson, ROOT } from "./_support.ts";

const MISSING = ["slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "munged", "mungekey"].filter((n) =>
  !has(n)
);
const SKIP = PODMAN_SKIP ||
  (MISSING.length > 0
    ? `Slurm is not installed (no ${MISSING.join(", ")}; apt-get install slurm-wlm munge)`
    : "") ||
  (Deno.uid() !== 0 ? "starting slurmd needs root" : "");
if (SKIP) console.log(`slurm_test: skipped: ${SKIP}`);

async function run(argv: string[], env: Record<string, string> = {}, cwd?: string) {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    cwd,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** A free TCP port on this machine. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "0.0.0.0", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Start munged, slurmctld and slurmd in `dir`; returns SLURM_CONF and a stop function, or why it failed. */
async function startCluster(dir: string): Promise<{ conf: string; stop: () => Promise<void> } | string> {
  const host = (await run(["hostname"])).stdout.trim();
  const pids: string[] = [];
  const stop = async () => {
    for (const file of pids) {
      try {
        Deno.kill(Number((await Deno.readTextFile(file)).trim()), "SIGTERM");
      } catch {
        // not running
      }
    }
  };
  for (const sub of ["state", "spool"]) await Deno.mkdir(join(dir, sub));
  const key = join(dir, "munge.key");
  const made = await run(["mungekey", "-c", "-k", key]);
  if (made.code !== 0) return `mungekey failed: ${made.stderr.trim()}`;
  await Deno.chmod(key, 0o400);
  const socket = join(dir, "munge.sock");
  const munged = await run([
    "munged",
    "--force",
    `--socket=${socket}`,
    `--key-file=${key}`,
    `--log-file=${join(dir, "munged.log")}`,
    `--pid-file=${join(dir, "munged.pid")}`,
    `--seed-file=${join(dir, "munged.seed")}`,
  ]);
  if (munged.code !== 0) return `munged did not start: ${munged.stderr.trim()}`;
  pids.push(join(dir, "munged.pid"));
  const conf = join(dir, "slurm.conf");
  await Deno.writeTextFile(
    conf,
    [
      `ClusterName=gp${Deno.pid}`,
      `SlurmctldHost=${host}`,
      "SlurmUser=root",
      `SlurmctldPort=${freePort()}`,
      `SlurmdPort=${freePort()}`,
      "AuthType=auth/munge",
      `AuthInfo=socket=${socket}`,
      "CredType=cred/munge",
      `StateSaveLocation=${join(dir, "state")}`,
      `SlurmdSpoolDir=${join(dir, "spool")}`,
      `SlurmctldPidFile=${join(dir, "slurmctld.pid")}`,
      `SlurmdPidFile=${join(dir, "slurmd.pid")}`,
      `SlurmctldLogFile=${join(dir, "slurmctld.log")}`,
      `SlurmdLogFile=${join(dir, "slurmd.log")}`,
      "ProctrackType=proctrack/linuxproc",
      "TaskPlugin=task/none",
      "SelectType=select/cons_tres",
      "SelectTypeParameters=CR_CPU",
      "ReturnToService=2",
      "MpiDefault=none",
      `NodeName=${host} CPUs=2 RealMemory=4000`,
      `PartitionName=debug Nodes=${host} Default=YES State=UP`,
      "",
    ].join("\n"),
  );
  const env = { SLURM_CONF: conf };
  for (const daemon of ["slurmctld", "slurmd"]) {
    const started = await run([daemon, "-f", conf], env);
    if (started.code !== 0) {
      await stop();
      return `${daemon} did not start: ${started.stderr.trim()}`;
    }
    pids.push(join(dir, `${daemon}.pid`));
  }
  for (let i = 0; i < 60; i++) {
    const info = await run(["sinfo", "-h", "-o", "%t"], env);
    if (info.stdout.trim() === "idle") return { conf, stop };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  return "the Slurm node did not become idle within 30 s";
}

Deno.test({
  name: "e2e slurm: a 2-shard batch as a job array on a one-node cluster, merged with merge-preds",
  ignore: SKIP !== "",
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "gp_slurm_" });
    const ctx = await batchScratch(3);
    const cluster = await startCluster(dir);
    if (typeof cluster === "string") {
      console.log(`slurm_test: skipped: ${cluster}`);
      await ctx.cleanup();
      await Deno.remove(dir, { recursive: true });
      return;
    }
    try {
      const script = await demoScript(ctx.root);
      const env = { ...podmanEnv(), SLURM_CONF: cluster.conf };
      const graphplan = [
        Deno.execPath(),
        "run",
        "-A",
        "--config",
        join(ROOT, "deno.json"),
        join(ROOT, "main.ts"),
      ];
      const submitted = await run(
        [
          ...graphplan,
          "slurm",
          "--shards",
          "2",
          "--time",
          "00:20:00",
          "--submit",
          "--subset",
          ctx.dataset,
          ...await scriptedOptions(script),
          "-o",
          ctx.out,
        ],
        env,
        ctx.root,
      );
      assert.equal(submitted.code, 0, submitted.stderr);
      const jobId = submitted.stdout.trim();
      assert.match(jobId, /^\d+$/);
      const sbatch = await Deno.readTextFile(join(ctx.out, "graphplan-batch.sbatch"));
      assert.match(sbatch, /^#SBATCH --array=0-1$/m);
      for (let i = 0; i < 600; i++) {
        const queue = await run(["squeue", "-h", "-j", jobId], env);
        if (queue.stdout.trim() === "") break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const logs = [...Deno.readDirSync(join(ctx.out, "slurm"))].map((e) => e.name).sort();
      assert.deepEqual(logs, [`${jobId}_0.log`, `${jobId}_1.log`]);
      const log0 = await Deno.readTextFile(join(ctx.out, "slurm", logs[0]));
      assert.match(log0, /^batch: 2 selected, 0 already in preds, 2 to run with 1 worker$/m, log0);
      const log1 = await Deno.readTextFile(join(ctx.out, "slurm", logs[1]));
      assert.match(log1, /^batch: 1 selected/m, log1);
      // Shard 0 has instances 1 and 3, shard 1 instance 2.
      const shard0 = await readJson<Record<string, unknown>>(join(ctx.out, "shard-0", "preds.json"));
      const shard1 = await readJson<Record<string, unknown>>(join(ctx.out, "shard-1", "preds.json"));
      assert.deepEqual(Object.keys(shard0).sort(), ["demo__sample-1", "demo__sample-3"]);
      assert.deepEqual(Object.keys(shard1), ["demo__sample-2"]);

      const merged = await run([...graphplan, "merge-preds", "shard-0", "shard-1", "-o", "."], env, ctx.out);
      assert.equal(merged.code, 0, merged.stderr);
      assert.match(merged.stderr, /3 prediction\(s\) from 2 directories/);
      const preds = await readJson<Record<string, { instance_id: string; model_patch: string }>>(
        join(ctx.out, "preds.json"),
      );
      assert.deepEqual(Object.keys(preds).sort(), ctx.ids);
      for (const id of ctx.ids) {
        assert.equal(preds[id].instance_id, id);
        assert.ok(preds[id].model_patch.includes(`+        ${FIX}`), preds[id].model_patch);
      }
      const statuses = await Deno.readTextFile(join(ctx.out, "exit_statuses.yaml"));
      assert.match(statuses, /Submitted:\n {2}- demo__sample-1\n {2}- demo__sample-2\n {2}- demo__sample-3/);
    } finally {
      await cluster.stop();
      await removeTestbedImage();
      await ctx.cleanup();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
