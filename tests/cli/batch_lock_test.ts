/**
 * One batch per output directory, with real processes: a second
 * `graphplan batch -o DIR` while a live batch holds DIR is refused (exit 2,
 * naming the other pid, nothing written), another directory is not, and
 * the lock of a batch killed with `kill -9` is taken over by the next run.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { graphplan, graphplanArgs, ROOT } from "../e2e/_support.ts";
import { fakeDocker, scriptedBatch } from "./_batch_support.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

/** Every file under `dir` with its bytes, by relative path. */
function tree(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of Deno.readDirSync(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) { for (const [k, v] of tree(dir, rel)) out.set(k, v); }
    else out.set(rel, Deno.readTextFileSync(join(dir, rel)));
  }
  return out;
}

/** The pid the lock file of `out` names, once it names one. */
async function lockHolder(out: string): Promise<number> {
  for (let i = 0; i < 600; i++) {
    try {
      const pid = JSON.parse(await Deno.readTextFile(join(out, ".batch.lock"))).pid;
      if (typeof pid === "number") return pid;
    } catch { /* not yet */ }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no lock in "${out}" after 60 s`);
}

Deno.test(
  "batch: a second batch on a live batch's -o is refused naming its pid; a kill -9'd batch's lock is taken over",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "gp_batch_lock_" });
    const stop = join(dir, "stop");
    let first: Deno.ChildProcess | undefined;
    try {
      const dataset = join(dir, "d.jsonl");
      await Deno.writeTextFile(dataset, '{"instance_id": "a__b-1", "problem_statement": "Fix it"}\n');
      // A container CLI that hangs until told to stop: the first batch stays in its start-up sweep, lock held.
      const slowDocker = await fakeDocker(
        dir,
        `while [ ! -e '${stop}' ]; do sleep 0.1; done\nexit 1`,
        "slow-docker",
      );
      // One that fails at once (a missing one is refused before the lock is looked at).
      const failingDocker = await fakeDocker(dir, "exit 1", "failing-docker");
      const out = join(dir, "out");

      first = new Deno.Command(Deno.execPath(), {
        args: graphplanArgs(scriptedBatch(dataset, slowDocker, out)),
        cwd: ROOT,
        stdout: "null",
        stderr: "null",
      }).spawn();
      assert.equal(await lockHolder(out), first.pid);
      const before = tree(out);

      const second = await graphplan(scriptedBatch(dataset, failingDocker, out));
      assert.equal(second.code, 2, second.stderr);
      assert.equal(
        second.stderr.trim(),
        `graphplan batch: Another batch is running in "${out}" (pid ${first.pid}): wait for it or choose another -o`,
      );
      assert.deepEqual(tree(out), before, "the refused batch wrote nothing");

      // Another directory is not locked by it.
      const elsewhere = await graphplan(scriptedBatch(dataset, failingDocker, join(dir, "other")));
      assert.equal(elsewhere.code, 1, elsewhere.stderr);
      assert.match(elsewhere.stderr, /^batch: a__b-1: EnvironmentError/m);

      const killedPid = first.pid;
      first.kill("SIGKILL");
      assert.equal((await first.status).signal, "SIGKILL");
      first = undefined;
      await Deno.writeTextFile(stop, "");

      // The killed batch's lock file is still there, naming a dead pid: the next batch takes it and runs.
      assert.equal(await lockHolder(out), killedPid);
      const resumed = await graphplan(scriptedBatch(dataset, failingDocker, out));
      assert.equal(resumed.code, 1, resumed.stderr);
      assert.match(resumed.stderr, /^batch: 1 selected, 0 already in preds, 1 to run with 1 worker$/m);
      assert.match(resumed.stderr, /^batch: a__b-1: EnvironmentError/m);
      const holder = await lockHolder(out);
      assert.notEqual(holder, killedPid, "the lock file names the batch that took it over");
    } finally {
      if (first) {
        first.kill("SIGKILL");
        await first.status;
      }
      await Deno.writeTextFile(stop, "");
      await Deno.remove(dir, { recursive: true });
    }
  },
);
