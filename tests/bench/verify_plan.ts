/**
 * Benchmark of plan verification (`verifyPlan`, layers 0–6 with the edit
 * levels L0–L6 on every simulated step) on realistic plans: for each corpus
 * instance, the gold patch turned into one legacy `replace_code` step per
 * hunk (pattern: the hunk's context and removed lines; replacement: its
 * context and added lines), verified over the instance's `before` files in
 * a fresh temporary repository. Reports p50/p95 per step twice: with the
 * files parsed beforehand, as in a helper session after `build_graph`
 * (verification's own cost, goal p95 ≤ 20 ms), and cold, where the first
 * step parses its file (seed 001's budget: 400 ms); and how many plans verify: a gold
 * patch is correct code, so every plan that fails points at a false alarm
 * or a limit of the legacy operator (the failures are listed by code).
 *
 * Standalone: `deno run -A tests/bench/verify_plan.ts [--limit N]`; from a
 * harness: `await benchVerifyPlan()` or `verifyPlanSection`.
 *
 * @module
 */

import { DocumentStore } from "../../engine/parse/documents.ts";
import { verifyPlan } from "../../engine/verify/mod.ts";
import { Workspace } from "../../engine/workspace.ts";
import { CORPUS_SKIP, type CorpusInstance, loadCorpus, materialize } from "../_support/corpus.ts";
import type { BenchSection } from "./context.ts";
import { round, rowAtMost } from "./stats.ts";

/** Figures of one run, times in milliseconds. */
export interface VerifyPlanFigures {
  plans: number;
  steps: number;
  /** Plans with no error. */
  passed: number;
  p50: number;
  p95: number;
  max: number;
  /**
   * Per step with the plan's files parsed beforehand, as in a helper session
   * (the graph phase parsed them): verification's own cost.
   */
  session: { p50: number; p95: number; max: number };
  /** Error codes of the plans that did not pass, with how many plans had each. */
  failures: Record<string, number>;
  /** Warning codes, with their counts. */
  warnings: Record<string, number>;
}

/** One `replace_code` step per hunk of the instance's gold patch. */
export function planFromPatch(instance: CorpusInstance): unknown[] {
  const steps: unknown[] = [];
  const files = new Set(instance.files.map((file) => file.path));
  let file: string | undefined;
  let pattern: string[] = [];
  let replacement: string[] = [];
  const flush = () => {
    if (file && files.has(file) && (pattern.length > 0 || replacement.length > 0)) {
      steps.push({
        op: "replace_code",
        params: { file, pattern: pattern.join("\n") + "\n", replacement: replacement.join("\n") + "\n" },
      });
    }
    pattern = [];
    replacement = [];
  };
  for (const line of instance.patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      flush();
      file = undefined;
    } else if (line.startsWith("+++ ")) {
      file = line.slice(4).replace(/^b\//, "");
    } else if (line.startsWith("--- ")) {
      continue;
    } else if (line.startsWith("@@")) {
      flush();
    } else if (line.startsWith(" ")) {
      pattern.push(line.slice(1));
      replacement.push(line.slice(1));
    } else if (line.startsWith("-")) {
      pattern.push(line.slice(1));
    } else if (line.startsWith("+")) {
      replacement.push(line.slice(1));
    } else if (line === "" && file) {
      // An empty context line some patches carry without its leading space.
      pattern.push("");
      replacement.push("");
    }
  }
  flush();
  return steps.map((step) => trimTrailingBlank(step as { op: string; params: Record<string, string> }));
}

/** A hunk's final empty line is the patch's last line break, not a blank line of the file. */
function trimTrailingBlank(step: { op: string; params: Record<string, string> }) {
  const trim = (text: string) => text.replace(/\n\n$/, "\n");
  return {
    op: step.op,
    params: {
      ...step.params,
      pattern: trim(step.params.pattern),
      replacement: trim(step.params.replacement),
    },
  };
}

