/**
 * Seeded fault trials for the executor and the journal: real subprocesses
 * killed with SIGKILL at random moments of an apply or of a rollback, two
 * applies started at once on one repository, and a directory swapped for a
 * symlink to an outside folder while an apply runs.
 *
 * Every trial ends with the recovery a user would run (`rollback`), then
 * counts what the promise "all or nothing, never outside the repository"
 * forbids:
 *
 * - bytes lost: bytes of a repository file that are neither its original
 *   nor the plan's result (a file left half applied or clobbered counts all
 *   its differing bytes);
 * - escaped writes: files outside the repository created or changed;
 * - leftover temporary files: `.NAME.graphplan-PID-N.tmp` anywhere in the
 *   repository or the outside folder after recovery.
 *
 * The plans are the executor's test steps (`_test_operator.ts`) over the
 * sample project's real files: comment lines inserted at line starts, so
 * the oracle for the plan's result is plain string splicing, independent of
 * the engine. `deno task bench faults` runs many trials; the test suite
 * runs a small sample.
 *
 * @module
 */

import { mulberry32 as random } from "./random.ts";

const HERE = new URL("../engine/exec/", import.meta.url).pathname;
const RUNNER = `${HERE}_fault_runner.ts`;
const ROLLBACK_RUNNER = `${HERE}_rollback_runner.ts`;
const SWAPPER = `${HERE}_swapper.ts`;
const FIXTURE = new URL("../fixtures/sample_project/", import.meta.url).pathname;
const FILES = ["app/__init__.py", "app/models.py", "app/service.py", "tests/test_service.py"];
const TEMP = /\.graphplan-\d+-\d+\.tmp$/;

/** What a scenario's trials measured. */
export interface FaultTally {
  scenario: string;
  trials: number;
  bytes_lost: number;
  escaped_writes: number;
  leftover_temps: number;
  /** One line per trial that broke a promise (or an expectation of the trial itself). */
  failures: string[];
  /** How the trials ended, by state of the repository after recovery (`original`, `plan`, ...). */
  outcomes: Record<string, number>;
}

/** Options of the scenarios. */
export interface TrialOptions {
  /** Number of trials. */
  trials: number;
  /** Seed of the random choices (kill moments, plans). */
  seed: number;
  /** Scratch directory (repositories, the outside folder, the state directory). */
  tmp: string;
}

interface Trial {
  repo: string;
  outside: string;
  state: string;
  planFile: string;
  original: Map<string, Uint8Array>;
  final: Map<string, Uint8Array>;
  outsideBefore: Map<string, Uint8Array>;
  writes: number;
}

let trialCount = 0;

/** A fresh repository of the sample project, an outside folder holding the same names, and a plan. */
function setUp(tmp: string, rand: () => number, tag = "A"): Trial {
  const base = `${tmp}/trial-${++trialCount}`;
  const repo = `${base}/repo`;
  const outside = `${base}/outside`;
  const state = `${base}/state`;
  for (const file of FILES) {
    for (const root of [repo, outside]) {
      Deno.mkdirSync(`${root}/${file.slice(0, file.lastIndexOf("/"))}`, { recursive: true });
      Deno.copyFileSync(`${FIXTURE}${file}`, `${root}/${file}`);
    }
  }
  Deno.mkdirSync(state, { recursive: true });
  const planFile = `${base}/plan-${tag}.json`;
  const { steps, final } = makePlan(readTree(repo), rand, tag);
  Deno.writeTextFileSync(planFile, JSON.stringify(steps));
  return {
    repo,
    outside,
    state,
    planFile,
    original: readTree(repo),
    final,
    outsideBefore: readTree(outside),
    writes: steps.length,
  };
}

/** 6–12 steps, each inserting a comment line before a random line of a random file; and the result. */
function makePlan(files: Map<string, Uint8Array>, rand: () => number, tag: string) {
  const texts = new Map([...files].map(([path, bytes]) => [path, new TextDecoder().decode(bytes)]));
  const steps: unknown[] = [];
  const count = 6 + Math.floor(rand() * 7);
  for (let i = 0; i < count; i++) {
    const path = FILES[Math.floor(rand() * FILES.length)];
    const text = texts.get(path)!;
    const starts = [0];
    for (let at = text.indexOf("\n"); at !== -1 && at + 1 < text.length; at = text.indexOf("\n", at + 1)) {
      starts.push(at + 1);
    }
    const start = starts[Math.floor(rand() * starts.length)];
    // Indented as the line it goes before (a comment at column 0 before `else:` trips the grammar).
    const indent = /^[ \t]*/.exec(text.slice(start))![0];
    const line = `${indent}# ${tag} step ${i}\n`;
    steps.push({ op: "edits", file: path, edits: [{ start, end: start, replacement: line }] });
    texts.set(path, text.slice(0, start) + line + text.slice(start));
  }
  return { steps, final: applySteps(steps, files) };
}

