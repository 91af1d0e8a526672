/**
 * The one unified-diff reader (lift and the gate both use it), on real
 * diffs: every corpus gold patch parses and re-applies byte for byte to its
 * before files, and the git features beyond content hunks (renames, copies,
 * binary files, mode changes, new and deleted files, quoted paths) come from
 * real `git diff` runs in a temporary repository. Lift refuses what a plan
 * cannot express, at the lift level, with `diff-unsupported`.
 */

import assert from "node:assert/strict";
import { applyHunks } from "../../../engine/lift/apply.ts";
import { type FilePatch, parseUnifiedDiff } from "../../../engine/lift/unified_diff.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { git, liftIn, writeRepo } from "./_support.ts";
import { executePlan } from "../../../engine/exec/execute.ts";
import { parsePlanSteps } from "../../../engine/exec/wiring.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";

if (CORPUS_SKIP) console.log(`unified_diff_test: skipped: ${CORPUS_SKIP}`);

Deno.test({
  name: "parseUnifiedDiff: every corpus gold patch parses without issues and re-applies to its before files",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    let files = 0;
    for (const instance of await loadCorpus()) {
      const parsed = parseUnifiedDiff(instance.patch);
      assert.deepEqual(parsed.issues, [], instance.instance_id);
      for (const patch of parsed.files) {
        assert.equal(patch.status, "modified", `${instance.instance_id}: ${patch.path}`);
        assert.equal(patch.binary, false);
        const file = instance.files.find((f) => f.path === patch.path);
        assert.ok(file, `${instance.instance_id}: ${patch.path}`);
        // The lines a hunk promises are the lines it holds.
        for (const hunk of patch.hunks) {
          assert.equal(hunk.lines.filter((l) => l.op !== "+").length, hunk.oldLines);
          assert.equal(hunk.lines.filter((l) => l.op !== "-").length, hunk.newLines);
        }
        const applied = applyHunks(file.before, patch.hunks, { file: file.path });
        assert.deepEqual(applied.issues, [], instance.instance_id);
        assert.equal(applied.after, file.after, `${instance.instance_id}: ${file.path}`);
        files++;
      }
    }
    assert.ok(files >= 187, `${files} files`);
  },
});

/** A repository with `before` committed, changed by `change`, and its staged `git diff` with `args`. */
function stagedDiff(
  before: Record<string, string | Uint8Array>,
  change: (dir: string) => void,
  ...args: string[]
): { dir: string; diff: string } {
  const dir = writeRepo({});
  for (const [path, content] of Object.entries(before)) {
    if (typeof content === "string") Deno.writeTextFileSync(`${dir}/${path}`, content);
    else Deno.writeFileSync(`${dir}/${path}`, content);
  }
  git(dir, "init", "-q");
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "before");
  change(dir);
  git(dir, "add", "-A");
  return { dir, diff: git(dir, "-c", "core.quotepath=true", "diff", "--cached", ...args) };
}

const MODULE = Array.from({ length: 30 }, (_, i) => `def f${i}(x):\n    return x + ${i}\n`).join("\n");

function only(files: FilePatch[], path: string): FilePatch {
  const found = files.filter((f) => f.path === path);
  assert.equal(found.length, 1, `${path} in ${JSON.stringify(files.map((f) => f.path))}`);
  return found[0];
}

