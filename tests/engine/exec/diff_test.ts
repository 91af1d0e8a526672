import assert from "node:assert/strict";
import { git, GIT_SKIP, makeRepo, snapshot } from "./_support.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { unifiedDiff } from "../../../engine/exec/diff.ts";

Deno.test("unifiedDiff: equal texts give no diff; headers, context and ranges follow the format", () => {
  assert.equal(unifiedDiff("a.py", "x\n", "x\n"), "");
  const before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";
  const after = before.replace("5\n", "five\n");
  assert.equal(
    unifiedDiff("pkg/a.py", before, after),
    "diff --git a/pkg/a.py b/pkg/a.py\n--- a/pkg/a.py\n+++ b/pkg/a.py\n" +
      "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
  );
  // Changes whose contexts touch share a hunk; far apart, they do not.
  const two = unifiedDiff("a", before, before.replace("2\n", "b\n").replace("9\n", "i\n"));
  assert.equal(two.match(/^@@/gm)!.length, 1, "6 unchanged lines between changes: one hunk");
  const apart = unifiedDiff("a", before, before.replace("1\n", "a\n").replace("9\n", "i\n"));
  assert.equal(apart.match(/^@@/gm)!.length, 2, "7 unchanged lines between changes: two hunks");
  const long = Array.from({ length: 40 }, (_, i) => `${i}\n`).join("");
  const far = unifiedDiff("a", long, long.replace("\n2\n", "\nb\n").replace("\n30\n", "\nx\n"));
  assert.deepEqual(far.match(/^@@.*@@$/gm), ["@@ -1,6 +1,6 @@", "@@ -28,7 +28,7 @@"]);
});

Deno.test("unifiedDiff: insertions at the start and a missing final newline", () => {
  assert.equal(
    unifiedDiff("a", "x\n", "new\nx\n"),
    "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1,2 @@\n+new\n x\n",
  );
  assert.equal(
    unifiedDiff("a", "x\ny", "x\nz"),
    "diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n x\n-y\n\\ No newline at end of file\n+z\n\\ No newline at end of file\n",
  );
});

Deno.test("git applies unifiedDiff to CRLF, BOM and no-final-newline files byte for byte", {
  ignore: GIT_SKIP !== undefined,
}, () => {
  const pairs: [string, string, string][] = [
    ["crlf.py", "a = 1\r\nb = 2\r\nc = 3\r\n", "a = 1\r\nb = 22\r\nc = 3\r\nd = 4\r\n"],
    ["bom.py", "\ufeffa = 'é'\nb = 1\n", "\ufeffa = 'è'\nb = 1\n"],
    ["nonl.py", "a = 1\nb = 2", "a = 1\nb = 3"],
    ["addnl.py", "a = 1", "a = 1\n"],
    ["tabs.py", "if x:\n\tpass\n", "if x:\n\tif y:\n\t\tpass\n"],
  ];
  checkWithGit(pairs);
});

Deno.test("git applies unifiedDiff to SWE-bench before/after files, with git's line counts", {
  ignore: (GIT_SKIP ?? CORPUS_SKIP) !== undefined,
}, async () => {
  const corpus = await loadCorpus();
  const pairs: [string, string, string][] = corpus.slice(0, 60).flatMap((instance, i) =>
    instance.files.map((file): [string, string, string] => [`i${i}/${file.path}`, file.before, file.after])
  );
  assert.ok(pairs.length >= 60);
  checkWithGit(pairs);
});

Deno.test("git applies unifiedDiff to random edits and to a file rewritten beyond the minimal-diff limit", {
  ignore: GIT_SKIP !== undefined,
}, () => {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pairs: [string, string, string][] = [];
  for (let i = 0; i < 40; i++) {
    const lines = Array.from(
      { length: 5 + Math.floor(random() * 60) },
      () => `x${Math.floor(random() * 8)}\n`,
    );
    const edited = [...lines];
    for (let e = Math.floor(random() * 8); e >= 0; e--) {
      const at = Math.floor(random() * (edited.length + 1));
      const what = random();
      if (what < 0.4) edited.splice(at, 1);
      else if (what < 0.8) edited.splice(at, 0, `y${Math.floor(random() * 4)}\n`);
      else edited.splice(at, 2, "z\n");
    }
    pairs.push([`r${i}.py`, lines.join(""), edited.join("")]);
  }
  const big = Array.from({ length: 3000 }, (_, i) => `a${i}\n`).join("");
  const rewritten = Array.from({ length: 2600 }, (_, i) => `b${i}\n`).join("");
  pairs.push(["big.py", big, rewritten]);
  checkWithGit(pairs);
  const diff = unifiedDiff("big.py", big, rewritten);
  assert.equal(diff.split("\n").filter((line) => line.startsWith("-a")).length, 3000);
});

/** Apply our diffs with `git apply` and compare; compare +/- counts with `git diff --no-index --numstat`. */
function checkWithGit(pairs: [string, string, string][]): void {
  const before: Record<string, string> = {};
  const after: Record<string, string> = {};
  for (const [path, a, b] of pairs) {
    before[path] = a;
    after[path] = b;
  }
  const dir = makeRepo(before);
  const expected = snapshot(makeRepo(after));
  const patch = pairs.map(([path, a, b]) => unifiedDiff(path, a, b)).join("");
  const patchFile = `${dir}.patch`;
  Deno.writeTextFileSync(patchFile, patch);
  git(dir, "apply", "--check", patchFile);
  git(dir, "apply", patchFile);
  assert.deepEqual(snapshot(dir), expected);
  for (const [path, a, b] of pairs.slice(0, 30)) {
    const ours = unifiedDiff(path, a, b).split("\n").slice(3);
    const plus = ours.filter((line) => line.startsWith("+")).length;
    const minus = ours.filter((line) => line.startsWith("-")).length;
    const tmp = makeRepo({ a: a, b: b });
    const out = new Deno.Command("git", {
      args: ["diff", "--no-index", "--numstat", "a", "b"],
      cwd: tmp,
      stdout: "piped",
    }).outputSync();
    const [added, deleted] = new TextDecoder().decode(out.stdout).split("\t").map(Number);
    assert.equal(plus + minus, added + deleted, path);
  }
}
