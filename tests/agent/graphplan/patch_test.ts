import assert from "node:assert/strict";
import { join } from "node:path";
import { LocalEnvironment } from "../../../agent/env/mod.ts";
import { checkPatch, checkPatchFormat } from "../../../agent/graphplan/mod.ts";
import { git } from "./_agent_support.ts";

const SAMPLE = new URL("../../fixtures/sample_project/app/service.py", import.meta.url).pathname;

/** A repository with the sample service committed, changed as `edit` says; returns the staged diff. */
async function repoWithChange(edit: (text: string) => string) {
  const dir = await Deno.makeTempDir({ prefix: "gp_patch_" });
  const file = join(dir, "service.py");
  const text = await Deno.readTextFile(SAMPLE);
  await Deno.writeTextFile(file, text);
  await git(dir, "init", "-q");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-q", "-m", "init");
  await Deno.writeTextFile(file, edit(text));
  await git(dir, "add", "-A");
  return {
    dir,
    diff: await git(dir, "diff", "--cached"),
    cleanup: () => Deno.remove(dir, { recursive: true }),
  };
}

const FIX = (text: string) =>
  text.replace(
    "discount = order.customer.discount\n",
    'discount = order.customer.discount or Decimal("0")\n',
  );

Deno.test("patch checks: a real git diff passes the format checks and `git apply --check` against HEAD", async () => {
  const repo = await repoWithChange(FIX);
  const env = new LocalEnvironment({ cwd: repo.dir });
  try {
    const format = checkPatchFormat(repo.diff);
    assert.deepEqual(format, { ok: true, problems: [], notes: [], files: ["service.py"] });
    const full = await checkPatch(env, repo.diff);
    assert.deepEqual(full.problems, []);
    assert.equal(full.ok, true);
    // The throw-away index leaves the real one alone.
    assert.equal((await git(repo.dir, "diff", "--cached", "--stat")).includes("service.py"), true);
  } finally {
    await env.close();
    await repo.cleanup();
  }
});

Deno.test("patch checks: empty, headerless and stale patches are refused; a deletion-only patch is noted", async () => {
  assert.deepEqual(checkPatchFormat("\n").problems, ["the patch is empty: nothing was changed"]);
  const garbage = checkPatchFormat("I changed service.py to handle None.\n");
  assert.equal(garbage.ok, false);
  assert.deepEqual(garbage.problems, [
    "no `diff --git a/... b/...` header",
    "no `--- a/...` marker",
    "no `+++ b/...` marker",
    "no `@@` hunk",
  ]);
  const deletion = await repoWithChange((text) => text.replace(/\ndef _round[\s\S]*$/, "\n"));
  const env = new LocalEnvironment({ cwd: deletion.dir });
  try {
    const report = await checkPatch(env, deletion.diff);
    assert.equal(report.ok, true);
    assert.deepEqual(report.notes, ["the patch adds no line (it only deletes)"]);
    // Context that is not in HEAD: git apply refuses it.
    const stale = deletion.diff.replace("def _round(amount: Decimal) -> Decimal:", "def _round(amount):");
    const refused = await checkPatch(env, stale);
    assert.equal(refused.ok, false);
    assert.match(
      refused.problems[0],
      /^`git apply --check` refuses it against HEAD: error: patch failed: service\.py/,
    );
  } finally {
    await env.close();
    await deletion.cleanup();
  }
});
