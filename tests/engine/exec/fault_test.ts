import assert from "node:assert/strict";
import { git, GIT_SKIP, gitInit, makeRepo, pausedRunner, snapshot, STATE_HOME } from "./_support.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { runCli } from "../../_support/cli.ts";
import { slow } from "../../_support/quick.ts";

const RUNNER = new URL("./_fault_runner.ts", import.meta.url).pathname;
/** A repository of four corpus files and a plan of eight steps over them (several files written twice). */
async function fixture(): Promise<{ dir: string; planFile: string; writes: number }> {
  const corpus = await loadCorpus();
  const texts = corpus.flatMap((i) => i.files.map((f) => f.before)).filter((t) => t.includes("\ndef ")).slice(
    0,
    4,
  );
  const files: Record<string, string> = {};
  texts.forEach((text, i) => (files[`pkg/m${i}.py`] = text));
  files["pkg/crlf.py"] = "\ufeffa = 'é'\r\nb = 1\r\n";
  const dir = makeRepo(files);
  Deno.chmodSync(`${dir}/pkg/m1.py`, 0o755);
  gitInit(dir);
  const insert = (file: string, text: string) => ({
    op: "edits",
    file,
    edits: [{ start: 0, end: 0, replacement: text }],
  });
  const steps = [
    insert("pkg/m0.py", "# s0\n"),
    insert("pkg/m1.py", "# s1\n"),
    { op: "replace", file: "pkg/crlf.py", old: "b = 1", new: "b = 2" },
    insert("pkg/m0.py", "# s3\n"),
    insert("pkg/m2.py", "# s4\n"),
    insert("pkg/m3.py", "# s5\n"),
    insert("pkg/m1.py", "# s6\n"),
    insert("pkg/m3.py", "# s7\n"),
  ];
  const planFile = `${dir}.plan.json`;
  Deno.writeTextFileSync(planFile, JSON.stringify(steps));
  return { dir, planFile, writes: steps.length };
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { XDG_STATE_HOME: STATE_HOME, NO_COLOR: "1", ...extra };
}

/** Run the plan in a subprocess, pause it at write `n`/`stage`, and SIGKILL it there. */
async function killAt(dir: string, planFile: string, n: number, stage: string): Promise<void> {
  const child = await pausedRunner(dir, planFile, { write: n, stage });
  child.kill("SIGKILL");
  const status = await child.status;
  assert.equal(status.signal, "SIGKILL");
}

const cli = (args: string[]) => runCli(args, { env: env() });

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");
const SKIP = (CORPUS_SKIP ?? GIT_SKIP) !== undefined || SLOW.ignore;

Deno.test("kill -9 at any point of a plan, then rollback: every file byte-identical, git status clean", {
  ignore: SKIP,
}, async () => {
  const { dir, planFile, writes } = await fixture();
  const before = snapshot(dir);
  const modes = new Map(
    [...before.keys()].map((path) => [path, Deno.statSync(`${dir}/${path}`).mode! & 0o7777]),
  );
  const points: [number, string][] = [
    [1, "journal"],
    [1, "temp"],
    [1, "rename"],
    [3, "temp"],
    [4, "journal"],
    [4, "rename"],
    [6, "temp"],
    [7, "rename"],
    [writes, "rename"],
  ];
  for (const [n, stage] of points) {
    await killAt(dir, planFile, n, stage);
    if (stage === "rename") assert.notDeepEqual(snapshot(dir), before, `write ${n} reached the disk`);
    if (stage === "temp") assert.match(git(dir, "status", "--porcelain"), /graphplan-\d+-\d+\.tmp/);
    const rollback = await cli(["rollback", "--repo", dir, "--json"]);
    assert.equal(rollback.code, 0, rollback.stderr + rollback.stdout);
    const report = JSON.parse(rollback.stdout);
    assert.equal(report.success, true);
    assert.deepEqual(snapshot(dir), before, `after a kill at write ${n} (${stage})`);
    for (const [path, mode] of modes) {
      assert.equal(Deno.statSync(`${dir}/${path}`).mode! & 0o7777, mode, path);
    }
    assert.equal(git(dir, "status", "--porcelain"), "", `git status after a kill at write ${n} (${stage})`);
  }
  const nothing = await cli(["rollback", "--repo", dir]);
  assert.equal(nothing.code, 0);
  assert.match(nothing.stdout, /Nothing to roll back/);
});

Deno.test("after a crash, apply refuses to start until rollback has run", { ignore: SKIP }, async () => {
  const { dir, planFile } = await fixture();
  const before = snapshot(dir);
  await killAt(dir, planFile, 2, "rename");
  const refused = await cli(["apply", planFile, "--repo", dir, "--json"]);
  assert.equal(refused.code, 1);
  const body = JSON.parse(refused.stdout);
  assert.equal(body.success, false);
  assert.equal(body.errors[0].code, "journal-pending");
  assert.match(body.errors[0].hint, /graphplan rollback --repo/);
  const rollback = await cli(["rollback", "--repo", dir]);
  assert.equal(rollback.code, 0, rollback.stderr);
  assert.match(rollback.stdout, /Restored 2 file\(s\)/);
  assert.deepEqual(snapshot(dir), before);
});

Deno.test(
  "without a pause the runner completes the plan and leaves no journal",
  { ignore: SKIP },
  async () => {
    const { dir, planFile, writes } = await fixture();
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", RUNNER, dir, planFile],
      env: env(),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(result.success, true, JSON.stringify(result.errors));
    assert.equal(result.files_changed.length, 5);
    assert.equal(git(dir, "status", "--porcelain").trimEnd().split("\n").length, 5);
    assert.ok(writes > 5);
    const rollback = await cli(["rollback", "--repo", dir]);
    assert.match(rollback.stdout, /Nothing to roll back/);
  },
);
