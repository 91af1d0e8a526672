/**
 * Benchmark of lift on every gold patch of the corpus: each instance's
 * `before` files are written to a fresh temporary repository and its gold
 * patch is lifted (`engine/lift`), verified and replayed in memory. Reports
 * the share of instances lifted with tier 1–3 steps only (goal ≥ 95%), the
 * share replayed byte-exact with any tier (goal 100%), steps per instance,
 * the distribution of step kinds and tiers, the most common reasons for
 * falling to tier 0 (with instance ids), and the time per instance (median
 * goal < 1 s, and the max). Beside them, from `lift_patches.ts`: the strict
 * verdicts of the lifted gold patches against CPython and pyflakes, and for
 * the patches real systems wrote the same figures (coverage, byte-exact
 * replay against `git apply`'s files, tiers, time) with their strict
 * verdicts, the held-in two thirds and the held-out third separately.
 *
 * Standalone: `deno run -A tests/bench/lift.ts [--limit N] [--list]`
 * (`--list` prints every instance that needed tier 0, with its reasons);
 * from the harness: `deno task bench lift`.
 *
 * @module
 */

import { lift } from "../../engine/lift/mod.ts";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { Workspace } from "../../engine/workspace.ts";
import { CORPUS_SKIP, loadCorpus, materialize } from "../_support/corpus.ts";
import type { BenchSection } from "./context.ts";
import { MODEL_PATCHES_SKIP } from "../_support/model_patches.ts";
import {
  benchPatches,
  budgetOverruns,
  coverageRows,
  goldPatches,
  modelPatches,
  overrunRow,
  type PatchOutcome,
  verdictRows,
  VERDICTS_SKIP,
} from "./lift_patches.ts";
import { multilangRows } from "./lift_multilang.ts";
import { type BenchRow, median, round, rowAtMost } from "./stats.ts";

/** One instance's outcome. */
export interface LiftOutcome {
  id: string;
  exact: boolean;
  /** Every step is tier 1-3 (and the replay is exact). */
  formal: boolean;
  steps: number;
  ms: number;
  /** Why tier 0 was needed, one entry per tier-0 region. */
  reasons: string[];
}

/** Figures of one run over the corpus. */
export interface LiftFigures {
  outcomes: LiftOutcome[];
  kinds: Record<string, number>;
  tiers: Record<string, number>;
}

