/**
 * A fourth unseen set, for issue 27's "every commit lifted": whole real
 * changes in the nine languages beyond Python, each lifted inside the
 * repository it was made in.
 *
 * The earlier sets cut release diffs into hunks and write only the changed
 * file, so a cut that is broken alone counts against lift, and nothing around
 * the file (an includer to compile a header in, the module that imports a
 * deleted name) takes part. Here every instance is one patch Debian carries
 * over an upstream project (`debian/patches/*`: mostly fixes backported
 * from upstream commits, some Debian's own), whole: every file it touches,
 * any kind (sources, tests, build files, docs), files it creates or deletes.
 * Its tree is the upstream tarball (with its component tarballs, as
 * `dpkg-source` lays them out) with the patches before it in `series`
 * applied, `debian/` left out.
 *
 * Selection, fixed before anything was measured. Packages: for C and C++
 * the ones {@link NAMED}; for the others those whose `Build-Depends` name the
 * language's Debian helper ({@link HELPERS}: dh-golang, dh-cargo, gem2deb,
 * ...), in sha1 order of their name, the ones this machine's mirror serves
 * (it lacks many) with upstream tarballs of at most 5 MB, tried until
 * {@link PER_LANGUAGE} of them gave an instance. Patches of a package: those
 * of `series` that apply with `patch -p1` in order and touch at least one
 * file of the language, with at most {@link MAX_CHANGED} changed lines, no
 * binary file and no file over 300 kB; of those the {@link PER_PACKAGE}
 * with the lowest sha1 of their id. Per language at most
 * {@link PER_LANGUAGE}, round-robin over its packages. No package is in
 * `../shared/corpus`, the tests or an earlier unseen set
 * (`unseen_debian.ts`, `unseen_multilang.ts`, `unseen_v3.ts`).
 *
 * `deno run -A tests/bench/unseen_trees.ts [--out /work/lift-unseen/trees4]`
 * writes `trees.jsonl.gz` (corpus format with `language` and `tree`, the
 * directory relative to the file) and one directory per instance under
 * `trees/`; then `deno run -A tests/bench/lift_multilang.ts --data
 * /work/lift-unseen/trees4/trees.jsonl.gz` lifts each patch in a copy of its
 * tree (`--lang go,rust` prepares only those, into `trees-go-rust.jsonl.gz`;
 * `--lang rust --packages cargo` takes the packages named, a part apart from
 * the set: `trees-rust-cargo.jsonl.gz`).
 * Needs `deb-src` in apt's sources (for apt's index of source packages);
 * a package the mirror does not serve is skipped with a line saying which.
 *
 * @module
 */

import { UNSEEN_PARTS } from "./unseen_debian.ts";
import { SOURCES } from "./unseen_multilang.ts";
import { roundRobin, run, sha1Hex, writeJsonlGz } from "./unseen_releases.ts";

/** Patches kept per package at most. */
export const PER_PACKAGE = 3;
/** Patches kept per language at most, round-robin over its packages. */
export const PER_LANGUAGE = 12;
/** Changed lines (`+` and `-`, all files) of a patch at most. */
export const MAX_CHANGED = 300;
const MAX_FILE = 300_000;

/** The files that make a patch count for a language. */
export const LANGUAGE_FILES: Readonly<Record<string, RegExp>> = {
  c: /\.[ch]$/,
  cpp: /\.(cc|cpp|cxx|hpp|hh|hxx|h)$/,
  go: /\.go$/,
  rust: /\.rs$/,
  java: /\.java$/,
  ruby: /\.rb$/,
  php: /\.php$/,
  javascript: /\.(js|mjs|cjs)$/,
  typescript: /\.(ts|mts|cts|tsx)$/,
};

/**
 * Debian's helper for a language's packaging, named in `Build-Depends`:
 * the packages of a language are the ones built with it. C and C++ have no
 * such helper and are named ({@link NAMED}).
 */
