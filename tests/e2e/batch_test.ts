/**
 * `graphplan batch` end to end: the scripted demo model on several
 * SWE-bench-shaped instances, each in a real podman container built from an
 * image made here (no Node, no Python, no network; the sample project in
 * /testbed). Parallel workers, selection, resume after `kill -9`, the batch
 * cost cap, each predictions format, Ctrl-C teardown (once and twice), the
 * plain progress lines and the live view through a pseudo-terminal.
 *
 * Every case runs through the helper's session (`[session]`, opened as the
 * container's main process); the first also through the session opened with
 * `exec -i` (`[session over exec -i]`). The cases where how commands run
 * matters (the commands of a whole fix, and Ctrl-C while two commands hold)
 * also run through the fallback (`[exec fallback]`: the helper copied in, one
 * `exec` per command). All six cases on both paths took 7m39s at load 20,
 * the fallback's share 312 s (2.5x the session's 125 s); the three chosen
 * take 82 s of it. Resume, the cost cap and the live view are the batch's
 * own bookkeeping and drawing, the same on either path.
 * Skipped where podman is absent.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { parse } from "yaml";
import type { InstanceRecord } from "../../agent/swebench/report.ts";
import { selectInstances } from "../../agent/swebench/select.ts";
import {
  batchContainers,
  batchScratch,
  demoScript,
  PODMAN_SKIP,
  podmanEnv,
  removeTestbedImage,
  runBatchCli,
  type ShellPath,
  spawnBatch,
} from "./_batch_support.ts";
import { FIX, readJson } from "./_support.ts";

if (PODMAN_SKIP) console.log(`batch_test: skipped: ${PODMAN_SKIP}`);

type Record = InstanceRecord;
type Preds = { [id: string]: { instance_id: string; model_name_or_path: string; model_patch: string } };

const batchJson = (out: string) => readJson<{ instances: { [id: string]: Record } }>(join(out, "batch.json"));
const exitStatuses = async (out: string) =>
  parse(await Deno.readTextFile(join(out, "exit_statuses.yaml"))) as { [status: string]: string[] };
const startedIds = (stderr: string) => [...stderr.matchAll(/^batch: (\S+): started$/gm)].map((m) => m[1]);

function assertFixed(patch: string, id: string) {
  assert.match(patch, /^diff --git a\/app\/service\.py b\/app\/service\.py/, id);
  assert.ok(patch.includes(`+        ${FIX}`), `${id}: ${patch}`);
}

/** A 2-worker batch whose first two instances are both in a 120 s command. */
async function twoStuckInstances(ctx: Awaited<ReturnType<typeof batchScratch>>, path: ShellPath) {
  const script = await demoScript(ctx.root, { before: [{ command: "sleep 120" }] });
  const batch = await spawnBatch(script, ["--subset", ctx.dataset, "-w", "2", "-o", ctx.out], path);
  await batch.waitFor(/^batch: demo__sample-1: explore$/m);
  await batch.waitFor(/^batch: demo__sample-2: explore$/m);
  return batch;
}

/** How each path reads in a test name. */
const PATH_NAMES: { [path in ShellPath]: string } = {
  session: "session",
  "exec-i": "session over exec -i",
  exec: "exec fallback",
};

/** The session and the fallback. */
const BOTH: ShellPath[] = ["session", "exec"];
/** The session only. */
const SESSION: ShellPath[] = ["session"];

/** A test of `fn` on each of `paths`, named after it. */
const test = (name: string, paths: ShellPath[], fn: (path: ShellPath) => Promise<void>) => {
  for (const path of paths) {
    Deno.test({
      name: `e2e batch [${PATH_NAMES[path]}]: ${name}`,
      ignore: PODMAN_SKIP !== "",
      fn: () => fn(path),
    });
  }
};

