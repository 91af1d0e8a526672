/**
 * Prepares real changes in the nine languages beyond Python from projects
 * that neither the tests nor `../shared/corpus/multilang-heldin.jsonl.gz`
 * contain (issue 27's measurement), from the two registries this machine
 * reaches:
 *
 * - npm: consecutive releases of packages that ship their sources
 *   (JavaScript libraries, TypeScript `src/` trees and `.d.ts` sources, the
 *   C scanners of tree-sitter grammars, the C++ headers of Node addon
 *   helpers). Each pair of releases is diffed file by file.
 * - Debian (bookworm `deb-src`): the fixes Debian carries over upstream
 *   projects, `debian/patches/*` applied in `series` order over the
 *   pristine upstream tarball; each patch's before and after of the files
 *   it touches are diffed.
 *
 * Every hunk of those diffs becomes one instance in the corpus format
 * (`instance_id`, `repo`, `language`, `patch`, `files: [{path, before,
 * after}]`): the file before, the file with that hunk alone applied, and the
 * one-hunk diff regenerated with `git diff --no-index`. Hunks of files added
 * or removed whole are left out. At most {@link PER_SOURCE} hunks per source,
 * the ones with the lowest sha1 of their id, and at most {@link PER_LANGUAGE}
 * per language, round-robin over its sources (both fixed before anything was
 * measured), so no project dominates a language. Nothing here was studied:
 * the whole set is measured once, and GraphPlan is not tuned on it.
 *
 * `deno run -A tests/bench/unseen_multilang.ts [--out /work/lift-unseen/multilang]`,
 * then `deno run -A tests/bench/lift_multilang.ts --data /work/lift-unseen/multilang/unseen.jsonl.gz`
 * and `deno run -A tests/bench/probe_multilang.ts --data ...` (refusal probes).
 * A source that cannot be fetched is skipped with a line saying which.
 *
 * @module
 */

import {
  filesUnder,
  hunkInstances,
  roundRobin,
  run,
  sha1Hex,
  unifiedDiff,
  writeJsonlGz,
} from "./unseen_releases.ts";

/** A package whose consecutive npm releases are diffed. */
interface NpmSource {
  kind: "npm";
  repo: string;
  language: string;
  pkg: string;
  versions: string[];
  /** Paths (inside the package) to diff. */
  include: RegExp;
}

/** A Debian source package whose `debian/patches` are replayed. */
interface DebianSource {
  kind: "debian";
  repo: string;
  language: string;
  pkg: string;
  include: RegExp;
}

type Source = NpmSource | DebianSource;

/** Hunks kept per source at most. */
export const PER_SOURCE = 8;

/** Hunks kept per language at most, taken round-robin over its sources. */
export const PER_LANGUAGE = 36;

const C = /\.[ch]$/;
const CPP = /\.(cc|cpp|cxx|hpp|hh|h)$/;

