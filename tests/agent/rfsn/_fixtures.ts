/**
 * Candidates for the scoring, gate and meta-planner tests: real diffs of the
 * small stats package (`_pyrepo.ts`) made with the engine's diff writer.
 *
 * @module
 */

import { unifiedDiff } from "../../../engine/exec/diff.ts";
import { diffFacts } from "../../../agent/rfsn/diff_facts.ts";
import * as planner from "../../../agent/rfsn/planner.ts";
import type { Candidate } from "../../../agent/rfsn/scoring.ts";
import { STATS_REPO } from "./_pyrepo.ts";

/** The stats module's source. */
export const STATS = STATS_REPO["pkg/stats.py"];
/** The stats tests' source. */
export const TESTS = STATS_REPO["tests/test_stats.py"];

/** A diff of pkg/stats.py replacing `find` with `replace`. */
export function statsDiff(find: string, replace: string): string {
  if (!STATS.includes(find)) throw new Error(`not in stats.py: ${find}`);
  return unifiedDiff("pkg/stats.py", STATS, STATS.replace(find, replace));
}

/** A diff of tests/test_stats.py replacing `find` with `replace`. */
export function testsDiff(find: string, replace: string): string {
  if (!TESTS.includes(find)) throw new Error(`not in test_stats.py: ${find}`);
  return unifiedDiff("tests/test_stats.py", TESTS, TESTS.replace(find, replace));
}

/** The guard that fixes mean([]). */
export const GUARD_DIFF = statsDiff(
  "def mean(values):\n",
  "def mean(values):\n    if not values:\n        return 0\n",
);

/** The tier-2 plan that fixes mean([]) in pkg/stats.py: a guard clause returning 0. */
export const GUARD_PLAN = [{
  template: "guard_clause",
  params: {
    target: { file: "pkg/stats.py", kind: "function", name: "mean" },
    condition: "not values",
    guard_body: "return 0",
  },
}];

/** A candidate edit of `diff` from `model`. */
export function candidate(
  diff: string,
  options: { model?: string; symbol?: string | null; hypothesis?: string; summary?: string } = {},
): Candidate {
  const proposal = planner.addGuard({
    path: diffFacts(diff).files[0] ?? "pkg/stats.py",
    symbol: options.symbol ?? "mean",
    hypothesis: options.hypothesis ?? "mean() divides by zero for an empty list",
    change_summary: options.summary ?? "return 0 when values is empty",
    change: { diff },
    tests: ["tests/test_stats.py::test_mean_empty"],
  });
  return { proposal, facts: diffFacts(diff), model: options.model ?? "scripted/a" };
}
