/**
 * A fresh dev/heldout pair of unseen Python patches from one pair of
 * installed trees that no earlier set used (for instance pyenv's CPython
 * standard library 3.8.18 → 3.9.18), for tuning the lift vocabulary on code
 * it was never fitted to.
 *
 * Each changed `.py` file gives one instance per hunk (the hunk applied
 * alone, cut as `unseen_releases.ts` cuts them) and, with `--multi`, when it
 * has `MULTI_MIN` to `MULTI_MAX` hunks (those of `unseen_v3.ts`), one
 * instance with all of them, as v3 has (a whole file's change: the one-hunk
 * ones of that file are not dropped for sharing its hunks). The split is fixed before
 * anything is measured: a file is `dev` when the first hex digit of
 * sha1(repo + "/" + path) is 0–7, else `heldout`. Within a part, at most
 * `--per-file` hunks of one file are kept (lowest sha1 of the instance id
 * first; a file's multi-hunk instance comes second), then at most `--cap`
 * instances, round-robin over files; an instance with a change (a hunk's
 * `-`/`+` lines) that the corpus, an earlier unseen set (v3 and the dev sets
 * of `unseen_dev_v4.ts` and this script among them, when present) or a
 * `--known` file holds is dropped (`knownChanges` of `unseen_v3.ts`).
 * `--vendor` keeps `_vendor` directories (vendored libraries, as v3 has).
 *
 * `deno run -A tests/bench/unseen_pair.ts --before DIR --after DIR --repo NAME
 * --out DIR [--per-file 3] [--cap 300] [--multi] [--vendor] [--known FILE]...`
 * writes `DIR/dev.jsonl.gz` and `DIR/heldout.jsonl.gz` (corpus format). Data
 * is never committed.
 *
 * @module
 */

import {
  filesUnder,
  hunkInstances,
  roundRobin,
  sha1Hex,
  unifiedDiff,
  writeJsonlGz,
} from "./unseen_releases.ts";
import { changeKeys, knownChanges, knownSetFiles, MULTI_MAX, MULTI_MIN } from "./unseen_v3.ts";

/** Directories never read: tests, caches, vendored and IDE code. */
const SKIP_DIRS = new Set(["__pycache__", "site-packages", "test", "tests", "idlelib", "_vendor", "lib2to3"]);

/** Options of {@link pairParts}. */
export interface PairOptions {
  before: string;
  after: string;
  repo: string;
  perFile: number;
  cap: number;
  /** Also a whole-file instance of a file with MULTI_MIN to MULTI_MAX hunks. */
  multi?: boolean;
  /** Read `_vendor` directories too. */
  vendor?: boolean;
}

/** Every earlier set an instance must not repeat: {@link knownSetFiles}, v3 and the later dev sets present. */
export function pairKnownFiles(extra: string[]): string[] {
  const unseen = "/work/lift-unseen";
  const later = [`${unseen}/v3/python.jsonl.gz`, `${unseen}/v3/multilang.jsonl.gz`];
  for (const dir of ["dev-v4", "dev-v4b"]) {
    try {
      for (const e of Deno.readDirSync(`${unseen}/${dir}`)) {
        if (e.name.endsWith(".jsonl.gz")) later.push(`${unseen}/${dir}/${e.name}`);
      }
    } catch { /* absent: nothing to compare with */ }
  }
  return [...knownSetFiles(), ...later, ...extra];
}

/** The dev and heldout instances of one tree pair, selected as the module essay says. */
export async function pairParts(
  options: PairOptions,
  known: Set<string>,
): Promise<{ dev: Record<string, unknown>[]; heldout: Record<string, unknown>[] }> {
  const skip = (name: string) =>
    (SKIP_DIRS.has(name) && !(options.vendor && name === "_vendor")) || name.startsWith(".") ||
    name.startsWith("config-");
  const paths = (await filesUnder(options.before, "", skip)).filter((p) => p.endsWith(".py")).sort();
  const byPart = { dev: [] as Record<string, unknown>[][], heldout: [] as Record<string, unknown>[][] };
  for (const path of paths) {
    let before: string, after: string;
    try {
      [before, after] = [
        await Deno.readTextFile(`${options.before}/${path}`),
        await Deno.readTextFile(
          `${options.after}/${path}`,
        ),
      ];
    } catch {
      continue;
    }
    if (before === after) continue;
    const part = parseInt((await sha1Hex(`${options.repo}/${path}`))[0], 16) < 8 ? "dev" : "heldout";
    const rows: { key: string; row: Record<string, unknown> }[] = [];
    let n = 0;
    for (const hunk of await hunkInstances(path, before, after)) {
      const id = `${options.repo}__${path}__h${++n}`;
      const keys = await changeKeys(hunk.patch);
      if (!keys.length || keys.some((k) => known.has(k))) continue;
      rows.push({
        key: await sha1Hex(id),
        row: {
          instance_id: id,
          repo: options.repo,
          hunks: 1,
          patch: hunk.patch,
          files: [{ path, before, after: hunk.after }],
        },
      });
    }
    rows.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    const kept = rows.slice(0, options.perFile).map((r) => r.row);
    const whole = options.multi && n >= MULTI_MIN && n <= MULTI_MAX
      ? await wholeFile(options.repo, path, before, after, known)
      : undefined;
    if (whole) kept.splice(1, 0, whole);
    if (kept.length) byPart[part].push(kept);
  }
  return { dev: roundRobin(byPart.dev, options.cap), heldout: roundRobin(byPart.heldout, options.cap) };
}

/** The instance of all of a file's hunks, unless a change of it is known. */
async function wholeFile(
  repo: string,
  path: string,
  before: string,
  after: string,
  known: Set<string>,
): Promise<Record<string, unknown> | undefined> {
  const patch = await unifiedDiff(path, before, after);
  const keys = await changeKeys(patch);
  if (keys.length < MULTI_MIN || keys.some((k) => known.has(k))) return undefined;
  return {
    instance_id: `${repo}__${path}__all`,
    repo,
    hunks: keys.length,
    patch,
    files: [{ path, before, after }],
  };
}

if (import.meta.main) {
  const arg = (name: string) => {
    const at = Deno.args.indexOf(name);
    return at >= 0 ? Deno.args[at + 1] : undefined;
  };
  const [before, after, repo, out] = [arg("--before"), arg("--after"), arg("--repo"), arg("--out")];
  if (!before || !after || !repo || !out) {
    console.error('Missing argument: give "--before", "--after", "--repo" and "--out"');
    Deno.exit(2);
  }
  const extra = Deno.args.flatMap((a, i) => Deno.args[i - 1] === "--known" ? [a] : []);
  const known = await knownChanges(pairKnownFiles(extra));
  const parts = await pairParts({
    before,
    after,
    repo,
    perFile: Number(arg("--per-file") ?? 3),
    cap: Number(arg("--cap") ?? 300),
    multi: Deno.args.includes("--multi"),
    vendor: Deno.args.includes("--vendor"),
  }, known);
  await Deno.mkdir(out, { recursive: true });
  for (const [part, rows] of Object.entries(parts)) {
    await writeJsonlGz(`${out}/${part}.jsonl.gz`, rows);
    console.log(`${part}: ${rows.length} instances -> ${out}/${part}.jsonl.gz`);
  }
}
