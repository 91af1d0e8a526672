/**
 * Benchmark section `exec`: the latency of executing one plan step through
 * the real engine (`parsePlanSteps` + `executePlan`: the operator, the
 * post-checks L0–L6, the journal and the atomic write) on two corpus
 * `before` files, the ones nearest the median and the 90th-percentile size
 * of the corpus Python files. Each file lives in its own temporary
 * repository and one `DocumentStore` is reused across requests, as in a
 * helper session.
 *
 * Two realistic steps per file, each run back and forth so the file
 * alternates between two states:
 * - `replace_node` of a function (the function nearest the middle of the
 *   file whose name is unique), its body given one more statement, then put
 *   back;
 * - `replace_code` of a gold-patch hunk for the file (context and removed
 *   lines → context and added lines), then the reverse hunk.
 *
 * Also the cold first step: a fresh store, so the step reads and parses the
 * file (modules loaded beforehand). The journal goes to a state directory
 * under the run's scratch dir (`XDG_STATE_HOME`, restored afterwards).
 *
 *     deno run -A tests/bench/exec_step.ts [--runs N]
 *
 * @module
 */

import { parseArgs } from "node:util";
import { executePlan, type PlanResult } from "../../engine/exec/execute.ts";
import { parsePlanSteps } from "../../engine/exec/wiring.ts";
import { DocumentStore } from "../../engine/parse/documents.ts";
import { type Node, parse } from "../../engine/parse/mod.ts";
import { Workspace } from "../../engine/workspace.ts";
import { CORPUS_SKIP, type CorpusInstance, loadCorpus } from "../_support/corpus.ts";
import type { BenchContext, BenchSection } from "./context.ts";
import { type BenchRow, median, percentile, round, spread, summarize } from "./stats.ts";
import { planFromPatch } from "./verify_plan.ts";

const SECTION = "exec";

/** A plan document of one step, in its two directions (A → B, B → A). */
interface Toggle {
  /** `replace_node` or `replace_code`. */
  op: string;
  /** What the step targets, for the note. */
  what: string;
  forward: unknown;
  backward: unknown;
}

/** A corpus file chosen for a size, with its steps. */
interface Candidate {
  instance: CorpusInstance;
  path: string;
  text: string;
  bytes: number;
}

/** Options of {@linkcode benchExecStep}. */
export interface ExecStepOptions {
  /** Timed steps per figure (each direction counts; default 40). */
  steps?: number;
  /** Cold first steps (fresh store each; default 5). */
  cold?: number;
  /** Scratch directory for the repositories and the journal (default: a new temp dir). */
  tmp?: string;
}

function plan(step: unknown): unknown {
  return [step];
}

/** Name of a function definition and its enclosing class, if it is a method. */
function describe(fn: Node): { name: string; parent?: string } {
  const name = fn.childForFieldName("name")!.text;
  let up = fn.parent;
  if (up?.type === "decorated_definition") up = up.parent;
  if (up?.type === "block" && up.parent?.type === "class_definition") {
    return { name, parent: up.parent.childForFieldName("name")!.text };
  }
  return { name };
}

