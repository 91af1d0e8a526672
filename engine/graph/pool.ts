/**
 * Parallel per-file work (parse, extract, check) across workers that run
 * this same executable.
 *
 * `deno bundle` does not follow `new Worker(new URL("./x.ts", ...))`, so a
 * worker cannot have its own entry module. Instead every worker starts the
 * process's own entry module (`Deno.mainModule`: `main.ts` from a checkout,
 * `dist/graphplan.js` in the bundle, the binary when compiled), and that
 * entry calls {@linkcode maybeRunWorker} before anything else: inside a pool
 * worker it serves jobs instead of running the CLI.
 *
 * How a call to {@linkcode mapFiles} runs:
 *
 * 1. The files are stat'ed. Below {@linkcode MapFilesOptions.minBytes} bytes
 *    in total, on one core, or when no worker-capable entry is known (the
 *    engine imported by a test, no read permission on the entry), everything
 *    runs in-process: each worker must load the entry module, web-tree-sitter
 *    and the grammar itself (~50 ms), which only pays on large inputs.
 * 2. Otherwise the files are listed largest first in a {@linkcode SharedQueue}
 *    and one worker per core but one is started (the main thread is the last
 *    core), but no more than one per `minBytes` of input. Workers get the
 *    list and the queue's shared memory, claim files from the large end one
 *    at a time, read them themselves and post each outcome (plain JSON) as
 *    soon as it is ready; nothing waits for the main thread to hand out work. The main thread claims from the small end until
 *    the queue is empty, or until there are as many workers claiming as
 *    cores when more workers were asked for.
 * 3. A worker that fails (cannot start, crashes) is dropped; any file it
 *    claimed but did not finish, and everything when no worker started, runs
 *    on the main thread at the end. The workers are terminated when the call
 *    returns.
 *
 * On the `graph` benchmark (2 cores, 9.3 MB of Python) the main thread plus
 * one worker beat two workers and an idle main thread by ~8%: a second
 * worker costs a second start-up (~50 ms of loading the bundle) and, while
 * it starts, a third thread on two cores.
 *
 * Jobs are named functions in a table ({@linkcode JOBS}); a job's module is
 * loaded with a dynamic `import()` so that the bundle contains it and a
 * worker evaluates only what its job needs. The same function runs in-process
 * and in workers, so the results do not depend on where a file was handled.
 *
 * @module
 */

// Type-only imports: the entry module imports this one at start-up, so it
// must not pull in the parser (the grammars load when a job first runs).
import type { Issue } from "../base/issue.ts";
import type { Workspace } from "../workspace.ts";
import type { FileGraph } from "./mod.ts";
import type { FileGraphText } from "./json.ts";

/** The `name` given to pool workers, so only our own workers serve jobs. */
export const WORKER_NAME = "graphplan-pool";

/** What a job receives for one file. */
export interface FileJobInput {
  /** The repository root (absolute). */
  root: string;
  /** The repository-relative path of the file. */
  path: string;
  /** The job's options, as passed to `mapFiles` (structured-cloneable). */
  options?: unknown;
}

/** A job run on one file; its result must be structured-cloneable (plain JSON is best). */
export type FileJob<T = unknown> = (input: FileJobInput) => Promise<T> | T;

/** Why a job failed on one file: its issues when it threw an `IssueError`, else a message. */
export interface FileJobError {
  message: string;
  issues?: Issue[];
}

/** The outcome of a job on one file: a value or an error. */
export type FileOutcome<T> =
  | { path: string; value: T; error?: undefined }
  | { path: string; error: FileJobError; value?: undefined };

/** The syntax census of one file: `syntax` job output. */
export interface SyntaxCensus {
  /** Number of UTF-16 code units parsed. */
  length: number;
  /** ERROR nodes and MISSING tokens (at most `limit` of them, default 50). */
  problems: import("../parse/mod.ts").SyntaxProblem[];
}

