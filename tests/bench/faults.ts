/**
 * Benchmark section `faults`: the seeded fault trials of
 * `tests/_support/fault_trials.ts` at scale. Four scenarios, each with
 * `8 × --runs` trials (40 by default): SIGKILL at a random moment of an
 * apply, SIGKILL at a random moment of a rollback (after an apply killed at
 * a random write), two applies started at once on one repository, and an
 * apply while another process keeps swapping `app/` for a symlink to an
 * outside folder. Every trial ends with the recovery a user would run.
 *
 * Rows per scenario: trials, bytes lost, escaped writes (files outside the
 * repository created or changed), leftover temporary files, each with the
 * goal 0; and how the trials ended (the note).
 *
 *     deno task bench faults [--runs N]     # seed: GRAPHPLAN_FAULT_SEED (default 19)
 *
 * @module
 */

import {
  concurrentApplies,
  type FaultTally,
  killDuringApply,
  killDuringRollback,
  swapDuringApply,
  type TrialOptions,
} from "../_support/fault_trials.ts";
import type { BenchContext, BenchSection } from "./context.ts";
import { type BenchRow, rowAtMost } from "./stats.ts";

const SECTION = "faults";

const SCENARIOS: ((options: TrialOptions) => Promise<FaultTally>)[] = [
  killDuringApply,
  killDuringRollback,
  concurrentApplies,
  swapDuringApply,
];

/** The rows of one scenario's tally. */
export function tallyRows(tally: FaultTally): BenchRow[] {
  const outcomes = Object.entries(tally.outcomes).map(([name, count]) => `${name} ${count}`).join(", ");
  const failures = tally.failures.length ? `; first failure: ${tally.failures[0]}` : "";
  return [
    { section: SECTION, metric: `${tally.scenario}: trials`, value: tally.trials, unit: "", note: outcomes },
    rowAtMost({
      section: SECTION,
      metric: `${tally.scenario}: bytes lost`,
      value: tally.bytes_lost,
      unit: "B",
      note: `${tally.failures.length} failing trial(s)${failures}`,
    }, 0),
    rowAtMost({
      section: SECTION,
      metric: `${tally.scenario}: escaped writes`,
      value: tally.escaped_writes,
      unit: "",
    }, 0),
    rowAtMost({
      section: SECTION,
      metric: `${tally.scenario}: leftover temp files`,
      value: tally.leftover_temps,
      unit: "",
    }, 0),
  ];
}

/** The `faults` section. */
export const faultsSection: BenchSection = {
  name: SECTION,
  description:
    "seeded kill -9 in apply and rollback, concurrent applies, directory swaps: bytes lost, escapes, temps",
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const seed = Number(Deno.env.get("GRAPHPLAN_FAULT_SEED") ?? 19);
    const rows: BenchRow[] = [];
    for (const scenario of SCENARIOS) {
      const tmp = await Deno.makeTempDir({ dir: ctx.tmp, prefix: "faults-" });
      rows.push(...tallyRows(await scenario({ trials: 8 * ctx.runs, seed, tmp })));
    }
    return rows;
  },
};