/** `replace_node` of the unique-named function nearest the file's middle, a statement appended to its body. */
async function replaceNodeToggle(path: string, text: string): Promise<Toggle | undefined> {
  const tree = await parse("python", text);
  try {
    const functions = tree.rootNode.descendantsOfType("function_definition").filter((n): n is Node =>
      n !== null
    );
    const counts = new Map<string, number>();
    for (const fn of functions) {
      const name = fn.childForFieldName("name")!.text;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const middle = text.length / 2;
    const unique = functions
      .filter((fn) =>
        counts.get(fn.childForFieldName("name")!.text) === 1 && fn.endIndex - fn.startIndex > 200
      )
      .sort((a, b) =>
        Math.abs((a.startIndex + a.endIndex) / 2 - middle) -
        Math.abs((b.startIndex + b.endIndex) / 2 - middle)
      );
    const fn = unique[0];
    if (!fn) return undefined;
    const body = fn.childForFieldName("body")!;
    const last = body.namedChild(body.namedChildCount - 1)!;
    const lineStart = text.lastIndexOf("\n", last.startIndex - 1) + 1;
    const indent = text.slice(lineStart, last.startIndex).match(/^[ \t]*/)![0];
    const original = fn.text;
    const cut = last.endIndex - fn.startIndex;
    const changed = `${original.slice(0, cut)}\n${indent}_bench_checked = True${original.slice(cut)}`;
    const { name, parent } = describe(fn);
    const locator = parent
      ? { file: path, kind: "method", name, parent: { file: path, kind: "class", name: parent } }
      : { file: path, kind: "function", name };
    const step = (replacement: string) => ({ op: "replace_node", params: { locator, replacement } });
    return {
      op: "replace_node",
      what: `${parent ? `${parent}.` : ""}${name}, ${fn.endPosition.row - fn.startPosition.row + 1} lines`,
      forward: plan(step(changed)),
      backward: plan(step(original)),
    };
  } finally {
    tree.delete();
  }
}

/** `replace_code` of the first gold-patch hunk of the file, and its reverse. */
function replaceCodeToggle(instance: CorpusInstance, path: string): Toggle | undefined {
  const hunk = planFromPatch(instance).find((step) =>
    (step as { params: { file: string } }).params.file === path
  ) as { op: string; params: { file: string; pattern: string; replacement: string } } | undefined;
  if (!hunk || hunk.params.pattern === hunk.params.replacement) return undefined;
  const { file, pattern, replacement } = hunk.params;
  return {
    op: "replace_code",
    what: `gold hunk, ${pattern.split("\n").length - 1} → ${replacement.split("\n").length - 1} lines`,
    forward: plan({ op: "replace_code", params: { file, pattern, replacement } }),
    backward: plan({ op: "replace_code", params: { file, pattern: replacement, replacement: pattern } }),
  };
}

/** Parse and execute one plan document on `store`; fail on anything but success. */
async function execute(store: DocumentStore, document: unknown): Promise<{ ms: number; result: PlanResult }> {
  const { steps, issues, runStep } = await parsePlanSteps(document);
  const bad = issues.filter((issue) => issue.severity === "error");
  if (bad.length > 0) throw new Error(`Plan rejected: ${bad[0].code}: ${bad[0].message}`);
  const start = performance.now();
  const result = await executePlan(store, steps, { runStep });
  const ms = performance.now() - start;
  if (!result.success) {
    const first = result.errors[0];
    throw new Error(`Step failed: ${first?.code}: ${first?.message}`);
  }
  return { ms, result };
}

async function writeRepo(dir: string, candidate: Candidate): Promise<void> {
  const target = `${dir}/${candidate.path}`;
  await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(target, candidate.text);
}

/** Whether both directions of every toggle succeed on a scratch copy (some gold hunks do not apply). */
async function works(dir: string, candidate: Candidate, toggles: Toggle[]): Promise<string | undefined> {
  await writeRepo(dir, candidate);
  const store = new DocumentStore(Workspace.open(dir));
  try {
    for (const toggle of toggles) {
      await execute(store, toggle.forward);
      await execute(store, toggle.backward);
    }
    const back = await Deno.readTextFile(`${dir}/${candidate.path}`) === candidate.text;
    return back ? undefined : "the file did not come back to its original bytes";
  } catch (err) {
    return (err as Error).message;
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** The corpus file nearest `bytes` (UTF-8) whose two steps both work, with the steps. */
async function choose(
  candidates: Candidate[],
  bytes: number,
  scratch: string,
): Promise<{ candidate: Candidate; toggles: Toggle[] }> {
  const near = [...candidates].sort((a, b) => Math.abs(a.bytes - bytes) - Math.abs(b.bytes - bytes));
  const reasons: string[] = [];
  for (const candidate of near.slice(0, 15)) {
    const node = await replaceNodeToggle(candidate.path, candidate.text);
    const code = replaceCodeToggle(candidate.instance, candidate.path);
    const why = !node
      ? "no function of a unique name"
      : !code
      ? "no gold hunk"
      : await works(`${scratch}/probe-${crypto.randomUUID().slice(0, 8)}`, candidate, [node, code]);
    if (why === undefined) return { candidate, toggles: [node!, code!] };
    reasons.push(`${candidate.path}: ${why}`);
  }
  throw new Error(`No corpus file near ${bytes} bytes takes both steps (${reasons.slice(0, 3).join("; ")})`);
}

/** Measure the per-step latency; returns bench rows. */
export async function benchExecStep(options: ExecStepOptions = {}): Promise<BenchRow[]> {
  const stepsPerFigure = options.steps ?? 40;
  const coldRuns = options.cold ?? 5;
  const ownTmp = options.tmp === undefined;
  const tmp = options.tmp ?? await Deno.makeTempDir({ prefix: "graphplan-bench-exec-" });
  const savedState = Deno.env.get("XDG_STATE_HOME");
  Deno.env.set("XDG_STATE_HOME", `${tmp}/exec-state`);
  const rows: BenchRow[] = [];
  try {
    const candidates: Candidate[] = [];
    for (const instance of await loadCorpus()) {
      for (const file of instance.files) {
        if (!file.path.endsWith(".py")) continue;
        const bytes = new TextEncoder().encode(file.before).length;
        candidates.push({ instance, path: file.path, text: file.before, bytes });
      }
    }
    const sizes = candidates.map((c) => c.bytes).sort((a, b) => a - b);
    const targets = [
      { label: "median", bytes: median(sizes) },
      { label: "p90", bytes: percentile(sizes, 0.9) },
    ];
    for (const target of targets) {
      const { candidate, toggles } = await choose(candidates, target.bytes, tmp);
      const where = `${target.label} file (${round(candidate.bytes / 1024)} KiB)`;
      const fileNote = `${candidate.instance.instance_id}:${candidate.path}`;

      // Cold: a fresh store per run, so the step reads and parses the file.
      const coldTimes: number[] = [];
      const coldDir = `${tmp}/exec-cold-${target.label}`;
      await writeRepo(coldDir, candidate);
      for (let i = 0; i < coldRuns; i++) {
        coldTimes.push((await execute(new DocumentStore(Workspace.open(coldDir)), toggles[0].forward)).ms);
        await execute(new DocumentStore(Workspace.open(coldDir)), toggles[0].backward);
      }
      await Deno.remove(coldDir, { recursive: true });
      const cold = summarize(coldTimes);
      rows.push({
        section: SECTION,
        metric: `cold first step, ${where}`,
        value: round(cold.median),
        unit: "ms",
        note: `${toggles[0].op}, fresh store (read + parse); ${spread(cold)}; ${fileNote}`,
      });

      // Session: one store reused, the file parsed before the first timed step.
      const dir = `${tmp}/exec-session-${target.label}`;
      await writeRepo(dir, candidate);
      const store = new DocumentStore(Workspace.open(dir));
      try {
        for (const toggle of toggles) {
          await execute(store, toggle.forward); // warm-up (parse, JIT)
          await execute(store, toggle.backward);
          const times: number[] = [];
          for (let i = 0; i < stepsPerFigure; i++) {
            times.push((await execute(store, i % 2 === 0 ? toggle.forward : toggle.backward)).ms);
          }
          times.sort((a, b) => a - b);
          const note = `${toggle.what}; n=${times.length}, max ${round(times[times.length - 1])} ms`;
          rows.push(
            {
              section: SECTION,
              metric: `${toggle.op} step p50, ${where}`,
              value: round(percentile(times, 0.5)),
              unit: "ms",
              note,
            },
            {
              section: SECTION,
              metric: `${toggle.op} step p90, ${where}`,
              value: round(percentile(times, 0.9)),
              unit: "ms",
              note,
            },
          );
        }
        if (await Deno.readTextFile(`${dir}/${candidate.path}`) !== candidate.text) {
          throw new Error(`${fileNote}: the file did not come back to its original bytes`);
        }
      } finally {
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    }
  } finally {
    if (savedState === undefined) Deno.env.delete("XDG_STATE_HOME");
    else Deno.env.set("XDG_STATE_HOME", savedState);
    if (ownTmp) await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
  return rows;
}

/** The `exec` section for tests/bench/run.ts. */
export const execSection: BenchSection = {
  name: "exec",
  description: "per-step latency of executePlan (step + L0-L6 + journal + atomic write) on corpus files",
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    if (CORPUS_SKIP) {
      return [{ section: SECTION, metric: "step latency", value: null, unit: "ms", note: CORPUS_SKIP }];
    }
    return await benchExecStep({ steps: Math.max(40, ctx.runs * 8), cold: ctx.runs, tmp: ctx.tmp });
  },
};

if (import.meta.main) {
  if (CORPUS_SKIP) {
    console.log(`skipped: ${CORPUS_SKIP}`);
  } else {
    const { values } = parseArgs({ args: Deno.args, options: { runs: { type: "string" } } });
    const runs = values.runs ? Number(values.runs) : 5;
    const rows = await benchExecStep({ steps: Math.max(40, runs * 8), cold: runs });
    const width = Math.max(...rows.map((row) => row.metric.length));
    for (const row of rows) {
      console.log(
        `${row.metric.padEnd(width)}  ${String(row.value).padStart(8)} ${row.unit}  ${row.note ?? ""}`,
      );
    }
  }
}