export const HELPERS: Readonly<Record<string, RegExp>> = {
  go: /(?<![\w-])dh-golang(?![\w-])/,
  rust: /(?<![\w-])dh-cargo(?![\w-])/,
  java: /(?<![\w-])maven-debian-helper(?![\w-])/,
  ruby: /(?<![\w-])gem2deb(?![\w-])/,
  php: /(?<![\w-])pkg-php-tools(?![\w-])/,
  javascript: /(?<![\w-])(dh-sequence-nodejs|pkg-js-tools)(?![\w-])/,
  typescript: /(?<![\w-])node-typescript(?![\w-])/,
};

/** C and C++ source packages (bookworm), chosen by hand before anything was measured. */
export const NAMED: Readonly<Record<string, readonly string[]>> = {
  c: [
    "sed",
    "gzip",
    "bzip2",
    "xz-utils",
    "libyaml",
    "htop",
    "screen",
    "patch",
    "findutils",
    "wget",
    "jansson",
    "bc",
  ],
  cpp: [
    "pugixml",
    "google-glog",
    "gflags",
    "rapidjson",
    "ninja-build",
    "zeromq3",
    "msgpack-cxx",
    "tinyxml",
    "flatbuffers",
    "libsass",
    "muparser",
    "box2d",
  ],
};

/** Packages probed on the mirror per language at most. */
const PROBED = 400;
/** Upstream tarballs over this size (bytes) are passed over. */
const MAX_ORIG = 5_000_000;
const MIRROR = "http://deb.debian.org/debian";
const SOURCES_INDEX = /_debian_dists_bookworm_main_source_Sources(\.lz4|\.gz|\.xz)?$/;

/** One source package of apt's index. */
interface SourceRecord {
  pkg: string;
  directory: string;
  /** File names and sizes (`Files:`). */
  files: { name: string; size: number }[];
  buildDepends: string;
}

/** Bookworm's source packages, from apt's index (needs `deb-src` in apt's sources). */
async function sourceRecords(): Promise<Map<string, SourceRecord>> {
  const lists = "/var/lib/apt/lists";
  const index = [...Deno.readDirSync(lists)].map((e) => e.name).find((n) => SOURCES_INDEX.test(n));
  if (!index) {
    throw new Error(
      `no bookworm Sources index in ${lists}: add deb-src to apt's sources, then apt-get update`,
    );
  }
  const text = (await run(["/usr/lib/apt/apt-helper", "cat-file", `${lists}/${index}`])).out;
  const records = new Map<string, SourceRecord>();
  for (const block of text.split("\n\n")) {
    const field = (name: string) => block.match(new RegExp(`^${name}: ?(.*(?:\\n .*)*)`, "m"))?.[1] ?? "";
    const pkg = field("Package").trim();
    if (!pkg) continue;
    const files = field("Files").split("\n").map((line) => line.trim().split(/\s+/)).filter((f) =>
      f.length === 3
    )
      .map(([, size, name]) => ({ name, size: Number(size) }));
    records.set(pkg, {
      pkg,
      directory: field("Directory").trim(),
      files,
      buildDepends: ["Build-Depends", "Build-Depends-Indep", "Build-Depends-Arch"].map(field).join(", "),
    });
  }
  return records;
}

/** Whether the mirror serves every file of a package (the index can name files the mirror lacks). */
async function served(record: SourceRecord): Promise<boolean> {
  for (const file of record.files) {
    const response = await fetch(`${MIRROR}/${record.directory}/${file.name}`, { method: "HEAD" }).catch(() =>
      null
    );
    if (!response?.ok) return false;
  }
  return true;
}

/** Packages of earlier unseen sets and of the corpus, never taken again. */
function seenBefore(): Set<string> {
  const seen = new Set<string>(Object.values(UNSEEN_PARTS).flat());
  for (const source of SOURCES) if (source.kind === "debian") seen.add(source.pkg);
  for (const name of ["cjson", "spdlog", "golang-github-gin-gonic-gin", "commons-lang3", "node-axios"]) {
    seen.add(name);
  }
  for (const name of ["php-monolog", "ruby-rack", "rust-ripgrep", "ripgrep", "node-pinia", "fmtlib", "jq"]) {
    seen.add(name);
  }
  return seen;
}

