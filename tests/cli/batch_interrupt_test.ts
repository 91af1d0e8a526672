/**
 * Every status in batch.json is true after the batch is stopped by a real
 * signal: SIGINT once, SIGTERM once, SIGINT twice (the second exits at
 * once). A real `graphplan batch` process with the scripted model and a
 * stand-in container CLI whose `exec` (after each container's first) and
 * `rm` hold until the test lets them go (as with docker, the removal ends
 * the commands in the container): a slow teardown, so both instances are
 * still "Running" when a second signal arrives.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { graphplanArgs, ROOT } from "../e2e/_support.ts";
import { fakeDocker, scriptedBatch } from "./_batch_support.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

/** The records of `out`'s batch.json (none while it is not there). */
async function records(out: string): Promise<Record<string, { status: string; error?: string }>> {
  try {
    return JSON.parse(await Deno.readTextFile(join(out, "batch.json"))).instances;
  } catch {
    return {};
  }
}

/** Wait until `test` holds (polling; a minute at most). */
async function until(what: string, test: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await test()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function stoppedBatch(signals: Deno.Signal[], code: number) {
  const dir = await Deno.makeTempDir({ prefix: "gp_batch_signal_" });
  // The stand-in's commands hold while this file exists (removing the directory frees them too).
  const hold = join(dir, "hold");
  await Deno.writeTextFile(hold, "");
  const release = () => Deno.remove(hold).catch(() => {});
  let child: Deno.ChildProcess | undefined;
  try {
    const dataset = join(dir, "d.jsonl");
    await Deno.writeTextFile(
      dataset,
      ["a__b-1", "a__b-2", "a__b-3"].map((id) =>
        JSON.stringify({ instance_id: id, problem_statement: "Fix it" })
      )
        .join("\n") + "\n",
    );
    const calls = join(dir, "calls.log");
    const docker = await fakeDocker(
      dir,
      // Each container's first command (the history pruning) answers at once; the others, and the
      // removal, hold (as with a real container CLI, the removal ends the commands in the container).
      `name=; for a in "$@"; do case "$a" in graphplan-*) name=$a; break;; esac; done\n` +
        `echo "$1 $name" >> '${calls}'\n` +
        `if [ "$1" = exec ] && [ ! -e '${dir}'/"first-$name" ]; then touch '${dir}'/"first-$name"; exit 0; fi\n` +
        `case "$1" in run) echo started;; exec|rm) while [ -e '${hold}' ]; do sleep 0.1; done; ` +
        `[ "$1" = rm ] || exit 137;; esac`,
    );
    const out = join(dir, "out");
    child = new Deno.Command(Deno.execPath(), {
      // The stand-in CLI models commands over `exec`, so the helper does not start as the container's main process.
      args: graphplanArgs(
        scriptedBatch(dataset, docker, out, ["-w", "2", "-c", "environment.helper_main=false"]),
      ),
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).spawn();
    let stderr = "";
    const pump = child.stderr.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({ write: (chunk) => void (stderr += chunk) }),
    );
    await until("two running instances in their containers", async () => {
      // Each container has had its first command and is in a later one.
      const execs = (await Deno.readTextFile(calls).catch(() => "")).split("\n").filter((c) =>
        c.startsWith("exec ")
      );
      const perContainer = Object.values(Object.groupBy(execs, (line) => line));
      const now = Object.values(await records(out));
      return perContainer.length === 2 && perContainer.every((lines) => lines!.length >= 2) &&
        now.length === 2 && now.every((record) => record.status === "Running");
    });
    child.kill(signals[0]);
    await until("the stop line", () => /: stopping 2 running instance\(s\)/.test(stderr));
    if (signals.length > 1) child.kill(signals[1]);
    else await release();
    const status = await child.status;
    await pump;
    assert.equal(status.code, code, stderr);
    return { stderr, records: await records(out) };
  } finally {
    await release();
    await Deno.remove(dir, { recursive: true });
  }
}

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  Deno.test(
    `batch: after one ${signal} the stopped instances are Interrupted in batch.json, none started after`,
    SLOW,
    async () => {
      const { records } = await stoppedBatch([signal], code);
      assert.deepEqual(Object.keys(records).sort(), ["a__b-1", "a__b-2"], "a__b-3 never started");
      for (const record of Object.values(records)) assert.equal(record.status, "Interrupted");
    },
  );
}

Deno.test(
  "batch: after a second SIGINT (exit at once) no instance is left Running in batch.json",
  SLOW,
  async () => {
    const { records, stderr } = await stoppedBatch(["SIGINT", "SIGINT"], 130);
    assert.deepEqual(Object.keys(records).sort(), ["a__b-1", "a__b-2"], stderr);
    for (const record of Object.values(records)) {
      assert.equal(record.status, "Interrupted");
      assert.equal(record.error, "the batch was stopped by a second SIGINT");
    }
  },
);
