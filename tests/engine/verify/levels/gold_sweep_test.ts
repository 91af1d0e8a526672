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
 * L3–L6 warnings are counted by code and printed (a rate per step, to tune
 * noise). Before `settleWarnings` they came from intermediate states, all
 * resolved by a later hunk: a hunk uses a helper that a later hunk defines
 * (unbound-name, 6), moves the uses of an import into code a later hunk
 * adds (import-unused, 8), removes or renames a function whose callers a
 * later hunk updates (interface-mismatch, 2). What remains is a true
 * finding: sympy-13146 leaves `_aresame` imported but unused.
 */

import assert from "node:assert/strict";
import type { Issue } from "../../../../engine/issue.ts";
import { DocumentStore } from "../../../../engine/parse/documents.ts";
import { verifyPlan } from "../../../../engine/verify/mod.ts";
import { Workspace } from "../../../../engine/workspace.ts";
import { CORPUS_SKIP, type CorpusInstance, loadCorpus, materialize } from "../../../_support/corpus.ts";

/**
 * Gold patches allowed an L0–L2 error, by instance id, with the reason.
 * Empty: every false alarm found by the sweep was fixed.
 */
const ALLOWED: Record<string, string> = {};

interface Hunk {
  file: string;
  /** 1-based first line of the hunk in the `before` file. */
  oldStart: number;
  pattern: string[];
  replacement: string[];
}

function hunksOf(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  let file: string | undefined;
  let hunk: Hunk | undefined;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      hunk = undefined;
      file = undefined;
    } else if (line.startsWith("+++ ")) {
      file = line.slice(4).replace(/^b\//, "");
    } else if (line.startsWith("--- ")) {
      continue;
    } else if (line.startsWith("@@")) {
      const start = Number(/^@@ -(\d+)/.exec(line)?.[1] ?? 1);
      hunk = { file: file!, oldStart: start, pattern: [], replacement: [] };
      hunks.push(hunk);
    } else if (hunk && (line.startsWith(" ") || line === "")) {
      hunk.pattern.push(line.slice(1));
      hunk.replacement.push(line.slice(1));
    } else if (hunk && line.startsWith("-")) {
      hunk.pattern.push(line.slice(1));
    } else if (hunk && line.startsWith("+")) {
      hunk.replacement.push(line.slice(1));
    }
  }
  for (const h of hunks) {
    // the patch's final line break is not a blank line of the file
    if (h.pattern.at(-1) === "" && h.replacement.at(-1) === "") {
      h.pattern.pop();
      h.replacement.pop();
    }
  }
  return hunks;
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count++;
  return count;
}

/** One `replace_code` step per hunk, each pattern unique in its `before` file. */
function goldPlan(instance: CorpusInstance): unknown[] {
  const files = new Map(instance.files.map((file) => [file.path, file.before]));
  const hunks = hunksOf(instance.patch).filter((hunk) => files.has(hunk.file));
  return hunks.map((hunk, i) => {
    const before = files.get(hunk.file)!;
    const lines = before.split("\n");
    const next = hunks[i + 1]?.file === hunk.file ? hunks[i + 1].oldStart - 1 : lines.length;
    let end = hunk.oldStart - 1 + hunk.pattern.length;
    const pattern = [...hunk.pattern];
    const replacement = [...hunk.replacement];
    while (occurrences(before, pattern.join("\n") + "\n") > 1 && end < next) {
      pattern.push(lines[end]);
      replacement.push(lines[end]);
      end++;
    }
    return {
      op: "replace_code",
      params: {
        file: hunk.file,
        pattern: pattern.join("\n") + "\n",
        replacement: replacement.join("\n") + "\n",
      },
    };
  });
}

Deno.test({
  name: "gold sweep: no L0–L2 error on the gold-patch plans of all corpus instances",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const errors: string[] = [];
    const warnings = new Map<string, number>();
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
    assert.ok(plans >= 180, `${plans} plans`);
    assert.deepEqual(errors, []);
    // every name a gold patch uses is bound once the plan is done
    assert.equal(warnings.get("L3 unbound-name") ?? 0, 0);
  },
});
