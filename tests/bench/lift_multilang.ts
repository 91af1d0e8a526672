/**
 * Lift on real fix commits in nine languages (`../shared/corpus/multilang-heldin.jsonl.gz`,
 * 12 commits per language): each commit's `before` files go into a fresh
 * temporary repository, its diff is lifted, verified and replayed in memory.
 * Reported: commits lifted and replayed byte-exact (goal: all), and the share
 * of lifted steps in tiers 1–3 (goal ≥ 60%), per language.
 *
 * Held out: a third of each language's commits, chosen by a seeded shuffle
 * ({@link HOLDOUT_SEED}), were not looked at while the non-Python templates
 * and tier selection were built; both parts are reported separately
 * (`built on` and `held out`).
 *
 * Standalone: `deno run -A tests/bench/lift_multilang.ts [--part built|held] [--list]`
 * (`--list` prints every tier-0 step's reason per commit); from the harness
 * the rows join `deno task bench lift`. `--data PATH` lifts every instance of
 * a corpus-format file instead (the unseen set `unseen_multilang.ts` writes),
 * `--part` then ignored. `--lang L1,L2` keeps those languages, `--first N` each
 * language's first N commits, `--timeout S` gives each lift the work budget `graphplan lift --timeout S`
 * gives it (none by default).
 *
 * @module
 */

import { withBudget } from "../../engine/base/budget.ts";
import { detectLanguage } from "../../engine/base/languages.ts";
import { lift } from "../../engine/lift/mod.ts";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { Workspace } from "../../engine/workspace.ts";
import {
  liftHeldOut as heldOut,
  loadInstances,
  loadMultilang,
  MULTILANG_SKIP,
  type MultilangCommit,
} from "../_support/multilang.ts";
import type { BenchRow } from "./stats.ts";
import { round } from "./stats.ts";

/** One commit's outcome. */
export interface MultilangOutcome {
  lang: string;
  sha: string;
  /** A plan came out with no error (verified); `exact` also needs a byte-exact replay. */
  lifted: boolean;
  exact: boolean;
  tiers: number[];
  /** The tiers of the steps on files in a language GraphPlan parses (a whole patch also edits docs and build files). */
  codeTiers: number[];
  /** `kind (tier)` of each step. */
  kinds: string[];
  /** Why a step fell to tier 0, and errors. */
  reasons: string[];
}

