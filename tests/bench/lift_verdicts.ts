/**
 * Strict verdicts on lifted patches, judged by CPython and pyflakes: each
 * patch (the corpus gold patches, the held-in model patches) is lifted as
 * a user would (`lift`), and the lifted plan is verified as `verify
 * --strict` does (strict codes, the environment's compilers), against the
 * patch's `before` files in a fresh temporary repository. The oracle
 * (`tests/_support/pyflakes.ts`) judges the patch's `after` files: a
 * problem CPython's `compile()` or pyflakes (undefined names, locals used
 * before assignment, syntax, syntax newer than the declared Python) finds in
 * the new text and not in the old makes the patch broken.
 *
 * Four outcomes per lifted patch: passed and correct, refused and broken
 * (caught), refused and correct (a false alarm: goal at most 1 per 100
 * patches) and passed and broken (a miss: goal 0). Patches that do not lift
 * today (new or deleted files, hunks that do not apply) are counted apart.
 *
 * Held out: a third of each corpus, drawn with `mulberry32(25)` in corpus
 * order (`part: "held"`); the rest (`"build"`) is what fixes were tuned on.
 *
 * Standalone: `deno run -A tests/bench/lift_verdicts.ts [--set gold|model|all]
 * [--part build|held|all] [--limit N] [--filter RE] [--list]`.
 *
 * @module
 */

import { lift } from "../../engine/lift/mod.ts";
import { withBudget } from "../../engine/budget.ts";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { Workspace } from "../../engine/workspace.ts";
import { verifyPlan } from "../../engine/verify/mod.ts";
import { Compilers } from "../../engine/verify/compile/mod.ts";
import { DEFAULT_STRICT_CODES } from "../../engine/verify/strict.ts";
import { declaredPythonMinimum } from "../../engine/analysis/python_version.ts";
import { CORPUS_PATH } from "../_support/corpus.ts";
import { brokenByChange, PYFLAKES_SKIP } from "../_support/pyflakes.ts";
import { mulberry32 } from "../_support/random.ts";
import type { BenchRow } from "./stats.ts";
import { round } from "./stats.ts";

/** The held-in model patches (README of the corpus). */
export const MODEL_PATCHES_PATH = CORPUS_PATH.replace(/[^/]+$/, "model-patches-heldin.jsonl.gz");

/** One patch with the full text of the files it touches (null: absent on that side). */
export interface VerdictInstance {
  id: string;
  set: "gold" | "model";
  patch: string;
  files: { path: string; before: string | null; after: string | null }[];
  /** Whether the instance is in the held-out third. */
  held: boolean;
}

/** What happened to one patch. */
export interface VerdictOutcome {
  id: string;
  set: "gold" | "model";
  held: boolean;
  /** Lift succeeded (every hunk, replay exact). */
  lifted: boolean;
  /** `verify --strict` passed the lifted plan (undefined when not lifted). */
  passed?: boolean;
  /** The codes of the strict verification's errors, with file:line. */
  refusals: string[];
  /** What CPython and pyflakes found the patch broke (empty: correct). */
  broken: string[];
  /** Lift errors when not lifted. */
  liftErrors: string[];
  ms: number;
}

