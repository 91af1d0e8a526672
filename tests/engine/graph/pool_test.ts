/**
 * The worker pool: its shared queue hands out every file exactly once under
 * a real race between threads; results in workers equal results in-process
 * (syntax census and code graph of the corpus files), issues cross the
 * worker boundary intact, and the pool falls back in-process when it has no
 * entry module or its workers cannot start.
 */

import assert from "node:assert/strict";
import { buildGraph } from "../../../engine/graph/mod.ts";
import {
  type FileOutcome,
  graphMapper,
  mapFiles,
  POOL_DEFAULTS,
  type PoolReport,
  SharedQueue,
  type SyntaxCensus,
} from "../../../engine/graph/pool.ts";
import { Workspace } from "../../../engine/workspace.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../../_support/corpus.ts";

if (CORPUS_SKIP) console.log(`pool_test: corpus tests skipped: ${CORPUS_SKIP}`);

/** A worker entry module: like main.ts, it calls maybeRunWorker() first. */
const ENTRY = new URL("./_pool_entry.ts", import.meta.url);

/** Write the corpus before files (some of them) into a temp repository. */
async function corpusRepo(limit = Infinity): Promise<{ dir: string; paths: string[] }> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-pool-" });
  const paths: string[] = [];
  for (const file of (await corpusBeforeFiles(".py")).slice(0, limit)) {
    const rel = `${file.id}/${file.path}`;
    await Deno.mkdir(`${dir}/${rel.slice(0, rel.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${rel}`, file.text);
    paths.push(rel);
  }
  return { dir, paths };
}

Deno.test("SharedQueue: claims from both ends meet in the middle, then nothing is left", () => {
  const queue = new SharedQueue(5);
  assert.deepEqual([queue.claim("front"), queue.claim("back"), queue.claim("front")], [0, 4, 1]);
  assert.deepEqual([queue.claim("back"), queue.claim("back")], [3, 2]);
  assert.equal(queue.claim("front"), -1);
  assert.equal(queue.claim("back"), -1);
  assert.equal(new SharedQueue(0).claim("front"), -1);
  assert.equal(queue.empty, true);
  // A view of the same memory sees the same state.
  const shared = new SharedQueue(3, 2);
  shared.claim("front");
  assert.equal(new SharedQueue(shared.buffer).claim("front"), 1);
  assert.equal(shared.empty, false);
  assert.equal(shared.started, 0);
  new SharedQueue(shared.buffer).markStarted(1);
  assert.deepEqual([shared.started, shared.hasStarted(0), shared.hasStarted(1)], [1, false, true]);
});

Deno.test("SharedQueue: two workers and the main thread racing claim every item exactly once", async () => {
  const length = 500_000;
  const queue = new SharedQueue(length);
  const workers = [0, 1].map(() =>
    new Worker(new URL("./_queue_worker.ts", import.meta.url), { type: "module" })
  );
  try {
    const ready: Promise<void>[] = [];
    const results = workers.map((worker, i) =>
      new Promise<number[]>((resolve, reject) => {
        let markReady!: () => void;
        ready[i] = new Promise((done) => markReady = done);
        worker.onerror = (event) => {
          event.preventDefault();
          reject(new Error(event.message));
        };
        worker.onmessage = (event: MessageEvent<number[] | "ready">) => {
          if (event.data === "ready") markReady();
          else resolve(event.data);
        };
      })
    );
    await Promise.all(ready);
    // Start all three at once: the workers claim from the front, the main thread from the back.
    for (const worker of workers) worker.postMessage(queue.buffer);
    const mine: number[] = [];
    for (let index = queue.claim("back"); index >= 0; index = queue.claim("back")) mine.push(index);
    const [first, second] = await Promise.all(results);
    // The race happened: both sides got items.
    assert.ok(
      first.length + second.length > 0 && mine.length > 0,
      `${first.length}/${second.length}/${mine.length}`,
    );
    const all = [...first, ...second, ...mine].sort((a, b) => a - b);
    assert.equal(all.length, length);
    assert.ok(all.every((index, i) => index === i), "every index claimed exactly once");
    // Each side claimed in its own direction.
    assert.ok(first.every((index, i) => i === 0 || index > first[i - 1]));
    assert.ok(mine.every((index, i) => i === 0 || index < mine[i - 1]));
  } finally {
    workers.forEach((worker) => worker.terminate());
  }
});

