/**
 * Gold-patch sweep: every corpus instance's gold patch, as a plan of one
 * `replace_code` step per hunk, verified over its `before` files
 * (`verifyPlan`, which runs the edit levels L0–L6 on every step). A gold
 * patch is correct code that CPython accepts, so an L0–L2 error on one is a
 * false alarm: the sweep asserts there are none, and that the final files
 * are the gold ones.
 *
 * Unlike `planFromPatch` (tests/bench/verify_plan.ts), a hunk whose text
 * occurs more than once in its file gets following lines of the file added
 * to its pattern until it is unique (sympy-13091, -15017, -16988 repeat a
 * hunk's lines verbatim), so no plan stops early at `pattern-ambiguous`.
 *
 * A second sweep applies each file's gold patch as one step of minimal text
 * edits (each run of removed/added lines, no context), the strictest case
 * for L2: the untouched code sits right next to every span.
 *
 * L3–L6 warnings are counted by code and printed (a rate per step, to tune
 * noise). Before `settleWarnings` they came from intermediate states, all
 * resolved by a later hunk: a hunk uses a helper that a later hunk defines
 * (unbound-name, 6), moves the uses of an import into code a later hunk
 * adds (import-unused, 8), removes or renames a function whose callers a
 * later hunk updates (interface-mismatch, 2). What remains is a true
 * finding: sympy-13146 leaves `_aresame` imported but unused.
 */

import assert from "node:assert/strict";
import type { TextEdit } from "../../../../engine/edit/text_edit.ts";
import type { Issue } from "../../../../engine/base/issue.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { verifyPlan } from "../../../../engine/verify/mod.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { CORPUS_SKIP, type CorpusInstance, loadCorpus, materialize } from "../../../_support/corpus.ts";
import { editAndCheck } from "./_support.ts";

/**
 * Gold-patch plans allowed an L0–L2 error, by instance id, with the reason.
 * Empty: every false alarm the sweep found was fixed.
 */
const ALLOWED: Record<string, string> = {};

/**
 * Minimal edits (no context) allowed an L2 error, by instance id. In both,
 * code the edits do not touch changes its owner, which is what L2 exists to
 * catch and cannot tell from a slip; a plan that means it covers the moved
 * code, as the hunk plans do (they pass).
 */
const ALLOWED_MINIMAL: Record<string, string> = {
  "pytest-dev__pytest-6197":
    "deleting the lines from `obj`'s body to the `def _mount_obj_if_needed` header merges that function's untouched body into `obj`",
  "sympy__sympy-18532":
    "inserting `if types:` with a body right above an untouched `else:` re-attaches the `else` from the old `if` to the new one",
};

/** Codes of the dangling-reference checks, counted apart (errors and warnings alike). */
const NEW_CHECKS = ["dangling-reference", "dangling-import", "export-removed"];

interface Hunk {
  file: string;
  /** 1-based first line of the hunk in the patch's base (git applies it with an offset if need be). */
  oldStart: number;
  /** The hunk's lines, each with its ` `, `-` or `+` mark. */
  lines: string[];
}

function hunksOf(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let file: string | undefined;
  let hunk: Hunk | undefined;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      hunk = undefined;
      file = undefined;
    } else if (!hunk && line.startsWith("+++ ")) {
      file = line.slice(4).replace(/^b\//, "");
    } else if (line.startsWith("@@")) {
      hunk = { file: file!, oldStart: Number(/^@@ -(\d+)/.exec(line)?.[1] ?? 1), lines: [] };
      hunks.push(hunk);
    } else if (hunk && /^[ +-]/.test(line)) {
      hunk.lines.push(line);
    } else if (hunk && line === "") {
      // an empty context line some patches carry without its space (or the patch's last line break)
      hunk.lines.push(" ");
    }
  }
  return hunks;
}

const textOf = (lines: readonly string[], keep: string) =>
  lines.filter((line) => keep.includes(line[0])).map((line) => line.slice(1) + "\n").join("");

/**
 * Where a hunk applies in `before`: the offset of its context and removed lines (the occurrence
 * nearest its stated line), and its lines (without a trailing empty context line the file lacks).
 */
function locate(hunk: Hunk, before: string): { at: number; lines: string[] } | undefined {
  const lineOf = (offset: number) => before.slice(0, offset).split("\n").length;
  const candidates = hunk.lines.at(-1) === " " ? [hunk.lines, hunk.lines.slice(0, -1)] : [hunk.lines];
  for (const lines of candidates) {
    const old = textOf(lines, " -");
    let at = -1;
    for (let i = before.indexOf(old); i !== -1; i = before.indexOf(old, i + 1)) {
      if (i > 0 && before[i - 1] !== "\n") continue;
      if (at === -1 || Math.abs(lineOf(i) - hunk.oldStart) < Math.abs(lineOf(at) - hunk.oldStart)) at = i;
    }
    if (at !== -1) return { at, lines };
  }
  return undefined;
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count++;
  return count;
}

/** One `replace_code` step per hunk, each pattern made unique in its `before` file. */
function goldPlan(instance: CorpusInstance): unknown[] {
  const files = new Map(instance.files.map((file) => [file.path, file.before]));
  const hunks = hunksOf(instance.patch).filter((hunk) => files.has(hunk.file));
  const steps: unknown[] = [];
  hunks.forEach((hunk, i) => {
    const before = files.get(hunk.file)!;
    const found = locate(hunk, before);
    if (!found) throw new Error(`${instance.instance_id}: a hunk of "${hunk.file}" is not in the file`);
    let pattern = textOf(found.lines, " -");
    let replacement = textOf(found.lines, " +");
    // add following lines (up to the next hunk) while the pattern is ambiguous
    const nextHunk = hunks[i + 1]?.file === hunk.file ? locate(hunks[i + 1], before)?.at : undefined;
    let end = found.at + pattern.length;
    while (occurrences(before, pattern) > 1 && end < (nextHunk ?? before.length)) {
      const lineEnd = before.indexOf("\n", end);
      const line = before.slice(end, lineEnd === -1 ? before.length : lineEnd + 1);
      pattern += line;
      replacement += line;
      end += line.length;
    }
    steps.push({ op: "replace_code", params: { file: hunk.file, pattern, replacement } });
  });
  return steps;
}

