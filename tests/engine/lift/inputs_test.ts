/**
 * What lift reads and how it refuses: unified diffs (several files and
 * hunks, `\ No newline at end of file`, creations), SEARCH/REPLACE blocks,
 * and diffs that do not apply, which are errors naming the hunk while the
 * other hunks are still lifted; nothing is written either way.
 */

import assert from "node:assert/strict";
import { parseSearchReplace, parseUnifiedDiff } from "../../../engine/lift/mod.ts";
import { applyBlocks, applyHunks } from "../../../engine/lift/apply.ts";
import { PYTHON_SKIP } from "../../_support/python.ts";
import { gitDiff, liftIn, writeRepo } from "./_support.ts";

Deno.test("parseUnifiedDiff: files, hunks, counts, no-newline markers, -p1 paths", () => {
  const diff = [
    "diff --git a/a.py b/a.py",
    "index 1..2 100644",
    "--- a/a.py",
    "+++ b/a.py",
    "@@ -1,2 +1,2 @@",
    " x = 1",
    "-y = 2",
    "+y = 3",
    "@@ -10 +10 @@ def f():",
    "-    return 1",
    "\\ No newline at end of file",
    "+    return 2",
    "\\ No newline at end of file",
    "diff --git a/pkg/b.py b/pkg/b.py",
    "--- a/pkg/b.py",
    "+++ b/pkg/b.py",
    "@@ -3,0 +4,1 @@",
    "+import os",
    "",
  ].join("\n");
  const { files, issues } = parseUnifiedDiff(diff);
  assert.deepEqual(issues, []);
  assert.deepEqual(files.map((f) => f.path), ["a.py", "pkg/b.py"]);
  assert.deepEqual(files[0].hunks.map((h) => [h.index, h.oldStart, h.oldLines, h.newLines]), [[0, 1, 2, 2], [
    1,
    10,
    1,
    1,
  ]]);
  assert.deepEqual(files[0].hunks[1].lines.map((l) => [l.op, l.noEol]), [["-", true], ["+", true]]);
  assert.equal(files[1].hunks[0].index, 2);
  // Applying: the removed last line without a break is replaced by one without a break.
  const applied = applyHunks("a\n".repeat(9) + "    return 1", files[0].hunks.slice(1), {
    file: "a.py",
    eol: "\n",
  });
  assert.equal(applied.after, "a\n".repeat(9) + "    return 2");
});

Deno.test("lift: a created file is a create_file step, checked like an edit; parseUnifiedDiff: a cut-short hunk and an empty input are issues", async () => {
  const creation = "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+x = 1\n";
  const read = parseUnifiedDiff(creation);
  assert.deepEqual(read.issues, []);
  assert.deepEqual(read.files.map((f) => [f.status, f.oldPath, f.newPath]), [["added", null, "new.py"]]);
  const created = await liftIn(writeRepo({ "a.py": "x = 1\n" }), { diff: creation });
  assert.equal(created.success, true, JSON.stringify(created.errors));
  assert.deepEqual(created.plan, [{ op: "create_file", params: { file: "new.py", content: "x = 1\n" } }]);
  assert.deepEqual(created.hunks.map((h) => [h.index, h.tiers, h.kinds]), [[0, [1], ["create_file"]]]);
  // A new file that does not parse is lifted (the diff makes it) and fails verification, as any edit would.
  const broken = await liftIn(writeRepo({ "a.py": "x = 1\n" }), {
    diff: "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+def f(:\n",
  });
  assert.equal(broken.success, false);
  assert.deepEqual(broken.errors.map((i) => [i.code, i.step]), [["syntax-error", 0]]);
  // Creating a file that exists is what git apply refuses too.
  const exists = await liftIn(writeRepo({ "new.py": "y = 2\n" }), { diff: creation });
  assert.deepEqual(exists.errors.map((i) => [i.code, i.file]), [["hunk-not-applicable", "new.py"]]);
  const short = parseUnifiedDiff("--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n x\n-y\n");
  assert.deepEqual(short.issues.map((i) => i.code), ["diff-invalid"]);
  assert.match(short.issues[0].message, /^Hunk 0 of "a\.py" is cut short/);
  assert.deepEqual(parseUnifiedDiff("just words\n").issues.map((i) => i.code), ["diff-empty"]);
});

Deno.test("parseSearchReplace: Aider's fenced blocks, the file named before the fence", () => {
  const text = [
    "Here is the fix:",
    "",
    "app/util.py",
    "```python",
    "<<<<<<< SEARCH",
    "def f():",
    "    return 1",
    "=======",
    "def f():",
    "    return 2",
    ">>>>>>> REPLACE",
    "```",
    "",
    "app/other.py",
    "```",
    "<<<<<<< SEARCH",
    "=======",
    "x = 1",
    ">>>>>>> REPLACE",
    "```",
  ].join("\n");
  const { blocks, issues } = parseSearchReplace(text);
  assert.deepEqual(issues, []);
  assert.deepEqual(blocks.map((b) => [b.index, b.file]), [[0, "app/util.py"], [1, "app/other.py"]]);
  assert.equal(blocks[0].search, "def f():\n    return 1\n");
  assert.equal(blocks[0].replace, "def f():\n    return 2\n");
  assert.equal(blocks[1].search, "");
  const unnamed = parseSearchReplace("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n");
  assert.deepEqual(unnamed.issues.map((i) => i.code), ["search-replace-invalid"]);
  const open = parseSearchReplace("a.py\n<<<<<<< SEARCH\nx\n=======\ny\n");
  assert.match(open.issues[0].message, /^The block at line 2 is not closed/);
});