/**
 * The packages of `language` in the order they are tried: the named ones
 * (C, C++), or those built with the language's helper in sha1 order of their
 * name, the ones the mirror serves with upstream tarballs of at most
 * {@link MAX_ORIG} bytes (at most {@link PROBED} probed).
 */
async function* packagesOf(
  language: string,
  records: Map<string, SourceRecord>,
  given?: readonly string[],
): AsyncGenerator<SourceRecord> {
  const named = given ?? NAMED[language];
  if (named) {
    for (const pkg of named) {
      const record = records.get(pkg);
      if (record) yield record;
    }
    return;
  }
  const seen = seenBefore();
  const keyed = await Promise.all(
    [...records.values()].filter((r) => HELPERS[language].test(r.buildDepends) && !seen.has(r.pkg)).map(
      async (r) => ({ r, key: await sha1Hex(r.pkg) }),
    ),
  );
  keyed.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  for (const { r } of keyed.slice(0, PROBED)) {
    const orig = r.files.filter((f) => /\.orig(-[^.]+)?\.tar\./.test(f.name));
    if (!orig.length || orig.reduce((sum, f) => sum + f.size, 0) > MAX_ORIG) continue;
    if (!r.files.some((f) => /\.debian\.tar\./.test(f.name))) continue;
    if (await served(r)) yield r;
  }
}

