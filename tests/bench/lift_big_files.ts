/**
 * The cost of `lift` on one-hunk changes to very large modules, this tree
 * against a baseline commit in the same run: what a candidate try costs
 * when the file is thousands of lines long (issue 25: "none past its
 * budget").
 *
 * The baseline's sources are exported with `git archive REF` into a
 * temporary directory; each round lifts every case once with each tree, in
 * a child process per tree (alternating which goes first), so load on the
 * machine hits both alike. A child imports the engine of the tree it is
 * given and reports, per case, the wall and CPU milliseconds of the lift,
 * how many candidates it tried (`Simulation.attempt` calls), the tiers,
 * and whether replaying the plan gives the patch's `after` text byte for
 * byte. Medians over the rounds are printed, with the load average before
 * and after.
 *
 * The cases come from any corpus-format file (`--corpus`), by default the
 * one-hunk changes built from big stdlib modules of two pyenv Python
 * versions (`/work/lift-unseen/dev-budget/build.py`, never committed); the
 * judged unseen sets are not meant to be tuned on here.
 *
 * `deno run -A tests/bench/lift_big_files.ts [--base REF] [--corpus PATH]
 * [--filter RE] [--rounds N] [--limit N]`
 *
 * @module
 */

import { parseArgs } from "node:util";
import { cpuUsage } from "node:process";
import { corpusPatches, type PatchInstance } from "./lift_patches.ts";
import { materializeModelPatch } from "../_support/model_patches.ts";
import { median, round } from "./stats.ts";

/** What one child reports for one case. */
interface CaseRun {
  id: string;
  wallMs: number;
  cpuMs: number;
  attempts: number;
  tiers: number[];
  exact: boolean;
  errors: string[];
}

const ROOT = new URL("../../", import.meta.url).pathname;

/** Lift each case with the engine under `root` (child mode); one JSON line per case on stdout. */
async function child(root: string, casesFile: string): Promise<void> {
  const engine = (path: string) => import(`file://${root}/engine/${path}`);
  const { lift } = await engine("lift/mod.ts");
  const { replayPlan, Simulation } = await engine("lift/replay.ts");
  const { withBudget } = await engine("base/budget.ts");
  const { DocumentStore } = await engine("parse/documents.ts");
  const { Workspace } = await engine("workspace.ts");
  let attempts = 0;
  const attempt = Simulation.prototype.attempt;
  Simulation.prototype.attempt = function (...args: unknown[]) {
    attempts++;
    return attempt.apply(this, args);
  };
  const cases: { id: string; dir: string; patch: string; after: Record<string, string | null> }[] = JSON
    .parse(await Deno.readTextFile(casesFile));
  for (const item of cases) {
    attempts = 0;
    const cpu = cpuUsage();
    const started = performance.now();
    const lifted = await withBudget(
      600,
      () => lift(new DocumentStore(Workspace.open(item.dir)), { diff: item.patch }),
    );
    const wallMs = performance.now() - started;
    const used = cpuUsage(cpu);
    const replay = await replayPlan(new DocumentStore(Workspace.open(item.dir)), lifted.plan);
    const exact = !replay.failed &&
      Object.entries(item.after).every(([path, text]) =>
        text === null ? replay.removed.has(path) : replay.texts.get(path) === text
      );
    const run: CaseRun = {
      id: item.id,
      wallMs,
      cpuMs: (used.user + used.system) / 1000,
      attempts,
      tiers: lifted.hunks.flatMap((hunk: { tiers: number[] }) => hunk.tiers),
      exact,
      errors: lifted.errors.map((issue: { code: string }) => issue.code),
    };
    console.log(JSON.stringify(run));
  }
}

/** Run one child over the cases with the tree at `root`. */
async function runTree(root: string, casesFile: string): Promise<CaseRun[]> {
  const command = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--config",
      `${ROOT}deno.json`,
      new URL(import.meta.url).pathname,
      "--child",
      root,
      casesFile,
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "inherit",
  });
  const output = await command.output();
  if (!output.success) throw new Error(`The lift child failed for tree "${root}"`);
  return new TextDecoder().decode(output.stdout).split("\n").filter((line) => line.startsWith("{")).map((
    line,
  ) => JSON.parse(line));
}