Deno.test("parseUnifiedDiff: renames, copies, new and deleted files and mode changes from real git diffs", () => {
  const { dir, diff } = stagedDiff(
    { "old.py": MODULE, "same.py": MODULE, "gone.py": "x = 1\n", "tool.sh": "echo hi\n", "src.py": MODULE },
    (dir) => {
      Deno.renameSync(`${dir}/old.py`, `${dir}/new.py`);
      Deno.writeTextFileSync(`${dir}/new.py`, MODULE.replace("x + 7", "x + 70"));
      Deno.renameSync(`${dir}/same.py`, `${dir}/moved.py`);
      Deno.removeSync(`${dir}/gone.py`);
      Deno.writeTextFileSync(`${dir}/fresh.py`, "import os\n\nprint(os.sep)");
      Deno.writeTextFileSync(`${dir}/empty.py`, "");
      Deno.chmodSync(`${dir}/tool.sh`, 0o755);
      Deno.writeTextFileSync(`${dir}/copy.py`, MODULE);
    },
    "-M",
    "-C",
    "--find-copies-harder",
  );
  const { files, issues } = parseUnifiedDiff(diff);
  assert.deepEqual(issues, []);
  const renamed = only(files, "new.py");
  assert.deepEqual([renamed.status, renamed.oldPath, renamed.newPath], ["renamed", "old.py", "new.py"]);
  assert.ok(renamed.similarity !== null && renamed.similarity >= 90 && renamed.similarity < 100);
  assert.equal(renamed.hunks.length, 1);
  assert.equal(
    applyHunks(MODULE, renamed.hunks, { file: "new.py" }).after,
    MODULE.replace("x + 7", "x + 70"),
  );
  const moved = only(files, "moved.py");
  assert.deepEqual([moved.status, moved.oldPath, moved.similarity, moved.hunks], [
    "renamed",
    "same.py",
    100,
    [],
  ]);
  const copied = only(files, "copy.py");
  assert.equal(copied.status, "copied");
  assert.ok(["src.py", "same.py", "old.py"].includes(copied.oldPath!));
  const gone = only(files, "gone.py");
  assert.deepEqual([gone.status, gone.oldPath, gone.newPath, gone.oldMode], [
    "deleted",
    "gone.py",
    null,
    "100644",
  ]);
  assert.equal(applyHunks("x = 1\n", gone.hunks, { file: "gone.py" }).after, "");
  const fresh = only(files, "fresh.py");
  assert.deepEqual([fresh.status, fresh.oldPath, fresh.newMode], ["added", null, "100644"]);
  assert.deepEqual(fresh.hunks[0].lines.at(-1), { op: "+", text: "print(os.sep)", noEol: true });
  assert.equal(applyHunks("", fresh.hunks, { file: "fresh.py" }).after, "import os\n\nprint(os.sep)");
  const empty = only(files, "empty.py");
  assert.deepEqual([empty.status, empty.hunks], ["added", []]);
  const tool = only(files, "tool.sh");
  assert.deepEqual([tool.status, tool.oldMode, tool.newMode, tool.hunks], [
    "modified",
    "100644",
    "100755",
    [],
  ]);
  // What git itself makes of the same diff: it applies to the committed tree.
  Deno.writeTextFileSync(`${dir}/patch.diff`, diff);
  git(dir, "reset", "-q", "--hard");
  git(dir, "apply", "--check", "patch.diff");
});

Deno.test("parseUnifiedDiff: binary changes with and without --binary, quoted non-ASCII paths, paths with spaces", () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255]);
  for (const args of [[], ["--binary"]]) {
    const { diff } = stagedDiff(
      { "logo.png": png, "café menu.py": "x = 1\n", "my notes.py": "y = 1\n" },
      (dir) => {
        Deno.writeFileSync(`${dir}/logo.png`, new Uint8Array([...png, 0, 7]));
        Deno.writeFileSync(`${dir}/icon.bin`, new Uint8Array([0, 0, 1]));
        Deno.writeTextFileSync(`${dir}/café menu.py`, "x = 2\n");
        Deno.writeTextFileSync(`${dir}/my notes.py`, "y = 2\n");
      },
      ...args,
    );
    assert.match(diff, /"a\/caf\\303\\251 menu\.py"/, "git quoted the path");
    const { files, issues } = parseUnifiedDiff(diff);
    assert.deepEqual(issues, []);
    assert.deepEqual(files.map((f) => [f.path, f.status, f.binary]), [
      ["café menu.py", "modified", false],
      ["icon.bin", "added", true],
      ["logo.png", "modified", true],
      ["my notes.py", "modified", false],
    ]);
    assert.deepEqual([files[3].oldPath, files[3].newPath], ["my notes.py", "my notes.py"]);
    assert.equal(applyHunks("x = 1\n", files[0].hunks, { file: files[0].path }).after, "x = 2\n");
  }
});

