/**
 * Real patches lifted as a user lifts them and judged by oracles that share
 * no code with GraphPlan. Each patch's `before` files are written to a fresh
 * temporary repository and the patch goes through `lift` (under a work
 * budget); then, for one patch:
 *
 * - **coverage and exactness:** the plan is replayed in memory and compared
 *   with the patch's `after` files, which `git apply` wrote (a created
 *   file's text and a deleted file's absence included), with the tier of
 *   every step and the lift's time;
 * - **strict verdict:** the plan is verified as `verify --strict` does
 *   (strict codes, the environment's compilers), and CPython `compile()`
 *   plus pyflakes (`tests/_support/pyflakes.ts`) judge the `after` files:
 *   what they find in the new text and not in the old makes the patch
 *   broken. A refused correct patch is a false alarm (goal: at most 1 per
 *   100 patches), a passed broken one a miss (goal: none).
 *
 * The patch sets and what each holds out (measured last, never tuned on):
 *
 * - `gold`: the corpus's gold patches (`GRAPHPLAN_CORPUS` or
 *   `../shared/corpus/swebench-heldin.jsonl.gz`); a third drawn with
 *   `mulberry32(25)` in corpus order is held out;
 * - `model`: the patches real systems wrote (`model-patches-heldin.jsonl.gz`,
 *   the ones `git apply` accepts); the third `heldOut` of
 *   `tests/_support/model_patches.ts` picks (a hash, fixed whatever the
 *   order) is held out;
 * - any other corpus-format file (`--corpus PATH`: the unseen Debian and
 *   release patches of `unseen_debian.ts` and `unseen_releases.ts`): the
 *   file is one part, held out when its name says `heldout`.
 *
 * Standalone: `deno run -A tests/bench/lift_patches.ts [--set gold|model]
 * [--corpus PATH] [--part held-in|held-out|all] [--every N] [--limit N]
 * [--filter RE] [--no-verdicts] [--list]`; `--every N` takes every N-th
 * patch in file order (a sample fixed before anything is measured), and
 * each outcome is printed on stderr as a JSON line as soon as it is known.
 *
 * @module
 */

import { lift } from "../../engine/lift/mod.ts";
import { replayPlan } from "../../engine/lift/replay.ts";
import { withBudget } from "../../engine/base/budget.ts";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { Workspace } from "../../engine/workspace.ts";
import { verifyPlan } from "../../engine/verify/mod.ts";
import { Compilers } from "../../engine/verify/compile/mod.ts";
import { DEFAULT_STRICT_CODES } from "../../engine/verify/strict.ts";
import { declaredPythonMinimum } from "../../engine/analysis/python_version.ts";
import { loadCorpus } from "../_support/corpus.ts";
import { heldOut, loadModelPatches, materializeModelPatch } from "../_support/model_patches.ts";
import { brokenByChange, PYFLAKES_SKIP, rejectedBothWays } from "../_support/pyflakes.ts";
import { mulberry32 } from "../_support/random.ts";
import { type BenchRow, median, percentile, round, rowAtMost } from "./stats.ts";

/** One patch with the full text of the files it touches (null: absent on that side). */
export interface PatchInstance {
  id: string;
  /** `gold`, `model` or the name of the corpus file. */
  set: string;
  patch: string;
  files: { path: string; before: string | null; after: string | null }[];
  /** Whether the instance is in the held-out part of its set. */
  held: boolean;
}

/** What happened to one patch. */
export interface PatchOutcome {
  id: string;
  set: string;
  held: boolean;
  /**
   * A plan reproduces every hunk (replayed exact): the patch is covered,
   * whether or not lift then refused it for what verification found.
   */
  lifted: boolean;
  /** Replaying the plan gives the `after` files byte for byte (deleted files gone). */
  exact: boolean;
  /** Exact with tier 1-3 steps only. */
  formal: boolean;
  /** The patch creates or deletes a file. */
  wholeFile: boolean;
  tiers: number[];
  /** Lift's wall time. */
  ms: number;
  /** Lift error codes and messages when not lifted. */
  liftErrors: string[];
  /**
   * `verify --strict` passed the lifted plan; false too when lift itself refused the patch for its code
   * (errors of verification, syntax too new); undefined when not judged.
   */
  passed?: boolean;
  /** The strict verification's errors, as `code file:line`. */
  refusals: string[];
  /** What CPython and pyflakes found the patch broke (empty: correct). */
  broken: string[];
  /** Files CPython `compile()` refuses both before and after (Python 2 code): no oracle verdict, not judged. */
  notJudged?: string[];
}

