import assert from "node:assert/strict";
import { makeRepo, snapshot } from "./_support.ts";
import { runTestStep } from "./_test_operator.ts";
import { atomicWrite } from "../../../engine/exec/atomic_write.ts";
import { entryExists, readConfined, removeConfined } from "../../../engine/exec/confined.ts";
import { executePlan, hasPendingJournal, rollbackRepository } from "../../../engine/exec/mod.ts";
import { IssueError } from "../../../engine/base/issue.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { swapDuringApply } from "../../_support/fault_trials.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const SERVICE = Deno.readFileSync(new URL("../../fixtures/sample_project/app/service.py", import.meta.url));

/** A repository with app/service.py and an outside folder holding a file of the same name. */
function repoAndOutside(): { dir: string; outside: string } {
  const dir = makeRepo({ "app/service.py": SERVICE, "main.py": "import app\n" });
  const outside = makeRepo({ "service.py": SERVICE });
  return { dir, outside };
}

function swap(dir: string, outside: string): void {
  Deno.renameSync(`${dir}/app`, `${dir}/app.real`);
  Deno.symlinkSync(outside, `${dir}/app`);
}

function unswap(dir: string): void {
  Deno.removeSync(`${dir}/app`);
  Deno.renameSync(`${dir}/app.real`, `${dir}/app`);
}

/** Apply `steps` (test steps) on `ws`, where a step `{"op": "swap"}` swaps app/ for a symlink to `outside`. */
function applyWithSwap(ws: Workspace, outside: string, steps: unknown[]) {
  return executePlan(new DocumentStore(ws), steps, {
    runStep: (step, ctx) => {
      if ((step as { op: string }).op === "swap") return Promise.resolve(swap(ws.root, outside));
      return runTestStep(step, ctx);
    },
  });
}

Deno.test("a directory swapped for a symlink before the write is refused: nothing written anywhere", () => {
  const { dir, outside } = repoAndOutside();
  const before = snapshot(dir);
  const outsideBefore = snapshot(outside);
  // Resolved while app/ was real, written after the swap: what a racing process does.
  const abs = Workspace.open(dir).resolve("app/service.py").abs;
  swap(dir, outside);
  assert.throws(
    () => atomicWrite(abs, new TextEncoder().encode("x = 1\n")),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "path-changed",
  );
  assert.deepEqual(snapshot(outside), outsideBefore, "nothing written outside");
  unswap(dir);
  assert.deepEqual(snapshot(dir), before, "the file is untouched, no temporary file left");
});

Deno.test("a directory swapped between the temporary file and the rename is refused and undone everywhere", () => {
  const { dir, outside } = repoAndOutside();
  const before = snapshot(dir);
  const outsideBefore = snapshot(outside);
  assert.throws(
    () =>
      atomicWrite(`${dir}/app/service.py`, new TextEncoder().encode("x = 1\n"), {
        beforeRename: () => swap(dir, outside),
      }),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "path-changed",
  );
  assert.deepEqual(snapshot(outside), outsideBefore, "nothing written outside");
  // The temporary file was in the directory that moved to app.real: found there by its inode and removed.
  assert.deepEqual([...snapshot(dir).keys()].sort(), ["app.real/service.py", "main.py"]);
  unswap(dir);
  assert.deepEqual(snapshot(dir), before, "the file is untouched, no temporary file left");
});

Deno.test("confined writes never change the working directory another thread sees", async () => {
  const { dir } = repoAndOutside();
  const cwd = Deno.cwd();
  const watcher = new Worker(new URL("./_cwd_watcher.ts", import.meta.url), { type: "module" });
  const seen = new Promise<string[]>((resolve, reject) => {
    watcher.onmessage = (event) => resolve(event.data);
    watcher.onerror = (event) => reject(new Error(event.message));
  });
  const stop = new Int32Array(new SharedArrayBuffer(4));
  watcher.postMessage(stop);
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (let i = 0; i < 300; i++) {
    atomicWrite(`${dir}/app/service.py`, new TextEncoder().encode(`x = ${i}\n`));
    readConfined(`${dir}/app/service.py`);
  }
  Atomics.store(stop, 0, 1);
  const others = await seen;
  watcher.terminate();
  assert.deepEqual(others.filter((path) => path !== cwd), [], "the working directory stayed put");
  assert.equal(new TextDecoder().decode(Deno.readFileSync(`${dir}/app/service.py`)), "x = 299\n");
});

Deno.test("a failed write inside the checked directory removes its temporary file there", () => {
  const { dir, outside } = repoAndOutside();
  const before = snapshot(dir);
  assert.throws(() =>
    atomicWrite(`${dir}/app/service.py`, new TextEncoder().encode("x = 1\n"), {
      beforeRename: () => {
        swap(dir, outside);
        throw new Error("disk full");
      },
    }), /disk full/);
  unswap(dir);
  assert.deepEqual(snapshot(dir), before);
  assert.deepEqual([...snapshot(outside).keys()], ["service.py"]);
});