/** The gold patch of one file as minimal text edits: each run of removed and added lines, no context. */
function minimalEdits(instance: CorpusInstance, path: string, before: string): TextEdit[] {
  const edits: TextEdit[] = [];
  for (const hunk of hunksOf(instance.patch).filter((hunk) => hunk.file === path)) {
    const found = locate(hunk, before);
    if (!found) throw new Error(`${instance.instance_id}: a hunk of "${path}" is not in the file`);
    let offset = found.at;
    let run: TextEdit | undefined;
    for (const line of found.lines) {
      if (line[0] === " ") {
        if (run) edits.push(run);
        run = undefined;
        offset += line.length;
        continue;
      }
      run ??= { start: offset, end: offset, replacement: "" };
      if (line[0] === "-") {
        offset += line.length;
        run.end = offset;
      } else {
        run.replacement += line.slice(1) + "\n";
      }
    }
    if (run) edits.push(run);
  }
  return edits;
}

Deno.test({
  name: "gold sweep: no L0–L2 error on the gold-patch plans of all corpus instances",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const errors: string[] = [];
    const warnings = new Map<string, number>();
    const newChecks = new Map<string, number>();
    let plans = 0;
    let steps = 0;
    for (const instance of await loadCorpus()) {
      const plan = goldPlan(instance);
      if (plan.length === 0) continue;
      plans++;
      steps += plan.length;
      const dir = await materialize(instance);
      try {
        const result = await verifyPlan(new DocumentStore(Workspace.open(dir)), plan);
        const report = (issue: Issue) =>
          `${instance.instance_id} step ${issue.step} ${
            issue.level ?? issue.layer
          } ${issue.code}: ${issue.message}`;
        for (const issue of result.errors) {
          if (!ALLOWED[instance.instance_id]) errors.push(report(issue));
          if (NEW_CHECKS.includes(issue.code)) {
            newChecks.set(issue.code, (newChecks.get(issue.code) ?? 0) + 1);
          }
        }
        for (const issue of result.warnings) {
          if (NEW_CHECKS.includes(issue.code)) {
            newChecks.set(issue.code, (newChecks.get(issue.code) ?? 0) + 1);
          }
        }
        for (const issue of result.warnings) {
          if (!/^L[3-6]$/.test(String(issue.level))) continue;
          const key = `${issue.level} ${issue.code}`;
          warnings.set(key, (warnings.get(key) ?? 0) + 1);
        }
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    }
    const rates = [...warnings].sort().map(([key, n]) =>
      `${key}: ${n} (${(n / steps * 100).toFixed(1)}% of steps)`
    );
    console.log(`gold sweep: ${plans} plans, ${steps} steps; L3–L6 warnings: ${rates.join(", ") || "none"}`);
    console.log(
      `gold sweep, dangling-reference checks (issue 17): ${
        NEW_CHECKS.map((code) => `${code} ${newChecks.get(code) ?? 0}`).join(", ")
      }`,
    );
    assert.ok(plans >= 180, `${plans} plans`);
    assert.deepEqual(errors, []);
    // every name a gold patch uses is bound once the plan is done
    assert.equal(warnings.get("L3 unbound-name") ?? 0, 0);
  },
});

Deno.test({
  name:
    "gold sweep: the gold patches as minimal edits (no context) raise no L0–L2 error but two documented ones",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const errors: string[] = [];
    const allowed = new Set<string>();
    const warnings = new Map<string, number>();
    let files = 0;
    for (const instance of await loadCorpus()) {
      for (const file of instance.files) {
        if (!file.path.endsWith(".py")) continue;
        const edits = minimalEdits(instance, file.path, file.before);
        if (edits.length === 0) continue;
        files++;
        const step = await editAndCheck({ [file.path]: file.before }, file.path, () => edits);
        await Deno.remove(step.dir, { recursive: true });
        assert.equal(step.change.after.file.text, file.after, `${instance.instance_id}: ${file.path}`);
        for (const issue of step.warnings) {
          const key = `${issue.level} ${issue.code}`;
          warnings.set(key, (warnings.get(key) ?? 0) + 1);
          if (Deno.env.get("GOLD_SWEEP_VERBOSE")) console.log(`${instance.instance_id}: ${issue.message}`);
        }
        for (const issue of step.errors) {
          if (ALLOWED_MINIMAL[instance.instance_id] && issue.code === "containment-violated") {
            allowed.add(instance.instance_id);
            continue;
          }
          errors.push(`${instance.instance_id} ${file.path} ${issue.level} ${issue.code}: ${issue.message}`);
        }
      }
    }
    const rates = [...warnings].sort().map(([key, n]) =>
      `${key}: ${n} (${(n / files * 100).toFixed(1)}% of files)`
    );
    console.log(`gold sweep (minimal edits): ${files} files; warnings: ${rates.join(", ") || "none"}`);
    assert.ok(files >= 200, `${files} files`);
    assert.deepEqual(errors, []);
    // the documented cases still fail (drop them from ALLOWED_MINIMAL if L2 learns to tell)
    assert.deepEqual([...allowed].sort(), Object.keys(ALLOWED_MINIMAL).sort());
  },
});
