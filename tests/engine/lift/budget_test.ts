import assert from "node:assert/strict";
import { lift } from "../../../engine/lift/mod.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { modelPatches } from "../../bench/lift_patches.ts";
import { executeOnCopy, withDeadlineInSearch } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;

/** A repository holding `files`, removed after `fn`. */
async function withRepo<T>(files: Record<string, string>, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-lift-budget-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${path}`, text);
    }
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** A unified diff of one file, every changed line its own hunk (no context). */
function diffOf(path: string, before: string, after: string): string {
  const a = before.split("\n");
  const b = after.split("\n");
  let out = `--- a/${path}\n+++ b/${path}\n`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) out += `@@ -${i + 1} +${i + 1} @@\n-${a[i]}\n+${b[i]}\n`;
  }
  return out;
}

/**
 * sympy's polytools.py (183 KB) with a trailing comma added to every fourth call assigned on a line of
 * its own: each its own hunk, which one candidate lifts.
 */
async function trailingCommas() {
  const file = (await loadCorpus()).flatMap((instance) => instance.files)
    .find((item) => item.path === "sympy/polys/polytools.py")!;
  let k = 0;
  const after = file.before.split("\n").map((line) =>
    /^ {8}\w+ = .*\)$/.test(line) && k++ % 4 === 0 ? line.replace(/\)$/, ", )") : line
  ).join("\n");
  return { file, after, diff: diffOf(file.path, file.before, after) };
}

Deno.test({
  name:
    "lift budget: a deadline passing inside a region's search stops it at the next candidate, with budget-exceeded",
  ignore,
  async fn() {
    // sympy's polytools.py (183 KB): a trailing comma added to 23 calls, each its own hunk that one
    // candidate lifts (about a second each); the deadline passes when the sixth hunk's try begins
    const { file, diff } = await trailingCommas();
    await withRepo({ [file.path]: file.before }, async (dir) => {
      const { result, before, after: late } = await withDeadlineInSearch(
        5,
        () => lift(new DocumentStore(Workspace.open(dir)), { diff }),
      );
      assert.equal(result.success, false);
      assert.deepEqual(result.errors.map((issue) => issue.code), ["budget-exceeded"]);
      assert.equal(before, 5);
      // before the fix the search of the region in progress went on past the deadline, every try coming
      // back empty-handed, until the region's candidates ran out (a 3 s budget took 4.9 s)
      assert.equal(late, 0, `${late} candidate tries after the deadline`);
      // the hunk in progress was rolled back: the plan holds the steps of whole hunks only
      const lifted = result.hunks.filter((hunk) => hunk.lifted);
      assert.equal(lifted.length, 5);
      assert.equal(result.plan.length, lifted.flatMap((hunk) => hunk.steps).length);
    });
  },
});

Deno.test({
  name:
    "lift budget: when the search's share is spent, the hunks left become replace_code and the plan is exact",
  ignore,
  async fn() {
    // the same hunks of sympy's polytools.py; the clock jumps past the search's share of a 600 s budget
    // (400 s) but not past the budget when the sixth hunk's try begins
    const { file, after, diff } = await trailingCommas();
    const hunks = diff.match(/^@@ /gm)!.length;
    await withRepo({ [file.path]: file.before }, async (dir) => {
      const { result, before } = await withDeadlineInSearch(
        5,
        () => lift(new DocumentStore(Workspace.open(dir)), { diff }),
        600,
        450_000,
      );
      assert.equal(before, 5);
      assert.deepEqual(result.errors, []);
      assert.equal(result.success, true);
      assert.equal(result.exact, true);
      assert.ok(hunks > 15);
      assert.equal(result.hunks.length, hunks);
      assert.ok(result.hunks.every((hunk) => hunk.lifted));
      // the five the search reached keep their formal steps; the ones left share one replace_code
      const formal = result.hunks.filter((hunk) => hunk.tiers.every((tier) => tier > 0));
      const coarse = result.hunks.filter((hunk) => hunk.kinds.join() === "replace_code");
      assert.deepEqual([formal.length, coarse.length], [5, hunks - 5]);
      assert.equal(new Set(coarse.map((hunk) => hunk.steps.join())).size, 1);
      assert.equal(result.plan.filter((step) => step.op === "replace_code").length, 1);
      const warned = result.warnings.filter((issue) => issue.code === "lift-tier-0");
      assert.equal(warned.length, hunks - 5);
      assert.match(warned[0].message, /within the search's share of the work budget \(400 s\)/);
      // the real executor turns the plan into the diff's result
      assert.equal((await executeOnCopy({ [file.path]: file.before }, result.plan))[file.path], after);
    });
  },
});

Deno.test({
  name:
    "lift: an f-string in a repository declaring Python 2.7 is syntax-too-new at once (pytest-5221, swe-agent)",
  ignore,
  async fn() {
    const instance = (await modelPatches()).find((item) =>
      item.id === "pytest-dev__pytest-5221@swe-agent-gpt4"
    )!;
    const files: Record<string, string> = {
      "setup.py":
        'from setuptools import setup\nsetup(python_requires=">=2.7, !=3.0.*, !=3.1.*, !=3.2.*, !=3.3.*")\n',
    };
    for (const file of instance.files) files[file.path] = file.before!;
    await withRepo(files, async (dir) => {
      const result = await lift(new DocumentStore(Workspace.open(dir)), { diff: instance.patch });
      assert.equal(result.success, false);
      assert.deepEqual(result.errors.map((issue) => `${issue.code} ${issue.line}`), [
        "syntax-too-new 1350",
        "syntax-too-new 1356",
      ]);
      // the feature, the declared minimum and where it was declared
      assert.match(
        result.errors[0].message,
        /f-string .* needs Python 3\.6: the repository supports 3\.4 \(setup\.py python_requires/,
      );
      assert.equal(result.hunks[0].lifted, false);
    });
  },
});