/** Export `ref`'s sources into a fresh temporary directory. */
async function exportTree(ref: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-bench-base-" });
  const archive = await new Deno.Command("sh", {
    args: ["-c", `git -C "${ROOT}" archive "${ref}" | tar -x -C "${dir}"`],
  }).output();
  if (!archive.success) {
    throw new Error(`Cannot export "${ref}": ${new TextDecoder().decode(archive.stderr)}`);
  }
  return dir;
}

async function loadAverage(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      base: { type: "string", default: "main" },
      corpus: { type: "string", default: "/work/lift-unseen/dev-budget/big.jsonl.gz" },
      filter: { type: "string", default: "." },
      rounds: { type: "string", default: "3" },
      limit: { type: "string" },
    },
  });
  const pattern = new RegExp(values.filter!);
  let instances: PatchInstance[] = (await corpusPatches(values.corpus!)).filter((p) => pattern.test(p.id));
  if (values.limit) instances = instances.slice(0, Number(values.limit));
  const cases = await Promise.all(instances.map(async (instance) => ({
    id: instance.id,
    dir: await materializeModelPatch({ files: instance.files }),
    patch: instance.patch,
    after: Object.fromEntries(instance.files.map((file) => [file.path, file.after])),
  })));
  const casesFile = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(casesFile, JSON.stringify(cases));
  const base = await exportTree(values.base!);
  const trees = { base, head: ROOT.replace(/\/$/, "") };
  const runs: Record<"base" | "head", CaseRun[][]> = { base: [], head: [] };
  const loadBefore = await loadAverage();
  for (let round = 0; round < Number(values.rounds); round++) {
    const order: ("base" | "head")[] = round % 2 === 0 ? ["base", "head"] : ["head", "base"];
    for (const name of order) runs[name].push(await runTree(trees[name], casesFile));
  }
  console.log(`load average before ${loadBefore}, after ${await loadAverage()}; ${values.rounds} rounds`);
  console.log(
    "case | base wall/cpu ms | head wall/cpu ms | candidates base/head | cpu per candidate | exact",
  );
  const ratios: number[] = [];
  for (const [k, item] of cases.entries()) {
    const of = (name: "base" | "head", key: "wallMs" | "cpuMs") => median(runs[name].map((r) => r[k][key]));
    const last = (name: "base" | "head") => runs[name][0][k];
    const perCandidate = (name: "base" | "head") =>
      round(of(name, "cpuMs") / Math.max(1, last(name).attempts));
    ratios.push(of("head", "cpuMs") / of("base", "cpuMs"));
    console.log(
      `${item.id} | ${round(of("base", "wallMs"))}/${round(of("base", "cpuMs"))} | ${
        round(of("head", "wallMs"))
      }/${round(of("head", "cpuMs"))} | ${last("base").attempts}/${last("head").attempts} | ${
        perCandidate("base")
      }/${perCandidate("head")} | ${last("base").exact}/${last("head").exact}${
        JSON.stringify(last("base").tiers) === JSON.stringify(last("head").tiers)
          ? ""
          : ` tiers ${JSON.stringify(last("base").tiers)} -> ${JSON.stringify(last("head").tiers)}`
      }`,
    );
  }
  const total = (name: "base" | "head") =>
    round(cases.reduce((sum, _, k) => sum + median(runs[name].map((r) => r[k].cpuMs)), 0));
  console.log(
    `total cpu ms: base ${total("base")}, head ${total("head")}; median head/base cpu ratio ${
      round(median(ratios))
    }`,
  );
  await Deno.remove(base, { recursive: true });
  await Deno.remove(casesFile);
  for (const item of cases) await Deno.remove(item.dir, { recursive: true });
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") await child(Deno.args[1], Deno.args[2]);
  else await main();
}
