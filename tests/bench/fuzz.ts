/**
 * Benchmark section `fuzz`: the seeded hostile plans of
 * tests/_support/hostile_plans.ts (fan-out, deep nesting, pathological
 * queries, huge substitutions, wide plans) sent to one real `helper --serve`
 * process, each as `verify_plan` and then as `execute_plan` with a failing
 * last step (so whatever it wrote must be rolled back). Reports:
 *
 * - crashes: an `internal-error` or `step-crashed` issue, or the helper
 *   dying or not answering within 90 s (it is then restarted);
 * - requests over 10 s;
 * - the helper's peak RSS (VmHWM, Linux);
 * - writes on rejection: any byte of the repository that differs after an
 *   `execute_plan` (every one of them ends in a rollback), or a journal left.
 *
 *     deno task bench fuzz            # 2,000 cases (4,000 requests)
 *     deno run -A tests/bench/fuzz.ts --cases 200
 *
 * @module
 */

import { parseArgs } from "node:util";
import { HOSTILE_REPO, hostileCase, withFailingStep } from "../_support/hostile_plans.ts";
import { REPO_ROOT } from "./context.ts";
import { hasPendingJournal } from "../../engine/exec/mod.ts";
import { rollbackRepository } from "../../engine/exec/journal.ts";
import { Workspace } from "../../engine/workspace.ts";
import type { BenchContext, BenchSection } from "./context.ts";
import { type BenchRow, rowAtMost } from "./stats.ts";

const MAIN = `${REPO_ROOT}/main.ts`;
const CASES = 2000;
const SLOW_MS = 10_000;
const HANG_MS = 90_000;
/**
 * The helper's work budget in the bench (seconds): below the 10 s goal, so
 * a request over 10 s means the budget failed to stop the work. Requests the
 * budget stopped are counted apart (`stopped by budget`).
 */
const BUDGET_S = 8;

/** What one fuzz run found. */
export interface FuzzReport {
  cases: number;
  requests: number;
  crashes: number;
  slow: number;
  writesOnRejection: number;
  peakRssMb: number;
  slowestMs: number;
  /** Requests that ended in budget-exceeded. */
  stopped: number;
  examples: string[];
}

class Helper {
  readonly child: Deno.ChildProcess;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly reader: ReadableStreamDefaultReader<string>;
  private buffer = "";

  constructor(repo: string, state: string) {
    this.child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MAIN, "helper", "--serve", "--repo", repo, "--timeout", String(BUDGET_S)],
      env: { XDG_STATE_HOME: state, NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    this.writer = this.child.stdin.getWriter();
    this.reader = this.child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  }

