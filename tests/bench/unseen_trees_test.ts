/**
 * The diffs `unseen_trees.ts` writes for whole patches: a file modified, one
 * created and one deleted, as one diff that `git apply` (the oracle) takes
 * on the tree before and that turns it into the tree after; the paths a
 * quilt patch names; the changed-line count its size cap reads.
 */

import assert from "node:assert/strict";
import { loadMultilang, MULTILANG_SKIP } from "../_support/multilang.ts";
import { skipReason } from "../_support/skips.ts";
import { changedLines, patchedPaths, wholeDiff } from "./unseen_trees.ts";

Deno.test({
  name:
    "unseen trees: one diff of a modified, a created and a deleted real file; git apply turns before into after",
  ignore: skipReason(MULTILANG_SKIP) !== undefined,
  async fn() {
    const commit = (await loadMultilang()).find((c) => c.files.length >= 2)!;
    const [changed, other] = commit.files;
    const changes = [
      { path: changed.path, before: changed.before, after: changed.after },
      { path: `new/${other.path}`, after: other.after },
      { path: other.path, before: other.before },
    ];
    const diff = await wholeDiff(changes);
    assert.equal((diff.match(/^diff --git /gm) ?? []).length, 3);
    assert.match(
      diff,
      new RegExp(`^--- /dev/null\n\\+\\+\\+ b/new/${other.path.replace(/[.]/g, "\\.")}$`, "m"),
    );
    assert.match(
      diff,
      new RegExp(`^diff --git a/new/\\S+ b/new/\\S+$`, "m"),
      "a created file is named a/ b/",
    );
    assert.ok(changedLines(diff) > 0);

    const dir = await Deno.makeTempDir({ prefix: "graphplan-trees-test-" });
    try {
      for (const change of changes.filter((c) => c.before !== undefined)) {
        const target = `${dir}/${change.path}`;
        await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
        await Deno.writeTextFile(target, change.before!);
      }
      await Deno.writeTextFile(`${dir}/patch.diff`, diff);
      const applied = await new Deno.Command("git", {
        args: ["apply", "patch.diff"],
        cwd: dir,
        stderr: "piped",
      })
        .output();
      assert.equal(applied.success, true, new TextDecoder().decode(applied.stderr));
      assert.equal(await Deno.readTextFile(`${dir}/${changed.path}`), changed.after);
      assert.equal(await Deno.readTextFile(`${dir}/new/${other.path}`), other.after);
      assert.equal(
        await Deno.stat(`${dir}/${other.path}`).catch(() => null),
        null,
        "the deleted file is gone",
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("unseen trees: the paths of a quilt patch, either side, its top directory cut and /dev/null left out", () => {
  const patch = [
    "Description: fix the overflow",
    "--- a/src/util.c",
    "+++ b/src/util.c",
    "@@ -1 +1 @@",
    "-int x;",
    "+long x;",
    "--- /dev/null",
    "+++ b/tests/overflow.sh",
    "@@ -0,0 +1 @@",
    "+true",
    "--- sed-4.9.orig/doc/sed.texi\t2022-11-06 12:00:00",
    "+++ sed-4.9/doc/sed.texi\t2022-11-06 12:00:00",
    "",
  ].join("\n");
  assert.deepEqual(patchedPaths(patch), ["src/util.c", "tests/overflow.sh", "doc/sed.texi"]);
  assert.equal(changedLines(patch), 3, "+/- lines, headers left out");
});
