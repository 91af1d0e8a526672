/**
 * A change written as a unified diff, as SEARCH/REPLACE blocks or as an
 * OpenAI `apply_patch` document (`*** Begin Patch`), found in the plan file
 * or the model's answer, for the PLAN phase to lift into a structural plan
 * (`agent.plan_input: diff` or `any`).
 *
 * @module
 */

import type { LiftInput, LiftReport } from "../common/lift_report.ts";

const FENCED_DIFF = /```(?:diff|patch)[^\n]*\n([\s\S]*?)```/g;

/** The kind of change `input` is, as the trajectory records it. */
export function liftInputKind(input: LiftInput): "diff" | "search_replace" | "apply_patch" {
  return "diff" in input ? "diff" : "search_replace" in input ? "search_replace" : "apply_patch";
}

const APPLY_PATCH = /^\*\*\* Begin Patch[ \t]*\r?\n[\s\S]*?^\*\*\* End Patch[ \t]*\r?$/m;

/** The diff, SEARCH/REPLACE blocks or apply_patch document in `text`, or undefined when it holds none. */
export function findChangeInText(text: string): LiftInput | undefined {
  const patch = APPLY_PATCH.exec(text);
  if (patch) return { apply_patch: patch[0] };
  if (/^<{5,9} ?SEARCH\s*$/m.test(text) && /^>{5,9} ?REPLACE\s*$/m.test(text)) {
    return { search_replace: text };
  }
  const fenced = [...text.matchAll(FENCED_DIFF)].map((match) => match[1]).filter(isDiff);
  if (fenced.length > 0) return { diff: fenced.join("\n") };
  if (isDiff(text)) {
    // From the first file header on: prose before it is not part of the diff.
    const start = text.search(/^(diff --git |--- )/m);
    return { diff: text.slice(Math.max(0, start)) };
  }
  return undefined;
}

function isDiff(text: string): boolean {
  return /^--- .*\n\+\+\+ .*\n@@ -\d/m.test(text);
}

/** One line per step of a lifted plan: `step 0 (tier 2): modify_condition <- hunk 0 of a.py`. */
export function liftedSteps(report: LiftReport): string {
  const lines: string[] = [];
  for (const hunk of report.hunks) {
    hunk.steps.forEach((step, k) => {
      const kind = hunk.kinds?.[k] ?? "step";
      lines.push(`- step ${step} (tier ${hunk.tiers[k]}): ${kind} <- hunk ${hunk.index} of ${hunk.file}`);
    });
  }
  return lines.sort((a, b) => stepOf(a) - stepOf(b)).join("\n");
}

function stepOf(line: string): number {
  return Number(/step (\d+)/.exec(line)?.[1] ?? 0);
}
