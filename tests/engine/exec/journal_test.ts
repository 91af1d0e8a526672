import assert from "node:assert/strict";
import { makeRepo, snapshot, STATE_HOME } from "./_support.ts";
import { runTestStep } from "./_test_operator.ts";
import { IssueError } from "../../../engine/base/issue.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import {
  executePlan,
  hasPendingJournal,
  Journal,
  journalDirFor,
  rollbackRepository,
} from "../../../engine/exec/mod.ts";
import { tempPathFor } from "../../../engine/exec/atomic_write.ts";
import { runCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const enc = (text: string) => new TextEncoder().encode(text);

/** Leave a journal as a killed process would: originals recorded, files half-way through the plan. */
function crashedPlan(dir: string, writes: Record<string, string>): Workspace {
  const ws = Workspace.open(dir);
  const journal = Journal.begin(ws);
  for (const [path, text] of Object.entries(writes)) {
    const { abs } = ws.resolve(path);
    journal.recordOriginal(path, abs);
    const temp = tempPathFor(abs);
    journal.recordWrite(path, enc(text), temp);
    Deno.writeTextFileSync(abs, text);
  }
  return ws;
}

Deno.test("the journal lives in XDG_STATE_HOME, keyed by the repository's real path, with a meta file", () => {
  const dir = makeRepo({ "a.py": "x = 1\n" });
  Deno.symlinkSync(dir, `${dir}-link`);
  const ws = Workspace.open(`${dir}-link`);
  const journal = Journal.begin(ws);
  assert.equal(journal.dir, journalDirFor(dir));
  assert.ok(journal.dir.startsWith(`${STATE_HOME}/graphplan/journal-`));
  const meta = JSON.parse(Deno.readTextFileSync(`${journal.dir}/meta.json`));
  assert.equal(meta.repo, dir);
  assert.equal(meta.pid, Deno.pid);
  journal.commit();
  assert.throws(() => Deno.statSync(journal.dir), Deno.errors.NotFound);
  Deno.removeSync(`${dir}-link`);
});

Deno.test("after a crash a new plan is refused until rollback restores every byte", async () => {
  const dir = makeRepo({ "a.py": "a = 1\n", "b.py": "\ufeffb = 'é'\r\n" });
  Deno.chmodSync(`${dir}/b.py`, 0o750);
  const before = snapshot(dir);
  const ws = crashedPlan(dir, { "a.py": "a = 2\n", "b.py": "b = 3\n" });
  assert.equal(hasPendingJournal(ws), true);
  await assert.rejects(
    () => executePlan(new DocumentStore(ws), [], { runStep: runTestStep }),
    (err: unknown) =>
      err instanceof IssueError && err.issues[0].code === "journal-pending" &&
      /rollback/.test(err.issues[0].hint!),
  );
  const dry = await executePlan(new DocumentStore(ws), [], { runStep: runTestStep, dryRun: true });
  assert.deepEqual(dry.warnings.map((w) => w.code), ["journal-pending"]);
  const report = await rollbackRepository(ws);
  assert.equal(report.success, true);
  assert.equal(report.nothing_to_do, false);
  assert.deepEqual(report.restored.sort(), ["a.py", "b.py"]);
  assert.deepEqual(snapshot(dir), before);
  assert.equal(Deno.statSync(`${dir}/b.py`).mode! & 0o7777, 0o750);
  assert.equal(hasPendingJournal(ws), false);
  const again = await rollbackRepository(ws);
  assert.equal(again.nothing_to_do, true);
  assert.equal(again.success, true);
});

Deno.test("a file changed by someone else after GraphPlan wrote it is a conflict unless forced", async () => {
  const dir = makeRepo({ "a.py": "a = 1\n", "b.py": "b = 1\n" });
  const ws = crashedPlan(dir, { "a.py": "a = 2\n", "b.py": "b = 2\n" });
  Deno.writeTextFileSync(`${dir}/b.py`, "b = 'edited by a person'\n");
  const report = await rollbackRepository(ws);
  assert.equal(report.success, false);
  assert.deepEqual(report.restored, ["a.py"]);
  assert.equal(report.errors[0].code, "rollback-conflict");
  assert.equal(report.errors[0].file, "b.py");
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), "a = 1\n");
  assert.equal(Deno.readTextFileSync(`${dir}/b.py`), "b = 'edited by a person'\n");
  assert.equal(hasPendingJournal(ws), true, "the journal is kept while a conflict remains");
  const forced = await rollbackRepository(ws, { force: true });
  assert.equal(forced.success, true);
  assert.deepEqual(forced.restored, ["b.py"]);
  assert.equal(Deno.readTextFileSync(`${dir}/b.py`), "b = 1\n");
  assert.equal(hasPendingJournal(ws), false);
});

Deno.test("rollback deletes files the plan created and temporary files it left behind", async () => {
  const dir = makeRepo({ "a.py": "a = 1\n" });
  const before = snapshot(dir);
  const ws = Workspace.open(dir);
  const journal = Journal.begin(ws);
  const { abs } = ws.resolve("new/c.py");
  Deno.mkdirSync(`${dir}/new`);
  journal.recordOriginal("new/c.py", abs);
  journal.recordWrite("new/c.py", enc("c = 1\n"), tempPathFor(abs));
  Deno.writeTextFileSync(abs, "c = 1\n");
  const aAbs = ws.resolve("a.py").abs;
  journal.recordOriginal("a.py", aAbs);
  const temp = tempPathFor(aAbs);
  journal.recordWrite("a.py", enc("a = 2\n"), temp);
  Deno.writeTextFileSync(temp, "a = 2\n"); // killed before the rename
  const report = await rollbackRepository(ws);
  assert.equal(report.success, true, JSON.stringify(report.errors));
  Deno.removeSync(`${dir}/new`);
  assert.deepEqual(snapshot(dir), before);
});