async function syntaxJob(input: FileJobInput): Promise<SyntaxCensus> {
  const { syntaxProblems, withTree } = await import("../parse/mod.ts");
  const file = (await workspaceFor(input.root)).read(input.path);
  const limit = (input.options as { limit?: number } | undefined)?.limit ?? 50;
  return await withTree(file.language, file.text, (tree) => ({
    length: file.text.length,
    problems: syntaxProblems(tree, limit),
  }));
}

/**
 * Every job the pool can run, by name. Add a job by adding a loader here; the
 * `import()` must name its module literally so the bundle includes it.
 */
export const JOBS = {
  /** Parse a file and list its syntax problems. */
  syntax: () => Promise.resolve(syntaxJob as FileJob),
  /** Read, parse and extract a file's code graph (`FileGraph`, plain JSON). */
  graph: async () => {
    const { graphFile } = await import("./mod.ts");
    return (async (input: FileJobInput) => graphFile(await workspaceFor(input.root), input.path)) as FileJob;
  },
  /** The `graph` job's result as JSON text pieces (`FileGraphText`), serialized in the worker. */
  graphText: async () => {
    const [{ graphFile }, { fileGraphText }] = await Promise.all([
      import("./mod.ts"),
      import("./json.ts"),
    ]);
    return (async (input: FileJobInput) =>
      fileGraphText(await graphFile(await workspaceFor(input.root), input.path))) as FileJob;
  },
} satisfies Record<string, () => Promise<FileJob>>;

/** The name of a job in {@linkcode JOBS}. */
export type JobName = keyof typeof JOBS;

const loadedJobs = new Map<string, Promise<FileJob>>();

function loadJob(name: string): Promise<FileJob> {
  let job = loadedJobs.get(name);
  if (!job) {
    const loader = (JOBS as Record<string, () => Promise<FileJob>>)[name];
    if (!loader) return Promise.reject(new Error(`Unknown pool job: "${name}"`));
    job = loader();
    loadedJobs.set(name, job);
  }
  return job;
}

let lastWorkspace: Workspace | undefined;

/** A `Workspace` for `root`, reused between files of the same root (for jobs). */
export async function workspaceFor(root: string): Promise<Workspace> {
  if (lastWorkspace?.root !== root) {
    const { Workspace } = await import("../workspace.ts");
    lastWorkspace = Workspace.open(root);
  }
  return lastWorkspace;
}

/** Whether `err` is an `IssueError` (checked by shape: issue.ts is not imported here). */
function issuesOf(err: unknown): Issue[] | undefined {
  const issues = (err as { issues?: unknown })?.issues;
  return err instanceof Error && err.name === "IssueError" && Array.isArray(issues) ? issues : undefined;
}

async function runOne(job: FileJob, input: FileJobInput): Promise<FileOutcome<unknown>> {
  try {
    return { path: input.path, value: await job(input) };
  } catch (err) {
    const issues = issuesOf(err);
    if (issues) return { path: input.path, error: { message: (err as Error).message, issues } };
    return { path: input.path, error: { message: (err as Error)?.message ?? String(err) } };
  }
}

// ---------------------------------------------------------------------------
// The shared queue

/**
 * The files of one run, shared by the main thread and the workers. The files
 * are listed in claim order (largest first) and what is left of them is the
 * range `[front, back)`, held in one 64-bit word of shared memory: workers
 * claim from the front, the main thread from the back, each with a
 * compare-and-swap, so no file is handed out twice and no worker waits for
 * the main thread to give it work. After the range come a count of the
 * workers that have started claiming and one flag per worker, which the
 * main thread reads without waiting for a message.
 */
export class SharedQueue {
  private readonly range: BigInt64Array;
  /** [0]: workers that started claiming; [1]: the length; [2 + slot]: 1 once the worker in `slot` started. */
  private readonly counters: Int32Array;

  /**
   * A queue of `length` items with room for `workers` workers' start flags,
   * or a view of an existing queue (its `buffer`).
   */
  constructor(init: number | SharedArrayBuffer, workers = 0) {
    const buffer = typeof init === "number" ? new SharedArrayBuffer(8 + 4 * (2 + workers)) : init;
    this.range = new BigInt64Array(buffer, 0, 1);
    this.counters = new Int32Array(buffer, 8);
    if (typeof init === "number") {
      Atomics.store(this.range, 0, BigInt(init) << 32n);
      Atomics.store(this.counters, 1, init);
    }
  }

