/**
 * Benchmark section `graph`: building the code graph of every corpus
 * `before` Python file (223 files, ~9.3 MB) the way a user does it
 * (`graphplan graph` from the one-file bundle, with its worker pool),
 * against a bare single-thread web-tree-sitter parse of the same bytes and
 * the native ast-grep CLI scanning the same directory.
 *
 * @module
 */

import { parse } from "../../engine/parse/mod.ts";
import { JOBS, mapFiles, type MapFilesOptions, type PoolReport } from "../../engine/parse/pool.ts";
import { type BenchContext, type BenchSection, DENO, REPO_ROOT } from "./context.ts";
import { type BenchRow, round, rowAtMost, type Sample, spread, timeCommand, timeRuns } from "./stats.ts";

/** The ast-grep version the README's figures use (a benchmark-only tool). */
export const AST_GREP_VERSION = "0.51.1";

/** The pattern ast-grep runs: every function definition. */
export const AST_GREP_PATTERN = "def $F($$$ARGS): $$$BODY";

const TOOLS_DIR = `${REPO_ROOT}/.bench-tools`;

/**
 * The native ast-grep binary, installed into the gitignored `.bench-tools/`
 * with npm when absent; a string saying why when it cannot be had.
 */
export async function astGrepBinary(): Promise<{ path: string } | { skip: string }> {
  const candidates = [
    `${TOOLS_DIR}/node_modules/@ast-grep/cli-linux-x64-gnu/ast-grep`,
    `${TOOLS_DIR}/node_modules/@ast-grep/cli/ast-grep`,
  ];
  const found = () => candidates.find((path) => isExecutable(path));
  if (!found()) {
    try {
      const npm = await new Deno.Command("npm", {
        args: [
          "install",
          "--no-audit",
          "--no-fund",
          "--prefix",
          TOOLS_DIR,
          `@ast-grep/cli@${AST_GREP_VERSION}`,
        ],
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (npm.code !== 0) {
        return { skip: `npm install @ast-grep/cli@${AST_GREP_VERSION} failed: ${lastLine(npm.stderr)}` };
      }
    } catch (err) {
      return { skip: `npm is not available: ${(err as Error).message}` };
    }
  }
  const path = found();
  if (!path) return { skip: `no ast-grep binary for this platform in ${TOOLS_DIR}` };
  const version = await new Deno.Command(path, { args: ["--version"], stdout: "piped", stderr: "piped" })
    .output();
  const text = new TextDecoder().decode(version.stdout).trim();
  if (!text.includes(AST_GREP_VERSION)) return { skip: `unexpected ast-grep version: "${text}"` };
  return { path };
}

function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0 && info.size > 1_000_000;
  } catch {
    return false;
  }
}

function lastLine(bytes: Uint8Array): string {
  const lines = new TextDecoder().decode(bytes).trim().split("\n");
  return lines[lines.length - 1] ?? "";
}