/** Lift errors that say a patch was not turned into a plan, not what is wrong with its code. */
const COVERAGE_CODES = new Set([
  "hunk-not-lifted",
  "hunk-not-applicable",
  "budget-exceeded",
  "replay-failed",
  "replay-inexact",
]);

/** Seconds one lift or one verification may take (the default `--timeout`). */
const BUDGET = 60;

async function readJsonlGz<T>(path: string): Promise<T[]> {
  const file = await Deno.open(path);
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

/** The corpus's gold patches, a `mulberry32(25)` third held out. */
export async function goldPatches(): Promise<PatchInstance[]> {
  const random = mulberry32(25);
  return (await loadCorpus()).map((row) => ({
    id: row.instance_id,
    set: "gold",
    patch: row.patch,
    files: row.files,
    held: random() < 1 / 3,
  }));
}

/** The model patches `git apply` accepts, the `heldOut` third held out; ids are `instance@system`. */
export async function modelPatches(): Promise<PatchInstance[]> {
  return (await loadModelPatches()).filter((row) => row.git_apply_ok).map((row) => ({
    id: `${row.instance_id}@${row.system}`,
    set: "model",
    patch: row.patch,
    files: row.files,
    held: heldOut(row),
  }));
}

/** The patches of a corpus-format file (`unseen_*.ts`), all held out when its name says `heldout`. */
export async function corpusPatches(path: string): Promise<PatchInstance[]> {
  const set = path.split("/").slice(-2).join("/").replace(/\.jsonl(\.gz)?$/, "");
  type Row = { instance_id: string; patch: string; files: PatchInstance["files"] };
  return (await readJsonlGz<Row>(path)).map((row) => ({
    id: row.instance_id,
    set,
    patch: row.patch,
    files: row.files,
    held: /heldout/.test(set),
  }));
}

/** Lift one patch, replay it against its `after` files and (with `compilers`) judge it strictly. */
export async function judgePatch(instance: PatchInstance, compilers?: Compilers): Promise<PatchOutcome> {
  const dir = await materializeModelPatch({ files: instance.files });
  const outcome: PatchOutcome = {
    id: instance.id,
    set: instance.set,
    held: instance.held,
    lifted: false,
    exact: false,
    formal: false,
    wholeFile: instance.files.some((file) => file.before === null || file.after === null),
    tiers: [],
    ms: 0,
    liftErrors: [],
    refusals: [],
    broken: [],
  };
  try {
    const started = performance.now();
    const lifted = await withBudget(
      BUDGET,
      () => lift(new DocumentStore(Workspace.open(dir)), { diff: instance.patch }),
    );
    outcome.ms = performance.now() - started;
    outcome.tiers = lifted.hunks.flatMap((hunk) => hunk.tiers);
    outcome.liftErrors = lifted.errors.map((issue) => `${issue.code}: ${issue.message}`);
    const replay = await replayPlan(new DocumentStore(Workspace.open(dir)), lifted.plan);
    outcome.exact = !replay.failed &&
      instance.files.every((file) =>
        file.after === null
          ? replay.removed.has(file.path)
          : (replay.texts.get(file.path) ?? file.before) === file.after
      );
    outcome.formal = outcome.exact && outcome.tiers.every((tier) => tier > 0);
    // covered: a plan reproduces every hunk, whatever its verification then says of the code
    outcome.lifted = outcome.exact && lifted.hunks.every((hunk) => hunk.lifted);
    // a refusal (verification's errors, syntax too new) is a verdict; a shape lift lacks or a spent budget is not
    const refused = lifted.errors.filter((issue) => !COVERAGE_CODES.has(issue.code));
    if (!compilers || (!outcome.lifted && refused.length === 0)) return outcome;
    const verified = lifted.success
      ? await withBudget(
        BUDGET,
        () =>
          verifyPlan(new DocumentStore(Workspace.open(dir)), lifted.plan, {
            compilers,
            strict: DEFAULT_STRICT_CODES,
          }),
      )
      : { passed: false, errors: refused };
    outcome.passed = verified.passed;
    outcome.refusals = verified.errors.map((issue) =>
      `${issue.code} ${issue.file ?? ""}:${issue.line ?? ""}`
    );
    outcome.broken = await oracleFindings(dir, instance.files);
    const python = instance.files.filter((file) => file.path.endsWith(".py") && file.after !== null);
    const rejected = await rejectedBothWays(python.map((file) => ({ ...file, after: file.after! })));
    const unjudged = python.filter((_, k) => rejected[k]).map((file) => file.path);
    if (unjudged.length > 0) {
      // the oracle cannot tell a catch from a false alarm in a file CPython never compiles
      outcome.notJudged = unjudged;
      outcome.passed = undefined;
    }
    return outcome;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** What CPython and pyflakes find new in the Python `after` files (`path: problem`). */
async function oracleFindings(dir: string, files: PatchInstance["files"]): Promise<string[]> {
  const minimum = declaredPythonMinimum(dir);
  const python = files.filter((file) => file.path.endsWith(".py") && file.after !== null);
  const found = await brokenByChange(python.map((file) => ({
    path: file.path,
    before: file.before,
    after: file.after!,
    ...(minimum ? { minimum: [minimum.major, minimum.minor] as [number, number] } : {}),
  })));
  return found.flatMap((problems, k) => problems.map((problem) => `${python[k].path}: ${problem}`));
}

/** How far past its budget one lift returned. */
export interface Overrun {
  id: string;
  /** Milliseconds after the deadline (negative: within it). */
  overMs: number;
  /** The lift stopped with `budget-exceeded`. */
  stopped: boolean;
}

/**
 * Lift each of `instances` again under a budget of `seconds` (as `lift
 * --timeout` does): how many milliseconds past the budget each lift
 * returned, and whether it stopped with `budget-exceeded`.
 */
export async function budgetOverruns(
  instances: readonly PatchInstance[],
  seconds: number,
): Promise<Overrun[]> {
  const out: Overrun[] = [];
  for (const instance of instances) {
    const dir = await materializeModelPatch({ files: instance.files });
    try {
      const started = performance.now();
      const lifted = await withBudget(
        seconds,
        () => lift(new DocumentStore(Workspace.open(dir)), { diff: instance.patch }),
      );
      out.push({
        id: instance.id,
        overMs: performance.now() - started - seconds * 1000,
        stopped: lifted.errors.some((issue) => issue.code === "budget-exceeded"),
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return out;
}

/** The bench row of `budgetOverruns` (goal: no lift returns more than 1 s past its budget). */
export function overrunRow(label: string, seconds: number, runs: readonly Overrun[]): BenchRow {
  const worst = [...runs].sort((a, b) => b.overMs - a.overMs)[0];
  return rowAtMost({
    section: "lift",
    metric: `${label}: lift past a ${seconds} s budget (max)`,
    value: worst ? round(Math.max(0, worst.overMs)) : 0,
    unit: "ms",
    note: `${runs.length} patches slower than ${seconds} s lifted again with that budget, ${
      runs.filter((r) => r.stopped).length
    } stopped with budget-exceeded; median ${round(median(runs.map((r) => r.overMs)))} ms past it; worst ${
      worst?.id ?? "none"
    }`,
  }, 1000);
}

/** Which part of a set to take. */
export type Part = "held-in" | "held-out" | "all";

/** Judge each of `instances` in `part` (at most `limit`; without `verdicts` only lift and replay). */
export async function benchPatches(
  instances: readonly PatchInstance[],
  options: {
    part?: Part;
    limit?: number;
    filter?: RegExp;
    verdicts?: boolean;
    /** Called with each outcome as it is known (progress of a long run). */
    onOutcome?: (outcome: PatchOutcome) => void;
  } = {},
): Promise<PatchOutcome[]> {
  const part = options.part ?? "all";
  const chosen = instances.filter((instance) =>
    (part === "all" || instance.held === (part === "held-out")) && (options.filter?.test(instance.id) ?? true)
  ).slice(0, options.limit ?? Infinity);
  const compilers = options.verdicts === false ? undefined : new Compilers();
  const outcomes: PatchOutcome[] = [];
  try {
    for (const instance of chosen) {
      outcomes.push(await judgePatch(instance, compilers));
      options.onOutcome?.(outcomes.at(-1)!);
    }
  } finally {
    await compilers?.close();
  }
  return outcomes;
}

/** The four verdict counts of the judged outcomes (lifted, or refused by lift for their code). */
export function verdictCounts(outcomes: readonly PatchOutcome[]) {
  const judged = outcomes.filter((o) => o.passed !== undefined);
  const broken = (o: PatchOutcome) => o.broken.length > 0;
  return {
    total: outcomes.length,
    /** Verified, but CPython compiles a file of theirs neither before nor after. */
    notJudged: outcomes.filter((o) => o.notJudged !== undefined),
    /** Lifted, or refused by lift for what it found in the code. */
    judged: judged.length,
    passedCorrect: judged.filter((o) => o.passed && !broken(o)),
    caught: judged.filter((o) => !o.passed && broken(o)),
    falseAlarms: judged.filter((o) => !o.passed && !broken(o)),
    misses: judged.filter((o) => o.passed && broken(o)),
  };
}

/** Why verdicts cannot be judged here, or undefined. */
export const VERDICTS_SKIP = PYFLAKES_SKIP;

/** Bench rows of the strict verdicts of one part of a set (`label` names both). */
export function verdictRows(label: string, outcomes: readonly PatchOutcome[]): BenchRow[] {
  const c = verdictCounts(outcomes);
  const perHundred = c.judged ? round((100 * c.falseAlarms.length) / c.judged) : 0;
  return [
    {
      section: "lift",
      metric: `${label}: strict false alarms per 100 judged patches`,
      value: perHundred,
      unit: "per 100",
      goal: "<= 1",
      ok: perHundred <= 1,
      note: `${c.falseAlarms.length} of ${c.judged}; ${
        c.falseAlarms.map((o) => o.id).join(" ")
      }; not judged ${c.notJudged.length} (CPython compiles neither side)`,
    },
    {
      section: "lift",
      metric: `${label}: strict passes of code CPython or pyflakes finds broken`,
      value: c.misses.length,
      unit: "patches",
      goal: "<= 0",
      ok: c.misses.length === 0,
      note: `caught ${c.caught.length} (${c.caught.map((o) => o.id).join(" ")}); missed: ${
        c.misses.map((o) => o.id).join(" ")
      }`,
    },
  ];
}

const distribution = (values: readonly number[]) => {
  const counts: Record<string, number> = {};
  for (const tier of values) counts[`tier ${tier}`] = (counts[`tier ${tier}`] ?? 0) + 1;
  return Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([name, n]) => `${name} ${n}`).join(", ");
};

/** Bench rows of coverage, exactness, tiers and time of one part of a set (`label` names both). */
export function coverageRows(label: string, outcomes: readonly PatchOutcome[]): BenchRow[] {
  const n = outcomes.length;
  const share = (count: number) => n ? round((100 * count) / n) : 0;
  const lifted = outcomes.filter((o) => o.lifted);
  const exact = outcomes.filter((o) => o.exact).length;
  const formal = outcomes.filter((o) => o.formal).length;
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return [
    {
      section: "lift",
      metric: `${label}: lifted`,
      value: share(lifted.length),
      unit: "%",
      goal: ">= 98",
      ok: share(lifted.length) >= 98,
      note: `${lifted.length} of ${n} git-apply-able; ${
        outcomes.filter((o) => o.wholeFile).length
      } create or delete files; not: ${outcomes.filter((o) => !o.lifted).map((o) => o.id).join(" ")}`,
    },
    {
      section: "lift",
      metric: `${label}: replayed byte-exact vs git apply`,
      value: share(exact),
      unit: "%",
      goal: ">= 100",
      ok: exact === n,
      note: `${exact} of ${n}`,
    },
    {
      section: "lift",
      metric: `${label}: tiers 1-3 only`,
      value: share(formal),
      unit: "%",
      note: `${formal} of ${n}; steps: ${distribution(outcomes.flatMap((o) => o.tiers))}`,
    },
    rowAtMost({
      section: "lift",
      metric: `${label}: time per patch (median)`,
      value: round(median(times)),
      unit: "ms",
      note: `max ${round(times.at(-1) ?? 0)} ms (${
        outcomes.find((o) => o.ms === times.at(-1))?.id
      }), budget ${BUDGET} s`,
    }, 1000),
  ];
}

/** The text summary of one part's outcomes (standalone runs). */
export function summary(label: string, outcomes: readonly PatchOutcome[], list = false): string[] {
  const c = verdictCounts(outcomes);
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const lines = [
    `${label}: ${outcomes.length} patches, lifted ${outcomes.filter((o) => o.lifted).length}, exact ${
      outcomes.filter((o) => o.exact).length
    }, tiers 1-3 only ${outcomes.filter((o) => o.formal).length}; lift median ${
      round(median(times))
    } ms, p90 ${round(percentile(times, 0.9))} ms, max ${
      round(times.at(-1) ?? 0)
    } ms; past the ${BUDGET} s budget ${times.filter((ms) => ms > BUDGET * 1000).length}, budget-exceeded ${
      outcomes.filter((o) => o.liftErrors.some((e) => e.startsWith("budget-exceeded"))).length
    }`,
  ];
  if (c.judged) {
    lines.push(
      `  strict verdicts of ${c.judged} judged: passed correct ${c.passedCorrect.length}, caught ${c.caught.length}, false alarms ${c.falseAlarms.length}, misses ${c.misses.length}`,
    );
  }
  for (const o of c.notJudged) {
    lines.push(`  not judged ${o.id}: CPython compiles neither side of ${o.notJudged!.join(" ")}`);
  }
  for (const o of outcomes.filter((o) => !o.lifted || !o.exact)) {
    lines.push(`  not lifted/exact ${o.id}: ${o.liftErrors.join(" | ").slice(0, 400)}`);
  }
  for (const o of c.falseAlarms) lines.push(`  false alarm ${o.id}: ${o.refusals.join("; ")}`);
  for (const o of c.misses) lines.push(`  miss ${o.id}: ${o.broken.join("; ")}`);
  if (list) {
    for (const o of c.caught) {
      lines.push(`  caught ${o.id}: ${o.refusals.join("; ")} | ${o.broken.join("; ")}`);
    }
  }
  return lines;
}

if (import.meta.main) {
  const arg = (name: string) => {
    const at = Deno.args.indexOf(name);
    return at >= 0 ? Deno.args[at + 1] : undefined;
  };
  const verdicts = !Deno.args.includes("--no-verdicts");
  if (verdicts && VERDICTS_SKIP) {
    console.log(`skipped: ${VERDICTS_SKIP}`);
  } else {
    const corpus = arg("--corpus");
    const instances = corpus
      ? await corpusPatches(corpus)
      : arg("--set") === "gold"
      ? await goldPatches()
      : await modelPatches();
    // --every N: a sample fixed before measuring (instances 0, N, 2N, ... in file order)
    const every = Number(arg("--every") ?? 1);
    const outcomes = await benchPatches(instances.filter((_, k) => k % every === 0), {
      part: (arg("--part") ?? "all") as Part,
      limit: arg("--limit") ? Number(arg("--limit")) : undefined,
      filter: arg("--filter") ? new RegExp(arg("--filter")!) : undefined,
      verdicts,
      // one JSON line per patch on stderr: a long run's outcomes so far
      onOutcome: (outcome) => console.error(JSON.stringify(outcome)),
    });
    for (const held of [false, true]) {
      const mine = outcomes.filter((o) => o.held === held);
      if (mine.length === 0) continue;
      const label = `${instances[0].set} ${held ? "held-out" : "held-in"}`;
      for (const line of summary(label, mine, Deno.args.includes("--list"))) console.log(line);
    }
  }
}