Deno.test("a confined remove through a swapped directory is refused: the outside file of that name stays", () => {
  const { dir, outside } = repoAndOutside();
  const outsideBefore = snapshot(outside);
  const abs = Workspace.open(dir).resolve("app/service.py").abs;
  swap(dir, outside);
  assert.throws(
    () => removeConfined(abs),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "path-changed",
  );
  assert.deepEqual(snapshot(outside), outsideBefore);
  unswap(dir);
  removeConfined(abs);
  assert.deepEqual([...snapshot(dir).keys()], ["main.py"], "removed once the directory is back");
});

Deno.test("a symlink put in a file's place is refused by a confined read, not followed", () => {
  const { dir, outside } = repoAndOutside();
  Deno.removeSync(`${dir}/app/service.py`);
  Deno.symlinkSync(`${outside}/service.py`, `${dir}/app/service.py`);
  assert.throws(
    () => readConfined(`${dir}/app/service.py`),
    (err: unknown) => err instanceof IssueError && err.issues[0].code === "path-changed",
  );
});

Deno.test("a plan whose directory is swapped mid-plan fails, writes nothing outside, and rolls back after", async () => {
  const { dir, outside } = repoAndOutside();
  const before = snapshot(dir);
  const outsideBefore = snapshot(outside);
  const ws = Workspace.open(dir);
  const result = await applyWithSwap(ws, outside, [
    { op: "replace", file: "app/service.py", old: "class OrderService", new: "class Orders" },
    { op: "replace", file: "main.py", old: "import app", new: "import app  # swapped next" },
    { op: "swap" },
    { op: "replace", file: "app/service.py", old: "class Orders", new: "class Orders2" },
  ]);
  assert.equal(result.success, false);
  assert.equal(result.failed_step, 3);
  assert.deepEqual(snapshot(outside), outsideBefore, "nothing written outside, not even by the rollback");
  // The rollback inside the plan cannot reach app/ (it leads outside now): the journal is kept.
  assert.equal(result.rolled_back, false);
  assert.equal(hasPendingJournal(ws), true);
  unswap(dir);
  const report = await rollbackRepository(ws);
  assert.equal(report.success, true, JSON.stringify(report.errors));
  assert.deepEqual(snapshot(dir), before);
});

Deno.test("a directory swapped after the last step is a failed plan, not an internal error", async () => {
  const { dir, outside } = repoAndOutside();
  const before = snapshot(dir);
  const outsideBefore = snapshot(outside);
  const ws = Workspace.open(dir);
  const result = await applyWithSwap(ws, outside, [
    { op: "replace", file: "app/service.py", old: "class OrderService", new: "class Orders" },
    { op: "swap" },
  ]);
  assert.equal(result.success, false);
  assert.equal(result.failed_step, 1);
  assert.equal(result.errors[0].code, "path-outside-repo");
  assert.deepEqual(snapshot(outside), outsideBefore, "nothing written outside");
  unswap(dir);
  const report = await rollbackRepository(ws);
  assert.equal(report.success, true, JSON.stringify(report.errors));
  assert.deepEqual(snapshot(dir), before);
});

Deno.test(
  "swaps from a second process during real applies: nothing escapes, nothing lost (sample)",
  SLOW,
  async () => {
    const tmp = Deno.makeTempDirSync({ prefix: "graphplan-swap-" });
    try {
      const tally = await swapDuringApply({ trials: 4, seed: 19, tmp });
      assert.equal(tally.trials, 4);
      assert.deepEqual(tally.failures, []);
      assert.equal(tally.escaped_writes, 0);
      assert.equal(tally.bytes_lost, 0);
      assert.equal(tally.leftover_temps, 0);
    } finally {
      Deno.removeSync(tmp, { recursive: true });
    }
  },
);

Deno.test("isolates of one process writing at once (test files run in parallel, workers) keep to their own directories", async () => {
  const tags = ["a", "b", "c", "d"];
  const results = await Promise.all(
    tags.map((tag) =>
      new Promise<{ failed: string[]; names: string[] }>((resolve, reject) => {
        const worker = new Worker(new URL("./_concurrent_writer.ts", import.meta.url), { type: "module" });
        worker.onmessage = (event) => {
          worker.terminate();
          resolve(event.data);
        };
        worker.onerror = (event) => {
          worker.terminate();
          reject(new Error(event.message));
        };
        worker.postMessage({ count: 150, tag });
      })
    ),
  );
  results.forEach(({ failed, names }, index) => {
    const tag = tags[index];
    assert.deepEqual(failed, [], `worker ${tag}: no write failed`);
    assert.deepEqual(
      names,
      [0, 1, 2, 3, 4].map((i) => `${tag}${i}.txt`),
      `worker ${tag}: only its own files`,
    );
  });
});

Deno.test("entryExists: a dangling symlink is an entry (lstat), a missing name is not", () => {
  const dir = makeRepo({ "app/service.py": SERVICE });
  Deno.symlinkSync(`${dir}/gone`, `${dir}/link`);
  assert.equal(entryExists(`${dir}/link`), true, "the journal must not take a dangling link's name for free");
  assert.equal(entryExists(`${dir}/app`), true);
  assert.equal(entryExists(`${dir}/gone`), false);
  Deno.removeSync(dir, { recursive: true });
});