test("2 workers run the selected instances in parallel, each in its own container", [
  "session",
  "exec-i",
  "exec",
], async (path) => {
  const ctx = await batchScratch(6);
  try {
    const script = await demoScript(ctx.root);
    const selection = ["--filter=-[2-6]$", "--shuffle", "--seed", "3", "--slice", ":4", "--shard", "1/2"];
    const result = await runBatchCli(script, [
      "--subset",
      ctx.dataset,
      ...selection,
      "-w",
      "2",
      "-o",
      ctx.out,
    ], path);
    assert.equal(result.code, 0, result.stderr);
    // The selection: what the same options pick from the dataset, and only that.
    const rows = ctx.ids.map((id) => ({ instance_id: id, problem_statement: "" }));
    const expected = selectInstances(rows, {
      filter: "-[2-6]$",
      shuffle: true,
      seed: 3,
      slice: ":4",
      shard: "1/2",
    })
      .map((row) => row.instance_id);
    assert.equal(expected.length, 2);
    assert.deepEqual(startedIds(result.stderr).sort(), [...expected].sort());
    assert.ok(!expected.includes("demo__sample-1"));
    const preds = await readJson<Preds>(join(ctx.out, "preds.json"));
    assert.deepEqual(Object.keys(preds).sort(), [...expected].sort());
    for (const id of expected) {
      assertFixed(preds[id].model_patch, id);
      assert.equal(preds[id].model_name_or_path, "scripted/demo");
      const trajectory = await readJson<{
        info: {
          exit_status: string;
          shell?: { session: number; exec: number; lost: number };
          phases: { name: string; helper?: { main?: boolean; mounted?: boolean } }[];
        };
      }>(join(ctx.out, id, `${id}.traj.json`));
      assert.equal(trajectory.info.exit_status, "Submitted");
      const deployed = trajectory.info.phases.find((phase) => phase.name === "setup")?.helper;
      // Through the helper's session (opened as the container's main process, or with
      // exec -i), or through the fallback: one exec per command with the helper copied in.
      if (path === "exec") {
        assert.equal(trajectory.info.shell, undefined);
        assert.deepEqual(
          [deployed?.main, deployed?.mounted],
          [undefined, undefined],
          JSON.stringify(deployed),
        );
      } else {
        assert.equal(trajectory.info.shell?.exec, 0, JSON.stringify(trajectory.info.shell));
        assert.ok(trajectory.info.shell!.session >= 7, JSON.stringify(trajectory.info.shell));
        const main = path === "session" ? true : undefined;
        assert.deepEqual([deployed?.main, deployed?.mounted], [main, true], JSON.stringify(deployed));
      }
    }
    const records = (await batchJson(ctx.out)).instances;
    const [a, b] = expected.map((id) => records[id]);
    // In parallel: each started before the other ended.
    assert.ok(a.started_at! < b.ended_at! && b.started_at! < a.ended_at!, JSON.stringify([a, b]));
    assert.notEqual(a.container, b.container);
    for (const record of [a, b]) {
      assert.equal(record.status, "Submitted");
      assert.equal(record.steps, 7);
      assert.equal(record.phase, "submit");
      const t = record.timings!;
      assert.ok(
        t.container_start > 0 && t.helper_deploy > 0 && t.helper_requests > 0 && t.commands > 0,
        JSON.stringify(t),
      );
      assert.ok(t.container_start + t.helper_deploy + t.helper_requests + t.commands < record.wall_time);
    }
    assert.deepEqual(await exitStatuses(ctx.out), { Submitted: [...expected].sort() });
    // The plain progress lines (stderr is not a terminal here).
    assert.match(result.stderr, /^batch: 2 selected, 0 already in preds, 2 to run with 2 workers$/m);
    assert.match(result.stderr, new RegExp(`^batch: ${expected[0]}: verify$`, "m"));
    assert.match(result.stderr, /^batch: demo__sample-\d: Submitted, \$0\.0000, 7 steps, [\d.]+ s$/m);
    assert.match(
      result.stderr,
      /^batch: finished: 2 instance\(s\) ended, \$0\.0000, \d+s; exit statuses: Submitted 2$/m,
    );
    assert.ok(!result.stderr.includes("\x1b["), "no terminal escapes in the log");
    assert.deepEqual(await batchContainers(ctx.out), [], "no container is left");
  } finally {
    await ctx.cleanup();
  }
});

