/**
 * Shared set-up for lift tests: a git repository with the "before" files,
 * a real `git diff` to the "after" files, lifting it, and an independent
 * check of the lifted plan: executing it with the real executor on a fresh
 * copy of the repository must give the "after" bytes.
 *
 * @module
 */

import assert from "node:assert/strict";
import { STATE_HOME } from "../exec/_support.ts";
import { lift, type LiftInput, type LiftResult } from "../../../engine/lift/mod.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { executePlan } from "../../../engine/exec/execute.ts";
import { parsePlanSteps } from "../../../engine/exec/wiring.ts";
import { withBudget } from "../../../engine/base/budget.ts";
import { Simulation } from "../../../engine/lift/replay.ts";
import { assertPythonParses, PYTHON_SKIP } from "../../_support/python.ts";

/** Where journals go in these tests (never the real home). */
export const STATE = STATE_HOME;

const created: string[] = [];
globalThis.addEventListener("unload", () => {
  for (const dir of created) {
    try {
      Deno.removeSync(dir, { recursive: true });
    } catch { /* already gone */ }
  }
});

/** Run git in `dir` (no user config needed) and return its stdout; throws on failure. */
export function git(dir: string, ...args: string[]): string {
  const out = new Deno.Command("git", {
    args: ["-c", "user.email=t@t", "-c", "user.name=t", "-c", "core.autocrlf=false", ...args],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).outputSync();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

/** A temporary directory with `files` written (removed when the module unloads). */
export function writeRepo(files: Record<string, string>): string {
  const dir = Deno.realPathSync(Deno.makeTempDirSync({ prefix: "graphplan-lift-" }));
  created.push(dir);
  for (const [path, text] of Object.entries(files)) {
    const abs = `${dir}/${path}`;
    Deno.mkdirSync(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
    Deno.writeTextFileSync(abs, text);
  }
  return dir;
}

/** `git diff` from `before` to `after` (a repository holding `before` is returned with it). */
export function gitDiff(
  before: Record<string, string>,
  after: Record<string, string>,
): { dir: string; diff: string } {
  const dir = writeRepo(before);
  git(dir, "init", "-q");
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "before");
  for (const [path, text] of Object.entries(after)) Deno.writeTextFileSync(`${dir}/${path}`, text);
  const diff = git(dir, "diff");
  git(dir, "checkout", "-q", "--", ".");
  return { dir, diff };
}

/** Every file's bytes and mtime under `dir` (outside `.git`), to show nothing was written. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (sub: string) => {
    for (const entry of Deno.readDirSync(`${dir}/${sub}`)) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.name === ".git") continue;
      if (entry.isDirectory) walk(rel);
      else {
        const info = Deno.statSync(`${dir}/${rel}`);
        out.set(rel, `${info.mtime?.getTime()}:${Deno.readTextFileSync(`${dir}/${rel}`)}`);
      }
    }
  };
  walk("");
  return out;
}

/** Lift `input` in `dir`, asserting that lift wrote nothing there. */
export async function liftIn(
  dir: string,
  input: LiftInput,
): Promise<LiftResult> {
  const before = snapshot(dir);
  const result = await lift(new DocumentStore(Workspace.open(dir)), input);
  assert.deepEqual(snapshot(dir), before, "lift wrote to the repository");
  return result;
}

/**
 * Execute `plan` with the real executor on a fresh repository holding
 * `before`, and return the files' texts afterwards.
 */
export async function executeOnCopy(
  before: Record<string, string>,
  plan: unknown[],
): Promise<Record<string, string>> {
  const dir = writeRepo(before);
  const { steps, issues, runStep } = await parsePlanSteps(plan);
  assert.deepEqual(issues.filter((issue) => issue.severity === "error"), []);
  const result = await executePlan(new DocumentStore(Workspace.open(dir)), steps, { runStep });
  assert.equal(result.success, true, JSON.stringify(result.errors));
  const out: Record<string, string> = {};
  for (const path of Object.keys(before)) out[path] = Deno.readTextFileSync(`${dir}/${path}`);
  return out;
}

/**
 * Run `fn` under a budget of `seconds` (60) whose deadline a fake clock brings forward
 * into the middle of a region's search: when candidate try `jumpAt + 1`
 * (`Simulation.attempt` or `apply`) begins, the clock (`performance.now`,
 * which the budget reads) jumps `jumpMs` ahead (an hour: past any budget).
 * Counts the tries that ran to their end before and after the jump (one
 * that throws `budget-exceeded` at once does not). The machine's speed plays
 * no part.
 */
export async function withDeadlineInSearch<T>(
  jumpAt: number,
  fn: () => Promise<T>,
  seconds = 60,
  jumpMs = 3_600_000,
): Promise<{ result: T; before: number; after: number }> {
  const counts = { before: 0, after: 0 };
  const proto = Simulation.prototype as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const originals = { attempt: proto.attempt, apply: proto.apply };
  const now = performance.now;
  let skew = 0;
  performance.now = () => now.call(performance) + skew;
  for (const [name, original] of Object.entries(originals)) {
    proto[name] = async function (this: unknown, ...args: unknown[]) {
      if (counts.before >= jumpAt) skew = jumpMs;
      const out = await original.apply(this, args);
      counts[skew > 0 ? "after" : "before"]++;
      return out;
    };
  }
  try {
    return { result: await withBudget(seconds, fn), ...counts };
  } finally {
    Object.assign(proto, originals);
    performance.now = now;
  }
}

/** One shape case: a file's text before and after, and the steps lift must emit for the change. */
export interface ShapeCase {
  name: string;
  /** The steps, in order: a template's name or an op (`set_blank_lines` only when listed). */
  steps: string[];
  before: string;
  after: string;
  /** Other expectations on the plan (without the unlisted `set_blank_lines`). */
  check?: (plan: Record<string, unknown>[]) => void;
}

/**
 * One test per case: the diff lifts to the case's steps, tiers 1-3 only, the
 * plan replays byte-exact, the real executor gives the diff's result, and
 * CPython's `ast` parses it.
 */
export function testShapeCases(cases: ShapeCase[]): void {
  for (const c of cases) {
    Deno.test({
      name: `lift: ${c.name} becomes ${c.steps.join(", ")}, replayed and executed byte-exact`,
      ignore: PYTHON_SKIP !== undefined,
      async fn() {
        const file = "pkg/mod.py";
        const { dir, diff } = gitDiff({ [file]: c.before }, { [file]: c.after });
        const result = await liftIn(dir, { diff });
        assert.equal(result.exact, true, JSON.stringify(result.errors));
        const tiers = result.hunks.flatMap((hunk) => hunk.tiers);
        assert.ok(tiers.every((tier) => tier > 0), `tier 0 used: ${JSON.stringify(result.plan)}`);
        const shape = result.plan.filter((step) =>
          step.op !== "set_blank_lines" || c.steps.includes("set_blank_lines")
        );
        assert.deepEqual(
          shape.map((step) =>
            "fragment" in step ? "fragment" : (step as { template?: string }).template ?? step.op
          ),
          c.steps,
          JSON.stringify(result.plan),
        );
        c.check?.(shape);
        const executed = await executeOnCopy({ [file]: c.before }, result.plan);
        assert.equal(executed[file], c.after);
        await assertPythonParses(executed[file]);
      },
    });
  }
}