  /** The shared memory, to post to a worker. */
  get buffer(): SharedArrayBuffer {
    return this.range.buffer as SharedArrayBuffer;
  }

  /** Claim the next item from the front (`end: "front"`) or the back; -1 when none is left. */
  claim(end: "front" | "back"): number {
    for (;;) {
      const old = Atomics.load(this.range, 0);
      const front = Number(old & 0xffffffffn);
      const back = Number(old >> 32n);
      if (front >= back) return -1;
      const next = end === "front" ? old + 1n : old - (1n << 32n);
      if (Atomics.compareExchange(this.range, 0, old, next) === old) {
        return end === "front" ? front : back - 1;
      }
    }
  }

  /** Whether every item has been claimed. */
  get empty(): boolean {
    const range = Atomics.load(this.range, 0);
    return Number(range & 0xffffffffn) >= Number(range >> 32n);
  }

  /** How many items have been claimed, from both ends. */
  get claimed(): number {
    const range = Atomics.load(this.range, 0);
    return Number(range & 0xffffffffn) + (Atomics.load(this.counters, 1) - Number(range >> 32n));
  }

  /** Mark the worker in `slot` as claiming. */
  markStarted(slot: number): void {
    Atomics.store(this.counters, 2 + slot, 1);
    Atomics.add(this.counters, 0, 1);
  }

  /** How many workers have started claiming. */
  get started(): number {
    return Atomics.load(this.counters, 0);
  }

  /** Whether the worker in `slot` has started claiming. */
  hasStarted(slot: number): boolean {
    return Atomics.load(this.counters, 2 + slot) === 1;
  }
}

// ---------------------------------------------------------------------------
// Worker side

/** A request from the pool to a worker: claim files of `paths` from the shared queue until it is empty. */
interface RunRequest {
  type: "run";
  id: number;
  job: string;
  root: string;
  /** The files, in claim order; the queue hands out indices into this list. */
  paths: string[];
  /** The queue's memory; the request id is the worker's slot in it. */
  queue: SharedArrayBuffer;
  options?: unknown;
}

/** A message from a worker to the pool. */
type WorkerReply =
  | { type: "ready" }
  | { type: "file"; id: number; index: number; outcome: FileOutcome<unknown> }
  | { type: "done"; id: number }
  | { type: "failed"; id: number; message: string };

/** The parts of a DedicatedWorkerGlobalScope the pool uses. */
interface WorkerScope {
  name: string;
  onmessage: ((event: MessageEvent<RunRequest>) => void) | null;
  postMessage(message: WorkerReply): void;
}

/** The entry module that called `maybeRunWorker()` on the main thread, if any. */
let workerEntry: string | undefined;

function inPoolWorker(): boolean {
  const scope = globalThis as unknown as { WorkerGlobalScope?: new () => unknown; name?: unknown };
  return typeof scope.WorkerGlobalScope === "function" && globalThis instanceof scope.WorkerGlobalScope &&
    scope.name === WORKER_NAME;
}

/**
 * Call first thing in the program's entry module. Inside a pool worker it
 * starts serving jobs and returns true (the entry must then do nothing
 * else); on the main thread it records the entry module as able to serve as
 * a worker and returns false.
 */
export function maybeRunWorker(): boolean {
  if (!inPoolWorker()) {
    if (typeof Deno !== "undefined" && Deno.mainModule) workerEntry = Deno.mainModule;
    return false;
  }
  const scope = globalThis as unknown as WorkerScope;
  const served = new Set<number>();
  scope.onmessage = (event) => {
    const request = event.data;
    // The pool may send a request twice (see PoolRun.lane): serve it once.
    if (served.has(request.id)) return;
    served.add(request.id);
    serveRequest(request, scope).then(
      () => scope.postMessage({ type: "done", id: request.id }),
      (err) =>
        scope.postMessage({
          type: "failed",
          id: request.id,
          message: (err as Error)?.message ?? String(err),
        }),
    );
  };
  scope.postMessage({ type: "ready" });
  return true;
}