type EditStep = { file: string; edits: { start: number; replacement: string }[] };

/** The oracle: `steps` spliced into `files` as strings (an insertion past the end is skipped). */
function applySteps(steps: unknown[], files: Map<string, Uint8Array>): Map<string, Uint8Array> {
  const texts = new Map([...files].map(([path, bytes]) => [path, new TextDecoder().decode(bytes)]));
  for (const step of steps as EditStep[]) {
    const text = texts.get(step.file)!;
    const { start, replacement } = step.edits[0];
    if (start <= text.length) texts.set(step.file, text.slice(0, start) + replacement + text.slice(start));
  }
  return new Map([...texts].map(([path, text]) => [path, new TextEncoder().encode(text)]));
}

/** Every regular file under `root` (relative path → bytes), temporary files included. */
function readTree(root: string, prefix = ""): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(`${root}/${prefix}`)];
  } catch {
    return out;
  }
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) { for (const [k, v] of readTree(root, rel)) out.set(k, v); }
    else if (entry.isFile) out.set(rel, Deno.readFileSync(`${root}/${rel}`));
  }
  return out;
}

function differing(a: Uint8Array, b: Uint8Array): number {
  let n = Math.abs(a.length - b.length);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) n++;
  return n;
}

function same(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  return a !== undefined && b !== undefined && differing(a, b) === 0;
}

/**
 * Count the damage of a finished trial into `tally`: the repository must be
 * exactly one of `allowed` (whole trees), the outside folder untouched, and
 * no temporary file left anywhere.
 */
function judge(trial: Trial, allowed: Map<string, Uint8Array>[], tally: FaultTally, label: string): void {
  const now = readTree(trial.repo);
  const temps = [...now.keys()].filter((path) => TEMP.test(path));
  const outsideNow = readTree(trial.outside);
  const outsideTemps = [...outsideNow.keys()].filter((path) => TEMP.test(path));
  tally.leftover_temps += temps.length + outsideTemps.length;
  for (const path of temps) now.delete(path);
  let escaped = 0;
  for (const [path, bytes] of outsideNow) {
    if (!TEMP.test(path) && !same(bytes, trial.outsideBefore.get(path))) escaped++;
  }
  escaped += outsideTemps.length;
  for (const path of trial.outsideBefore.keys()) if (!outsideNow.has(path)) escaped++;
  tally.escaped_writes += escaped;
  const match = allowed.findIndex((tree) => FILES.every((path) => same(now.get(path), tree.get(path))));
  const matches = match !== -1;
  const outcome = ["original", "plan", "other plan", "both plans", "both plans"][match] ?? "damaged";
  tally.outcomes[outcome] = (tally.outcomes[outcome] ?? 0) + 1;
  let lost = 0;
  if (!matches) {
    // Measured against the nearest allowed state.
    lost = Math.min(
      ...allowed.map((tree) =>
        FILES.reduce((sum, path) => {
          const want = tree.get(path)!;
          const have = now.get(path);
          return sum + (have ? differing(have, want) : want.length);
        }, 0)
      ),
    );
  }
  tally.bytes_lost += lost;
  if (lost > 0 || escaped > 0 || temps.length + outsideTemps.length > 0) {
    tally.failures.push(
      `${label}: ${lost} byte(s) lost, ${escaped} escaped write(s), ${
        temps.length + outsideTemps.length
      } temporary file(s) left`,
    );
  }
}