/** Download a source package's files into `src` (once). */
async function fetchSource(record: SourceRecord, src: string): Promise<boolean> {
  for (const file of record.files) {
    const target = `${src}/${file.name}`;
    if ((await Deno.stat(target).catch(() => null))?.size === file.size) continue;
    const response = await fetch(`${MIRROR}/${record.directory}/${file.name}`).catch(() => null);
    if (!response?.ok) {
      await response?.body?.cancel();
      return false;
    }
    await Deno.writeFile(target, new Uint8Array(await response.arrayBuffer()));
  }
  return true;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A file's text, `undefined` when absent, `null` when binary, not UTF-8 or too large. */
async function readText(path: string): Promise<string | undefined | null> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch {
    return undefined;
  }
  if (bytes.length > MAX_FILE || bytes.includes(0)) return null;
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** The paths a patch names on either side (`-p1`), `/dev/null` left out. */
export function patchedPaths(patch: string): string[] {
  const paths = [...patch.matchAll(/^(?:\+\+\+|---) ([^\t\n]+)/gm)].map((m) => m[1].trim())
    .filter((p) => p !== "/dev/null" && p.includes("/")).map((p) => p.replace(/^[^/]+\//, ""));
  return [...new Set(paths)];
}

/** One file a patch changed: `undefined` on the side where it does not exist. */
export interface FileChange {
  path: string;
  before?: string;
  after?: string;
}

/**
 * The unified diff (`a/`, `b/`, `/dev/null` for created and deleted files)
 * of `changes`, as `git diff --no-index` writes it.
 */
export async function wholeDiff(changes: readonly FileChange[]): Promise<string> {
  const tmp = await Deno.makeTempDir({ prefix: "graphplan-trees-" });
  try {
    for (const side of ["a", "b"] as const) {
      await Deno.mkdir(`${tmp}/${side}`);
      for (const change of changes) {
        const text = side === "a" ? change.before : change.after;
        if (text === undefined) continue;
        const target = `${tmp}/${side}/${change.path}`;
        await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
        await Deno.writeTextFile(target, text);
      }
    }
    const out = await new Deno.Command("git", {
      args: ["diff", "--no-index", "--no-color", "--no-renames", "--no-prefix", "-U3", "a", "b"],
      cwd: tmp,
      stdout: "piped",
      stderr: "null",
    }).output();
    // --no-prefix names a created file b/path and a deleted one a/path on both sides of `diff --git`
    return new TextDecoder().decode(out.stdout).replace(
      /^diff --git [ab]\/(\S+) [ab]\/\S+$/gm,
      "diff --git a/$1 b/$1",
    );
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
}

/** Lines a diff adds or removes. */
export function changedLines(diff: string): number {
  return diff.split("\n").filter((line) => /^[+-]/.test(line) && !/^(\+\+\+|---) /.test(line)).length;
}

/** Whether every entry of a tarball sits under one top directory (then dpkg-source strips it). */
async function singleTop(tarball: string): Promise<boolean> {
  const listed = await run(["tar", "-tf", tarball]);
  const tops = new Set(listed.out.split("\n").filter(Boolean).map((entry) => entry.split("/")[0]));
  return tops.size === 1 && listed.out.split("\n").filter(Boolean).some((entry) => entry.includes("/"));
}

/** Lay out the upstream tree of a source package as `dpkg-source -x` does, `debian/` included. */
async function unpack(src: string, tree: string): Promise<boolean> {
  const names = [...Deno.readDirSync(src)].map((e) => e.name).filter((n) =>
    !n.endsWith(".asc") && !n.startsWith("snap-") && n !== "tree"
  );
  const orig = names.find((n) => /\.orig\.tar\./.test(n));
  const deb = names.find((n) => /\.debian\.tar\./.test(n));
  if (!orig || !deb) return false;
  await Deno.remove(tree, { recursive: true }).catch(() => {});
  await Deno.mkdir(tree, { recursive: true });
  const strip = async (tarball: string) => (await singleTop(tarball)) ? ["--strip-components=1"] : [];
  await run(["tar", "-xf", `${src}/${orig}`, ...await strip(`${src}/${orig}`), "-C", tree]);
  for (const component of names.filter((n) => /\.orig-[^.]+\.tar\./.test(n))) {
    const dir = `${tree}/${component.match(/\.orig-([^.]+)\.tar\./)![1]}`;
    await Deno.mkdir(dir, { recursive: true });
    await run(["tar", "-xf", `${src}/${component}`, ...await strip(`${src}/${component}`), "-C", dir]);
  }
  await Deno.remove(`${tree}/debian`, { recursive: true }).catch(() => {});
  await run(["tar", "-xf", `${src}/${deb}`, "-C", tree]);
  return true;
}

async function patchCommand(tree: string, name: string, dryRun: boolean): Promise<boolean> {
  const args = ["-p1", "-N", "-s", "--no-backup-if-mismatch", "-r", "-", "-i", `debian/patches/${name}`];
  const output = await new Deno.Command("patch", {
    args: dryRun ? ["--dry-run", ...args] : args,
    cwd: tree,
    stdout: "null",
    stderr: "null",
  }).output();
  return output.success;
}

/** One candidate patch of a package, with its whole diff. */
interface Candidate {
  id: string;
  key: string;
  name: string;
  diff: string;
  changes: FileChange[];
}

/** The instances of one package, its trees written under `out/trees`. */
async function packageInstances(
  language: string,
  record: SourceRecord,
  out: string,
): Promise<Record<string, unknown>[]> {
  const pkg = record.pkg;
  const src = `${out}/work/${pkg}`;
  await Deno.mkdir(src, { recursive: true });
  if (!(await fetchSource(record, src))) {
    console.error(`unseen-trees: "${pkg}": the mirror does not serve its files, skipped`);
    return [];
  }
  const tree = `${src}/tree`;
  if (!(await unpack(src, tree))) {
    console.error(`unseen-trees: "${pkg}": no .orig and .debian tarballs (a native package?), skipped`);
    return [];
  }
  const series = (await Deno.readTextFile(`${tree}/debian/patches/series`).catch(() => "")).split("\n")
    .map((line) => line.trim().split(/\s+/)[0]).filter((name) => name && !name.startsWith("#"));
  const candidates: Candidate[] = [];
  const snapshots = new Map<string, string>();
  for (const name of series) {
    const text = await Deno.readTextFile(`${tree}/debian/patches/${name}`).catch(() => "");
    const paths = patchedPaths(text);
    if (!paths.length || !(await patchCommand(tree, name, true))) continue;
    const changes: FileChange[] = [];
    let readable = paths.every((p) => !/\s/.test(p));
    for (const path of paths) {
      const before = await readText(`${tree}/${path}`);
      if (before === null) readable = false;
      changes.push({ path, before: before ?? undefined });
    }
    const id = `debian__${pkg}__${name.replace(/\.(patch|diff)$/, "").replaceAll("/", "_")}`;
    const eligible = readable && paths.some((p) => LANGUAGE_FILES[language].test(p));
    let snapshot: string | undefined;
    if (eligible) {
      // the tree before the patch, without the packaging
      snapshot = `${src}/snap-${candidates.length}`;
      await run(["cp", "-a", tree, snapshot]);
      await Deno.remove(`${snapshot}/debian`, { recursive: true }).catch(() => {});
    }
    if (!(await patchCommand(tree, name, false))) {
      console.error(`unseen-trees: "${pkg}" ${name}: applied in a dry run but not for real; rest skipped`);
      if (snapshot) await Deno.remove(snapshot, { recursive: true });
      break;
    }
    if (!eligible || !snapshot) continue;
    for (const change of changes) {
      const after = await readText(`${tree}/${change.path}`);
      if (after === null) readable = false;
      change.after = after ?? undefined;
    }
    const changed = changes.filter((c) => c.before !== c.after);
    const diff = readable && changed.length ? await wholeDiff(changed) : "";
    if (
      !diff || changedLines(diff) > MAX_CHANGED || !changed.some((c) => LANGUAGE_FILES[language].test(c.path))
    ) {
      await Deno.remove(snapshot, { recursive: true });
      continue;
    }
    snapshots.set(id, snapshot);
    candidates.push({ id, key: await sha1Hex(id), name, diff, changes: changed });
  }
  candidates.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const kept = candidates.slice(0, PER_PACKAGE);
  const rows: Record<string, unknown>[] = [];
  for (const candidate of candidates) {
    const snapshot = snapshots.get(candidate.id)!;
    if (!kept.includes(candidate)) {
      await Deno.remove(snapshot, { recursive: true });
      continue;
    }
    const home = `${out}/trees/${candidate.id}`;
    await Deno.remove(home, { recursive: true }).catch(() => {});
    await Deno.mkdir(`${out}/trees`, { recursive: true });
    await Deno.rename(snapshot, home);
    rows.push({
      instance_id: candidate.id,
      repo: `debian/${pkg}`,
      language,
      patch: candidate.diff,
      tree: `trees/${candidate.id}`,
      files: candidate.changes.map((c) => ({
        path: c.path,
        before: c.before ?? null,
        after: c.after ?? null,
      })),
    });
  }
  await Deno.remove(tree, { recursive: true });
  return rows;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at >= 0 ? Deno.args[at + 1] : "/work/lift-unseen/trees4";
  await Deno.mkdir(`${out}/work`, { recursive: true });
  const all: Record<string, unknown>[] = [];
  const records = await sourceRecords();
  // `--packages a,b` names the packages instead (for every language given): a part apart, not the set
  const given = Deno.args.includes("--packages")
    ? Deno.args[Deno.args.indexOf("--packages") + 1].split(",")
    : undefined;
  const languages = Deno.args.includes("--lang") ? Deno.args[Deno.args.indexOf("--lang") + 1].split(",") : [
    ...Object.keys(NAMED),
    ...Object.keys(HELPERS),
  ];
  for (const language of languages) {
    // packages are tried until PER_LANGUAGE of them gave an instance (round-robin then takes one of each)
    const lists: Record<string, unknown>[][] = [];
    for await (const record of packagesOf(language, records, given)) {
      const rows = await packageInstances(language, record, out);
      console.log(`${language} ${record.pkg}: ${rows.length} patches`);
      if (rows.length) lists.push(rows);
      if (lists.length >= PER_LANGUAGE && !NAMED[language] && !given) break;
    }
    const kept = roundRobin(lists, PER_LANGUAGE);
    // trees of instances the language cap left out are not kept
    for (const row of lists.flat().filter((row) => !kept.includes(row))) {
      await Deno.remove(`${out}/${row.tree}`, { recursive: true });
    }
    console.log(`${language}: ${kept.length} instances`);
    all.push(...kept);
  }
  const name = given
    ? `trees-${languages.join("-")}-${given.join("-")}.jsonl.gz`
    : Deno.args.includes("--lang")
    ? `trees-${languages.join("-")}.jsonl.gz`
    : "trees.jsonl.gz";
  await writeJsonlGz(`${out}/${name}`, all);
  console.log(`${all.length} instances in ${out}/${name}`);
}
