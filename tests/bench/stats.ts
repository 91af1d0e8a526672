/**
 * Small measuring helpers shared by the benchmark sections: repeated timing
 * with a median, running a command with its wall time and peak RSS, and the
 * row type every section reports.
 *
 * @module
 */

/** One figure of a benchmark section (a row of the printed table and of results.json). */
export interface BenchRow {
  /** The section that measured it, e.g. `"graph"`. */
  section: string;
  /** What was measured, e.g. `"graph (bundle CLI) wall"`. */
  metric: string;
  /** The figure, or null when it could not be measured (see `note`). */
  value: number | null;
  /** Unit of `value`: `ms`, `MB/s`, `MB`, `x`, `KB`... */
  unit: string;
  /** The goal, as text (`<= 1.3`), when the figure has one. */
  goal?: string;
  /** Whether the goal is met (absent without a goal or a value). */
  ok?: boolean;
  /** Runs, spread, how it was measured or why it is missing. */
  note?: string;
}

/** A row with a goal `value <= limit`, with `ok` filled in. */
export function rowAtMost(row: Omit<BenchRow, "goal" | "ok">, limit: number): BenchRow {
  return {
    ...row,
    goal: `<= ${limit}`,
    ok: row.value === null ? undefined : row.value <= limit,
  };
}

/** The median of `values` (NaN for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The value at quantile `q` (0..1) of ascending `sorted` (NaN for none). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Summary of repeated measurements. */
export interface Sample {
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** Median, min and max of `values`. */
export function summarize(values: readonly number[]): Sample {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), runs: values.length };
}

/** `"n=5, 812–901 ms"`: the spread of a sample for a row's note. */
export function spread(sample: Sample, unit = "ms"): string {
  return `n=${sample.runs}, ${round(sample.min)}–${round(sample.max)} ${unit}`;
}

/** Round to 3 significant digits (at least 0 decimals for large numbers). */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return Number(value.toFixed(digits));
}

/** Time `fn` `runs` times (after `warmup` untimed runs) and summarize, in ms. */
export async function timeRuns(
  runs: number,
  fn: () => Promise<unknown> | unknown,
  options: { warmup?: number } = {},
): Promise<Sample> {
  for (let i = 0; i < (options.warmup ?? 0); i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return summarize(times);
}

/**
 * Time several functions in turns (a, b, a, b, ...) so that a change in the
 * machine's load hits all of them alike; returns one sample per name and the
 * median of the per-turn ratios of each to the first.
 */
export async function timeInTurns<K extends string>(
  runs: number,
  fns: Record<K, () => Promise<unknown> | unknown>,
  options: { warmup?: number } = {},
): Promise<Record<K, Sample & { ratio: number }>> {
  const names = Object.keys(fns) as K[];
  const times = new Map<K, number[]>(names.map((name) => [name, []]));
  for (let i = 0; i < (options.warmup ?? 0) + runs; i++) {
    for (const name of names) {
      const start = performance.now();
      await fns[name]();
      if (i >= (options.warmup ?? 0)) times.get(name)!.push(performance.now() - start);
    }
  }
  const out = {} as Record<K, Sample & { ratio: number }>;
  if (names.length === 0) return out;
  const base = times.get(names[0])!;
  for (const name of names) {
    const own = times.get(name)!;
    out[name] = { ...summarize(own), ratio: median(own.map((value, i) => value / base[i])) };
  }
  return out;
}

/** The result of one command run. */
export interface CommandRun {
  code: number;
  /** Wall time in ms, measured around the spawn. */
  wallMs: number;
  /** Peak resident set size in MB (from `/usr/bin/time -f %M`), when available. */
  peakMb?: number;
  stdout: string;
  stderr: string;
}

let timeBinary: boolean | undefined;

/** Whether `/usr/bin/time` (GNU time) is there to report the peak RSS. */
export function hasGnuTime(): boolean {
  if (timeBinary === undefined) {
    try {
      timeBinary = Deno.statSync("/usr/bin/time").isFile;
    } catch {
      timeBinary = false;
    }
  }
  return timeBinary;
}

/**
 * Run `cmd` with `args` and measure its wall time; with `peak: true` it runs
 * under `/usr/bin/time -f %M` (which adds ~1 ms) and reports the peak RSS.
 * With `discardStdout: true` its output goes to /dev/null, so that the time
 * is the program's and not this process reading a pipe (which costs ~5 ms
 * per MB here: 90 ms for ast-grep's 19 MB).
 */
export async function runCommand(
  cmd: string,
  args: string[],
  options: { cwd?: string; peak?: boolean; env?: Record<string, string>; discardStdout?: boolean } = {},
): Promise<CommandRun> {
  const wrap = options.peak === true && hasGnuTime();
  const marker = "@@peak-kb=";
  const stdout = options.discardStdout ? "null" : "piped";
  const command = wrap
    ? new Deno.Command("/usr/bin/time", {
      args: ["-f", `${marker}%M`, cmd, ...args],
      cwd: options.cwd,
      env: options.env,
      stdout,
      stderr: "piped",
    })
    : new Deno.Command(cmd, { args, cwd: options.cwd, env: options.env, stdout, stderr: "piped" });
  const start = performance.now();
  const output = await command.output();
  const wallMs = performance.now() - start;
  let stderr = new TextDecoder().decode(output.stderr);
  let peakMb: number | undefined;
  if (wrap) {
    const at = stderr.lastIndexOf(marker);
    if (at !== -1) {
      peakMb = Number(stderr.slice(at + marker.length).trim()) / 1024;
      stderr = stderr.slice(0, at);
    }
  }
  const text = options.discardStdout ? "" : new TextDecoder().decode(output.stdout);
  return { code: output.code, wallMs, peakMb, stdout: text, stderr };
}

/** Run a command `runs` times; fail with its stderr if any run exits non-zero. */
export async function timeCommand(
  cmd: string,
  args: string[],
  options: { cwd?: string; runs: number; warmup?: number; peak?: boolean; env?: Record<string, string> },
): Promise<{ wall: Sample; peak?: Sample; last: CommandRun }> {
  let last: CommandRun | undefined;
  const walls: number[] = [];
  const peaks: number[] = [];
  for (let i = 0; i < (options.warmup ?? 0) + options.runs; i++) {
    last = await runCommand(cmd, args, options);
    if (last.code !== 0) {
      throw new Error(
        `Command failed (exit ${last.code}): ${cmd} ${args.join(" ")}\n${last.stderr.slice(0, 2000)}`,
      );
    }
    if (i < (options.warmup ?? 0)) continue;
    walls.push(last.wallMs);
    if (last.peakMb !== undefined) peaks.push(last.peakMb);
  }
  return { wall: summarize(walls), peak: peaks.length ? summarize(peaks) : undefined, last: last! };
}