/** Every source, by language; none is in the tests or the multilang corpus. */
export const SOURCES: Source[] = [
  ...npm("javascript", "tj/commander.js", "commander", [
    "14.0.0",
    "14.0.1",
    "14.0.2",
    "14.0.3",
    "15.0.0",
    "15.1.0",
  ], /^lib\/.*\.js$/),
  ...npm(
    "javascript",
    "expressjs/express",
    "express",
    ["5.0.0", "5.0.1", "5.1.0", "5.2.0", "5.2.1", "5.3.0"],
    /^(lib\/.*|index)\.js$/,
  ),
  ...npm("javascript", "websockets/ws", "ws", [
    "8.21.0",
    "8.21.1",
    "8.21.2",
    "8.21.3",
    "8.22.0",
    "8.22.1",
    "8.23.0",
  ], /^lib\/.*\.js$/),
  ...npm("javascript", "npm/node-semver", "semver", [
    "7.7.4",
    "7.8.0",
    "7.8.1",
    "7.8.2",
    "7.8.3",
    "7.8.4",
    "7.8.5",
    "7.8.6",
  ], /^(classes|functions|ranges|internal)\/.*\.js$/),
  ...npm("javascript", "ljharb/qs", "qs", [
    "6.15.2",
    "6.15.3",
    "6.15.4",
    "6.16.0",
    "6.16.1",
    "6.16.2",
    "6.17.0",
    "6.17.1",
  ], /^lib\/.*\.js$/),
  ...npm("typescript", "ReactiveX/rxjs", "rxjs", [
    "7.5.5",
    "7.5.6",
    "7.5.7",
    "7.6.0",
    "7.7.0",
    "7.8.0",
    "7.8.1",
    "7.8.2",
  ], /^src\/.*\.ts$/),
  ...npm("typescript", "Effect-TS/effect", "effect", [
    "4.0.0",
    "4.0.1",
    "4.0.2",
    "4.0.3",
    "4.0.4",
    "4.0.5",
    "4.0.6",
    "4.1.0",
  ], /^src\/.*\.ts$/),
  ...npm("typescript", "sindresorhus/type-fest", "type-fest", [
    "5.7.0",
    "5.8.0",
    "5.9.0",
    "5.10.0",
    "6.0.0",
    "6.0.1",
    "6.0.2",
    "6.0.3",
  ], /^source\/.*\.ts$/),
  ...npm("c", "tree-sitter/tree-sitter-javascript", "tree-sitter-javascript", [
    "0.20.4",
    "0.21.0",
    "0.21.2",
    "0.21.3",
    "0.21.4",
    "0.23.0",
    "0.23.1",
    "0.25.0",
  ], /^src\/scanner\.c$/),
  ...npm("c", "tree-sitter/tree-sitter-bash", "tree-sitter-bash", [
    "0.20.5",
    "0.21.0",
    "0.23.0",
    "0.23.1",
    "0.23.2",
    "0.23.3",
    "0.25.0",
    "0.25.1",
  ], /^src\/scanner\.c$/),
  ...npm(
    "c",
    "tree-sitter/tree-sitter-html",
    "tree-sitter-html",
    ["0.20.4", "0.23.0", "0.23.1", "0.23.2"],
    /^src\/(scanner\.c|tag\.h)$/,
  ),
  ...npm("c", "tree-sitter/tree-sitter-rust", "tree-sitter-rust", [
    "0.21.0",
    "0.23.0",
    "0.23.1",
    "0.23.2",
    "0.23.3",
    "0.24.0",
  ], /^src\/scanner\.c$/),
  ...npm(
    "cpp",
    "tree-sitter/tree-sitter-ruby",
    "tree-sitter-ruby",
    ["0.16.1", "0.16.2", "0.17.0", "0.19.0"],
    /^src\/scanner\.cc$/,
  ),
  ...npm("cpp", "nodejs/nan", "nan", [
    "2.25.0",
    "2.26.0",
    "2.26.1",
    "2.26.2",
    "2.27.0",
    "2.28.0",
    "2.29.0",
    "2.30.0",
  ], /^nan[^/]*\.h$/),
  ...npm("cpp", "nodejs/node-addon-api", "node-addon-api", [
    "8.4.0",
    "8.5.0",
    "8.6.0",
    "8.7.0",
    "8.8.0",
    "8.9.0",
    "8.9.1",
    "8.9.2",
  ], /^napi[^/]*\.h$/),
  ...debian(
    "java",
    ["tomcat10", "libguava-java", "ant", "jcommander", "jetty9", "maven", "junit4"],
    /\.java$/,
  ),
  ...debian("ruby", ["ruby3.1", "rails", "ruby-sinatra", "ruby-nokogiri"], /\.rb$/),
  ...debian("php", [
    "php-twig",
    "php-league-commonmark",
    "composer",
    "php-symfony",
    "php-guzzlehttp-psr7",
    "phpunit",
  ], /\.php$/),
  ...debian("go", [
    "rclone",
    "containerd",
    "runc",
    "golang-github-containers-image",
    "prometheus",
    "libpod",
    "golang-1.19",
  ], /\.go$/),
  ...debian("rust", ["rustc", "cargo", "rust-clap"], /\.rs$/),
  ...debian("c", ["curl", "zlib", "expat", "lz4", "zstd", "libpng1.6", "tmux", "nano", "less"], C),
  ...debian("cpp", [
    "yaml-cpp",
    "nlohmann-json3",
    "tinyxml2",
    "re2",
    "leveldb",
    "snappy",
    "cli11",
    "catch2",
    "googletest",
  ], CPP),
];

