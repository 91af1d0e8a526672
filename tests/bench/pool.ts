/**
 * Benchmark section `pool`: where parallel parsing starts to pay. Runs the
 * pool's `syntax` job on growing prefixes of the corpus, in-process and with
 * `navigator.hardwareConcurrency` workers that start the one-file bundle
 * (worker start-up included, as a real call pays it), to justify
 * `POOL_DEFAULTS.minBytes`.
 *
 * @module
 */

import { mapFiles, POOL_DEFAULTS } from "../../engine/graph/pool.ts";
import type { BenchContext, BenchSection } from "./context.ts";
import { type BenchRow, round, timeInTurns } from "./stats.ts";

/** Input sizes probed, in KiB. */
export const PROBE_KIB = [512, 1024, 2048, 3072, 4096, 6144, 1 << 20];

/** The `pool` section. */
export const poolSection: BenchSection = {
  name: "pool",
  description: "parallel vs in-process parsing by input size (where the worker pool pays)",
  async run(ctx: BenchContext): Promise<BenchRow[]> {
    const section = "pool";
    const corpus = await ctx.corpusDir();
    const sizes = corpus.paths.map((path) => Deno.statSync(`${corpus.dir}/${path}`).size);
    // Workers start the bundle, as they do for a user of dist/graphplan.js.
    const entry = new URL(`file://${await ctx.bundle()}`);
    // The pool's default: the main thread and one worker per core but one.
    const workers = Math.max(1, navigator.hardwareConcurrency - 1);
    const rows: BenchRow[] = [];
    // Load the grammar in-process first, as any real call after the first would have it.
    await mapFiles("syntax", corpus.paths.slice(0, 1), { workspace: corpus.dir, workers: 0 });
    for (const kib of PROBE_KIB) {
      const paths: string[] = [];
      let bytes = 0;
      for (let i = 0; i < corpus.paths.length && bytes < kib * 1024; i++) {
        paths.push(corpus.paths[i]);
        bytes += sizes[i];
      }
      const turns = await timeInTurns(ctx.runs, {
        one: () => mapFiles("syntax", paths, { workspace: corpus.dir, workers: 0 }),
        many: () => mapFiles("syntax", paths, { workspace: corpus.dir, workers, entry, minBytes: 0 }),
      });
      const { one, many } = turns;
      rows.push({
        section,
        metric: `${paths.length} files, ${round(bytes / 1024)} KiB`,
        value: round(one.median / many.median),
        unit: "x",
        note: `speed-up of the main thread + ${workers} worker(s): ${round(one.median)} ms in-process, ${
          round(many.median)
        } ms pooled`,
      });
      if (bytes >= corpus.bytes) break;
    }
    rows.push({
      section,
      metric: "default threshold (minBytes)",
      value: round(POOL_DEFAULTS.minBytes / 1024),
      unit: "KiB",
      note: "below it mapFiles stays in-process",
    });
    return rows;
  },
};