test(
  "resume after kill -9: nothing done twice, the cut-off instance redone, no stray container",
  SESSION,
  async (path) => {
    const ctx = await batchScratch(3);
    try {
      // A slow first command gives the kill a window inside the second instance.
      const script = await demoScript(ctx.root, { before: [{ command: "sleep 3" }] });
      const args = ["--subset", ctx.dataset, "-w", "1", "-o", ctx.out, "--preds-format", "jsonl"];
      const first = await spawnBatch(script, args, path);
      await first.waitFor(/^batch: demo__sample-2: explore$/m);
      first.child.kill("SIGKILL");
      const killed = await first.end();
      assert.equal(killed.signal, "SIGKILL");
      assert.deepEqual(startedIds(killed.stderr).sort(), ["demo__sample-1", "demo__sample-2"]);
      const before = (await Deno.readTextFile(join(ctx.out, "preds.jsonl"))).trim().split("\n").map((l) =>
        JSON.parse(l)
      );
      assert.deepEqual(before.map((p) => p.instance_id), ["demo__sample-1"]);
      assert.equal((await batchJson(ctx.out)).instances["demo__sample-2"].status, "Running");
      const stray = await batchContainers(ctx.out);
      assert.equal(stray.length, 1, "the killed batch left its container");
      const firstTrajectory = await Deno.readTextFile(
        join(ctx.out, "demo__sample-1", "demo__sample-1.traj.json"),
      );

      const second = await runBatchCli(script, args, path);
      assert.equal(second.code, 0, second.stderr);
      assert.match(
        second.stderr,
        new RegExp(`removed 1 container\\(s\\) left by an earlier run: ${stray[0]}`),
      );
      assert.match(second.stderr, /^batch: 3 selected, 1 already in preds, 2 to run with 1 worker$/m);
      assert.deepEqual(startedIds(second.stderr), ["demo__sample-2", "demo__sample-3"]);
      assert.equal(
        await Deno.readTextFile(join(ctx.out, "demo__sample-1", "demo__sample-1.traj.json")),
        firstTrajectory,
        "the finished instance was not touched",
      );
      const preds = (await Deno.readTextFile(join(ctx.out, "preds.jsonl"))).trim().split("\n").map((l) =>
        JSON.parse(l)
      );
      assert.deepEqual(preds.map((p) => p.instance_id).sort(), ctx.ids);
      for (const p of preds) assertFixed(p.model_patch, p.instance_id);
      // The redone instance's trajectory is a fresh, whole run.
      const redone = await readJson<{ info: { exit_status: string; phases: { name: string }[] } }>(
        join(ctx.out, "demo__sample-2", "demo__sample-2.traj.json"),
      );
      assert.equal(redone.info.exit_status, "Submitted");
      assert.equal(redone.info.phases.filter((phase) => phase.name === "setup").length, 1);
      assert.deepEqual(await exitStatuses(ctx.out), { Submitted: ctx.ids });
      assert.deepEqual(await batchContainers(ctx.out), []);
      // Once more: everything is done, nothing runs.
      const third = await runBatchCli(script, args, path);
      assert.equal(third.code, 0, third.stderr);
      assert.deepEqual(startedIds(third.stderr), []);
      assert.match(third.stderr, /3 already in preds, 0 to run/);
    } finally {
      await ctx.cleanup();
    }
  },
);

test(
  "the batch cost cap stops new instances mid-batch; the total stays within one instance's cap",
  SESSION,
  async (path) => {
    const ctx = await batchScratch(4);
    try {
      // $0.01 a call (10k input tokens at $1 per million): an instance spends $0.07.
      const script = await demoScript(ctx.root, { usage: { input_tokens: 10_000, output_tokens: 0 } });
      const args = ["--subset", ctx.dataset, "-o", ctx.out, "--preds-format", "list", "--cost-limit", "0.2"];
      const price = ["--instance-cost-limit", "0.1", "-c", "model.price={input: 1.0, output: 0}"];
      const result = await runBatchCli(script, [...args, ...price, "-w", "2"], path);
      assert.equal(result.code, 1, result.stderr);
      const records = Object.values((await batchJson(ctx.out)).instances);
      const ran = records.filter((r) => r.status === "Submitted");
      const capped = records.filter((r) => r.status === "BatchCostLimit");
      assert.equal(ran.length, 3, JSON.stringify(records));
      assert.equal(capped.length, 1);
      const total = ran.reduce((sum, r) => sum + r.cost, 0);
      for (const r of ran) assert.ok(Math.abs(r.cost - 0.07) < 1e-9, String(r.cost));
      assert.ok(total > 0.2 - 1e-9 && total <= 0.2 + 0.1 + 1e-9, `total ${total}`);
      assert.match(
        result.stderr,
        /^batch: cost limit: \$0\.2100 spent, \$0\.2100 committed of \$0\.2000; 1 instance\(s\) not started$/m,
      );
      const preds = await readJson<Preds[string][]>(join(ctx.out, "preds.json"));
      assert.ok(Array.isArray(preds));
      assert.deepEqual(preds.map((p) => p.instance_id).sort(), ran.map((r) => r.instance_id).sort());
      assert.deepEqual((await exitStatuses(ctx.out)).BatchCostLimit, capped.map((r) => r.instance_id));
      // Resumed with the same cap, the spent $0.21 still counts: nothing starts.
      const again = await runBatchCli(script, [...args, ...price], path);
      assert.equal(again.code, 1, again.stderr);
      assert.deepEqual(startedIds(again.stderr), []);
      assert.deepEqual(await batchContainers(ctx.out), []);
    } finally {
      await ctx.cleanup();
    }
  },
);