async function serveRequest(request: RunRequest, scope: WorkerScope): Promise<void> {
  const job = await loadJob(request.job);
  const queue = new SharedQueue(request.queue);
  queue.markStarted(request.id);
  for (let index = queue.claim("front"); index >= 0; index = queue.claim("front")) {
    const outcome = await runOne(job, {
      root: request.root,
      path: request.paths[index],
      options: request.options,
    });
    scope.postMessage({ type: "file", id: request.id, index, outcome });
  }
}

// ---------------------------------------------------------------------------
// Pool side

/** Options of {@linkcode mapFiles}. */
export interface MapFilesOptions {
  /** The job's options, passed to every call (structured-cloneable). */
  options?: unknown;
  /**
   * Most workers to start besides the main thread; 0 runs in-process.
   * Default: one per core but one (`navigator.hardwareConcurrency - 1`), and
   * no more than one per `minBytes` of input, so that every worker has at
   * least the work that pays for its start (on a 64-core machine, 3 MiB of
   * files start 3 workers, not 63).
   */
  workers?: number;
  /** Smallest total input, in bytes, worth starting workers for (default 1 MiB, see `POOL_DEFAULTS`). */
  minBytes?: number;
  /**
   * The module workers start; it must call `maybeRunWorker()` first. Defaults
   * to the entry module that called `maybeRunWorker()` on the main thread,
   * so the engine imported by a test runs in-process.
   */
  entry?: string | URL;
  /** Whether the main thread claims files too (default true). */
  help?: boolean;
  /**
   * Milliseconds a worker may take to load the entry module and say it is
   * ready before it is given up (its files then run on the main thread);
   * `Infinity` waits for as long as it takes (default 20 s). Only a call
   * with `help: false` can wait this long: a helping main thread empties the
   * queue and stops workers that have not started claiming.
   */
  readyTimeout?: number;
  /** Receives how the call ran (for benchmarks and tests). */
  report?: (report: PoolReport) => void;
  /**
   * Receives how many files have been taken up so far, at most every
   * {@linkcode PROGRESS_INTERVAL_MS} while the main thread works, and once
   * with `done === total` at the end. Called on the main thread, between
   * files.
   */
  progress?: (done: number, total: number) => void;
}

/** The shortest time between two `progress` calls of one `mapFiles` call. */
export const PROGRESS_INTERVAL_MS = 100;

