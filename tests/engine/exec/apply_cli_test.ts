import assert from "node:assert/strict";
import {
  dispatchSkip,
  git,
  GIT_SKIP,
  gitInit,
  killAtPause,
  makeRepo,
  snapshot,
  STATE_HOME,
} from "./_support.ts";
import { assertPythonParses } from "../../_support/python.ts";
import { runCli, spawnCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const graphplan = (args: string[], stdin = "") =>
  runCli(args, { stdin, env: { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1" } });

const PY = "import os\n\n\ndef greet(name):\n    return 'hello ' + name\n\n\nVALUE = 1\n";

/** A legacy `replace_code` step (seed 002). */
function replace(file: string, pattern: string, replacement: string) {
  return { op: "replace_code", params: { file, pattern, replacement } };
}

const DISPATCH_SKIP = await dispatchSkip();
if (DISPATCH_SKIP) console.error(`apply_cli_test: skipping real-operator tests: ${DISPATCH_SKIP}`);

Deno.test("apply: usage errors exit 2, unreadable or invalid plans exit 1", SLOW, async () => {
  const dir = makeRepo({ "a.py": PY });
  assert.equal((await graphplan(["apply", "--repo", dir])).code, 2);
  assert.equal((await graphplan(["apply", "a", "b", "--repo", dir])).code, 2);
  const missing = await graphplan(["apply", `${dir}/nope.json`, "--repo", dir, "--json"]);
  assert.equal(missing.code, 1);
  assert.equal(JSON.parse(missing.stdout).errors[0].code, "input-unreadable");
  const badJson = await graphplan(["apply", "-", "--repo", dir, "--json"], "[{");
  assert.equal(badJson.code, 1);
  assert.equal(JSON.parse(badJson.stdout).errors[0].code, "json-invalid");
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), PY);
});

Deno.test("apply: a document that is not a plan is rejected with issues, nothing written", {
  ignore: DISPATCH_SKIP !== undefined || SLOW.ignore,
}, async () => {
  const dir = makeRepo({ "a.py": PY });
  const notPlan = await graphplan(["apply", "-", "--repo", dir, "--json"], '{"files": ["a.py"]}');
  assert.equal(notPlan.code, 1);
  const result = JSON.parse(notPlan.stdout);
  assert.equal(result.success, false);
  assert.equal(result.rolled_back, false);
  assert.ok(result.errors.length > 0);
  assert.equal(Deno.readTextFileSync(`${dir}/a.py`), PY);
});

Deno.test("apply --dry-run prints a diff git applies; apply writes the same bytes", {
  ignore: (DISPATCH_SKIP ?? GIT_SKIP) !== undefined || SLOW.ignore,
}, async () => {
  const dir = makeRepo({ "a.py": PY, "b.py": "\ufeffB = 'é'\r\nC = 2\r\n" });
  gitInit(dir);
  const plan = JSON.stringify([replace("a.py", "'hello '", "'hi '"), replace("b.py", "C = 2", "C = 3")]);
  const dry = await graphplan(["apply", "-", "--repo", dir, "--dry-run"], plan);
  assert.equal(dry.code, 0, dry.stderr);
  assert.equal(git(dir, "status", "--porcelain"), "");
  Deno.writeTextFileSync(`${dir}.patch`, dry.stdout);
  git(dir, "apply", `${dir}.patch`);
  const viaGit = snapshot(dir);
  git(dir, "checkout", "-q", "--", ".");
  const real = await graphplan(["apply", "-", "--repo", dir, "--json"], plan);
  assert.equal(real.code, 0, real.stdout + real.stderr);
  assert.deepEqual(JSON.parse(real.stdout).files_changed, ["a.py", "b.py"]);
  assert.deepEqual(snapshot(dir), viaGit);
  await assertPythonParses(Deno.readTextFileSync(`${dir}/a.py`), "applied a.py");
});

Deno.test("apply: a plan failing at its third step exits 1 and restores the files of steps 0 and 1", {
  ignore: DISPATCH_SKIP !== undefined || SLOW.ignore,
}, async () => {
  const dir = makeRepo({ "a.py": PY, "b.py": "X = 1\n" });
  const before = snapshot(dir);
  const plan = JSON.stringify([
    replace("a.py", "VALUE = 1", "VALUE = 2"),
    replace("b.py", "X = 1", "X = 2"),
    replace("a.py", "this text is not there", "y"),
  ]);
  const out = await graphplan(["apply", "-", "--repo", dir, "--json"], plan);
  assert.equal(out.code, 1);
  const result = JSON.parse(out.stdout);
  assert.equal(result.rolled_back, true);
  assert.equal(result.failed_step, 2);
  assert.deepEqual(snapshot(dir), before);
});

Deno.test("kill -9 of graphplan apply mid-plan, then graphplan rollback: byte-identical", {
  ignore: DISPATCH_SKIP !== undefined || SLOW.ignore,
}, async () => {
  const dir = makeRepo({ "a.py": PY, "b.py": "X = 1\nY = 2\n", "c.py": "\ufeffZ = 'ü'\r\n" });
  const before = snapshot(dir);
  const planFile = `${dir}.plan.json`;
  Deno.writeTextFileSync(
    planFile,
    JSON.stringify([
      replace("a.py", "VALUE = 1", "VALUE = 2"),
      replace("b.py", "X = 1", "X = 2"),
      replace("c.py", "'ü'", "'ö'"),
      replace("a.py", "VALUE = 2", "VALUE = 3"),
    ]),
  );
  for (const [n, stage] of [[2, "rename"], [3, "temp"], [4, "journal"]]) {
    const child = spawnCli(["apply", planFile, "--repo", dir], {
      env: {
        XDG_STATE_HOME: STATE_HOME,
        GRAPHPLAN_TEST_PAUSE_AFTER_WRITE: String(n),
        GRAPHPLAN_TEST_PAUSE_STAGE: String(stage),
      },
      stdin: "null",
      stdout: "null",
    });
    const seen = await killAtPause(child);
    assert.match(seen, new RegExp(`paused at write ${n} \\(${stage}\\)`));
    const rollback = await graphplan(["rollback", "--repo", dir, "--json"]);
    assert.equal(rollback.code, 0, rollback.stdout + rollback.stderr);
    assert.deepEqual(snapshot(dir), before, `after a kill at write ${n} (${stage})`);
  }
});
