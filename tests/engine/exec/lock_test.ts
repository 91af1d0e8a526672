import assert from "node:assert/strict";
import { makeRepo, pausedRunner, snapshot, STATE_HOME } from "./_support.ts";
import { runTestStep } from "./_test_operator.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { executePlan, journalDirFor, rollbackRepository } from "../../../engine/exec/mod.ts";
import { IssueError } from "../../../engine/base/issue.ts";
import { concurrentApplies, killDuringApply, killDuringRollback } from "../../_support/fault_trials.ts";
import { runCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const SERVICE = Deno.readTextFileSync(
  new URL("../../fixtures/sample_project/app/service.py", import.meta.url),
);
const MODELS = Deno.readTextFileSync(new URL("../../fixtures/sample_project/app/models.py", import.meta.url));

const PLAN = [
  // Edits that leave every name bound (a renamed class its importers still use fails the plan as dangling).
  { op: "replace", file: "app/service.py", old: "class OrderService:", new: "class OrderService(object):" },
  { op: "replace", file: "app/models.py", old: "Domain models:", new: "Domain models of the shop:" },
];

/** Start an apply of PLAN in a subprocess and leave it paused at its second write. */
async function pausedApply(dir: string): Promise<Deno.ChildProcess> {
  const planFile = `${dir}.plan.json`;
  Deno.writeTextFileSync(planFile, JSON.stringify(PLAN));
  return await pausedRunner(dir, planFile, { write: 2, stage: "temp" });
}

async function cli(args: string[]): Promise<{ code: number; body: Record<string, unknown> }> {
  const run = await runCli([...args, "--json"], { env: { XDG_STATE_HOME: STATE_HOME } });
  return { code: run.code, body: run.json };
}

Deno.test(
  "a second apply, a rollback and a forced rollback under a running plan say it is running (pid)",
  SLOW,
  async () => {
    const dir = makeRepo({ "app/service.py": SERVICE, "app/models.py": MODELS });
    const child = await pausedApply(dir);
    try {
      const expectBusy = (issues: { code: string; message: string; hint?: string }[]) => {
        assert.equal(issues[0].code, "journal-busy");
        assert.match(
          issues[0].message,
          new RegExp(`Another plan is running on this repository.*${child.pid}`),
        );
        assert.doesNotMatch(issues[0].hint ?? "", /--force/);
      };
      await assert.rejects(
        executePlan(new DocumentStore(Workspace.open(dir)), PLAN, { runStep: runTestStep }),
        (err: unknown) => err instanceof IssueError && (expectBusy(err.issues), true),
      );
      const dry = await executePlan(new DocumentStore(Workspace.open(dir)), PLAN, {
        runStep: runTestStep,
        dryRun: true,
      });
      assert.equal(dry.warnings[0]?.code, "journal-busy", "a dry run says so too, without a rollback hint");
      assert.match(dry.warnings[0].message, new RegExp(`process ${child.pid}`));
      for (const force of [[], ["--force"]]) {
        const rollback = await cli(["rollback", "--repo", dir, ...force]);
        assert.equal(rollback.code, 1);
        expectBusy(rollback.body.errors as never);
      }
      assert.equal(
        Deno.readTextFileSync(`${dir}/app/service.py`),
        SERVICE.replace(PLAN[0].old, PLAN[0].new),
      );
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
    // Once its owner is dead the journal is an ordinary pending one.
    const report = await rollbackRepository(Workspace.open(dir));
    assert.equal(report.success, true);
    assert.equal(Deno.readTextFileSync(`${dir}/app/service.py`), SERVICE);
    const temps = [...snapshot(dir).keys()].filter((path) => path.includes(".graphplan-"));
    assert.deepEqual(temps, [], "the dead apply's temporary file was removed");
  },
);

Deno.test("a temporary file a killed rollback left (no journal record names it) is removed by the next rollback", async () => {
  const dir = makeRepo({ "app/service.py": SERVICE, "app/models.py": MODELS });
  const before = snapshot(dir);
  const child = await pausedApply(dir);
  child.kill("SIGKILL");
  await child.status;
  // What a rollback killed inside its own atomic write leaves: a temp file of a dead pid.
  const dead = new Deno.Command("true").spawn();
  await dead.status;
  Deno.writeTextFileSync(`${dir}/app/.service.py.graphplan-${dead.pid}-1.tmp`, SERVICE);
  // A live process's temporary file and someone's file of a similar name are left alone.
  Deno.writeTextFileSync(`${dir}/app/.service.py.graphplan-${Deno.pid}-999.tmp`, "mine\n");
  Deno.writeTextFileSync(`${dir}/app/notes.graphplan-1-1.tmp`, "a person's file\n");
  const report = await rollbackRepository(Workspace.open(dir));
  assert.equal(report.success, true, JSON.stringify(report.errors));
  const after = snapshot(dir);
  assert.equal(after.get(`app/.service.py.graphplan-${Deno.pid}-999.tmp`)?.length, 5);
  after.delete(`app/.service.py.graphplan-${Deno.pid}-999.tmp`);
  assert.equal(after.get("app/notes.graphplan-1-1.tmp")?.length, 16);
  after.delete("app/notes.graphplan-1-1.tmp");
  assert.deepEqual(after, before);
});

Deno.test("XDG_STATE_HOME reaching into the repository through a symlink is refused like one inside it", () => {
  const dir = makeRepo({ "a.py": "a = 1\n", "state/.keep": "" });
  const link = `${Deno.makeTempDirSync()}/state-link`;
  Deno.symlinkSync(`${dir}/state`, link);
  const saved = Deno.env.get("XDG_STATE_HOME");
  Deno.env.set("XDG_STATE_HOME", link);
  try {
    assert.throws(
      () => journalDirFor(dir),
      (err: unknown) => err instanceof IssueError && err.issues[0].code === "state-dir-inside-repo",
    );
  } finally {
    Deno.env.set("XDG_STATE_HOME", saved!);
  }
});

Deno.test("edits and rollback keep a file's owner and group where the process may set them", {
  ignore: Deno.uid() !== 0,
}, async () => {
  const dir = makeRepo({ "app/service.py": SERVICE, "app/models.py": MODELS });
  Deno.chownSync(`${dir}/app/service.py`, 1234, 2345);
  const result = await executePlan(new DocumentStore(Workspace.open(dir)), [...PLAN, { op: "fail" }], {
    runStep: runTestStep,
  });
  assert.equal(result.rolled_back, true);
  const restored = Deno.statSync(`${dir}/app/service.py`);
  assert.deepEqual([restored.uid, restored.gid], [1234, 2345], "after the rollback");
  const ok = await executePlan(new DocumentStore(Workspace.open(dir)), PLAN, { runStep: runTestStep });
  assert.equal(ok.success, true);
  const info = Deno.statSync(`${dir}/app/service.py`);
  assert.deepEqual([info.uid, info.gid], [1234, 2345]);
});

// The trials start `deno run` runners (`_support/fault_trials.ts`) and kill them: slow-marked.
Deno.test(
  "seeded fault trials (sample): kill -9 in apply and rollback, concurrent applies",
  SLOW,
  async () => {
    const tmp = Deno.makeTempDirSync({ prefix: "graphplan-faults-" });
    try {
      for (const scenario of [killDuringApply, killDuringRollback, concurrentApplies]) {
        const tally = await scenario({ trials: 3, seed: 19, tmp });
        assert.equal(tally.trials, 3);
        assert.deepEqual(tally.failures, [], tally.scenario);
        assert.equal(tally.bytes_lost + tally.escaped_writes + tally.leftover_temps, 0, tally.scenario);
      }
    } finally {
      Deno.removeSync(tmp, { recursive: true });
    }
  },
);