async function readJsonlGz<T>(path: string): Promise<T[]> {
  const file = await Deno.open(path);
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

/** Mark a fixed random third of `items` held out (`mulberry32(25)`, corpus order). */
function holdOut<T extends { held: boolean }>(items: T[]): T[] {
  const random = mulberry32(25);
  for (const item of items) item.held = random() < 1 / 3;
  return items;
}

/** The gold and model patches, each with its held-out mark. */
export async function loadVerdictInstances(): Promise<VerdictInstance[]> {
  type Row = { instance_id: string; patch: string; files: VerdictInstance["files"]; system?: string };
  const gold = (await readJsonlGz<Row>(CORPUS_PATH)).map((row): VerdictInstance => ({
    id: row.instance_id,
    set: "gold",
    patch: row.patch,
    files: row.files,
    held: false,
  }));
  const model = (await readJsonlGz<Row & { git_apply_ok: boolean }>(MODEL_PATCHES_PATH))
    .filter((row) => row.git_apply_ok)
    .map((row): VerdictInstance => ({
      id: `${row.instance_id}@${row.system}`,
      set: "model",
      patch: row.patch,
      files: row.files,
      held: false,
    }));
  return [...holdOut(gold), ...holdOut(model)];
}

/** Lift, verify strictly and judge one patch. */
export async function judgePatch(instance: VerdictInstance, compilers: Compilers): Promise<VerdictOutcome> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-verdicts-" });
  const outcome: VerdictOutcome = {
    id: instance.id,
    set: instance.set,
    held: instance.held,
    lifted: false,
    refusals: [],
    broken: [],
    liftErrors: [],
    ms: 0,
  };
  try {
    for (const file of instance.files) {
      if (file.before === null) continue;
      const target = `${dir}/${file.path}`;
      await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(target, file.before);
    }
    const started = performance.now();
    const lifted = await withBudget(
      60,
      () => lift(new DocumentStore(Workspace.open(dir)), { diff: instance.patch }),
    );
    outcome.ms = performance.now() - started;
    outcome.lifted = lifted.success;
    if (!lifted.success) {
      outcome.liftErrors = [...new Set(lifted.errors.map((issue) => issue.code))];
      return outcome;
    }
    const verified = await withBudget(
      60,
      () =>
        verifyPlan(new DocumentStore(Workspace.open(dir)), lifted.plan, {
          compilers,
          strict: DEFAULT_STRICT_CODES,
        }),
    );
    outcome.passed = verified.passed;
    outcome.refusals = verified.errors.map((issue) =>
      `${issue.code} ${issue.file ?? ""}:${issue.line ?? ""}`
    );
    const minimum = declaredPythonMinimum(dir);
    const python = instance.files.filter((file) => file.path.endsWith(".py") && file.after !== null);
    const found = await brokenByChange(python.map((file) => ({
      path: file.path,
      before: file.before,
      after: file.after!,
      ...(minimum ? { minimum: [minimum.major, minimum.minor] as [number, number] } : {}),
    })));
    outcome.broken = found.flatMap((problems, k) =>
      problems.map((problem) => `${python[k].path}: ${problem}`)
    );
    return outcome;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Judge every instance of `set` and `part` (at most `limit`). */
export async function benchVerdicts(
  options: {
    set?: "gold" | "model" | "all";
    part?: "build" | "held" | "all";
    limit?: number;
    /** Only the instances whose id matches. */
    filter?: RegExp;
  } = {},
): Promise<VerdictOutcome[]> {
  const set = options.set ?? "all";
  const part = options.part ?? "all";
  const instances = (await loadVerdictInstances()).filter((instance) =>
    (set === "all" || instance.set === set) &&
    (part === "all" || instance.held === (part === "held")) && (options.filter?.test(instance.id) ?? true)
  ).slice(0, options.limit ?? Infinity);
  const compilers = new Compilers();
  const outcomes: VerdictOutcome[] = [];
  try {
    for (const instance of instances) outcomes.push(await judgePatch(instance, compilers));
  } finally {
    await compilers.close();
  }
  return outcomes;
}

/** The four counts of lifted outcomes. */
export function verdictCounts(outcomes: readonly VerdictOutcome[]) {
  const lifted = outcomes.filter((o) => o.lifted);
  const broken = (o: VerdictOutcome) => o.broken.length > 0;
  return {
    total: outcomes.length,
    lifted: lifted.length,
    passedCorrect: lifted.filter((o) => o.passed && !broken(o)),
    caught: lifted.filter((o) => !o.passed && broken(o)),
    falseAlarms: lifted.filter((o) => !o.passed && !broken(o)),
    misses: lifted.filter((o) => o.passed && broken(o)),
  };
}

/** Bench rows for one set (`deno task bench lift` adds them to its section); the note gives the held-out third apart. */
export function verdictRows(setName: string, outcomes: readonly VerdictOutcome[]): BenchRow[] {
  const c = verdictCounts(outcomes);
  const held = verdictCounts(outcomes.filter((o) => o.held));
  const perHundred = c.lifted ? round((100 * c.falseAlarms.length) / c.lifted) : 0;
  const heldNote =
    `held out (mulberry32(25) third): ${held.falseAlarms.length} false alarms and ${held.misses.length} misses in ${held.lifted} lifted`;
  return [
    {
      section: "lift",
      metric: `${setName} patches lifted (strict verdicts judged)`,
      value: c.lifted,
      unit: "patches",
      note: `of ${c.total} that git apply accepts`,
    },
    {
      section: "lift",
      metric: `${setName}: strict false alarms per 100 lifted patches`,
      value: perHundred,
      unit: "per 100",
      goal: "<= 1",
      ok: perHundred <= 1,
      note: `${c.falseAlarms.length} of ${c.lifted}; ${heldNote}; ${
        c.falseAlarms.map((o) => o.id).join(" ")
      }`,
    },
    {
      section: "lift",
      metric: `${setName}: strict passes of code CPython or pyflakes finds broken`,
      value: c.misses.length,
      unit: "patches",
      goal: "<= 0",
      ok: c.misses.length === 0,
      note: `caught ${c.caught.length}; missed: ${c.misses.map((o) => o.id).join(" ")}`,
    },
  ];
}

/** Why verdict rows cannot be computed here, or undefined. */
export const VERDICTS_SKIP = PYFLAKES_SKIP;

if (import.meta.main) {
  const arg = (name: string) => {
    const at = Deno.args.indexOf(name);
    return at >= 0 ? Deno.args[at + 1] : undefined;
  };
  if (VERDICTS_SKIP) {
    console.log(`skipped: ${VERDICTS_SKIP}`);
  } else {
    const outcomes = await benchVerdicts({
      set: (arg("--set") ?? "all") as "gold" | "model" | "all",
      part: (arg("--part") ?? "all") as "build" | "held" | "all",
      limit: arg("--limit") ? Number(arg("--limit")) : undefined,
      filter: arg("--filter") ? new RegExp(arg("--filter")!) : undefined,
    });
    for (const set of ["gold", "model"] as const) {
      const mine = outcomes.filter((o) => o.set === set);
      if (mine.length === 0) continue;
      const c = verdictCounts(mine);
      console.log(
        `${set}: ${c.total} patches, ${c.lifted} lifted; passed correct ${c.passedCorrect.length}, caught ${c.caught.length}, false alarms ${c.falseAlarms.length}, misses ${c.misses.length}`,
      );
      for (const o of c.falseAlarms) console.log(`  false alarm ${o.id}: ${o.refusals.join("; ")}`);
      for (const o of c.misses) console.log(`  miss ${o.id}: ${o.broken.join("; ")}`);
      if (Deno.args.includes("--list")) {
        for (const o of c.caught) {
          console.log(`  caught ${o.id}: ${o.refusals.join("; ")} | ${o.broken.join("; ")}`);
        }
        for (const o of mine.filter((o) => !o.lifted)) {
          console.log(`  not lifted ${o.id}: ${o.liftErrors.join(" ")}`);
        }
      }
      const times = mine.map((o) => o.ms).sort((a, b) => a - b);
      console.log(
        `  lift time: median ${round(times[Math.floor(times.length / 2)] ?? 0)} ms, max ${
          round(times.at(-1) ?? 0)
        } ms`,
      );
    }
  }
}