/** Lift the gold patch of every corpus instance (at most `limit`). */
export async function benchLift(options: { limit?: number } = {}): Promise<LiftFigures> {
  const instances = (await loadCorpus()).slice(0, options.limit ?? Infinity);
  const outcomes: LiftOutcome[] = [];
  const kinds: Record<string, number> = {};
  const tiers: Record<string, number> = {};
  for (const instance of instances) {
    const dir = await materialize(instance);
    try {
      const started = performance.now();
      const result = await lift(new DocumentStore(Workspace.open(dir)), { diff: instance.patch });
      const ms = performance.now() - started;
      const stepTiers = result.hunks.flatMap((hunk) => hunk.tiers);
      for (const hunk of result.hunks) {
        hunk.kinds.forEach((kind, k) => {
          kinds[kind] = (kinds[kind] ?? 0) + 1;
          tiers[`tier ${hunk.tiers[k]}`] = (tiers[`tier ${hunk.tiers[k]}`] ?? 0) + 1;
        });
      }
      outcomes.push({
        id: instance.instance_id,
        exact: result.exact,
        formal: result.exact && stepTiers.every((tier) => tier > 0),
        steps: result.plan.length,
        ms,
        reasons: result.warnings.filter((issue) => issue.code === "lift-tier-0").map((issue) =>
          issue.message.replace(/^.*no tier 1-3 step reproduces /, "")
        ).concat(result.errors.map((issue) => `error ${issue.code}`)),
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return { outcomes, kinds, tiers };
}

/** Reasons for tier 0, most common first, each with the instances it occurs in. */
export function reasonTable(outcomes: readonly LiftOutcome[]): { reason: string; ids: string[] }[] {
  const table = new Map<string, Set<string>>();
  for (const outcome of outcomes) {
    for (const reason of outcome.reasons.flatMap((r) => r.split("; "))) {
      const key = reason.replace(/ \(tried: .*\)$/, "");
      if (!table.has(key)) table.set(key, new Set());
      table.get(key)!.add(outcome.id);
    }
  }
  return [...table].map(([reason, ids]) => ({ reason, ids: [...ids] })).sort((a, b) =>
    b.ids.length - a.ids.length
  );
}

const distribution = (counts: Record<string, number>) =>
  Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([name, count]) => `${name} ${count}`).join(", ");

/** The harness section (`deno task bench lift`). */
export const liftSection: BenchSection = {
  name: "lift",
  description:
    "lift every corpus gold patch into a plan (goals: >= 95% tiers 1-3 only, 100% exact, median < 1 s)",
  async run() {
    if (CORPUS_SKIP) {
      return [{ section: "lift", metric: "instances", value: null, unit: "", note: CORPUS_SKIP }];
    }
    const { outcomes, kinds, tiers } = await benchLift();
    const n = outcomes.length;
    const formal = outcomes.filter((o) => o.formal).length;
    const exact = outcomes.filter((o) => o.exact).length;
    const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    const steps = outcomes.map((o) => o.steps);
    const reasons = reasonTable(outcomes);
    for (const { reason, ids } of reasons) {
      console.error(`lift: tier 0 (${ids.length}): ${reason}: ${ids.join(" ")}`);
    }
    const share = (count: number) => round((100 * count) / n);
    // strict verdicts of the lifted gold patches against CPython and pyflakes (lift_patches.ts)
    const judged = VERDICTS_SKIP
      ? [{ section: "lift", metric: "strict verdicts", value: null, unit: "", note: VERDICTS_SKIP }]
      : byPart("gold", await benchPatches(await goldPatches()), verdictRows);
    return [
      ...judged,
      {
        section: "lift",
        metric: "instances with tiers 1-3 only",
        value: share(formal),
        unit: "%",
        goal: ">= 95",
        ok: share(formal) >= 95,
        note: `${formal} of ${n}; not: ${outcomes.filter((o) => !o.formal).map((o) => o.id).join(" ")}`,
      },
      exactRow("instances replayed byte-exact (any tier)", exact, n),
      {
        section: "lift",
        metric: "steps per instance (median)",
        value: median(steps),
        unit: "steps",
        note: `mean ${round(steps.reduce((a, b) => a + b, 0) / n)}, max ${Math.max(...steps)}`,
      },
      {
        section: "lift",
        metric: "step kinds",
        value: Object.values(kinds).reduce((a, b) => a + b, 0),
        unit: "steps",
        note: distribution(kinds),
      },
      {
        section: "lift",
        metric: "step tiers",
        value: Object.values(tiers).reduce((a, b) => a + b, 0),
        unit: "steps",
        note: distribution(tiers),
      },
      {
        section: "lift",
        metric: "tier-0 reasons (instances)",
        value: reasons.length,
        unit: "reasons",
        note: reasons.slice(0, 6).map(({ reason, ids }) => `${reason}: ${ids.length}`).join("; "),
      },
      rowAtMost({
        section: "lift",
        metric: "time per instance (median)",
        value: round(median(times)),
        unit: "ms",
        note: `max ${round(times.at(-1) ?? 0)} ms (${outcomes.find((o) => o.ms === times.at(-1))?.id}), p90 ${
          round(times[Math.floor(n * 0.9)] ?? 0)
        } ms`,
      }, 1000),
      ...await modelPatchRows(),
      ...await multilangRows(),
    ];
  },
};

/** The row for `exact` of `n` replayed byte for byte (goal: all). */
function exactRow(metric: string, exact: number, n: number): BenchRow {
  return {
    section: "lift",
    metric,
    value: round((100 * exact) / n),
    unit: "%",
    goal: ">= 100",
    ok: exact === n,
    note: `${exact} of ${n}`,
  };
}

/** Rows of `rows` for the held-in and the held-out part of `outcomes`, labelled `set part`. */
function byPart(
  set: string,
  outcomes: readonly PatchOutcome[],
  rows: (label: string, outcomes: readonly PatchOutcome[]) => BenchRow[],
): BenchRow[] {
  return [false, true].flatMap((held) =>
    rows(`${set} ${held ? "held-out" : "held-in"}`, outcomes.filter((o) => o.held === held))
  );
}

/** The budget (seconds) the slow model patches are lifted again under. */
const OVERRUN_BUDGET = 1;

/**
 * The model-patch rows of the section, beside the gold figures: coverage,
 * exactness, tiers and time, then the strict verdicts, for each part.
 */
async function modelPatchRows(): Promise<BenchRow[]> {
  if (MODEL_PATCHES_SKIP) {
    return [{ section: "lift", metric: "model patches", value: null, unit: "", note: MODEL_PATCHES_SKIP }];
  }
  const patches = await modelPatches();
  const outcomes = await benchPatches(patches, { verdicts: !VERDICTS_SKIP });
  // the patches whose lift takes longer than a small budget, lifted again under it (`lift --timeout`)
  const slow = patches.filter((patch) =>
    (outcomes.find((o) => o.id === patch.id)?.ms ?? 0) > OVERRUN_BUDGET * 1000
  );
  return [
    ...byPart("model patches", outcomes, coverageRows),
    ...VERDICTS_SKIP
      ? [{
        section: "lift",
        metric: "model patches: strict verdicts",
        value: null,
        unit: "",
        note: VERDICTS_SKIP,
      }]
      : byPart("model patches", outcomes, verdictRows),
    overrunRow("model patches", OVERRUN_BUDGET, await budgetOverruns(slow, OVERRUN_BUDGET)),
  ];
}

if (import.meta.main) {
  if (CORPUS_SKIP) {
    console.log(`skipped: ${CORPUS_SKIP}`);
  } else {
    const at = Deno.args.indexOf("--limit");
    const limit = at >= 0 ? Number(Deno.args[at + 1]) : undefined;
    const { outcomes, kinds, tiers } = await benchLift({ limit });
    const n = outcomes.length;
    const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    console.log(`lift: ${n} instances`);
    console.log(`  tiers 1-3 only: ${outcomes.filter((o) => o.formal).length}`);
    console.log(`  byte-exact: ${outcomes.filter((o) => o.exact).length}`);
    console.log(`  time: median ${round(median(times))} ms, max ${round(times.at(-1) ?? 0)} ms`);
    console.log(`  kinds: ${distribution(kinds)}`);
    console.log(`  tiers: ${distribution(tiers)}`);
    for (const { reason, ids } of reasonTable(outcomes)) {
      console.log(`  tier 0 (${ids.length}): ${reason}: ${ids.join(" ")}`);
    }
    if (Deno.args.includes("--list")) {
      for (const o of outcomes.filter((o) => !o.formal)) console.log(`${o.id}: ${o.reasons.join(" | ")}`);
    }
  }
}
