/**
 * What benchmark sections share: the number of runs, a scratch directory,
 * the one-file bundle built once from the current sources, and the corpus
 * `before` files extracted to disk. Everything is built lazily, so a run of
 * one section pays only for what it uses.
 *
 * @module
 */

import { buildBundle as buildRealBundle } from "../../tools/bundle.ts";
import { CORPUS_SKIP, corpusBeforeFiles } from "../_support/corpus.ts";
import type { BenchRow } from "./stats.ts";

/** The repository root (this file is tests/bench/context.ts). */
export const REPO_ROOT = new URL("../../", import.meta.url).pathname.replace(/\/$/, "");

/** The `deno` executable running the benchmark. */
export const DENO = Deno.execPath();

/** Python files extracted from the corpus. */
export interface CorpusDir {
  /** Absolute directory holding `<instance>/<path>` files. */
  dir: string;
  /** Paths relative to `dir`, in corpus order. */
  paths: string[];
  /** Total size in bytes (UTF-8, as on disk). */
  bytes: number;
}

/** Shared state of one benchmark run. */
export class BenchContext {
  /** Measured runs per figure (the median is reported). */
  readonly runs: number;
  /** A scratch directory removed at the end of the run. */
  readonly tmp: string;
  private bundlePath?: Promise<string>;
  private corpus?: Promise<CorpusDir>;

  constructor(options: { runs: number; tmp: string }) {
    this.runs = options.runs;
    this.tmp = options.tmp;
  }

  /**
   * The bundle of the current sources (`deno bundle --platform deno main.ts`),
   * built once into the scratch directory, in a folder with no deno.json.
   */
  bundle(): Promise<string> {
    this.bundlePath ??= buildBundle(`${this.tmp}/bundle/graphplan.js`);
    return this.bundlePath;
  }

  /** The corpus `before` Python files, extracted once (throws when the corpus is absent). */
  corpusDir(): Promise<CorpusDir> {
    if (CORPUS_SKIP) return Promise.reject(new Error(CORPUS_SKIP));
    this.corpus ??= extractCorpus(`${this.tmp}/corpus`);
    return this.corpus;
  }
}

/** Build the one-file bundle of main.ts at `out` (as `deno task bundle` does); return `out`. */
export async function buildBundle(out: string): Promise<string> {
  return await buildRealBundle(out);
}

async function extractCorpus(dir: string): Promise<CorpusDir> {
  const paths: string[] = [];
  let bytes = 0;
  for (const file of await corpusBeforeFiles(".py")) {
    const rel = `${file.id}/${file.path}`;
    const target = `${dir}/${rel}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    const data = new TextEncoder().encode(file.text);
    await Deno.writeFile(target, data);
    paths.push(rel);
    bytes += data.length;
  }
  return { dir, paths, bytes };
}

/**
 * A benchmark section: a named group of figures. Add one by writing
 * `tests/bench/<name>.ts` that exports a `BenchSection` and listing it in
 * `SECTIONS` in run.ts.
 */
export interface BenchSection {
  /** Short name, used on the command line (`deno task bench graph`). */
  name: string;
  /** One line saying what is measured. */
  description: string;
  /** Measure and return the rows; throw to report the whole section as failed. */
  run(ctx: BenchContext): Promise<BenchRow[]>;
}
