/**
 * Benchmark section `verify-scale`: `verifyPlan` on plans that insert into
 * one corpus file N times (tests/_support/insert_plans.ts: a function added
 * after the last line of seaborn's `_core/scales.py` per step), N = 500,
 * 1,000, 2,000, 3,000 and 10,000, each from a fresh store (the first step
 * parses the file). A per-step check that re-reads the whole file makes the
 * time grow with N²; the goal is near-linear: 3,000 inserts in 10 s, and the
 * ratio of 3,000 to 1,000 inserts near 3 (quadratic: 9).
 *
 *     deno task bench verify-scale
 *     deno run -A tests/bench/verify_scale.ts [--steps 500,1000]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { verifyPlan } from "../../engine/verify/mod.ts";
import { Workspace } from "../../engine/workspace.ts";
import { CORPUS_SKIP } from "../_support/corpus.ts";
import { insertPlan, insertTarget } from "../_support/insert_plans.ts";
import type { BenchSection } from "./context.ts";
import { type BenchRow, round, rowAtMost } from "./stats.ts";

const SIZES = [500, 1000, 2000, 3000, 10000];
const GOAL_3000_S = 10;

/** Seconds to verify an N-insert plan, for each N of `sizes`. */
export async function benchVerifyScale(tmp: string, sizes = SIZES): Promise<Map<number, number>> {
  const target = await insertTarget();
  const times = new Map<number, number>();
  for (const size of sizes) {
    const dir = await Deno.makeTempDir({ dir: tmp, prefix: "verify-scale-" });
    try {
      for (const [path, text] of Object.entries(target.files)) {
        await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]+$/, ""), { recursive: true });
        await Deno.writeTextFile(`${dir}/${path}`, text);
      }
      const plan = insertPlan(target.path, target.text, size);
      const started = performance.now();
      const result = await verifyPlan(new DocumentStore(Workspace.open(dir)), plan);
      times.set(size, (performance.now() - started) / 1000);
      if (!result.passed) {
        throw new Error(`the ${size}-insert plan did not verify: ${result.errors[0]?.message}`);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return times;
}

function rows(times: Map<number, number>): BenchRow[] {
  const out: BenchRow[] = [];
  for (const [size, seconds] of times) {
    const row = {
      section: "verify-scale",
      metric: `${size.toLocaleString("en")} inserts into one file`,
      value: round(seconds),
      unit: "s",
      note: `${round((seconds * 1000) / size)} ms per step`,
    };
    out.push(size === 3000 ? rowAtMost(row, GOAL_3000_S) : row);
  }
  const small = times.get(1000);
  const large = times.get(3000);
  if (small && large) {
    out.push({
      section: "verify-scale",
      metric: "3,000 / 1,000 inserts",
      value: round(large / small),
      unit: "x",
      note: "linear 3, quadratic 9",
    });
  }
  return out;
}

/** The section. */
export const verifyScaleSection: BenchSection = {
  name: "verify-scale",
  description: "verify_plan on plans inserting 500-10,000 times into one corpus file (goal 3,000 in <= 10 s)",
  async run(ctx) {
    if (CORPUS_SKIP) {
      return [{
        section: "verify-scale",
        metric: "3,000 inserts",
        value: null,
        unit: "s",
        note: CORPUS_SKIP,
      }];
    }
    return rows(await benchVerifyScale(ctx.tmp));
  },
};

if (import.meta.main) {
  if (CORPUS_SKIP) {
    console.log(`skipped: ${CORPUS_SKIP}`);
  } else {
    const { values } = parseArgs({ args: Deno.args, options: { steps: { type: "string" } } });
    const sizes = values.steps ? values.steps.split(",").map(Number) : SIZES;
    const tmp = await Deno.makeTempDir({ prefix: "graphplan-verify-scale-" });
    try {
      for (const row of rows(await benchVerifyScale(tmp, sizes))) {
        console.log(`${row.metric}: ${row.value} ${row.unit} (${row.note})`);
      }
    } finally {
      await Deno.remove(tmp, { recursive: true });
    }
  }
}