test(
  "Ctrl-C stops running instances, removes their containers and leaves valid outputs",
  BOTH,
  async (path) => {
    const ctx = await batchScratch(3);
    try {
      const batch = await twoStuckInstances(ctx, path);
      assert.equal((await batchContainers(ctx.out)).length, 2);
      const sent = Date.now();
      batch.child.kill("SIGINT");
      const ended = await batch.end();
      assert.equal(ended.code, 130, ended.stderr);
      assert.ok(Date.now() - sent < 60_000, "the sleep 120 commands did not hold the batch");
      assert.match(
        ended.stderr,
        /^batch: SIGINT: stopping 2 running instance\(s\) and removing their containers/m,
      );
      assert.deepEqual(
        startedIds(ended.stderr).sort(),
        ["demo__sample-1", "demo__sample-2"],
        "no new instance started (the two workers may start in either order)",
      );
      assert.deepEqual(await batchContainers(ctx.out), [], "every container is removed");
      const records = (await batchJson(ctx.out)).instances;
      assert.equal(records["demo__sample-1"].status, "Interrupted");
      assert.equal(records["demo__sample-2"].status, "Interrupted");
      assert.deepEqual(await exitStatuses(ctx.out), { Interrupted: ["demo__sample-1", "demo__sample-2"] });
      for (const id of ["demo__sample-1", "demo__sample-2"]) {
        const trajectory = await readJson<{ info: { exit_status: string } }>(
          join(ctx.out, id, `${id}.traj.json`),
        );
        assert.equal(trajectory.info.exit_status, "Interrupted");
      }
      // Nothing was predicted, so a resume runs them again.
      await assert.rejects(Deno.stat(join(ctx.out, "preds.json")), Deno.errors.NotFound);
    } finally {
      await ctx.cleanup();
    }
  },
);

test("a second Ctrl-C exits at once; the containers are still removed", BOTH, async (path) => {
  const ctx = await batchScratch(2);
  try {
    const batch = await twoStuckInstances(ctx, path);
    batch.child.kill("SIGINT");
    await batch.waitFor(/SIGINT: stopping/);
    const second = Date.now();
    batch.child.kill("SIGINT");
    const ended = await batch.end();
    assert.equal(ended.code, 130, ended.stderr);
    assert.ok(Date.now() - second < 10_000, "exited without waiting for the teardown");
    // The detached removal finishes on its own.
    let left = await batchContainers(ctx.out);
    for (let i = 0; i < 200 && left.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      left = await batchContainers(ctx.out);
    }
    assert.deepEqual(left, []);
    JSON.parse(await Deno.readTextFile(join(ctx.out, "batch.json")));
  } finally {
    await ctx.cleanup();
  }
});

test("at a terminal the live view is drawn (through script -q)", SESSION, async (path) => {
  const ctx = await batchScratch(1);
  try {
    const script = await demoScript(ctx.root);
    const { batchArgv } = await import("./_batch_support.ts");
    const argv = await batchArgv(script, ["--subset", ctx.dataset, "-o", ctx.out], path);
    // A pseudo-terminal of 40 rows and 120 columns (script's own has none without a real terminal).
    const quoted = "stty rows 40 cols 120; exec " +
      argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(" ");
    const out = await new Deno.Command("script", {
      args: ["-q", "-e", "-c", quoted, "/dev/null"],
      env: { ...podmanEnv(), TERM: "xterm", COLUMNS: "120", LINES: "40" },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, text + new TextDecoder().decode(out.stderr));
    // log-update redraws in place: erase-line and cursor-up sequences.
    assert.ok(text.includes("\x1b[2K"), "erase line");
    assert.ok(text.includes("\x1b[1A"), "cursor up");
    assert.match(text, /GraphPlan batch {2}0\/1 done {2}running 1/);
    assert.match(text, /demo__sample-1 +(setup|explore|graph|plan|verify|execute|submit) +step +\d+/);
    assert.match(
      text,
      /GraphPlan batch {2}1\/1 done {2}running 0 {2}cost \$0\.0000 {2}elapsed \d+s {2}ETA -/,
    );
    assert.match(text, /exit statuses: Submitted 1/);
    // The finished instance's line stays above the view.
    assert.match(text, /batch: demo__sample-1: Submitted, \$0\.0000, 7 steps/);
    assert.doesNotMatch(text, /^batch: demo__sample-1: started/m, "no log lines at a terminal");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test({ name: "e2e batch: remove the test image", ignore: PODMAN_SKIP !== "", fn: removeTestbedImage });