Deno.test("lift: a binary hunk is refused naming its file; renames, deletions, new files and modes become whole-file steps that execute as git applies them", async () => {
  const before = { "old.py": MODULE, "gone.py": "x = 1\n", "tool.py": "y = 1\n" };
  const change = (dir: string) => {
    Deno.renameSync(`${dir}/old.py`, `${dir}/new.py`);
    Deno.writeTextFileSync(`${dir}/new.py`, MODULE.replace("x + 7", "x + 70"));
    Deno.removeSync(`${dir}/gone.py`);
    Deno.mkdirSync(`${dir}/scripts`);
    Deno.writeTextFileSync(`${dir}/scripts/fresh.py`, "z = 1\n");
    Deno.chmodSync(`${dir}/tool.py`, 0o755);
  };
  const binary = stagedDiff(before, (dir) => {
    change(dir);
    Deno.writeFileSync(`${dir}/data.bin`, new Uint8Array([0, 1, 2]));
  }, "-M");
  git(binary.dir, "reset", "-q", "--hard");
  const refused = await liftIn(binary.dir, { diff: binary.diff });
  assert.equal(refused.success, false);
  assert.deepEqual(refused.errors.map((issue) => [issue.code, issue.file]), [[
    "diff-unsupported",
    "data.bin",
  ]]);
  assert.match(refused.errors[0].message, /binary file "data\.bin"/);

  const { dir, diff } = stagedDiff(before, change, "-M");
  const expected = snapshotModes(dir);
  git(dir, "reset", "-q", "--hard");
  git(dir, "clean", "-qfd");
  const result = await liftIn(dir, { diff });
  assert.deepEqual(result.errors, []);
  assert.equal(result.success, true);
  assert.deepEqual(
    result.plan.filter((step) => step.op && /_file$|set_mode/.test(String(step.op))).map((step) => step.op),
    [
      "rename_file",
      "create_file",
      "delete_file",
      "set_mode",
    ],
  );
  // The plan run by the real executor leaves the tree git left: bytes, modes, no gone.py.
  const { steps, runStep } = await parsePlanSteps(result.plan);
  const run = await executePlan(new DocumentStore(Workspace.open(dir)), steps, { runStep });
  assert.equal(run.success, true, JSON.stringify(run.errors));
  assert.deepEqual(snapshotModes(dir), expected);
});

/** Every file under `dir` (outside `.git`) with its bytes and whether it is executable. */
function snapshotModes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (sub: string) => {
    for (const entry of Deno.readDirSync(`${dir}/${sub}`)) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.name === ".git") continue;
      if (entry.isDirectory) walk(rel);
      else {out[rel] = `${(Deno.statSync(`${dir}/${rel}`).mode! & 0o111) ? "x" : "-"}:${
          Deno.readTextFileSync(`${dir}/${rel}`)
        }`;}
    }
  };
  walk("");
  return out;
}

Deno.test("parseUnifiedDiff: malformed input is diff-invalid or diff-empty, with the diff's line", () => {
  const header = parseUnifiedDiff("--- a/a.py\n+++ b/a.py\n@@ -1 +1 @ broken\n-x\n+y\n");
  assert.deepEqual(header.issues.map((i) => [i.code, i.line]), [["diff-invalid", 3]]);
  const orphan = parseUnifiedDiff("@@ -1 +1 @@\n-x\n+y\n");
  assert.deepEqual(orphan.issues.map((i) => [i.code, i.line]), [["diff-invalid", 1]]);
  assert.deepEqual(parseUnifiedDiff("").issues.map((i) => i.code), ["diff-empty"]);
  // A ---/+++ pair without hunks says nothing.
  assert.deepEqual(parseUnifiedDiff("--- a/a.py\n+++ b/a.py\n").issues.map((i) => i.code), ["diff-empty"]);
});