Deno.test({
  name:
    "lift: a hunk that does not apply is an error naming it; the other hunks are lifted; nothing is written",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const middle = Array.from({ length: 8 }, (_, k) => `C${k} = ${k}\n`).join("");
    const before = `def f(x):\n    return x + 1\n\n\n${middle}\n\ndef g(y):\n    return y * 2\n`;
    const after = `def f(x):\n    return x + 2\n\n\n${middle}\n\ndef g(y):\n    return y * 3\n`;
    const { dir, diff } = gitDiff({ "m.py": before }, { "m.py": after });
    assert.equal(diff.match(/^@@/gm)?.length, 2);
    // Break the second hunk's context: the file says "y * 2", the diff now expects "y * 5".
    const stale = diff.replace("-    return y * 2", "-    return y * 5");
    assert.notEqual(stale, diff);
    const result = await liftIn(dir, { diff: stale });
    assert.equal(result.success, false);
    const problem = result.errors.find((issue) => issue.code === "hunk-not-applicable");
    assert.ok(problem, JSON.stringify(result.errors));
    assert.match(problem.message, /^Hunk \d+ does not apply to "m\.py"/);
    assert.equal(problem.file, "m.py");
    assert.equal(typeof problem.line, "number");
    const applicable = result.hunks.filter((hunk) => hunk.lifted);
    assert.equal(applicable.length, 1);
    assert.deepEqual(applicable[0].kinds, ["change_return_value"]);
    assert.equal(result.plan.length, 1);
  },
});

Deno.test({
  name: "lift: a diff or block for a missing file is an error naming the file",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const dir = writeRepo({ "a.py": "x = 1\n" });
    const diff = "--- a/b.py\n+++ b/b.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n";
    const result = await liftIn(dir, { diff });
    assert.equal(result.success, false);
    assert.deepEqual(result.errors.map((i) => [i.code, i.file]), [["file-not-found", "b.py"]]);
    const blocks = await liftIn(dir, {
      search_replace: "a.py\n```\n<<<<<<< SEARCH\nx = 3\n=======\nx = 4\n>>>>>>> REPLACE\n```\n",
    });
    assert.deepEqual(blocks.errors.map((i) => i.code), ["hunk-not-applicable"]);
    assert.match(blocks.errors[0].message, /^Block 0 does not apply to "a\.py"/);
  },
});

Deno.test({
  name: "lift: SEARCH/REPLACE blocks lift like the equivalent diff",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const dir = writeRepo({
      "calc.py": "def area(w, h):\n    if w < 0:\n        return 0\n    return w * h\n",
    });
    const blocks = [
      "calc.py",
      "```python",
      "<<<<<<< SEARCH",
      "    if w < 0:",
      "=======",
      "    if w < 0 or h < 0:",
      ">>>>>>> REPLACE",
      "```",
    ].join("\n");
    const result = await liftIn(dir, { search_replace: blocks });
    assert.equal(result.success, true, JSON.stringify(result.errors));
    assert.deepEqual(result.hunks.map((h) => [h.index, h.kinds, h.tiers]), [[0, ["modify_condition"], [2]]]);
  },
});

Deno.test("applyHunks, applyBlocks: a change the file already holds is refused with a hint to revert it first", () => {
  const before = "def f(x):\n    return x + 1\n";
  const after = "def f(x):\n    return x + 2\n";
  const [file] = parseUnifiedDiff(
    "--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f(x):\n-    return x + 1\n+    return x + 2\n",
  ).files;
  // `git diff > fix.diff` leaves the working tree as the diff's result: lifting it there finds no old lines.
  const applied = applyHunks(after, file.hunks, { file: "m.py" });
  assert.deepEqual(applied.issues.map((i) => i.code), ["hunk-not-applicable"]);
  assert.match(applied.issues[0].hint ?? "", /already holds this hunk's result.*revert/);
  const stale = applyHunks(after.replace("def f", "def g"), file.hunks, { file: "m.py" });
  assert.doesNotMatch(
    stale.issues[0].hint ?? "",
    /already/,
    "a file that is neither side gets the plain hint",
  );
  assert.deepEqual(applyHunks(before, file.hunks, { file: "m.py" }).issues, []);
  const { blocks } = parseSearchReplace(
    "m.py\n```\n<<<<<<< SEARCH\n    return x + 1\n=======\n    return x + 2\n>>>>>>> REPLACE\n```\n",
  );
  const doneBlocks = applyBlocks(after, blocks, { file: "m.py", eol: "\n" });
  assert.match(doneBlocks.issues[0].hint ?? "", /already holds this block's result.*revert/);
});
