/**
 * Benchmark section `graph`: building the code graph of every corpus
 * `before` Python file (223 files, ~9.3 MB) the way a user does it
 * (`graphplan graph` from the one-file bundle, with its worker pool),
 * against a bare single-thread web-tree-sitter parse of the same bytes and
 * the native ast-grep CLI scanning the same directory.
 *
 * @module
 */

import { parserFor } from "../../engine/parse/mod.ts";
import { mapFiles, type PoolReport } from "../../engine/graph/pool.ts";
import { type BenchContext, type BenchSection, DENO, REPO_ROOT } from "./context.ts";
import { type BenchRow, round, rowAtMost, runCommand, spread, timeInTurns } from "./stats.ts";

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

/** Run a command once with its output discarded, failing with its stderr on a non-zero exit. */
async function mustRun(cmd: string, args: string[]): Promise<void> {
  const run = await runCommand(cmd, args, { discardStdout: true });
  if (run.code !== 0) {
    throw new Error(`Command failed (exit ${run.code}): ${cmd} ${args[0]}: ${run.stderr.slice(0, 500)}`);
  }
}

/** The `graph` section. */
export const graphSection: BenchSection = {
  name: "graph",
  description: "graph build over the corpus before files vs bare parse vs ast-grep",
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const section = "graph";
    const corpus = await ctx.corpusDir();
    const { bytes, dir, paths } = corpus;
    const rows: BenchRow[] = [];
    rows.push({
      section,
      metric: "input",
      value: round(bytes / 1e6),
      unit: "MB",
      note: `${paths.length} Python files (corpus before files)`,
    });

    // In-process figures, measured in turns so that load changes hit all alike.
    // Bare parse: one thread, read + parse each file, nothing else (grammar loaded first).
    const parser = await parserFor("python");
    // Pool workers start the bundle, as they do for a user of dist/graphplan.js.
    const entry = new URL(`file://${await ctx.bundle()}`);
    let poolReport: PoolReport | undefined;
    const local = await timeInTurns(ctx.runs, {
      // web-tree-sitter itself: no wrapper of ours between the loop and the parser.
      bare: () => {
        for (const path of paths) parser.parse(Deno.readTextFileSync(`${dir}/${path}`))!.delete();
      },
      graph1: () => mapFiles("graph", paths, { workspace: dir, workers: 0 }),
      syntax1: () => mapFiles("syntax", paths, { workspace: dir, workers: 0 }),
      // The pool's defaults: one worker per core but one, and the main thread.
      syntaxN: () => mapFiles("syntax", paths, { workspace: dir, entry, report: (r) => poolReport = r }),
    }, { warmup: 1 });
    rows.push({
      section,
      metric: "bare parse, 1 thread",
      value: round(local.bare.median),
      unit: "ms",
      note: `${mbps(bytes, local.bare.median)} MB/s; ${
        spread(local.bare)
      }; in-process loop, grammar preloaded`,
    });
    rows.push(rowAtMost({
      section,
      metric: "graph, 1 thread / bare parse",
      value: round(local.graph1.ratio),
      unit: "x",
      note: `${round(local.graph1.median)} ms in-process (read + parse + extract, no workers); ${
        spread(local.graph1)
      }`,
    }, 1.3));
    rows.push({
      section,
      metric: `pool speed-up, main thread + ${poolReport?.workers ?? "?"} worker(s)`,
      value: round(local.syntax1.median / local.syntaxN.median),
      unit: "x",
      note: `syntax job (parse + error walk): ${round(local.syntax1.median)} ms in-process, ${
        round(local.syntaxN.median)
      } ms pooled incl. worker start-up; the main thread took ${poolReport?.helped} of ${paths.length} files`,
    });

    // The real user path, `graphplan graph` from the bundle, against the native anchor, in turns.
    const bundle = await ctx.bundle();
    const broken = await graphCommandWorks(bundle, dir, paths[0]);
    const astGrep = await astGrepBinary();
    const commands: Record<string, () => Promise<void>> = {};
    if (!broken) {
      commands.graph = () => mustRun(DENO, ["run", "-A", bundle, "graph", "--repo", dir, "--json", ...paths]);
    }
    if ("path" in astGrep) {
      commands.astGrep = () =>
        mustRun(astGrep.path, ["run", "-p", AST_GREP_PATTERN, "--lang", "python", dir]);
    }
    const cli = await timeInTurns(ctx.runs, commands, { warmup: 1 });
    if (broken) {
      rows.push({ section, metric: "graphplan graph (bundle CLI)", value: null, unit: "ms", note: broken });
    } else {
      rows.push({
        section,
        metric: "graphplan graph (bundle CLI)",
        value: round(cli.graph.median),
        unit: "ms",
        note: `${mbps(bytes, cli.graph.median)} MB/s end to end (process start, workers, JSON out); ${
          spread(cli.graph)
        }`,
      });
      rows.push(rowAtMost({
        section,
        metric: "graph CLI / bare parse",
        value: round(cli.graph.median / local.bare.median),
        unit: "x",
        note: "CLI wall over the in-process single-thread parse loop",
      }, 1.3));
    }
    if ("skip" in astGrep) {
      rows.push({ section, metric: "ast-grep run (native)", value: null, unit: "ms", note: astGrep.skip });
    } else {
      rows.push({
        section,
        metric: "ast-grep run (native)",
        value: round(cli.astGrep.median),
        unit: "ms",
        note: `@ast-grep/cli@${AST_GREP_VERSION}, ${mbps(bytes, cli.astGrep.median)} MB/s; ${
          spread(cli.astGrep)
        }`,
      });
      if (!broken) {
        rows.push(rowAtMost({
          section,
          metric: "graph CLI / ast-grep",
          value: round(cli.graph.median / cli.astGrep.median),
          unit: "x",
          note: "wall times, both end to end with stdout to /dev/null, run in turns",
        }, 2));
      }
    }
    return rows;
  },
};
