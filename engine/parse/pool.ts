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
 *    in total, or when no worker-capable entry is known (the engine imported
 *    by a test, no read permission on the entry), everything runs in-process:
 *    each worker must load web-tree-sitter and the grammar itself (~20–30 ms),
 *    which only pays on large inputs.
 * 2. Otherwise the files are sorted largest first and cut into batches of
 *    about {@linkcode MapFilesOptions.batchBytes}; up to
 *    `navigator.hardwareConcurrency` workers each take the next batch as soon
 *    as they finish one. Workers get paths, not texts, and read the files
 *    themselves; they send back plain JSON. While the workers start (they
 *    load the entry module, the runtime and the grammar), the main thread
 *    takes batches from the small end of the queue.
 * 3. A worker that fails (cannot start, crashes) is dropped and its batch is
 *    run again elsewhere; with no worker left the rest runs in-process. The
 *    workers are terminated when the call returns.
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
import type { Issue } from "../issue.ts";
import type { Workspace } from "../workspace.ts";
import type { FileGraph } from "../graph/mod.ts";

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
  problems: import("./mod.ts").SyntaxProblem[];
}

async function syntaxJob(input: FileJobInput): Promise<SyntaxCensus> {
  const { parse, syntaxProblems } = await import("./mod.ts");
  const file = (await workspaceFor(input.root)).read(input.path);
  const tree = await parse(file.language, file.text);
  try {
    const limit = (input.options as { limit?: number } | undefined)?.limit ?? 50;
    return { length: file.text.length, problems: syntaxProblems(tree, limit) };
  } finally {
    tree.delete();
  }
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
    const { graphFile } = await import("../graph/mod.ts");
    return (async (input: FileJobInput) => graphFile(await workspaceFor(input.root), input.path)) as FileJob;
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
// Worker side

/** A request from the pool to a worker. */
interface RunRequest {
  type: "run";
  id: number;
  job: string;
  root: string;
  paths: string[];
  options?: unknown;
}

/** A reply from a worker to the pool. */
type WorkerReply =
  | { type: "ready" }
  | { type: "done"; id: number; outcomes: FileOutcome<unknown>[] }
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
  scope.onmessage = (event) => {
    const request = event.data;
    serveRequest(request).then(
      (outcomes) => scope.postMessage({ type: "done", id: request.id, outcomes }),
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

async function serveRequest(request: RunRequest): Promise<FileOutcome<unknown>[]> {
  const job = await loadJob(request.job);
  const outcomes: FileOutcome<unknown>[] = [];
  for (const path of request.paths) {
    outcomes.push(await runOne(job, { root: request.root, path, options: request.options }));
  }
  return outcomes;
}

// ---------------------------------------------------------------------------
// Pool side

/** Options of {@linkcode mapFiles}. */
export interface MapFilesOptions {
  /** The job's options, passed to every call (structured-cloneable). */
  options?: unknown;
  /** Most workers to start (default `navigator.hardwareConcurrency`); 0 runs in-process. */
  workers?: number;
  /** Smallest total input, in bytes, worth starting workers for (default 3 MiB, see `POOL_DEFAULTS`). */
  minBytes?: number;
  /** Target bytes per batch sent to a worker (default 256 KiB). */
  batchBytes?: number;
  /**
   * The module workers start; it must call `maybeRunWorker()` first. Defaults
   * to the entry module that called `maybeRunWorker()` on the main thread,
   * so the engine imported by a test runs in-process.
   */
  entry?: string | URL;
  /** Whether the main thread takes batches until a worker is ready (default true). */
  help?: boolean;
  /** Receives how the call ran (for benchmarks and tests). */
  report?: (report: PoolReport) => void;
}

/** How a {@linkcode mapFiles} call ran. */
export interface PoolReport {
  /** Workers started (0 when everything ran in-process). */
  workers: number;
  batches: number;
  /** Files the main thread handled while the workers were starting. */
  helped: number;
  /** Files run on the main thread instead of workers (all of them, or those left after workers failed). */
  inProcess: number;
  /** Total bytes of the input, by `stat`. */
  bytes: number;
  /** Why the call ran in-process, when it did. */
  reason?: string;
}

/**
 * Defaults of {@linkcode MapFilesOptions}. `minBytes` comes from the `pool`
 * benchmark on 2 cores with workers starting the one-file bundle: 2 workers
 * lose below ~2 MB (0.64x at 2 MB) and win from ~4 MB (1.26x); each worker
 * pays the bundle load, the runtime and grammar set-up and cold wasm code.
 */
export const POOL_DEFAULTS = { minBytes: 3 << 20, batchBytes: 256 << 10 } as const;

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
  if (typeof plan === "string") {
    report({ workers: 0, batches: 0, helped: 0, inProcess: paths.length, bytes, reason: plan });
    return await runInProcess<T>(job, paths, root, options.options);
  }
  const batches = makeBatches(sizes, options.batchBytes ?? POOL_DEFAULTS.batchBytes);
  const workers = Math.min(plan.workers, batches.length);
  const outcomes = new Array<FileOutcome<T>>(paths.length);
  const run = new PoolRun(
    { job, root, options: options.options, entry: plan.entry, paths, batches, outcomes },
  );
  const { helped, inProcess } = await run.execute(workers, options.help ?? true);
  report({ workers, batches: batches.length, helped, inProcess, bytes });
  return outcomes;
}

/** Run `job` on every path on the main thread (the fallback, and the small-input path). */
export async function runInProcess<T>(
  job: JobName | string,
  paths: readonly string[],
  root: string,
  options?: unknown,
): Promise<FileOutcome<T>[]> {
  const fn = await loadJob(job);
  const outcomes: FileOutcome<T>[] = [];
  for (const path of paths) outcomes.push(await runOne(fn, { root, path, options }) as FileOutcome<T>);
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
): { workers: number; entry: string } | string {
  const cores = typeof navigator !== "undefined" ? navigator.hardwareConcurrency ?? 1 : 1;
  const workers = options.workers ?? cores;
  if (workers < 1) return "workers disabled";
  if (files < 2) return "fewer than 2 files";
  const minBytes = options.minBytes ?? POOL_DEFAULTS.minBytes;
  if (bytes < minBytes) return `input below ${minBytes} bytes`;
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
  return { workers, entry };
}

/** Indices of files grouped in batches of about `batchBytes`, largest files first. */
function makeBatches(sizes: number[], batchBytes: number): number[][] {
  const order = sizes.map((_, index) => index).sort((a, b) => sizes[b] - sizes[a]);
  const batches: number[][] = [];
  let current: number[] = [];
  let currentBytes = 0;
  for (const index of order) {
    current.push(index);
    currentBytes += sizes[index];
    if (currentBytes >= batchBytes) {
      batches.push(current);
      current = [];
      currentBytes = 0;
    }
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

interface RunSpec<T> {
  job: string;
  root: string;
  options: unknown;
  entry: string;
  paths: readonly string[];
  batches: number[][];
  outcomes: FileOutcome<T>[];
}

/** How long a worker may take to load the entry module, the runtime and say "ready". */
const READY_TIMEOUT_MS = 20_000;

/** One parallel `mapFiles` call: a queue of batches shared by its workers. */
class PoolRun<T> {
  private readonly spec: RunSpec<T>;
  private readonly queue: number[];
  private nextId = 0;
  /** Workers that said "ready". */
  private ready = 0;

  constructor(spec: RunSpec<T>) {
    this.spec = spec;
    this.queue = spec.batches.map((_, index) => index);
  }

  /**
   * Run every batch. Until the first worker is ready, the main thread takes
   * batches itself (from the small end of the queue), so worker start-up is
   * not dead time. Returns the files the main thread handled while helping,
   * and those it ran because every worker failed.
   */
  async execute(workers: number, help: boolean): Promise<{ helped: number; inProcess: number }> {
    const lanes: Promise<void>[] = [];
    for (let i = 0; i < workers; i++) lanes.push(this.lane());
    const helped = help ? await this.help() : 0;
    await Promise.all(lanes);
    // Whatever no worker could take (all failed) runs here.
    let inProcess = 0;
    for (const batch of this.queue.splice(0)) inProcess += await this.runHere(batch);
    return { helped, inProcess };
  }

  private async help(): Promise<number> {
    let files = 0;
    for (;;) {
      // A macrotask turn lets the workers' "ready" messages in between batches.
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (this.ready > 0 || this.queue.length === 0) return files;
      files += await this.runHere(this.queue.pop()!);
    }
  }

  private async runHere(batch: number): Promise<number> {
    const paths = this.spec.batches[batch].map((index) => this.spec.paths[index]);
    this.store(batch, await runInProcess<T>(this.spec.job, paths, this.spec.root, this.spec.options));
    return paths.length;
  }

  /** One worker's life: start, take batches until the queue is empty, stop. */
  private async lane(): Promise<void> {
    let worker: Worker;
    try {
      worker = new Worker(this.spec.entry, { type: "module", name: WORKER_NAME });
    } catch {
      return;
    }
    const channel = new WorkerChannel(worker, READY_TIMEOUT_MS);
    try {
      await channel.ready;
      this.ready++;
      for (let batch = this.queue.shift(); batch !== undefined; batch = this.queue.shift()) {
        const paths = this.spec.batches[batch].map((index) => this.spec.paths[index]);
        const id = this.nextId++;
        let outcomes: FileOutcome<unknown>[];
        try {
          outcomes = await channel.request({
            type: "run",
            id,
            job: this.spec.job,
            root: this.spec.root,
            paths,
            options: this.spec.options,
          });
        } catch (err) {
          this.queue.unshift(batch);
          throw err;
        }
        this.store(batch, outcomes as FileOutcome<T>[]);
      }
    } catch {
      // The worker failed: its batch went back to the queue for the others (or the main thread).
    } finally {
      worker.terminate();
    }
  }

  private store(batch: number, outcomes: FileOutcome<T>[]): void {
    const indices = this.spec.batches[batch];
    for (let i = 0; i < indices.length; i++) this.spec.outcomes[indices[i]] = outcomes[i];
  }
}

/** Request/reply over one worker, failing every pending request when the worker dies. */
class WorkerChannel {
  readonly ready: Promise<void>;
  private pending?: {
    id: number;
    resolve: (outcomes: FileOutcome<unknown>[]) => void;
    reject: (err: Error) => void;
  };
  private failure?: Error;
  private readonly worker: Worker;

  constructor(worker: Worker, readyTimeoutMs: number) {
    this.worker = worker;
    let markReady!: () => void;
    let markFailed!: (err: Error) => void;
    this.ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    worker.onmessage = (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      if (reply.type === "ready") return markReady();
      const pending = this.pending;
      if (!pending || pending.id !== reply.id) return;
      this.pending = undefined;
      if (reply.type === "done") pending.resolve(reply.outcomes);
      else pending.reject(new Error(reply.message));
    };
    const die = (message: string) => {
      this.failure ??= new Error(message);
      markFailed(this.failure);
      this.pending?.reject(this.failure);
      this.pending = undefined;
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      die(`Pool worker failed: ${event.message}`);
    };
    worker.onmessageerror = () => die("Pool worker sent an unreadable message");
    // An entry module that never calls maybeRunWorker() never says "ready".
    const timer = setTimeout(
      () =>
        die(`Pool worker did not start within ${readyTimeoutMs} ms (does the entry call maybeRunWorker()?)`),
      readyTimeoutMs,
    );
    this.ready.then(() => clearTimeout(timer), () => clearTimeout(timer));
  }

  /** Send one request and wait for its reply. */
  request(request: RunRequest): Promise<FileOutcome<unknown>[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.pending = { id: request.id, resolve, reject };
      this.worker.postMessage(request);
    });
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
  return async (paths) => {
    const outcomes = await mapFiles<FileGraph>("graph", paths, { ...options, workspace });
    return outcomes.map((outcome) => {
      if (outcome.error) throw new Error(`Cannot graph "${outcome.path}": ${outcome.error.message}`);
      return outcome.value;
    });
  };
}