Deno.test("an empty journal of a dead process is stale and silently replaced; a live one is busy", async () => {
  const dir = makeRepo({ "a.py": "a = 1\n" });
  const ws = Workspace.open(dir);
  const jdir = journalDirFor(dir);
  Deno.mkdirSync(jdir, { recursive: true });
  Deno.writeTextFileSync(`${jdir}/meta.json`, JSON.stringify({ repo: dir, pid: 2 ** 22 + 12345 }));
  const ok = await executePlan(new DocumentStore(ws), [{ op: "replace", file: "a.py", old: "1", new: "2" }], {
    runStep: runTestStep,
  });
  assert.equal(ok.success, true);
  const sleeper = new Deno.Command("sleep", { args: ["30"] }).spawn();
  try {
    Deno.mkdirSync(jdir, { recursive: true });
    Deno.writeTextFileSync(`${jdir}/meta.json`, JSON.stringify({ repo: dir, pid: sleeper.pid }));
    assert.throws(
      () => Journal.begin(ws),
      (err: unknown) => err instanceof IssueError && err.issues[0].code === "journal-busy",
    );
  } finally {
    sleeper.kill("SIGKILL");
    await sleeper.status;
  }
  assert.equal((await rollbackRepository(ws)).nothing_to_do, true);
});

Deno.test("a damaged journal copy is reported, not restored", async () => {
  const dir = makeRepo({ "a.py": "a = 1\n" });
  const ws = crashedPlan(dir, { "a.py": "a = 2\n" });
  const jdir = journalDirFor(dir);
  const bytesFile = [...Deno.readDirSync(jdir)].find((e) => e.name.endsWith(".bytes"))!.name;
  Deno.writeTextFileSync(`${jdir}/${bytesFile}`, "garbage");
  const report = await rollbackRepository(ws);
  assert.equal(report.success, false);
  assert.equal(report.errors[0].code, "journal-corrupt");
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), "a = 2\n");
  Deno.removeSync(jdir, { recursive: true });
});

Deno.test(
  "a state directory inside the repository or not writable is refused with a clear issue",
  SLOW,
  async () => {
    const dir = makeRepo({ "a.py": "a = 1\n" });
    Deno.writeTextFileSync(`${dir}.file`, "not a directory");
    Deno.writeTextFileSync(`${dir}.plan.json`, "[]");
    for (
      const [home, code] of [[`${dir}/.state`, "state-dir-inside-repo"], [
        `${dir}.file`,
        "journal-unavailable",
      ]]
    ) {
      const out = await runCli(["apply", `${dir}.plan.json`, "--repo", dir, "--json"], {
        env: { XDG_STATE_HOME: home },
      });
      assert.equal(out.code, 1);
      assert.equal(out.json.errors[0].code, code);
    }
    assert.deepEqual([...snapshot(dir).keys()], ["a.py"]);
  },
);

Deno.test("a plan whose rollback meets a file changed by someone else says rolled_back false and keeps the journal", async () => {
  const dir = makeRepo({ "a.py": "a = 1\n", "b.py": "b = 1\n" });
  const ws = Workspace.open(dir);
  const result = await executePlan(new DocumentStore(ws), [
    { op: "replace", file: "a.py", old: "a = 1", new: "a = 2" },
    { op: "replace", file: "b.py", old: "b = 1", new: "b = 2" },
    { op: "external", file: "a.py", text: "a = 'theirs'\n" },
    { op: "fail" },
  ], { runStep: runTestStep });
  assert.equal(result.success, false);
  assert.equal(result.rolled_back, false);
  assert.equal(result.failed_step, 3);
  assert.deepEqual(result.errors.map((e) => e.code), ["template-precondition", "rollback-conflict"]);
  assert.equal(Deno.readTextFileSync(`${dir}/b.py`), "b = 1\n");
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), "a = 'theirs'\n");
  assert.equal(hasPendingJournal(ws), true);
  const forced = await rollbackRepository(ws, { force: true });
  assert.deepEqual(forced.restored, ["a.py"]);
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), "a = 1\n");
});

Deno.test("a file changed on disk between the step's read and its write fails the step", async () => {
  const dir = makeRepo({ "a.py": "a = 1\n" });
  const ws = Workspace.open(dir);
  const store = new DocumentStore(ws);
  const result = await executePlan(store, [{ op: "replace", file: "a.py", old: "a = 1", new: "a = 2" }], {
    runStep: async (step, ctx) => {
      const out = await runTestStep(step, ctx);
      Deno.writeTextFileSync(`${dir}/a.py`, "a = 'theirs'\n");
      return out;
    },
  });
  assert.equal(result.success, false);
  assert.equal(result.errors[0].code, "file-changed-on-disk");
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), "a = 'theirs'\n");
  assert.equal(hasPendingJournal(ws), false);
});