function spawn(script: string, args: string[], env: Record<string, string>): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Resolve when `child` prints `marker` on stderr (or ends); returns what it printed. */
async function waitFor(child: Deno.ChildProcess, marker: string): Promise<string> {
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  while (!seen.includes(marker)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += value;
  }
  // Keep draining, so the child never blocks on a full pipe.
  (async () => {
    try {
      while (!(await reader.read()).done) { /* drain */ }
    } catch { /* closed */ }
  })();
  return seen;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function finish(child: Deno.ChildProcess): Promise<{ code: number; stdout: string }> {
  const [status, stdout] = await Promise.all([child.status, new Response(child.stdout).text()]);
  return { code: status.code, stdout };
}

/**
 * Recover as a user would: roll back whatever journal is pending, in a
 * child process given the trial's state directory. Not in this process:
 * its environment is shared by every test file running beside it, and
 * pointing XDG_STATE_HOME at the trial's directory while a rollback awaits
 * sent other files' journals there.
 */
async function recover(trial: Trial, tally: FaultTally, label: string): Promise<void> {
  const child = spawn(ROLLBACK_RUNNER, [trial.repo], { XDG_STATE_HOME: trial.state });
  const [{ code, stdout }] = await Promise.all([finish(child), new Response(child.stderr).text()]);
  try {
    const report = JSON.parse(stdout);
    if (!report.success) tally.failures.push(`${label}: rollback failed: ${JSON.stringify(report.errors)}`);
  } catch {
    tally.failures.push(`${label}: rollback exited ${code} without a report: ${stdout.slice(0, 200)}`);
  }
}

function tallyFor(scenario: string): FaultTally {
  return {
    scenario,
    trials: 0,
    bytes_lost: 0,
    escaped_writes: 0,
    leftover_temps: 0,
    failures: [],
    outcomes: {},
  };
}

/** Time from "ready" to exit of an unkilled apply, for choosing kill moments (ms). */
async function applyDuration(options: TrialOptions): Promise<number> {
  const trial = setUp(options.tmp, random(options.seed));
  const child = spawn(RUNNER, [trial.repo, trial.planFile], { XDG_STATE_HOME: trial.state });
  await waitFor(child, "graphplan-test: ready");
  const started = performance.now();
  await finish(child);
  return performance.now() - started;
}

/** SIGKILL at a random moment of an apply, then rollback: the original or the whole plan, nothing else. */
export async function killDuringApply(options: TrialOptions): Promise<FaultTally> {
  const tally = tallyFor("kill -9 during apply");
  const rand = random(options.seed);
  const window = Math.max(20, await applyDuration(options)) * 1.2;
  for (let i = 0; i < options.trials; i++) {
    const trial = setUp(options.tmp, rand);
    const child = spawn(RUNNER, [trial.repo, trial.planFile], { XDG_STATE_HOME: trial.state });
    await waitFor(child, "graphplan-test: ready");
    await sleep(rand() * window);
    try {
      child.kill("SIGKILL");
    } catch { /* already exited */ }
    await finish(child);
    await recover(trial, tally, `trial ${i}`);
    judge(trial, [trial.original, trial.final], tally, `trial ${i}`);
    tally.trials++;
  }
  return tally;
}

/**
 * An apply killed at a random write and stage, then a rollback killed at a
 * random moment, then a second rollback: the original bytes, no temporary file.
 */
export async function killDuringRollback(options: TrialOptions): Promise<FaultTally> {
  const tally = tallyFor("kill -9 during rollback");
  const rand = random(options.seed + 1);
  const killApply = async (trial: Trial, n: number, stage: string) => {
    const apply = spawn(RUNNER, [trial.repo, trial.planFile], {
      XDG_STATE_HOME: trial.state,
      GRAPHPLAN_TEST_PAUSE_AFTER_WRITE: String(n),
      GRAPHPLAN_TEST_PAUSE_STAGE: stage,
    });
    const seen = await waitFor(apply, "graphplan-test: paused");
    try {
      apply.kill("SIGKILL");
    } catch { /* it ended first: a step failed before write n, and the plan rolled itself back */ }
    await finish(apply);
    return seen.includes("graphplan-test: paused");
  };
  // How long an unkilled rollback of a whole plan takes, to spread the kills over it.
  const probe = setUp(options.tmp, random(options.seed));
  await killApply(probe, probe.writes, "rename");
  const timed = spawn(ROLLBACK_RUNNER, [probe.repo], { XDG_STATE_HOME: probe.state });
  await waitFor(timed, "graphplan-test: ready");
  const started = performance.now();
  await finish(timed);
  const window = Math.max(5, performance.now() - started) * 1.2;
  for (let i = 0; i < options.trials; i++) {
    const trial = setUp(options.tmp, rand);
    const n = 1 + Math.floor(rand() * trial.writes);
    const stage = ["journal", "temp", "rename"][Math.floor(rand() * 3)];
    if (!(await killApply(trial, n, stage))) {
      tally.outcomes["apply failed before the kill"] = (tally.outcomes["apply failed before the kill"] ?? 0) +
        1;
    }
    const rollback = spawn(ROLLBACK_RUNNER, [trial.repo], { XDG_STATE_HOME: trial.state });
    await waitFor(rollback, "graphplan-test: ready");
    await sleep(rand() * window);
    try {
      rollback.kill("SIGKILL");
    } catch { /* already done */ }
    const report = await finish(rollback);
    const ended = report.stdout.trim() ? "rollback finished" : "rollback killed";
    tally.outcomes[ended] = (tally.outcomes[ended] ?? 0) + 1;
    await recover(trial, tally, `trial ${i}`);
    judge(trial, [trial.original], tally, `trial ${i} (write ${n}, ${stage})`);
    tally.trials++;
  }
  return tally;
}

/**
 * Two applies of different plans started at once on one repository: each
 * runs whole or is refused as `journal-busy` (never `journal-pending`), and
 * the repository ends as one plan, the other, or both in sequence.
 */
export async function concurrentApplies(options: TrialOptions): Promise<FaultTally> {
  const tally = tallyFor("concurrent applies");
  const rand = random(options.seed + 2);
  for (let i = 0; i < options.trials; i++) {
    const trial = setUp(options.tmp, rand, "A");
    const other = makePlan(trial.original, rand, "B");
    const planB = `${trial.planFile}.b.json`;
    Deno.writeTextFileSync(planB, JSON.stringify(other.steps));
    const env = { XDG_STATE_HOME: trial.state };
    const a = spawn(RUNNER, [trial.repo, trial.planFile], env);
    const b = spawn(RUNNER, [trial.repo, planB], env);
    await Promise.all([waitFor(a, "graphplan-test: ready"), waitFor(b, "graphplan-test: ready")]);
    const results = await Promise.all([finish(a), finish(b)]);
    const allowed = [
      trial.original,
      trial.final,
      other.final,
      applySteps(other.steps, trial.final),
      applySteps(JSON.parse(Deno.readTextFileSync(trial.planFile)), other.final),
    ];
    for (const [k, result] of results.entries()) {
      const last = result.stdout.trim().split("\n").pop() ?? "";
      let body: { success?: boolean; errors?: { code: string }[] } = {};
      try {
        body = JSON.parse(last);
      } catch {
        tally.failures.push(`trial ${i}: apply ${k} printed no result (exit ${result.code})`);
        continue;
      }
      const codes = (body.errors ?? []).map((issue) => issue.code);
      if (!body.success && !codes.includes("journal-busy") && !codes.includes("file-changed-on-disk")) {
        tally.failures.push(`trial ${i}: apply ${k} failed with ${codes.join(", ")}`);
      }
    }
    await recover(trial, tally, `trial ${i}`);
    judge(trial, allowed, tally, `trial ${i}`);
    tally.trials++;
  }
  return tally;
}

/**
 * An apply whose `app/` directory another process keeps swapping for a
 * symlink to an outside folder with the same file names: nothing outside
 * may change, and after recovery the repository is the original or the plan.
 */
export async function swapDuringApply(options: TrialOptions): Promise<FaultTally> {
  const tally = tallyFor("directory swaps during apply");
  const rand = random(options.seed + 3);
  for (let i = 0; i < options.trials; i++) {
    const trial = setUp(options.tmp, rand);
    const swapper = spawn(SWAPPER, [`${trial.repo}/app`, `${trial.outside}/app`], {});
    await waitFor(swapper, "graphplan-test: swapping");
    const apply = spawn(RUNNER, [trial.repo, trial.planFile], { XDG_STATE_HOME: trial.state });
    await waitFor(apply, "graphplan-test: ready");
    const result = await finish(apply);
    const codes = resultCodes(result.stdout);
    tally.outcomes[`apply: ${codes || "success"}`] = (tally.outcomes[`apply: ${codes || "success"}`] ?? 0) +
      1;
    swapper.kill("SIGKILL");
    await finish(swapper);
    restoreSwapped(`${trial.repo}/app`);
    await recover(trial, tally, `trial ${i}`);
    judge(trial, [trial.original, trial.final], tally, `trial ${i}`);
    tally.trials++;
  }
  return tally;
}

/** The error codes of an apply's printed result, comma-separated ("" for a success). */
function resultCodes(stdout: string): string {
  try {
    const body = JSON.parse(stdout.trim().split("\n").pop() ?? "");
    return [...new Set((body.errors ?? []).map((issue: { code: string }) => issue.code))].join(",");
  } catch {
    return "no result";
  }
}

/** Put a swapped directory back after the swapper was killed mid-swap. */
function restoreSwapped(dir: string): void {
  try {
    if (Deno.lstatSync(dir).isSymlink) Deno.removeSync(dir);
  } catch { /* missing */ }
  try {
    Deno.lstatSync(`${dir}.real`);
    Deno.renameSync(`${dir}.real`, dir);
  } catch { /* not swapped */ }
}