function npm(language: string, repo: string, pkg: string, versions: string[], include: RegExp): NpmSource[] {
  return [{ kind: "npm", repo, language, pkg, versions, include }];
}

function debian(language: string, pkgs: string[], include: RegExp): DebianSource[] {
  return pkgs.map((pkg) => ({ kind: "debian", repo: `debian/${pkg}`, language, pkg, include }));
}

async function readOr(path: string): Promise<string | undefined> {
  try {
    const text = await Deno.readTextFile(path);
    return text.length <= 300_000 ? text : undefined;
  } catch {
    return undefined;
  }
}

/** One changed file: its before and after text. */
interface Change {
  label: string;
  path: string;
  before: string;
  after: string;
}

/** The changed files of each pair of consecutive releases of an npm package. */
async function npmChanges(source: NpmSource, work: string): Promise<Change[]> {
  const dirs: string[] = [];
  for (const version of source.versions) {
    const dir = `${work}/npm/${source.pkg}/${version}`;
    if (!(await Deno.stat(`${dir}/package`).catch(() => null))) {
      await Deno.mkdir(dir, { recursive: true });
      const packed = await run(["npm", "pack", `${source.pkg}@${version}`, "--silent"], dir);
      const tgz = packed.out.trim().split("\n").at(-1);
      if (!packed.ok || !tgz) {
        console.error(`unseen-multilang: "${source.pkg}@${version}": npm pack failed, skipped`);
        continue;
      }
      await run(["tar", "-xzf", `${dir}/${tgz}`, "-C", dir]);
    }
    dirs.push(`${dir}/package`);
  }
  const changes: Change[] = [];
  for (let i = 1; i < dirs.length; i++) {
    for (const path of (await filesUnder(dirs[i - 1])).filter((p) => source.include.test(p)).sort()) {
      const before = await readOr(`${dirs[i - 1]}/${path}`);
      const after = await readOr(`${dirs[i]}/${path}`);
      if (before === undefined || after === undefined || before === after) continue;
      const label = `${dirs[i - 1].split("/").at(-2)}..${dirs[i].split("/").at(-2)}`;
      changes.push({ label, path, before, after });
    }
  }
  return changes;
}