/** Lift every commit of `commits` (`onEach` sees each outcome as it comes). */
export async function liftCommits(
  commits: readonly MultilangCommit[],
  onEach?: (outcome: MultilangOutcome) => void,
  timeout?: number,
): Promise<MultilangOutcome[]> {
  const out: MultilangOutcome[] = [];
  for (const commit of commits) {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-multilang-" });
    try {
      if (commit.tree) {
        // a copy: nothing a lift or its compilers leave behind reaches the stored tree
        const copied = await new Deno.Command("cp", { args: ["-a", `${commit.tree}/.`, dir] }).output();
        if (!copied.success) throw new Error(`could not copy "${commit.tree}" to "${dir}"`);
      }
      for (const file of commit.tree ? [] : commit.files) {
        const target = `${dir}/${file.path}`;
        await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
        await Deno.writeTextFile(target, file.before);
      }
      // no budget unless asked (`--timeout S`, as `graphplan lift --timeout`): withBudget(0) sets none
      const result = await withBudget(
        timeout ?? 0,
        () => lift(new DocumentStore(Workspace.open(dir)), { diff: commit.diff }),
      );
      out.push({
        lang: commit.lang,
        sha: commit.sha,
        lifted: result.errors.length === 0,
        exact: result.exact,
        tiers: result.hunks.flatMap((hunk) => hunk.tiers),
        codeTiers: result.hunks.filter((hunk) => detectLanguage(hunk.file) !== undefined).flatMap((hunk) =>
          hunk.tiers
        ),
        kinds: result.hunks.flatMap((hunk) => hunk.kinds.map((kind, k) => `${kind} (${hunk.tiers[k]})`)),
        reasons: result.warnings.filter((issue) => issue.code === "lift-tier-0").map((issue) =>
          issue.message.replace(/^.*no tier 1-3 step reproduces /, "")
        ).concat(result.errors.map((issue) => `error ${issue.code}: ${issue.message}`)),
      });
      onEach?.(out.at(-1)!);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
  return out;
}

/** Exact commits and the share of steps in tiers 1–3 of `outcomes`. */
export function summarize(outcomes: readonly MultilangOutcome[]): {
  commits: number;
  lifted: number;
  exact: number;
  steps: number;
  formal: number;
  codeSteps: number;
  codeFormal: number;
} {
  const tiers = outcomes.flatMap((o) => o.tiers);
  const code = outcomes.flatMap((o) => o.codeTiers);
  return {
    codeSteps: code.length,
    codeFormal: code.filter((tier) => tier > 0).length,
    commits: outcomes.length,
    lifted: outcomes.filter((o) => o.lifted).length,
    exact: outcomes.filter((o) => o.exact).length,
    steps: tiers.length,
    formal: tiers.filter((tier) => tier > 0).length,
  };
}

function percent(part: number, whole: number): number {
  return whole ? round((100 * part) / whole) : 0;
}

/** The rows `deno task bench lift` adds for the nine-language corpus. */
export async function multilangRows(): Promise<BenchRow[]> {
  if (MULTILANG_SKIP) {
    return [{ section: "lift", metric: "multilang commits", value: null, unit: "", note: MULTILANG_SKIP }];
  }
  const commits = await loadMultilang();
  const held = heldOut(commits);
  const outcomes = await liftCommits(commits);
  const rows: BenchRow[] = [];
  for (const [part, keep] of [["built on", false], ["held out", true]] as const) {
    const mine = outcomes.filter((o) => held.has(o.sha) === keep);
    const s = summarize(mine);
    const langs = [...new Set(mine.map((o) => o.lang))].map((lang) => {
      const t = summarize(mine.filter((o) => o.lang === lang));
      return `${lang} ${t.exact}/${t.commits} exact, ${percent(t.formal, t.steps)}%`;
    });
    rows.push({
      section: "lift",
      metric: `multilang ${part}: commits replayed byte-exact`,
      value: percent(s.exact, s.commits),
      unit: "%",
      goal: ">= 100",
      ok: s.exact === s.commits,
      note: `${s.exact} of ${s.commits}; not: ${
        mine.filter((o) => !o.exact).map((o) => o.sha.slice(0, 8)).join(" ")
      }`,
    }, {
      section: "lift",
      metric: `multilang ${part}: lifted steps in tiers 1-3`,
      value: percent(s.formal, s.steps),
      unit: "%",
      goal: ">= 60",
      ok: percent(s.formal, s.steps) >= 60,
      note: `${s.formal} of ${s.steps}; ${langs.join("; ")}`,
    });
  }
  return rows;
}

if (import.meta.main) {
  const dataAt = Deno.args.indexOf("--data");
  if (MULTILANG_SKIP && dataAt < 0) {
    console.log(`skipped: ${MULTILANG_SKIP}`);
  } else {
    const commits = dataAt >= 0 ? await loadInstances(Deno.args[dataAt + 1]) : await loadMultilang();
    const held = heldOut(commits);
    const at = Deno.args.indexOf("--part");
    const part = dataAt >= 0 ? "all" : at >= 0 ? Deno.args[at + 1] : "built";
    const langAt = Deno.args.indexOf("--lang");
    const firstAt = Deno.args.indexOf("--first");
    const first = firstAt >= 0 ? Number(Deno.args[firstAt + 1]) : Infinity;
    const seen = new Map<string, number>();
    const chosen = commits.filter((c) =>
      (part === "all" || held.has(c.sha) === (part === "held")) &&
      (langAt < 0 || Deno.args[langAt + 1].split(",").includes(c.lang)) &&
      (seen.set(c.lang, (seen.get(c.lang) ?? 0) + 1).get(c.lang)! <= first)
    );
    const outcomes = await liftCommits(
      chosen,
      (o) =>
        Deno.args.includes("--list") &&
        console.log(`${o.lang} ${o.sha} lifted=${o.lifted} exact=${o.exact} ${o.kinds.join(", ")}`),
      Deno.args.includes("--timeout") ? Number(Deno.args[Deno.args.indexOf("--timeout") + 1]) : undefined,
    );
    for (const lang of [...new Set(outcomes.map((o) => o.lang))]) {
      const s = summarize(outcomes.filter((o) => o.lang === lang));
      console.log(
        `${lang}: ${s.lifted}/${s.commits} lifted, ${s.exact}/${s.commits} exact, ` +
          `${s.formal}/${s.steps} (${percent(s.formal, s.steps)}%) steps tiers 1-3` +
          (s.codeSteps < s.steps ? `, on source files ${s.codeFormal}/${s.codeSteps}` : ""),
      );
    }
    const s = summarize(outcomes);
    console.log(
      `all (${part}): ${s.lifted}/${s.commits} lifted, ${s.exact}/${s.commits} exact, ${s.formal}/${s.steps} (${
        percent(s.formal, s.steps)
      }%)` + (s.codeSteps < s.steps
        ? `, on source files ${s.codeFormal}/${s.codeSteps} (${percent(s.codeFormal, s.codeSteps)}%)`
        : ""),
    );
    if (Deno.args.includes("--list")) {
      for (const o of outcomes) {
        console.log(`${o.lang} ${o.sha.slice(0, 8)} exact=${o.exact} ${o.kinds.join(", ")}`);
        for (const reason of o.reasons) console.log(`    ${reason.slice(0, 300)}`);
      }
    }
  }
}
