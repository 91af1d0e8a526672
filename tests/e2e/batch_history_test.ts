/**
 * History (issue 26): the repository in a batch's container holds
 * base_commit's history only. A real podman image is built here whose
 * /testbed has what a SWE-bench image leaves behind and more: commits
 * after base_commit (the "fix"), a tag on them and an annotated one, a
 * branch, a stash, a remote with a tracking ref, ORIG_HEAD and reflog
 * entries from the reset to base_commit. A scripted batch instance's first
 * command looks from inside the container (`git log --all`, `git reflog`,
 * `git fsck --lost-found`, the refs, the future commit by its id); none of
 * it is reachable, the older tag stays, and the instance still fixes the
 * sample project. Skipped where podman is absent.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { buildMinimalImage } from "../../tools/minimal_image.ts";
import { demoScript, PODMAN_SKIP, podmanEnv, sh } from "./_batch_support.ts";
import { FIX, git, readJson, ROOT, runCommand, SAMPLE } from "./_support.ts";

if (PODMAN_SKIP) console.log(`batch_history_test: skipped: ${PODMAN_SKIP}`);

/** The sample project at `dir` with history after its base; the base and the later commits' ids. */
async function repoWithFuture(dir: string): Promise<{ base: string; later: string[] }> {
  const copied = await new Deno.Command("cp", { args: ["-a", SAMPLE, dir] }).output();
  assert.ok(copied.success);
  await git(dir, "init", "-q");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "base");
  await git(dir, "tag", "v1.0");
  const base = (await git(dir, "rev-parse", "HEAD")).trim();
  const service = join(dir, "app", "service.py");
  const text = await Deno.readTextFile(service);
  await Deno.writeTextFile(service, text.replace(/discount = order\.customer\.discount$/m, FIX));
  await git(dir, "commit", "-q", "-am", "the fix from the future");
  await git(dir, "tag", "v1.1");
  await git(dir, "tag", "-a", "v1.2", "-m", "annotated, later");
  await git(dir, "branch", "release");
  await git(dir, "remote", "add", "origin", "https://example.invalid/sample.git");
  await git(dir, "update-ref", "refs/remotes/origin/main", "HEAD");
  const fix = (await git(dir, "rev-parse", "HEAD")).trim();
  await Deno.writeTextFile(join(dir, "NOTES.md"), "later notes\n");
  await git(dir, "add", "NOTES.md");
  await git(dir, "commit", "-q", "-m", "later still");
  const last = (await git(dir, "rev-parse", "HEAD")).trim();
  await Deno.writeTextFile(join(dir, "NOTES.md"), "stashed\n");
  await git(dir, "stash", "-q");
  const stash = (await git(dir, "rev-parse", "refs/stash")).trim();
  // As SWE-bench's images are made: reset to base_commit (ORIG_HEAD and the reflog keep the rest).
  await git(dir, "reset", "-q", "--hard", base);
  return { base, later: [fix, last, stash] };
}

Deno.test({
  name: "e2e batch: the container's repository holds base_commit's history only",
  ignore: PODMAN_SKIP !== "",
  fn: async () => {
    const root = await Deno.makeTempDir({ prefix: "gp_history_" });
    const image = `localhost/graphplan-history-${Deno.pid}-${crypto.randomUUID().slice(0, 6)}:latest`;
    try {
      const repo = join(root, "testbed");
      const { base, later } = await repoWithFuture(repo);
      const branch = (await git(repo, "symbolic-ref", "--short", "HEAD")).trim();
      // The image really has the later history (else the test proves nothing).
      assert.match(await git(repo, "log", "--all", "--format=%H"), new RegExp(later[1]));
      for (const [key, value] of Object.entries(podmanEnv())) Deno.env.set(key, value);
      await buildMinimalImage(image, { cli: "podman", testbed: repo });

      const probe = [
        "echo PROBE-LOG; git log --all --format=%H",
        "echo PROBE-REFLOG; git reflog --all",
        "echo PROBE-FSCK; git fsck --lost-found 2>&1",
        "echo PROBE-REFS; git for-each-ref --format='%(refname)'; git remote; git stash list",
        "echo PROBE-IDS",
        ...later.map((id) => `git cat-file -t ${id} 2>&1 || echo MISSING ${id}`),
        "echo PROBE-GITDIR; ls .git; echo PROBE-END",
      ].join("; ");
      const script = await demoScript(root, { before: [{ content: "Look around.", command: probe }] });
      const dataset = join(root, "dataset.jsonl");
      const task = await Deno.readTextFile(join(ROOT, "config/demo/task.md"));
      await Deno.writeTextFile(
        dataset,
        JSON.stringify({ instance_id: "demo__history-1", base_commit: base, problem_statement: task }) + "\n",
      );
      const out = join(root, "out");
      const main = ["run", "-A", "--config", join(ROOT, "deno.json"), join(ROOT, "main.ts")];
      const result = await runCommand(
        [
          Deno.execPath(),
          ...main,
          "batch",
          "--subset",
          dataset,
          "--env",
          "podman",
          "--image",
          image,
          "--model",
          "scripted/demo",
          "-c",
          `model.script=${script}`,
          "-c",
          "environment.run_args=[--network, none]",
          "-o",
          out,
        ],
        ROOT,
        podmanEnv(),
      );
      assert.equal(result.code, 0, result.stderr);

      const trajectory = await readJson<{
        info: {
          exit_status: string;
          submission: string;
          history: { head: string; refs: string[]; remotes: string[] };
        };
        messages: { role: string; content: string }[];
      }>(join(out, "demo__history-1", "demo__history-1.traj.json"));
      const seen = trajectory.messages.map((m) => m.content).find((text) => text.includes("PROBE-END"));
      assert.ok(seen, "the probe's output is in the trajectory");
      const section = (name: string) => seen.split(`PROBE-${name}`)[1].split("PROBE-")[0];
      // Only base_commit is in the history, the reflog is empty, nothing dangles.
      assert.deepEqual(section("LOG").trim().split("\n"), [base]);
      assert.equal(section("REFLOG").trim(), "");
      assert.doesNotMatch(section("FSCK"), /dangling commit|unreachable/);
      // The refs: the branch at base_commit and the older tag; no remote, no stash.
      assert.deepEqual(
        section("REFS").trim().split("\n").sort(),
        [`refs/heads/${branch}`, "refs/tags/v1.0"].sort(),
      );
      for (const id of later) {
        assert.ok(!seen.replace(`MISSING ${id}`, "").includes(id), `${id} is not in reach`);
        assert.match(seen, new RegExp(`MISSING ${id}`));
      }
      assert.doesNotMatch(section("GITDIR"), /ORIG_HEAD|FETCH_HEAD/);
      // Recorded in the trajectory, and the run went on as before.
      assert.equal(trajectory.info.history.head, base);
      assert.deepEqual(trajectory.info.history.remotes, ["origin"]);
      assert.deepEqual(
        [...trajectory.info.history.refs].sort(),
        ["refs/heads/release", "refs/stash", "refs/tags/v1.1", "refs/tags/v1.2"],
      );
      assert.equal(trajectory.info.exit_status, "Submitted");
      assert.ok(trajectory.info.submission.includes(`+        ${FIX}`), trajectory.info.submission);
    } finally {
      await sh(`podman rmi -f ${image}`);
      await Deno.remove(root, { recursive: true });
    }
  },
});