function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Verify the gold-patch plan of every corpus instance (at most `limit`). */
export async function benchVerifyPlan(options: { limit?: number } = {}): Promise<VerifyPlanFigures> {
  const instances = (await loadCorpus()).slice(0, options.limit ?? Infinity);
  const all: number[] = [];
  const session: number[] = [];
  const failures: Record<string, number> = {};
  const warnings: Record<string, number> = {};
  let passed = 0;
  let plans = 0;
  for (const instance of instances) {
    const plan = planFromPatch(instance);
    if (plan.length === 0) continue;
    const dir = await materialize(instance);
    try {
      // Cold: the first step of the plan parses its file.
      const cold = await verifyPlan(new DocumentStore(Workspace.open(dir)), plan, {
        onStep: (_step, ms) => all.push(ms),
      });
      // Session: the files are already parsed, as after the helper's build_graph.
      const store = new DocumentStore(Workspace.open(dir));
      for (const file of instance.files) await store.get(file.path);
      const result = await verifyPlan(store, plan, { onStep: (_step, ms) => session.push(ms) });
      if (result.passed !== cold.passed) {
        throw new Error(`${instance.instance_id}: cold and session runs disagree`);
      }
      plans++;
      if (result.passed) passed++;
      for (const code of new Set(result.errors.map((issue) => issue.code))) {
        failures[code] = (failures[code] ?? 0) + 1;
      }
      for (const issue of result.warnings) warnings[issue.code] = (warnings[issue.code] ?? 0) + 1;
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  all.sort((a, b) => a - b);
  session.sort((a, b) => a - b);
  return {
    plans,
    steps: all.length,
    passed,
    p50: percentile(all, 0.5),
    p95: percentile(all, 0.95),
    max: all[all.length - 1] ?? 0,
    session: {
      p50: percentile(session, 0.5),
      p95: percentile(session, 0.95),
      max: session[session.length - 1] ?? 0,
    },
    failures,
    warnings,
  };
}

/** The harness section (`deno task bench verify-plan` once listed in run.ts `SECTIONS`). */
export const verifyPlanSection: BenchSection = {
  name: "verify-plan",
  description:
    "plan verification (layers 0-6 + L0-L6) per step on gold-patch plans (goal session p95 <= 20 ms)",
  async run() {
    if (CORPUS_SKIP) {
      return [{ section: "verify-plan", metric: "per step p95", value: null, unit: "ms", note: CORPUS_SKIP }];
    }
    const figures = await benchVerifyPlan();
    const note = `${figures.steps} steps in ${figures.plans} plans, ${figures.passed} passed`;
    const { session } = figures;
    return [
      {
        section: "verify-plan",
        metric: "per step p50 (files parsed, session)",
        value: round(session.p50),
        unit: "ms",
        note,
      },
      rowAtMost({
        section: "verify-plan",
        metric: "per step p95 (files parsed, session)",
        value: round(session.p95),
        unit: "ms",
        note: `${note}; max ${round(session.max)} ms`,
      }, 20),
      { section: "verify-plan", metric: "per step p50 (cold)", value: round(figures.p50), unit: "ms", note },
      rowAtMost({
        section: "verify-plan",
        metric: "per step p95 (cold, first step parses)",
        value: round(figures.p95),
        unit: "ms",
        note: `${note}; max ${round(figures.max)} ms`,
      }, 400),
      { section: "verify-plan", metric: "plans passed", value: figures.passed, unit: "plans", note },
    ];
  },
};

if (import.meta.main) {
  if (CORPUS_SKIP) {
    console.log(`skipped: ${CORPUS_SKIP}`);
  } else {
    const at = Deno.args.indexOf("--limit");
    const limit = at >= 0 ? Number(Deno.args[at + 1]) : undefined;
    const figures = await benchVerifyPlan({ limit });
    const ms = (value: number) => `${value.toFixed(2)} ms`;
    console.log(`verify plan: ${figures.steps} steps in ${figures.plans} gold-patch plans`);
    console.log(`  passed: ${figures.passed}/${figures.plans}`);
    console.log(
      `  per step, cold (first step parses): p50 ${ms(figures.p50)}, p95 ${ms(figures.p95)}, max ${
        ms(figures.max)
      }`,
    );
    const { session } = figures;
    console.log(
      `  per step, files parsed beforehand (session): p50 ${ms(session.p50)}, p95 ${ms(session.p95)}, max ${
        ms(session.max)
      }`,
    );
    console.log(`  plans failing, by error code: ${JSON.stringify(figures.failures)}`);
    console.log(`  warnings by code: ${JSON.stringify(figures.warnings)}`);
  }
}
