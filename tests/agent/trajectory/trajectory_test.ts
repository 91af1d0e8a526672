import assert from "node:assert/strict";
import { join } from "node:path";
import {
  predsPath,
  readPreds,
  readTrajectory,
  savePrediction,
  Trajectory,
  trajectoryPath,
  writeJsonAtomic,
} from "../../../agent/trajectory/mod.ts";
import { ScriptedModel } from "../../../agent/model/mod.ts";

async function withOut(body: (out: string) => Promise<void>) {
  const out = await Deno.makeTempDir({ prefix: "gp_traj_" });
  try {
    await body(out);
  } finally {
    await Deno.remove(out, { recursive: true });
  }
}

async function listing(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  return names.sort();
}

Deno.test("trajectory: saved to <out>/<id>/<id>.traj.json with messages, phases, status, stats, config", async () => {
  await withOut(async (out) => {
    const model = new ScriptedModel([{ command: "ls", usage: { input_tokens: 10, output_tokens: 2 } }]);
    const config = { agent: { step_limit: 250 }, model: { name: "scripted/test" } };
    const trajectory = new Trajectory(out, "django__django-11099", { config, stats: () => model.stats });
    assert.equal(trajectory.path, join(out, "django__django-11099", "django__django-11099.traj.json"));
    assert.equal(trajectory.path, trajectoryPath(out, "django__django-11099"));

    trajectory.add({ role: "system", content: "You fix bugs." }, { role: "user", content: "Fix it." });
    const explore = trajectory.startPhase("explore");
    const response = await model.query(trajectory.messages);
    trajectory.add(response.message);
    await trajectory.save();
    let saved = await readTrajectory(trajectory.path);
    assert.equal(saved.trajectory_format, "graphplan-1");
    assert.equal(saved.instance_id, "django__django-11099");
    assert.equal(saved.messages.length, 3);
    assert.equal(saved.info.exit_status, null);
    assert.equal(saved.info.phases[0].status, "running");
    assert.deepEqual(saved.info.model_stats, { cost: 0, calls: 1, input_tokens: 10, output_tokens: 2 });
    assert.deepEqual(saved.info.config, config);

    trajectory.endPhase(explore, "done", { files: ["django/core/validators.py"], steps: 1 });
    const plan = trajectory.startPhase("plan", { attempt: 1 });
    trajectory.endPhase(plan, "done", { plan_steps: [{ op: "replace_node", params: {} }] });
    trajectory.finish("Submitted", "diff --git a/django/core/validators.py b/django/core/validators.py\n");
    await trajectory.save();
    saved = await readTrajectory(trajectory.path);
    assert.equal(saved.info.exit_status, "Submitted");
    assert.match(saved.info.submission, /^diff --git/);
    assert.deepEqual(saved.info.phases.map((p) => [p.name, p.status]), [["explore", "done"], [
      "plan",
      "done",
    ]]);
    assert.deepEqual(saved.info.phases[0].files, ["django/core/validators.py"]);
    assert.ok(saved.info.phases[0].ended_at);
    assert.deepEqual(await listing(join(out, "django__django-11099")), ["django__django-11099.traj.json"]);
  });
});

Deno.test("trajectory: saves replace the file atomically: a reader never sees half a file", async () => {
  await withOut(async (out) => {
    const trajectory = new Trajectory(out, "big");
    const observation = "x".repeat(200_000);
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        try {
          const text = await Deno.readTextFile(trajectory.path);
          JSON.parse(text);
          reads++;
        } catch (err) {
          if (!(err instanceof Deno.errors.NotFound)) throw err;
        }
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
    })();
    for (let step = 0; step < 30; step++) {
      trajectory.add({ role: "tool", tool_call_id: `c${step}`, content: observation });
      await trajectory.save();
    }
    reading = false;
    await reader;
    assert.ok(reads > 0, "the reader saw the file while it was being rewritten");
    const saved = await readTrajectory(trajectory.path);
    assert.equal(saved.messages.length, 30);
    assert.deepEqual(await listing(join(out, "big")), ["big.traj.json"], "no temporary files left");
  });
});

Deno.test("preds: one entry per instance, rewritten atomically; parallel updates are all kept", async () => {
  await withOut(async (out) => {
    await savePrediction(out, {
      instance_id: "astropy__astropy-12907",
      model_name_or_path: "openai/gpt-5-mini",
      model_patch: "diff --git a/x b/x\n",
    });
    let preds = JSON.parse(await Deno.readTextFile(predsPath(out)));
    assert.deepEqual(preds, {
      "astropy__astropy-12907": {
        instance_id: "astropy__astropy-12907",
        model_name_or_path: "openai/gpt-5-mini",
        model_patch: "diff --git a/x b/x\n",
      },
    });
    const ids = Array.from({ length: 20 }, (_, i) => `sympy__sympy-${20000 + i}`);
    await Promise.all(
      ids.map((id) =>
        savePrediction(out, { instance_id: id, model_name_or_path: "openai/gpt-5-mini", model_patch: "" })
      ),
    );
    preds = await readPreds(out);
    assert.equal(Object.keys(preds).length, 21);
    // A rerun replaces the instance's entry.
    await savePrediction(out, {
      instance_id: "astropy__astropy-12907",
      model_name_or_path: "openai/gpt-5-mini",
      model_patch: "",
    });
    assert.equal((await readPreds(out))["astropy__astropy-12907"].model_patch, "");
    assert.deepEqual(await listing(out), ["preds.json"]);
  });
});

Deno.test("preds: a missing file reads as empty; a corrupt one is an error naming it", async () => {
  await withOut(async (out) => {
    assert.deepEqual(await readPreds(out), {});
    await Deno.writeTextFile(predsPath(out), "{ half");
    await assert.rejects(readPreds(out), /Cannot read ".*preds\.json"/);
  });
});

Deno.test("writeJsonAtomic: creates parent directories and leaves no temp file on failure", async () => {
  await withOut(async (out) => {
    const path = join(out, "a", "b", "c.json");
    await writeJsonAtomic(path, { ok: true });
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), { ok: true });
    // Renaming onto a directory fails; the temporary file is removed.
    await Deno.mkdir(join(out, "a", "b", "dir.json"));
    await Deno.writeTextFile(join(out, "a", "b", "dir.json", "keep"), "");
    await assert.rejects(writeJsonAtomic(join(out, "a", "b", "dir.json"), {}));
    assert.deepEqual(await listing(join(out, "a", "b")), ["c.json", "dir.json"]);
  });
});
