/**
 * The benchmark harness (`deno task bench`): runs the sections, prints one
 * table and writes tests/bench/results.json (the README copies its figures).
 *
 * Usage: `deno task bench [SECTION...] [--runs N] [--out FILE]`. With no
 * section every section runs; a partial run keeps the other sections' rows
 * of the existing results file.
 *
 * Adding a section: write `tests/bench/<name>.ts` exporting a
 * {@linkcode BenchSection} (`name`, `description`, `run(ctx)` returning
 * `BenchRow`s; `ctx` gives `runs`, a scratch dir `tmp`, the fresh bundle via
 * `ctx.bundle()` and the extracted corpus via `ctx.corpusDir()`), use the
 * helpers of stats.ts (`timeRuns`, `timeCommand` with `peak: true`,
 * `rowAtMost` for a goal), and add it to `SECTIONS` below.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { maybeRunWorker } from "../../engine/graph/pool.ts";
import { batchSection } from "./batch.ts";
import { BenchContext, type BenchSection } from "./context.ts";
import { execSection } from "./exec_step.ts";
import { fuzzSection } from "./fuzz.ts";
import { gateSection } from "./gate.ts";
import { faultsSection } from "./faults.ts";
import { graphSection } from "./graph.ts";
import { helperOverheadSection } from "./helper_overhead.ts";
import { mutationSection } from "./mutation_sweep.ts";
import { liftSection } from "./lift.ts";
import { poolSection } from "./pool.ts";
import { startupSection } from "./startup.ts";
import type { BenchRow } from "./stats.ts";
import { verifyLevelsSection } from "./verify_levels.ts";
import { verifyPlanSection } from "./verify_plan.ts";
import { verifyScaleSection } from "./verify_scale.ts";

/** Every section, in the order they run. */
export const SECTIONS: BenchSection[] = [
  graphSection,
  startupSection,
  poolSection,
  verifyLevelsSection,
  verifyPlanSection,
  verifyScaleSection,
  execSection,
  helperOverheadSection,
  fuzzSection,
  faultsSection,
  mutationSection,
  batchSection,
  liftSection,
  gateSection,
];

/** The shape of results.json. */
export interface BenchResults {
  date: string;
  deno: string;
  cpus: number;
  runs: number;
  /** 1-minute load average at the start and the end (other processes skew the figures). */
  load: { start: number | null; end: number | null };
  rows: BenchRow[];
  /** Sections that threw, with the message. */
  failed: { section: string; error: string }[];
}

const DEFAULT_OUT = new URL("./results.json", import.meta.url).pathname;

/** Format rows as an aligned text table. */
export function formatTable(rows: readonly BenchRow[]): string {
  const cells = rows.map((row) => [
    row.section,
    row.metric,
    row.value === null ? "—" : `${row.value} ${row.unit}`,
    row.goal
      ? `${row.goal}${row.unit === "x" ? "x" : ` ${row.unit}`} ${
        row.ok === undefined ? "" : row.ok ? "ok" : "MISSED"
      }`
      : "",
    row.note ?? "",
  ]);
  const header = ["section", "metric", "value", "goal", "note"];
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((cell) => cell[i].length)));
  const line = (cell: string[]) =>
    cell.map((text, i) => i === cell.length - 1 ? text : text.padEnd(widths[i])).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...cells.map(line)].join("\n");
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      runs: { type: "string", default: "5" },
      out: { type: "string", default: DEFAULT_OUT },
      help: { type: "boolean" },
    },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(`Usage: deno task bench [SECTION...] [--runs N] [--out FILE]\nSections:`);
    for (const section of SECTIONS) console.log(`  ${section.name.padEnd(15)}  ${section.description}`);
    return 0;
  }
  const unknown = positionals.filter((name) => !SECTIONS.some((section) => section.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown section: "${unknown[0]}" (sections: ${SECTIONS.map((s) => s.name).join(", ")})`);
    return 2;
  }
  const chosen = positionals.length ? SECTIONS.filter((s) => positionals.includes(s.name)) : SECTIONS;
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) {
    console.error(`Invalid --runs: "${values.runs}" (a positive integer)`);
    return 2;
  }
  const loadStart = loadAverage();
  if (loadStart !== null && loadStart > 0.5) {
    console.error(
      `bench: warning: load average ${loadStart} before the run: other processes skew the figures`,
    );
  }
  const tmp = await Deno.makeTempDir({ prefix: "graphplan-bench-" });
  const ctx = new BenchContext({ runs, tmp });
  const rows: BenchRow[] = [];
  const failed: BenchResults["failed"] = [];
  try {
    for (const section of chosen) {
      console.error(`bench: ${section.name}: ${section.description}`);
      try {
        rows.push(...await section.run(ctx));
      } catch (err) {
        failed.push({ section: section.name, error: (err as Error)?.message ?? String(err) });
        console.error(`bench: ${section.name} failed: ${(err as Error)?.stack ?? err}`);
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
  console.log(formatTable(rows));
  for (const failure of failed) console.log(`FAILED ${failure.section}: ${failure.error}`);

  // Keep the rows of sections this run did not touch.
  const ran = new Set(chosen.map((s) => s.name));
  let previous: BenchRow[] = [];
  try {
    previous = (JSON.parse(await Deno.readTextFile(values.out!)) as BenchResults).rows.filter((r) =>
      !ran.has(r.section)
    );
  } catch {
    // No previous results.
  }
  const results: BenchResults = {
    date: new Date().toISOString(),
    deno: Deno.version.deno,
    cpus: navigator.hardwareConcurrency,
    runs,
    load: { start: loadStart, end: loadAverage() },
    rows: [...previous, ...rows].sort((a, b) => order(a.section) - order(b.section)),
    failed,
  };
  await Deno.writeTextFile(values.out!, JSON.stringify(results, null, 2) + "\n");
  console.error(`bench: wrote ${values.out}`);
  return failed.length > 0 ? 1 : 0;
}

/** The 1-minute load average (Linux), or null. */
function loadAverage(): number | null {
  try {
    return Number(Deno.readTextFileSync("/proc/loadavg").split(" ")[0]);
  } catch {
    return null;
  }
}

function order(section: string): number {
  const index = SECTIONS.findIndex((s) => s.name === section);
  return index === -1 ? SECTIONS.length : index;
}

if (import.meta.main && !maybeRunWorker()) {
  Deno.exit(await main(Deno.args));
}