/** Whether the `graph` command of a bundle is implemented (it was a stub at first). */
async function graphCommandWorks(bundle: string, dir: string, path: string): Promise<string | undefined> {
  const out = await new Deno.Command(DENO, {
    args: ["run", "-A", bundle, "graph", "--repo", dir, "--json", path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code === 0) return undefined;
  return `graphplan graph failed (exit ${out.code}): ${lastLine(out.stderr)}`;
}

const mbps = (bytes: number, ms: number) => round(bytes / 1e6 / (ms / 1000));

/** The `graph` section. */
export const graphSection: BenchSection = {
  name: "graph",
  description: "graph build over the corpus before files vs bare parse vs ast-grep",
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const section = "graph";
    const corpus = await ctx.corpusDir();
    const rows: BenchRow[] = [];
    const mb = corpus.bytes / 1e6;
    rows.push({
      section,
      metric: "input",
      value: round(mb),
      unit: "MB",
      note: `${corpus.paths.length} Python files (corpus before files)`,
    });

    // 1. Bare parse: one thread, read + parse each file, nothing else (grammar loaded first).
    await parse("python", "x = 1\n").then((tree) => tree.delete());
    const bare = await timeRuns(ctx.runs, async () => {
      for (const path of corpus.paths) {
        const tree = await parse("python", Deno.readTextFileSync(`${corpus.dir}/${path}`));
        tree.delete();
      }
    }, { warmup: 1 });
    rows.push({
      section,
      metric: "bare parse, 1 thread",
      value: round(bare.median),
      unit: "ms",
      note: `${mbps(corpus.bytes, bare.median)} MB/s; ${spread(bare)}; in-process loop, grammar preloaded`,
    });

    // 2. The pool on the same input (syntax census: parse + error walk), to show what workers buy.
    const entry = new URL("../../main.ts", import.meta.url);
    const pooled = async (workers: number): Promise<{ sample: Sample; report?: PoolReport }> => {
      let report: PoolReport | undefined;
      const options: MapFilesOptions & { workspace: string } = {
        workspace: corpus.dir,
        workers,
        entry,
        report: (r) => report = r,
      };
      const sample = await timeRuns(ctx.runs, () => mapFiles("syntax", corpus.paths, options));
      return { sample, report };
    };
    const seq = await pooled(0);
    const par = await pooled(navigator.hardwareConcurrency);
    rows.push({
      section,
      metric: "pool syntax job, in-process",
      value: round(seq.sample.median),
      unit: "ms",
      note: `${mbps(corpus.bytes, seq.sample.median)} MB/s; ${spread(seq.sample)}`,
    });
    rows.push({
      section,
      metric: `pool syntax job, ${par.report?.workers ?? "?"} workers`,
      value: round(par.sample.median),
      unit: "ms",
      note: `${mbps(corpus.bytes, par.sample.median)} MB/s; speed-up ${
        round(seq.sample.median / par.sample.median)
      }x incl. worker start-up; ${par.report?.batches} batches; ${spread(par.sample)}`,
    });

    // 3. The graph through the real user path: the bundle's CLI on every file.
    const bundle = await ctx.bundle();
    const broken = await graphCommandWorks(bundle, corpus.dir, corpus.paths[0]);
    let graphMs: number | null = null;
    if (broken) {
      rows.push({ section, metric: "graphplan graph (bundle CLI)", value: null, unit: "ms", note: broken });
    } else {
      const graph = await timeCommand(DENO, [
        "run",
        "-A",
        bundle,
        "graph",
        "--repo",
        corpus.dir,
        "--json",
        ...corpus.paths,
      ], {
        runs: ctx.runs,
        warmup: 1,
      });
      graphMs = graph.wall.median;
      rows.push({
        section,
        metric: "graphplan graph (bundle CLI)",
        value: round(graphMs),
        unit: "ms",
        note: `${mbps(corpus.bytes, graphMs)} MB/s end to end (process start, workers, JSON out); ${
          spread(graph.wall)
        }`,
      });
      rows.push(rowAtMost({
        section,
        metric: "graph CLI / bare parse",
        value: round(graphMs / bare.median),
        unit: "x",
        note: "wall of the CLI run over the in-process single-thread parse loop",
      }, 1.3));
    }
    if ("graph" in JOBS) {
      const inProcess = await timeRuns(
        ctx.runs,
        () => mapFiles("graph" as never, corpus.paths, { workspace: corpus.dir, workers: 0 }),
      );
      rows.push(rowAtMost({
        section,
        metric: "graph extraction, 1 thread / bare parse",
        value: round(inProcess.median / bare.median),
        unit: "x",
        note: `${round(inProcess.median)} ms in-process sequential (read + parse + extract); ${
          spread(inProcess)
        }`,
      }, 1.3));
    }

    // 4. The native anchor.
    const astGrep = await astGrepBinary();
    if ("skip" in astGrep) {
      rows.push({ section, metric: "ast-grep run (native)", value: null, unit: "ms", note: astGrep.skip });
    } else {
      const run = await timeCommand(astGrep.path, [
        "run",
        "-p",
        AST_GREP_PATTERN,
        "--lang",
        "python",
        corpus.dir,
      ], {
        runs: ctx.runs,
        warmup: 1,
      });
      rows.push({
        section,
        metric: "ast-grep run (native)",
        value: round(run.wall.median),
        unit: "ms",
        note: `@ast-grep/cli@${AST_GREP_VERSION}, ${mbps(corpus.bytes, run.wall.median)} MB/s; ${
          spread(run.wall)
        }`,
      });
      if (graphMs !== null) {
        rows.push(rowAtMost({
          section,
          metric: "graph CLI / ast-grep",
          value: round(graphMs / run.wall.median),
          unit: "x",
          note: "wall times, both end to end",
        }, 2));
      }
    }
    return rows;
  },
};