/** The paths a patch names, relative to the tree (`+++ b/path`, `-p1`). */
function patchedPaths(patch: string, include: RegExp): string[] {
  const paths = [...patch.matchAll(/^\+\+\+ ([^\t\n]+)/gm)].map((m) => m[1].trim())
    .filter((p) => p !== "/dev/null").map((p) => p.replace(/^[^/]+\//, ""));
  return [...new Set(paths.filter((p) => include.test(p)))];
}

/** The files each Debian patch changes, before and after it (series order). */
async function debianChanges(source: DebianSource, work: string): Promise<Change[]> {
  const src = `${work}/debian/${source.pkg}`;
  await Deno.mkdir(src, { recursive: true });
  const names = () => [...Deno.readDirSync(src)].map((e) => e.name);
  if (!names().some((n) => /\.orig\.tar\./.test(n))) {
    if (!(await run(["apt-get", "source", "--download-only", source.pkg], src)).ok) {
      console.error(`unseen-multilang: "${source.pkg}": apt-get source failed, skipped`);
      return [];
    }
  }
  const orig = names().find((n) => /\.orig\.tar\./.test(n));
  const deb = names().find((n) => /\.debian\.tar\./.test(n));
  if (!orig || !deb) return [];
  const tree = `${src}/tree`;
  await Deno.remove(tree, { recursive: true }).catch(() => {});
  await Deno.mkdir(tree, { recursive: true });
  await run(["tar", "-xf", `${src}/${deb}`, "-C", tree]);
  const series = (await Deno.readTextFile(`${tree}/debian/patches/series`).catch(() => "")).split("\n")
    .map((line) => line.trim().split(/\s+/)[0]).filter((name) => name && !name.startsWith("#"));
  const patches = new Map<string, string>();
  for (const name of series) {
    const text = await Deno.readTextFile(`${tree}/debian/patches/${name}`).catch(() => "");
    if (patchedPaths(text, source.include).length) patches.set(name, text);
  }
  const wanted = [...new Set([...patches.values()].flatMap((text) => patchedPaths(text, /./)))];
  if (!wanted.length) return [];
  // only the files the patches name: an upstream tree can be far larger
  await run([
    "tar",
    "-xf",
    `${src}/${orig}`,
    "--strip-components=1",
    "-C",
    tree,
    "--wildcards",
    ...wanted.map((p) => `*/${p}`),
  ]);
  const changes: Change[] = [];
  for (const name of series) {
    const text = patches.get(name) ??
      await Deno.readTextFile(`${tree}/debian/patches/${name}`).catch(() => "");
    const paths = patchedPaths(text, source.include);
    const before = new Map<string, string | undefined>();
    for (const path of paths) before.set(path, await readOr(`${tree}/${path}`));
    const applied = await new Deno.Command("patch", {
      args: ["-p1", "-N", "-s", "--no-backup-if-mismatch", "-r", "-", "-i", `debian/patches/${name}`],
      cwd: tree,
      stdout: "null",
      stderr: "null",
    }).output();
    if (!applied.success || !patches.has(name)) continue;
    for (const path of paths) {
      const after = await readOr(`${tree}/${path}`);
      const was = before.get(path);
      if (was === undefined || after === undefined || was === after) continue;
      changes.push({ label: name.replace(/\.(patch|diff)$/, ""), path, before: was, after });
    }
  }
  return changes;
}

/**
 * Instances of one source: its hunks, at most {@link PER_SOURCE}, lowest
 * sha1 of id first (chosen from one diff per file, then only the chosen
 * hunks are cut out: a release can change hundreds of files).
 */
async function sourceInstances(source: Source, work: string): Promise<Record<string, unknown>[]> {
  const changes = source.kind === "npm" ? await npmChanges(source, work) : await debianChanges(source, work);
  const keyed: { key: string; id: string; change: Change; n: number }[] = [];
  for (const change of changes) {
    const hunks = (await unifiedDiff(change.path, change.before, change.after)).match(/^@@ /gm)?.length ?? 0;
    for (let n = 1; n <= hunks; n++) {
      const id = `${source.repo.replaceAll("/", "__")}__${change.label}__${change.path}__h${n}`;
      keyed.push({ key: await sha1Hex(id), id, change, n });
    }
  }
  keyed.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const rows: Record<string, unknown>[] = [];
  for (const { id, change, n } of keyed.slice(0, PER_SOURCE)) {
    const hunk = (await hunkInstances(change.path, change.before, change.after))[n - 1];
    if (!hunk) continue;
    rows.push({
      instance_id: id,
      repo: source.repo,
      language: source.language,
      patch: hunk.patch,
      files: [{ path: change.path, before: change.before, after: hunk.after }],
    });
  }
  return rows;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at >= 0 ? Deno.args[at + 1] : "/work/lift-unseen/multilang";
  const work = `${out}/work`;
  await Deno.mkdir(work, { recursive: true });
  const bySource = new Map<string, Record<string, unknown>[][]>();
  for (const source of SOURCES) {
    const rows = await sourceInstances(source, work);
    console.log(`${source.language} ${source.repo}: ${rows.length} hunks`);
    bySource.set(source.language, [...(bySource.get(source.language) ?? []), rows]);
  }
  const all: Record<string, unknown>[] = [];
  const counts = new Map<string, number>();
  for (const [language, lists] of bySource) {
    const kept = roundRobin(lists, PER_LANGUAGE);
    all.push(...kept);
    counts.set(language, kept.length);
  }
  await writeJsonlGz(`${out}/unseen.jsonl.gz`, all);
  console.log(`${[...counts].map(([l, n]) => `${l} ${n}`).join(", ")}`);
  console.log(`${all.length} instances -> ${out}/unseen.jsonl.gz`);
}
