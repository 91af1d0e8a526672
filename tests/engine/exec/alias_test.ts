import assert from "node:assert/strict";
import { makeRepo, pausedRunner, snapshot, STATE_HOME } from "./_support.ts";
import { runTestStep } from "./_test_operator.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { executePlan, hasPendingJournal, rollbackRepository } from "../../../engine/exec/mod.ts";
import { runCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const FIXTURE = new URL("../../fixtures/sample_project/app/service.py", import.meta.url).pathname;
/** The sample project's service.py, plus `alias.py -> app/service.py`. */
function aliasedRepo(): { dir: string; original: Uint8Array } {
  const original = Deno.readFileSync(FIXTURE);
  const dir = makeRepo({ "app/service.py": original });
  Deno.symlinkSync("app/service.py", `${dir}/alias.py`);
  return { dir, original };
}

Deno.test("a plan editing a file under two names, then failing, restores the original bytes", async () => {
  const { dir, original } = aliasedRepo();
  const before = snapshot(dir);
  const store = new DocumentStore(Workspace.open(dir));
  const result = await executePlan(store, [
    { op: "replace", file: "alias.py", old: "class OrderService", new: "class OrderService2" },
    { op: "replace", file: "app/service.py", old: "import", new: "import  " },
    { op: "replace", file: "alias.py", old: "OrderService2", new: "OrderService3" },
    { op: "fail" },
  ], { runStep: runTestStep });
  assert.equal(result.success, false);
  assert.equal(result.failed_step, 3);
  assert.equal(result.rolled_back, true, JSON.stringify(result.errors));
  assert.deepEqual(result.errors.map((issue) => issue.code), ["template-precondition"]);
  assert.deepEqual(Deno.readFileSync(`${dir}/app/service.py`), original);
  assert.deepEqual(snapshot(dir), before);
  assert.equal(Deno.lstatSync(`${dir}/alias.py`).isSymlink, true, "the alias stays a symlink");
  assert.equal(hasPendingJournal(Workspace.open(dir)), false);
});

Deno.test("both names of a file are one file: the second step sees the first one's edit", async () => {
  const { dir, original } = aliasedRepo();
  const store = new DocumentStore(Workspace.open(dir));
  const result = await executePlan(store, [
    { op: "replace", file: "alias.py", old: "class OrderService", new: "class OrderService2" },
    { op: "replace", file: "app/service.py", old: "class OrderService2", new: "class OrderService3" },
  ], { runStep: runTestStep });
  assert.equal(result.success, true, JSON.stringify(result.errors));
  assert.deepEqual(result.files_changed, ["app/service.py"]);
  const expected = new TextDecoder().decode(original).replace("class OrderService", "class OrderService3");
  assert.equal(Deno.readTextFileSync(`${dir}/app/service.py`), expected);
});

Deno.test(
  "kill -9 after the second name was written: rollback and rollback --force restore the original",
  SLOW,
  async () => {
    for (const force of [false, true]) {
      const { dir, original } = aliasedRepo();
      const before = snapshot(dir);
      const planFile = `${dir}.plan.json`;
      Deno.writeTextFileSync(
        planFile,
        JSON.stringify([
          { op: "replace", file: "alias.py", old: "class OrderService", new: "class OrderService2" },
          { op: "replace", file: "app/service.py", old: "import", new: "import  " },
        ]),
      );
      const child = await pausedRunner(dir, planFile, { write: 2 });
      child.kill("SIGKILL");
      await child.status;
      assert.notDeepEqual(Deno.readFileSync(`${dir}/app/service.py`), original);
      const report = (await runCli(["rollback", "--repo", dir, "--json", ...(force ? ["--force"] : [])], {
        env: { XDG_STATE_HOME: STATE_HOME },
      })).json;
      assert.equal(report.success, true, JSON.stringify(report));
      assert.deepEqual(report.restored, ["app/service.py"]);
      assert.deepEqual(snapshot(dir), before, `force: ${force}`);
      assert.equal((await rollbackRepository(Workspace.open(dir))).nothing_to_do, true);
    }
  },
);
