/**
 * Ctrl-C during EXECUTE of a real `graphplan run` (scripted model, local
 * environment, the real helper over its session): the helper is paused by
 * a test hook right after its first write, the whole process group gets
 * SIGINT as a terminal sends it, and the run must let the plan finish,
 * end as `Interrupted` with preds.json written and no journal pending.
 * Then a journal left pending by a killed plan is rolled back when the next
 * run starts, so the stale edit never lands in its patch.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { graphplanRunArgs, readJson, sampleRepo, TASK } from "./_support.ts";
import { pausedRunner } from "../engine/exec/_support.ts";

const SERVICE_OLD = "discount = order.customer.discount\n";
const SERVICE_NEW = 'discount = order.customer.discount or Decimal("0")\n';
const MODELS_OLD = "class Customer:";
const MODELS_NEW = "class Customer:  # customer record";

/** A two-file plan of exact text replacements (the oracle is string replacement). */
function plan(): unknown[] {
  return [
    {
      op: "replace_code",
      params: { file: "app/service.py", pattern: SERVICE_OLD, replacement: SERVICE_NEW },
    },
    { op: "replace_code", params: { file: "app/models.py", pattern: MODELS_OLD, replacement: MODELS_NEW } },
  ];
}

/** A scripted model: explore, write the plan, review, submit. */
function script(planPath: string): string {
  return JSON.stringify([
    { command: `echo 'READY_TO_PLAN: ["app/service.py", "app/models.py"]'` },
    { command: `cat > ${planPath} << 'PLAN_EOF'\n${JSON.stringify(plan())}\nPLAN_EOF` },
    { command: "git diff" },
    { command: "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached" },
  ]);
}

async function setUp() {
  const ctx = await sampleRepo();
  const state = join(ctx.root, "state");
  const scriptFile = join(ctx.root, "script.json");
  await Deno.writeTextFile(scriptFile, script(ctx.planPath));
  const args = graphplanRunArgs([
    ...["--repo", ctx.repo, "--task", TASK, "--id", "sample", "-o", ctx.out],
    ...["-c", "model.name=scripted/test", "-c", `model.script=${scriptFile}`],
    ...["-c", `agent.plan_path=${ctx.planPath}`],
  ]);
  const read = (path: string) => Deno.readTextFile(join(ctx.repo, path));
  const original = { service: await read("app/service.py"), models: await read("app/models.py") };
  return { ctx, state, args, read, original };
}

/** Whether a journal is pending in the state directory `state` (looked at, not rolled back). */
async function pending(state: string): Promise<boolean> {
  try {
    for await (const entry of Deno.readDir(join(state, "graphplan"))) {
      if (/^journal-[0-9a-f]+$/.test(entry.name)) return true;
    }
  } catch { /* no state directory: nothing pending */ }
  return false;
}

Deno.test("e2e run: SIGINT to the process group during EXECUTE finishes the plan, ends Interrupted, writes preds.json", async () => {
  const { ctx, state, args, read, original } = await setUp();
  const marker = join(ctx.root, "paused");
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args,
      env: {
        XDG_STATE_HOME: state,
        GRAPHPLAN_TEST_PAUSE_AFTER_WRITE: "1",
        GRAPHPLAN_TEST_PAUSE_STAGE: "rename",
        GRAPHPLAN_TEST_PAUSE_MS: "1500",
        GRAPHPLAN_TEST_PAUSE_MARKER: marker,
      },
      // Its own process group, so the signal can go to the group as a terminal's Ctrl-C does.
      detached: true,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const output = Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text()]);
    // Deterministic: the helper has written the first file of the plan and is paused mid-plan.
    for (let i = 0; i < 1200; i++) {
      try {
        await Deno.stat(marker);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await Deno.stat(marker);
    assert.equal(await read("app/service.py"), original.service.replace(SERVICE_OLD, SERVICE_NEW));
    assert.equal(await read("app/models.py"), original.models, "the plan is half applied right now");
    Deno.kill(-child.pid, "SIGINT");
    const status = await child.status;
    const [stdout, stderr] = await output;
    assert.equal(status.code, 130, stderr);
    assert.equal(stdout, "", "no patch is printed");
    assert.match(stderr, /exit status: Interrupted/);

    // The plan ran whole: both files, byte for byte as the oracle says; no journal pending.
    assert.equal(await read("app/service.py"), original.service.replace(SERVICE_OLD, SERVICE_NEW));
    assert.equal(await read("app/models.py"), original.models.replace(MODELS_OLD, MODELS_NEW));
    assert.equal(await pending(state), false);

    const trajectory = await readJson<
      { info: { exit_status: string; phases: { name: string; status: string }[] } }
    >(
      join(ctx.out, "sample", "sample.traj.json"),
    );
    assert.equal(trajectory.info.exit_status, "Interrupted");
    assert.ok(trajectory.info.phases.some((phase) => phase.name === "execute" && phase.status === "done"));
    assert.ok(trajectory.info.phases.every((phase) => phase.status !== "running"));
    const preds = await readJson<Record<string, { model_patch: string }>>(join(ctx.out, "preds.json"));
    assert.equal(preds.sample.model_patch, "");
  } finally {
    await ctx.cleanup();
  }
});

Deno.test("e2e run: a journal a killed plan left pending is rolled back before the run starts", async () => {
  const { ctx, state, args, read, original } = await setUp();
  try {
    // A plan killed with SIGKILL after its first write: app/models.py modified, journal pending.
    const stale = join(ctx.root, "stale.json");
    await Deno.writeTextFile(
      stale,
      JSON.stringify([
        { op: "replace", file: "app/models.py", old: "class ", new: "class Stale" },
        { op: "replace", file: "app/service.py", old: "class ", new: "class Stale" },
      ]),
    );
    const killed = await pausedRunner(ctx.repo, stale, { write: 1, env: { XDG_STATE_HOME: state } });
    killed.kill("SIGKILL");
    await killed.status;
    assert.notEqual(await read("app/models.py"), original.models);
    assert.equal(await pending(state), true);

    const out = await new Deno.Command(Deno.execPath(), {
      args,
      env: { XDG_STATE_HOME: state },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    assert.match(stderr, /rolled back an unfinished plan: app\/models\.py/);
    assert.doesNotMatch(stdout, /Stale/, "the stale edit is not in the patch");
    assert.equal(await read("app/models.py"), original.models.replace(MODELS_OLD, MODELS_NEW));
    assert.equal(await read("app/service.py"), original.service.replace(SERVICE_OLD, SERVICE_NEW));
    const trajectory = await readJson<{ info: { recovered_journal?: { restored: string[] } } }>(
      join(ctx.out, "sample", "sample.traj.json"),
    );
    assert.deepEqual(trajectory.info.recovered_journal?.restored, ["app/models.py"]);
  } finally {
    await ctx.cleanup();
  }
});