/** `progress` throttled to one call per PROGRESS_INTERVAL_MS; the final call goes through, once. */
function throttled(progress: MapFilesOptions["progress"]): (done: number, total: number) => void {
  if (!progress) return () => {};
  let last = performance.now();
  let finished = false;
  return (done, total) => {
    if (finished) return;
    const now = performance.now();
    if (done < total && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    finished = done >= total;
    progress(done, total);
  };
}

/** How a {@linkcode mapFiles} call ran. */
export interface PoolReport {
  /** Workers started (0 when everything ran in-process). */
  workers: number;
  /** Files the main thread claimed alongside the workers. */
  helped: number;
  /** Files run on the main thread after the workers ended (all of them when none could start). */
  inProcess: number;
  /** Files whose outcome a worker posted (`workers > 0` and `byWorkers === 0`: no worker did anything). */
  byWorkers: number;
  /** Why each worker that failed did (could not start, start timeout, crash), in no particular order. */
  workerFailures?: string[];
  /** Total bytes of the input, by `stat`. */
  bytes: number;
  /** Why the call ran in-process, when it did. */
  reason?: string;
}

/**
 * Defaults of {@linkcode MapFilesOptions}. `minBytes` comes from the `pool`
 * benchmark on 2 cores, the worker starting the one-file bundle: the main
 * thread and one worker break even at ~0.5 MiB (0.97x) and win from 1 MiB
 * (1.18x; 1.54x at 2 MiB); the worker pays the bundle load, the runtime and
 * grammar set-up and cold code.
 */
export const POOL_DEFAULTS = { minBytes: 1 << 20 } as const;

/**
 * Run the job `job` on every file of `paths` (repository-relative, under
 * `workspace`), in parallel workers when the input is large enough, and
 * return one outcome per path in the order of `paths`.
 */
export async function mapFiles<T>(
  job: JobName,
  paths: readonly string[],
  options: MapFilesOptions & { workspace: Workspace | string },
): Promise<FileOutcome<T>[]> {
  const root = typeof options.workspace === "string" ? options.workspace : options.workspace.root;
  // In-process jobs use the caller's workspace itself.
  if (typeof options.workspace !== "string") lastWorkspace = options.workspace;
  const sizes = paths.map((path) => fileSize(root, path));
  const bytes = sizes.reduce((sum, size) => sum + size, 0);
  const plan = planWorkers(paths.length, bytes, options);
  const report = (value: PoolReport) => {
    options.report?.(value);
    if (debugEnabled()) console.error(`graphplan pool: ${job}: ${JSON.stringify(value)}`);
  };
  const progress = throttled(options.progress);
  if (typeof plan === "string") {
    report({ workers: 0, helped: 0, inProcess: paths.length, byWorkers: 0, bytes, reason: plan });
    const outcomes = await runInProcess<T>(job, paths, root, options.options, progress);
    progress(paths.length, paths.length);
    return outcomes;
  }
  const workers = Math.min(plan.workers, paths.length);
  // Largest first, so that the last files to finish are small ones.
  const order = sizes.map((_, index) => index).sort((a, b) => sizes[b] - sizes[a]);
  const run = new PoolRun<T>(
    {
      job,
      root,
      options: options.options,
      entry: plan.entry,
      paths,
      order,
      progress,
      readyTimeout: options.readyTimeout ?? READY_TIMEOUT_MS,
    },
    workers,
  );
  // The main thread stops claiming once every core has a worker claiming.
  const help = options.help ?? true ? plan.cores : 0;
  const { outcomes, helped, inProcess, byWorkers, failures } = await run.execute(help);
  progress(paths.length, paths.length);
  report({
    workers,
    helped,
    inProcess,
    byWorkers,
    bytes,
    ...(failures.length ? { workerFailures: failures } : {}),
  });
  return outcomes;
}

/** Run `job` on every path on the main thread (the fallback, and the small-input path). */
export async function runInProcess<T>(
  job: JobName | string,
  paths: readonly string[],
  root: string,
  options?: unknown,
  progress?: (done: number, total: number) => void,
): Promise<FileOutcome<T>[]> {
  const fn = await loadJob(job);
  const outcomes: FileOutcome<T>[] = [];
  for (const path of paths) {
    outcomes.push(await runOne(fn, { root, path, options }) as FileOutcome<T>);
    progress?.(outcomes.length, paths.length);
  }
  return outcomes;
}

/** The environment variable that makes `mapFiles` print how each call ran (to stderr). */
export const POOL_DEBUG_ENV = "GRAPHPLAN_POOL_DEBUG";

let debug: boolean | undefined;

/** Whether GRAPHPLAN_POOL_DEBUG is set (read only when env access is granted: never prompts). */
function debugEnabled(): boolean {
  if (debug === undefined) {
    try {
      const granted =
        Deno.permissions.querySync({ name: "env", variable: POOL_DEBUG_ENV }).state === "granted";
      debug = granted && !!Deno.env.get(POOL_DEBUG_ENV);
    } catch {
      debug = false;
    }
  }
  return debug;
}

function fileSize(root: string, path: string): number {
  try {
    return Deno.statSync(`${root}/${path}`).size;
  } catch {
    return 0;
  }
}

/** How many workers and which entry, or why to stay in-process. */
function planWorkers(
  files: number,
  bytes: number,
  options: MapFilesOptions,
): { workers: number; entry: string; cores: number } | string {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency ?? 1 : 1;
  const minBytes = options.minBytes ?? POOL_DEFAULTS.minBytes;
  if (options.workers === undefined && cores < 2) return "one core";
  if (options.workers !== undefined && options.workers < 1) return "workers disabled";
  if (files < 2) return "fewer than 2 files";
  if (bytes < minBytes) return `input below ${minBytes} bytes`;
  // With minBytes 0, the cores alone decide.
  const byInput = minBytes > 0 ? Math.floor(bytes / minBytes) : Infinity;
  const workers = options.workers ?? Math.min(cores - 1, byInput);
  const entry = options.entry?.toString() ?? workerEntry;
  if (!entry) return "no worker entry module (maybeRunWorker() was not called)";
  if (entry.startsWith("file:")) {
    try {
      const state = Deno.permissions.querySync({ name: "read", path: new URL(entry) });
      if (state.state !== "granted") return "no read permission on the entry module";
    } catch {
      return "cannot check read permission on the entry module";
    }
  }
  return { workers, entry, cores };
}

interface RunSpec {
  job: string;
  root: string;
  options: unknown;
  entry: string;
  paths: readonly string[];
  /** Indices into `paths`, largest file first: the queue's claim order. */
  order: number[];
  /** Called with the files taken up so far (throttled). */
  progress: (done: number, total: number) => void;
  /** Milliseconds to wait for a worker's "ready" (`Infinity`: no limit). */
  readyTimeout: number;
}

/** How long a worker may take by default to load the entry module, the runtime and say "ready". */
const READY_TIMEOUT_MS = 20_000;

/**
 * One parallel `mapFiles` call. Workers claim files from the large end of a
 * shared queue and post each outcome as soon as it is ready; the main thread
 * claims from the small end (see `help`). Whatever no worker finished (all
 * failed, or one died holding a file) runs on the main thread at the end.
 */
class PoolRun<T> {
  private readonly spec: RunSpec;
  private readonly queue: SharedQueue;
  /** Outcomes by claim position (index into `order`). */
  private readonly done: (FileOutcome<T> | undefined)[];
  /** The paths in claim order, as sent to workers. */
  private readonly claimPaths: string[];
  private readonly workers: number;
  /** Per lane: stop waiting for its worker if it has not started claiming. */
  private readonly stopIfIdle: (() => void)[] = [];
  /** Outcomes the workers posted. */
  private byWorkers = 0;
  /** Why workers failed. */
  private readonly failures: string[] = [];

  constructor(spec: RunSpec, workers: number) {
    this.spec = spec;
    this.workers = workers;
    this.queue = new SharedQueue(spec.order.length, workers);
    this.done = new Array(spec.order.length);
    this.claimPaths = spec.order.map((index) => spec.paths[index]);
  }

  /** Start the workers; the main thread claims files until `helpUntil` workers claim (0: never). */
  async execute(
    helpUntil: number,
  ): Promise<
    { outcomes: FileOutcome<T>[]; helped: number; inProcess: number; byWorkers: number; failures: string[] }
  > {
    const lanes: Promise<void>[] = [];
    for (let slot = 0; slot < this.workers; slot++) lanes.push(this.lane(slot));
    const helped = helpUntil > 0 ? await this.help(helpUntil) : 0;
    // With the queue empty, a worker still starting can only find nothing to do: stop it now
    // rather than wait for it (a slow or hung start would hold up a call whose work is done).
    // One turn of the event loop first, so that what the workers already reported (a failure
    // to start, say) is handled by their lanes.
    if (this.queue.empty) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      for (const stop of this.stopIfIdle) stop();
    }
    await Promise.all(lanes);
    let inProcess = 0;
    const fn = await loadJob(this.spec.job);
    for (let position = 0; position < this.done.length; position++) {
      if (this.done[position]) continue;
      this.done[position] = await this.runHere(fn, position);
      inProcess++;
    }
    const outcomes = new Array<FileOutcome<T>>(this.spec.paths.length);
    this.spec.order.forEach((index, position) => outcomes[index] = this.done[position]!);
    return { outcomes, helped, inProcess, byWorkers: this.byWorkers, failures: this.failures };
  }

  /**
   * Take files from the small end until the queue is empty or `until`
   * workers claim (one per core: a thread more would only compete). The
   * workers' count is read from shared memory, so this loop never needs to
   * hand control back to the event loop.
   */
  private async help(until: number): Promise<number> {
    const fn = await loadJob(this.spec.job);
    let files = 0;
    while (this.queue.started < until) {
      const position = this.queue.claim("back");
      if (position < 0) break;
      this.done[position] = await this.runHere(fn, position);
      files++;
      this.spec.progress(this.queue.claimed, this.done.length);
    }
    return files;
  }

  private runHere(fn: FileJob, position: number): Promise<FileOutcome<T>> {
    const input = { root: this.spec.root, path: this.claimPaths[position], options: this.spec.options };
    return runOne(fn, input) as Promise<FileOutcome<T>>;
  }

  /** One worker's life: start, claim files until the queue is empty, stop. Its request id is its slot. */
  private async lane(slot: number): Promise<void> {
    let worker: Worker;
    try {
      worker = new Worker(this.spec.entry, { type: "module", name: WORKER_NAME });
    } catch (err) {
      this.failures.push(`Cannot start a pool worker: ${(err as Error).message}`);
      return;
    }
    const request: RunRequest = {
      type: "run",
      id: slot,
      job: this.spec.job,
      root: this.spec.root,
      paths: this.claimPaths,
      queue: this.queue.buffer,
      options: this.spec.options,
    };
    // Sent at once, so the worker starts claiming as soon as it can without
    // waiting for this (busy) thread to hear "ready". An entry that calls
    // maybeRunWorker() after an `await` may miss it: "ready" sends it again
    // and the worker serves each request id once.
    worker.postMessage(request);
    try {
      const limit = this.spec.readyTimeout;
      await new Promise<void>((resolve, reject) => {
        const timer = Number.isFinite(limit)
          ? setTimeout(
            () =>
              reject(
                new Error(
                  `Pool worker did not start within ${limit} ms (does the entry call maybeRunWorker()?)`,
                ),
              ),
            limit,
          )
          : undefined;
        const stop = (err?: Error) => {
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        };
        this.stopIfIdle[slot] = () => {
          if (!this.queue.hasStarted(slot)) stop();
        };
        worker.onmessage = (event: MessageEvent<WorkerReply>) => {
          const reply = event.data;
          switch (reply.type) {
            case "ready":
              clearTimeout(timer);
              worker.postMessage(request);
              return;
            case "file":
              if (reply.id === slot) {
                this.done[reply.index] = reply.outcome as FileOutcome<T>;
                this.byWorkers++;
              }
              return;
            case "done":
              return stop();
            case "failed":
              return stop(new Error(reply.message));
          }
        };
        worker.onerror = (event: ErrorEvent) => {
          event.preventDefault();
          stop(new Error(`Pool worker failed: ${event.message}`));
        };
        worker.onmessageerror = () => stop(new Error("Pool worker sent an unreadable message"));
      });
    } catch (err) {
      // The worker failed: files it claimed but did not finish run on the main thread at the end.
      this.failures.push((err as Error).message);
    } finally {
      worker.terminate();
    }
  }
}

