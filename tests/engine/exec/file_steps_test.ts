/**
 * Whole-file changes as transactions: a created file (with the directories
 * made for it) is removed and a deleted file restored byte for byte, modes
 * included, when a plan fails, and by `graphplan rollback` after the
 * process was killed at any write; confinement holds for new files (no
 * path through a symlink that leaves the repository, no overwriting an
 * existing file).
 *
 * @module
 */

import assert from "node:assert/strict";
import { executePlan } from "../../../engine/exec/execute.ts";
import { parsePlanSteps } from "../../../engine/exec/wiring.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { runCli } from "../../_support/cli.ts";
import { git, GIT_SKIP, gitInit, makeRepo, pausedRunner, snapshot, STATE_HOME } from "./_support.ts";
import { runTestStep, type TestStep } from "./_test_operator.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const FILES = {
  "keep.py": "def keep():\n    return 1\n",
  "gone.py": "\ufeffGONE = 'é'\r\nX = 1\r\n",
  "tool.py": "print('tool')\n",
};

const STEPS: TestStep[] = [
  { op: "create", file: "new/deep/a.py", text: "A = 1\n", mode: "100755" },
  { op: "delete", file: "gone.py" },
  { op: "mode", file: "tool.py", mode: "100755" },
  { op: "replace", file: "keep.py", old: "return 1", new: "return 2" },
  { op: "create", file: "b.py", text: "B = 2\n" },
];

/** Bytes and permission bits of every file, and the directories, under `dir` (outside `.git`). */
function state(dir: string): string {
  const files = [...snapshot(dir)].map(([path, bytes]) =>
    `${path} ${(Deno.statSync(`${dir}/${path}`).mode! & 0o777).toString(8)} ${[...bytes].join(",")}`
  );
  const dirs: string[] = [];
  const walk = (sub: string) => {
    for (const entry of Deno.readDirSync(`${dir}/${sub}`)) {
      if (!entry.isDirectory || entry.name === ".git") continue;
      dirs.push(`${sub}${entry.name}/`);
      walk(`${sub}${entry.name}/`);
    }
  };
  walk("");
  return [...files, ...dirs].sort().join("\n");
}

function repo(): string {
  const dir = makeRepo(FILES);
  Deno.chmodSync(`${dir}/tool.py`, 0o644);
  return dir;
}

Deno.test("a plan that creates, deletes and chmods files, then fails, leaves every byte, mode and directory as it was", async () => {
  const dir = repo();
  const before = state(dir);
  const result = await executePlan(new DocumentStore(Workspace.open(dir)), [...STEPS, { op: "fail" }], {
    runStep: runTestStep,
  });
  assert.equal(result.success, false);
  assert.equal(result.rolled_back, true);
  assert.equal(result.failed_step, STEPS.length);
  assert.equal(state(dir), before);
  // The same plan without the failing step: the files git would see.
  const done = await executePlan(new DocumentStore(Workspace.open(dir)), STEPS, { runStep: runTestStep });
  assert.equal(done.success, true, JSON.stringify(done.errors));
  assert.deepEqual(done.files_changed, ["new/deep/a.py", "gone.py", "tool.py", "keep.py", "b.py"]);
  assert.equal(Deno.readTextFileSync(`${dir}/new/deep/a.py`), "A = 1\n");
  assert.equal(Deno.statSync(`${dir}/new/deep/a.py`).mode! & 0o111, 0o111);
  assert.equal(Deno.statSync(`${dir}/tool.py`).mode! & 0o777, 0o755);
  assert.throws(() => Deno.statSync(`${dir}/gone.py`), Deno.errors.NotFound);
});

Deno.test({
  name:
    "kill -9 at every write of a whole-file plan, then graphplan rollback: byte-identical, modes kept, new directories gone",
  ignore: GIT_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const dir = repo();
    gitInit(dir);
    const before = state(dir);
    const planFile = `${dir}.plan.json`;
    Deno.writeTextFileSync(planFile, JSON.stringify(STEPS));
    const points: [number, string][] = [
      [1, "journal"],
      [1, "temp"],
      [1, "rename"],
      [2, "journal"],
      [2, "rename"],
      [3, "temp"],
      [3, "rename"],
      [5, "rename"],
    ];
    for (const [n, stage] of points) {
      const child = await pausedRunner(dir, planFile, { write: n, stage });
      child.kill("SIGKILL");
      await child.status;
      const rollback = await runCli(["rollback", "--repo", dir, "--json"], {
        env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1" },
      });
      assert.equal(rollback.code, 0, rollback.stdout + rollback.stderr);
      assert.equal(state(dir), before, `after a kill at write ${n} (${stage})`);
      assert.equal(git(dir, "status", "--porcelain"), "", `git status after a kill at write ${n} (${stage})`);
    }
    Deno.removeSync(planFile);
  },
});

Deno.test("create_file is confined: not through a symlink leaving the repository, not over an existing file, not outside", async () => {
  const outside = makeRepo({ "secret.py": "S = 1\n" });
  const dir = repo();
  Deno.symlinkSync(outside, `${dir}/link`);
  const run = async (plan: unknown[]) => {
    const { steps, issues, runStep } = await parsePlanSteps(plan);
    if (issues.some((issue) => issue.severity === "error")) return issues.map((issue) => issue.code);
    const result = await executePlan(new DocumentStore(Workspace.open(dir)), steps, { runStep });
    return result.errors.map((issue) => issue.code);
  };
  const before = state(dir);
  assert.deepEqual(await run([{ op: "create_file", params: { file: "link/evil.py", content: "E = 1\n" } }]), [
    "path-outside-repo",
  ]);
  assert.deepEqual(await run([{ op: "create_file", params: { file: "../evil.py", content: "E = 1\n" } }]), [
    "path-outside-repo",
  ]);
  assert.deepEqual(await run([{ op: "create_file", params: { file: "keep.py", content: "E = 1\n" } }]), [
    "file-exists",
  ]);
  assert.deepEqual(await run([{ op: "rename_file", params: { from: "keep.py", to: "link/keep.py" } }]), [
    "path-outside-repo",
  ]);
  assert.equal(state(dir), before);
  assert.deepEqual([...Deno.readDirSync(outside)].map((entry) => entry.name), ["secret.py"]);
});