  /** Send one request; its response line, or undefined when the helper died or hung. */
  async ask(request: unknown): Promise<string | undefined> {
    await this.writer.write(new TextEncoder().encode(JSON.stringify(request) + "\n")).catch(() => {});
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hang = new Promise<undefined>((resolve) => timer = setTimeout(() => resolve(undefined), HANG_MS));
    const line = (async () => {
      // Look for the newline only in what arrived since the last look: responses can be megabytes.
      let from = 0;
      for (;;) {
        const nl = this.buffer.indexOf("\n", from);
        if (nl !== -1) {
          const out = this.buffer.slice(0, nl);
          this.buffer = this.buffer.slice(nl + 1);
          return out;
        }
        from = this.buffer.length;
        const { value, done } = await this.reader.read();
        if (done) return undefined;
        this.buffer += value;
      }
    })();
    try {
      return await Promise.race([line, hang]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Peak resident memory in MB (Linux), or 0. */
  peakRssMb(): number {
    return this.statusMb("VmHWM");
  }

  /** Resident memory now in MB (Linux), or 0. */
  rssMb(): number {
    return this.statusMb("VmRSS");
  }

  private statusMb(field: string): number {
    try {
      const status = Deno.readTextFileSync(`/proc/${this.child.pid}/status`);
      const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    } catch {
      return 0;
    }
  }

  async stop(): Promise<void> {
    await this.writer.close().catch(() => {});
    try {
      this.child.kill("SIGKILL");
    } catch {
      // gone already
    }
    await this.child.status;
  }
}

function snapshot(dir: string): string {
  const parts: string[] = [];
  const walk = (path: string) => {
    for (const entry of [...Deno.readDirSync(path)].sort((a, b) => a.name.localeCompare(b.name))) {
      const full = `${path}/${entry.name}`;
      if (entry.isDirectory) walk(full);
      else parts.push(`${full}:${Deno.readTextFileSync(full)}`);
    }
  };
  walk(dir);
  return parts.join("\n");
}

function writeRepo(repo: string): void {
  Deno.removeSync(repo, { recursive: true });
  for (const [path, text] of Object.entries(HOSTILE_REPO)) {
    Deno.mkdirSync(`${repo}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    Deno.writeTextFileSync(`${repo}/${path}`, text);
  }
}

/** Run `cases` hostile cases against a fresh repository under `tmp`. */
export async function runFuzz(
  tmp: string,
  cases = CASES,
  log = (_: string) => {},
  first = 0,
): Promise<FuzzReport> {
  const repo = `${tmp}/fuzz-repo`;
  const state = `${tmp}/fuzz-state`;
  Deno.mkdirSync(repo, { recursive: true });
  writeRepo(repo);
  const original = snapshot(repo);
  Deno.env.set("XDG_STATE_HOME", state); // where hasPendingJournal looks, as the helper does
  const report: FuzzReport = {
    cases,
    requests: 0,
    crashes: 0,
    slow: 0,
    writesOnRejection: 0,
    peakRssMb: 0,
    slowestMs: 0,
    stopped: 0,
    examples: [],
  };
  let helper = new Helper(repo, state);
  // FUZZ_RSS_LOG=FILE: one line per request (case, family, method, ms, RSS MB, peak MB), to see what memory is kept
  const traceFile = Deno.env.get("FUZZ_RSS_LOG");
  const restart = async () => {
    report.peakRssMb = Math.max(report.peakRssMb, helper.peakRssMb());
    await helper.stop();
    helper = new Helper(repo, state);
  };
  for (let i = first; i < first + cases; i++) {
    const c = hostileCase(i);
    for (const method of ["verify_plan", "execute_plan"] as const) {
      const plan = method === "execute_plan" ? withFailingStep(c.plan) : c.plan;
      const started = performance.now();
      const line = await helper.ask({ id: `${i}-${method}`, method, params: { plan } });
      const ms = performance.now() - started;
      report.requests++;
      report.slowestMs = Math.max(report.slowestMs, Math.round(ms));
      if (ms > Number(Deno.env.get("FUZZ_LOG_MS") ?? 2_000)) {
        log(`fuzz: case ${i} (${c.family}) ${method}: ${Math.round(ms)} ms`);
      }
      if (ms > SLOW_MS) {
        report.slow++;
        report.examples.push(`case ${i} (${c.family}) ${method}: ${Math.round(ms)} ms`);
      }
      if (line !== undefined && line.includes('"code":"budget-exceeded"')) report.stopped++;
      const rss = helper.peakRssMb();
      if (traceFile) {
        const row = `${i}\t${c.family}\t${method}\t${Math.round(ms)}\t${helper.rssMb()}\t${rss}\n`;
        Deno.writeTextFileSync(traceFile, row, { append: true });
      }
      if (rss > report.peakRssMb + 50) log(`fuzz: case ${i} (${c.family}) ${method}: peak RSS now ${rss} MB`);
      report.peakRssMb = Math.max(report.peakRssMb, rss);
      if (line === undefined || /"code":"(internal-error|step-crashed)"/.test(line)) {
        report.crashes++;
        report.examples.push(`case ${i} (${c.family}) ${method}: ${line?.slice(0, 300) ?? "no answer"}`);
        if (line === undefined) await restart();
      }
      if (method === "execute_plan") {
        const changed = snapshot(repo) !== original || /"success":true/.test(line ?? "");
        const journal = hasPendingJournal(Workspace.open(repo));
        if (changed || journal) {
          report.writesOnRejection++;
          report.examples.push(
            `case ${i} (${c.family}): ${
              changed ? "the repository changed" : "a journal was left"
            } after a rejected plan`,
          );
          if (journal) await rollbackRepository(Workspace.open(repo), { force: true });
          writeRepo(repo);
        }
      }
    }
    if (i % 100 === 99) {
      report.peakRssMb = Math.max(report.peakRssMb, helper.peakRssMb());
      log(
        `fuzz: ${
          i + 1
        }/${cases} cases, ${report.crashes} crashes, ${report.slow} slow, peak ${report.peakRssMb} MB`,
      );
    }
  }
  report.peakRssMb = Math.max(report.peakRssMb, helper.peakRssMb());
  await helper.stop();
  return report;
}

function rows(report: FuzzReport): BenchRow[] {
  const note = `${report.cases} seeded plans, ${report.requests} requests (verify_plan + execute_plan)`;
  return [
    rowAtMost({ section: "fuzz", metric: "crashes", value: report.crashes, unit: "", note }, 0),
    rowAtMost({
      section: "fuzz",
      metric: "requests over 10 s",
      value: report.slow,
      unit: "",
      note: `slowest ${report.slowestMs} ms`,
    }, 0),
    {
      section: "fuzz",
      metric: "stopped by budget",
      value: report.stopped,
      unit: "",
      note: `requests ended by the ${BUDGET_S} s budget (budget-exceeded, rolled back)`,
    },
    rowAtMost({ section: "fuzz", metric: "peak RSS", value: report.peakRssMb, unit: "MB" }, 500),
    rowAtMost(
      { section: "fuzz", metric: "writes on rejection", value: report.writesOnRejection, unit: "" },
      0,
    ),
  ];
}

/** The section. */
export const fuzzSection: BenchSection = {
  name: "fuzz",
  description:
    "hostile plans (fan-out, deep nesting, pathological queries, huge substitutions) against helper --serve",
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const report = await runFuzz(ctx.tmp, CASES, (line) => console.error(line));
    for (const example of report.examples.slice(0, 20)) console.error(`fuzz: ${example}`);
    return rows(report);
  },
};

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { cases: { type: "string" }, first: { type: "string" } },
  });
  const tmp = Deno.makeTempDirSync({ prefix: "graphplan-fuzz-" });
  try {
    const cases = Number(values.cases ?? CASES);
    const report = await runFuzz(tmp, cases, (line) => console.error(line), Number(values.first ?? 0));
    console.log(JSON.stringify(report, null, 2));
  } finally {
    Deno.removeSync(tmp, { recursive: true });
  }
}