Deno.test({
  name: "the syntax census from 2 workers equals the in-process one, in input order",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir, paths } = await corpusRepo();
    try {
      // Paths that cannot be parsed: their issues must come back from the worker as they are in-process.
      await Deno.writeTextFile(`${dir}/notes.txt`, "not code\n");
      const input = [...paths, "missing/nothing.py", "notes.txt"];
      const sequential = await mapFiles<SyntaxCensus>("syntax", input, { workspace: dir, workers: 0 });
      let report: PoolReport | undefined;
      const parallel = await mapFiles<SyntaxCensus>("syntax", input, {
        workspace: dir,
        workers: 2,
        entry: ENTRY,
        minBytes: 0,
        // The workers do every file (under load the main thread could otherwise finish them all
        // before a worker starts, and this test would compare in-process with in-process), and
        // they are waited for however long a busy machine takes to start them.
        help: false,
        readyTimeout: Infinity,
        report: (r) => report = r,
      });
      assert.equal(report?.workers, 2);
      assert.equal(report?.byWorkers, input.length, `workers failed: ${report?.workerFailures?.join("; ")}`);
      assert.equal(report?.inProcess, 0);
      assert.equal(report?.helped, 0);
      assert.deepEqual(parallel, sequential);
      assert.deepEqual(parallel.map((outcome) => outcome.path), input);
      // Every real file parsed (one corpus file trips the 2023 grammar), the two bad paths failed.
      assert.ok(sequential.slice(0, paths.length).every((outcome) => outcome.value!.length > 0));
      assert.deepEqual(sequential.slice(-2).map((outcome) => outcome.error?.issues?.[0]?.code), [
        "file-not-found",
        "unknown-language",
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "by default the main thread works beside one worker per core but one",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir, paths } = await corpusRepo(60);
    try {
      const sequential = await mapFiles<SyntaxCensus>("syntax", paths, { workspace: dir, workers: 0 });
      let report: PoolReport | undefined;
      const parallel = await mapFiles<SyntaxCensus>("syntax", paths, {
        workspace: dir,
        entry: ENTRY,
        minBytes: 0,
        report: (r) => report = r,
      });
      assert.deepEqual(parallel, sequential);
      const cores = navigator.hardwareConcurrency;
      if (cores < 2) {
        assert.equal(report?.reason, "one core");
        return;
      }
      assert.equal(report?.workers, cores - 1);
      assert.equal(report?.inProcess, 0);
      // Fewer workers than cores: the main thread claims until the queue is empty, so it gets the
      // smallest file at least (how many more depends on how soon the worker starts).
      assert.ok(report!.helped > 0, `${report?.helped} files helped`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "by default a big machine starts no more workers than the input has minBytes for",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir, paths } = await corpusRepo(60);
    // Pretend to have 16 cores: the input decides how many of them get a worker.
    const own = Object.getOwnPropertyDescriptor(navigator, "hardwareConcurrency");
    Object.defineProperty(navigator, "hardwareConcurrency", { value: 16, configurable: true });
    try {
      const bytes = paths.reduce((sum, path) => sum + Deno.statSync(`${dir}/${path}`).size, 0);
      const reports: PoolReport[] = [];
      const sequential = await mapFiles<SyntaxCensus>("syntax", paths, { workspace: dir, workers: 0 });
      for (const minBytes of [Math.floor(bytes / 2), Math.floor(bytes / 3), 1]) {
        const parallel = await mapFiles<SyntaxCensus>("syntax", paths, {
          workspace: dir,
          entry: ENTRY,
          minBytes,
          report: (r) => reports.push(r),
        });
        assert.deepEqual(parallel, sequential);
      }
      // 2 and 3 workers by input; then the cores (16 - 1) bound it.
      assert.deepEqual(reports.map((r) => r.workers), [2, 3, 15]);
      // An explicit count is taken as given.
      await mapFiles<SyntaxCensus>("syntax", paths, {
        workspace: dir,
        entry: ENTRY,
        minBytes: Math.floor(bytes / 2),
        workers: 4,
        report: (r) => reports.push(r),
      });
      assert.equal(reports.at(-1)?.workers, 4);
    } finally {
      if (own) Object.defineProperty(navigator, "hardwareConcurrency", own);
      else delete (navigator as { hardwareConcurrency?: number }).hardwareConcurrency;
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "buildGraph through the pool equals buildGraph in-process on the corpus",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir, paths } = await corpusRepo();
    try {
      const workspace = Workspace.open(dir);
      const expected = await buildGraph(workspace, [...paths, "gone.py"]);
      let report: PoolReport | undefined;
      const pooled = await buildGraph(workspace, [...paths, "gone.py"], {
        mapFiles: graphMapper(workspace, {
          workers: 2,
          entry: ENTRY,
          minBytes: 0,
          help: false,
          readyTimeout: Infinity,
          report: (r) => report = r,
        }),
      });
      // Without help from the main thread, the workers did everything.
      assert.equal(report?.workers, 2);
      assert.equal(
        report?.byWorkers,
        paths.length + 1,
        `workers failed: ${report?.workerFailures?.join("; ")}`,
      );
      assert.equal(report?.inProcess, 0);
      assert.equal(report?.helped, 0);
      assert.deepEqual(pooled, expected);
      assert.ok(expected.symbols.length > 1000, `${expected.symbols.length} symbols`);
      assert.ok(expected.errors.some((issue) => issue.file === "gone.py"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "the pool runs in-process without an entry module, below the threshold, or with workers: 0",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir, paths } = await corpusRepo(20);
    try {
      const reasons: (string | undefined)[] = [];
      const runs: FileOutcome<SyntaxCensus>[][] = [];
      // Tests never call maybeRunWorker(), so there is no entry module to start workers from.
      runs.push(
        await mapFiles("syntax", paths, {
          workspace: dir,
          minBytes: 0,
          report: (r) => reasons.push(r.reason),
        }),
      );
      runs.push(
        await mapFiles("syntax", paths, {
          workspace: dir,
          entry: ENTRY,
          report: (r) => reasons.push(r.reason),
        }),
      );
      runs.push(
        await mapFiles("syntax", paths, {
          workspace: dir,
          workers: 0,
          report: (r) => reasons.push(r.reason),
        }),
      );
      assert.match(reasons[0]!, /no worker entry module/);
      assert.equal(reasons[1], `input below ${POOL_DEFAULTS.minBytes} bytes`);
      assert.equal(reasons[2], "workers disabled");
      assert.deepEqual(runs[1], runs[0]);
      assert.deepEqual(runs[2], runs[0]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "a worker that never starts does not hold up a call whose files are all done",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir, paths } = await corpusRepo(10);
    try {
      const expected = await mapFiles("syntax", paths, { workspace: dir, workers: 0 });
      let report: PoolReport | undefined;
      const started = performance.now();
      const outcomes = await mapFiles("syntax", paths, {
        workspace: dir,
        workers: 1,
        minBytes: 0,
        // An entry that never gets to maybeRunWorker(): the pool would wait 20 s for its "ready".
        entry: "data:application/javascript,await new Promise(() => {})",
        report: (r) => report = r,
      });
      const ms = performance.now() - started;
      assert.deepEqual(outcomes, expected);
      assert.equal(report!.helped, paths.length);
      assert.ok(ms < 10_000, `took ${Math.round(ms)} ms: it waited for the worker's start timeout`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "the pool falls back in-process when its workers cannot start",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir, paths } = await corpusRepo(30);
    try {
      const expected = await mapFiles("syntax", paths, { workspace: dir, workers: 0 });
      let report: PoolReport | undefined;
      const outcomes = await mapFiles("syntax", paths, {
        workspace: dir,
        workers: 2,
        minBytes: 0,
        // An entry module that throws while loading, as a broken or missing one would.
        entry: "data:application/javascript,throw new Error('cannot start')",
        report: (r) => report = r,
      });
      // The main thread helped while it waited for workers that never came, then ran the rest.
      assert.equal(report!.helped + report!.inProcess, paths.length);
      assert.deepEqual(outcomes, expected);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "progress: counts files up to the total, in-process and pooled, and ends with one done call",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { dir, paths } = await corpusRepo();
    try {
      for (const workers of [0, 1]) {
        const calls: [number, number][] = [];
        await mapFiles("syntax", paths, {
          workspace: dir,
          workers,
          entry: ENTRY,
          minBytes: 0,
          progress: (done, total) => calls.push([done, total]),
        });
        // The whole corpus takes well over the 100 ms between reports on one thread.
        assert.ok(calls.length >= 2, `${workers} workers: ${JSON.stringify(calls)}`);
        assert.deepEqual(calls.at(-1), [paths.length, paths.length]);
        assert.equal(calls.filter(([done]) => done === paths.length).length, 1);
        assert.ok(
          calls.every(([done, total], i) => total === paths.length && (i === 0 || done >= calls[i - 1][0])),
        );
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