/**
 * A `mapFiles` for `buildGraph` (engine/graph): graphs the files through
 * the pool, in workers when the input is large enough, else in-process.
 * A job that throws in a worker is a bug, and throws here as it would
 * in-process.
 */
export function graphMapper(
  workspace: Workspace,
  options: Omit<MapFilesOptions, "options"> = {},
): (paths: string[]) => Promise<FileGraph[]> {
  return jobMapper<FileGraph>("graph", workspace, options);
}

/** The same as {@linkcode graphMapper}, for `buildGraphText`: each file's graph comes back as JSON text. */
export function graphTextMapper(
  workspace: Workspace,
  options: Omit<MapFilesOptions, "options"> = {},
): (paths: string[]) => Promise<FileGraphText[]> {
  return jobMapper<FileGraphText>("graphText", workspace, options);
}

function jobMapper<T>(
  job: JobName,
  workspace: Workspace,
  options: Omit<MapFilesOptions, "options">,
): (paths: string[]) => Promise<T[]> {
  return async (paths) => {
    const outcomes = await mapFiles<T>(job, paths, { ...options, workspace });
    return outcomes.map((outcome) => {
      if (outcome.error) throw new Error(`Cannot graph "${outcome.path}": ${outcome.error.message}`);
      return outcome.value;
    });
  };
}
