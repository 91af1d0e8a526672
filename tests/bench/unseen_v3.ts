/**
 * A third unseen set, built only from code already on this machine (no
 * network) and from projects and version pairs that neither
 * `../shared/corpus`, the tests, nor the earlier unseen sets
 * (`unseen_debian.ts`, `unseen_releases.ts`, `unseen_multilang.ts`) hold.
 * Nobody tuned on it: it is measured once, on `main`, and reported.
 *
 * Every source is a pair of trees holding two versions of the same code:
 *
 * - Python: CPython's standard library 3.12.1 (pyenv) → 3.12.10 (the
 *   interpreter the Google Cloud SDK bundles); the libraries the Cloud SDK
 *   vendors (`lib/third_party`: requests, urllib3, botocore, pygments, ...)
 *   and the ones Debian ships in `dist-packages` against the newer releases
 *   pyenv's 3.11.7 carries; pip's and setuptools' `_vendor` trees (pip
 *   24.2 → 24.3.1 and setuptools 66.1.1 → 79.0.1; their own code is left
 *   out, earlier sets hold it).
 * - Java: Guava 31.1's Android flavour → its JRE flavour (the same classes,
 *   kept apart upstream; the JRE one adds what Java 8 offers). The JDK 17
 *   sources are not installed (only 25's), so no JDK pair.
 * - C: CPython's C headers 3.11.2 → 3.11.7 and 3.12.1 → 3.12.10.
 * - C++: libstdc++ 12's Library Fundamentals and Filesystem TS headers → the
 *   standard headers that grew out of them.
 * - Rust: `core`, `alloc` and `std` of the stable (1.95) and nightly (1.97)
 *   toolchains, read back from rustdoc's source pages; the crates rustc
 *   1.63's and cargo 0.66's Debian tarballs both vendor (older → newer).
 * - Go: Go 1.19's two type checkers, `cmd/compile/internal/types2` →
 *   `go/types` (no Go module is on disk in two versions: the Debian
 *   tarballs strip their vendor trees).
 * - Ruby: RubyGems 3.3.7 (Ruby 3.1's) → 3.3.15 (Debian's `vendor_ruby`).
 * - PHP: the copies of Composer's `ClassLoader.php` and
 *   `InstalledVersions.php` its test fixtures carry → its source's.
 * - JavaScript and TypeScript (and more C++): no package is on disk in two
 *   versions (Deno's npm cache and npm's `node_modules` agree), so they come
 *   from the npm releases `unseen_multilang.ts` downloaded, as jumps over
 *   several releases instead of its consecutive pairs: the files were seen,
 *   these changes were not (duplicates are dropped below).
 *
 * Each changed file gives one instance per hunk (the hunk applied alone, as
 * `unseen_releases.ts` cuts them) and, when it has {@link MULTI_MIN} to
 * {@link MULTI_MAX} hunks, one instance with all of them (a multi-hunk
 * patch). An instance whose change (its `-`/`+` lines, context ignored)
 * appears in the corpus, in an earlier unseen set or earlier in this one is
 * dropped. Per pair at most {@link PER_PAIR_ONE} one-hunk and
 * {@link PER_PAIR_MULTI} multi-hunk instances are kept, lowest sha1 of their
 * id first, then per language round-robin over pairs up to its cap; all of
 * it fixed before anything is measured.
 *
 * `deno run -A tests/bench/unseen_v3.ts [--out /work/lift-unseen/v3]` writes
 * `python.jsonl.gz` and `multilang.jsonl.gz` (corpus format with
 * `language`); a tree that is absent is skipped with a line saying which.
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

/** Two versions of the same code, as directories. */
export interface TreePair {
  repo: string;
  language: string;
  before: string;
  after: string;
  /** Relative paths (under both roots) that are diffed. */
  include: RegExp;
}

/** One-hunk instances kept per pair at most. */
export const PER_PAIR_ONE = 12;
/** Multi-hunk instances kept per pair at most. */
export const PER_PAIR_MULTI = 4;
/** Fewest hunks of a multi-hunk instance. */
export const MULTI_MIN = 2;
/** Most hunks of a multi-hunk instance (more is a release, not a patch). */
export const MULTI_MAX = 6;
/** Instances kept per language at most. */
export const PER_LANGUAGE: Record<string, number> = { python: 340 };
/** Instances kept per language beyond Python at most. */
export const PER_OTHER_LANGUAGE = 24;

const MAX_BYTES = 300_000;
const HOME = Deno.env.get("HOME") ?? "/root";
const PYENV = `${HOME}/.pyenv/versions`;
const SITE311 = `${PYENV}/3.11.7/lib/python3.11/site-packages`;
const GCLOUD = "/usr/lib/google-cloud-sdk";
const GCLOUD_PY = `${GCLOUD}/platform/bundledpythonunix`;
const GCLOUD_SITE = `${GCLOUD_PY}/lib/python3.12/site-packages`;
const DIST = "/usr/lib/python3/dist-packages";
const ML_WORK = "/work/lift-unseen/multilang/work";
const RUSTDOC = (channel: string) =>
  `${HOME}/.rustup/toolchains/${channel}-x86_64-unknown-linux-gnu/share/doc/rust/html/src`;

/** Python files outside tests and generated trees. */
const PY = /^(?!.*(?:^|\/)(?:tests?|idlelib|site-packages|__pycache__|_vendor\/[^/]+\/_vendor)\/).*\.py$/;

/** Directories (or single modules) of the Cloud SDK's `third_party` that pyenv's 3.11.7 also has. */
const GCLOUD_LIBS = [
  "boto3",
  "botocore",
  "certifi",
  "dateutil",
  "docker",
  "dotenv",
  "idna",
  "jmespath",
  "jsonschema",
  "markupsafe",
  "packaging",
  "prompt_toolkit",
  "pyasn1",
  "pygments",
  "pyparsing",
  "requests",
  "rsa",
  "s3transfer",
  "urllib3",
  "wcwidth",
  "yaml",
];

/** Debian's `dist-packages` entries whose newer release pyenv's 3.11.7 has. */
const DEBIAN_LIBS = ["_pytest", "attr", "attrs", "blinker", "cryptography", "iniconfig", "pluggy"];

function under(dir: string, rest: RegExp): RegExp {
  return new RegExp(`^${dir.replaceAll(".", "\\.")}/${rest.source.replace(/^\^/, "")}`);
}

/** The Python pairs (before → after). */
export function pythonPairs(): TreePair[] {
  const py = (repo: string, before: string, after: string, include: RegExp): TreePair => ({
    repo,
    language: "python",
    before,
    after,
    include,
  });
  return [
    py("cpython-stdlib-3.12", `${PYENV}/3.12.1/lib/python3.12`, `${GCLOUD_PY}/lib/python3.12`, PY),
    ...GCLOUD_LIBS.map((lib) => py(lib, `${GCLOUD}/lib/third_party`, SITE311, under(lib, PY))),
    ...DEBIAN_LIBS.map((lib) => py(lib === "attr" ? "attrs" : lib, DIST, SITE311, under(lib, PY))),
    py("six", DIST, SITE311, /^six\.py$/),
    py("cffi", `${GCLOUD_SITE}`, SITE311, under("cffi", PY)),
    py("pycparser", `${GCLOUD_SITE}`, SITE311, under("pycparser", PY)),
    py("pip-vendor", `${PYENV}/3.13.0/lib/python3.13/site-packages`, GCLOUD_SITE, under("pip/_vendor", PY)),
    py("setuptools-vendor", DIST, GCLOUD_SITE, under("setuptools/_vendor", PY)),
  ];
}

/** Text of a file when it is small enough to lift, else undefined. */
async function readSmall(path: string): Promise<string | undefined> {
  try {
    const text = await Deno.readTextFile(path);
    return text.length <= MAX_BYTES ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Rust source a rustdoc source page shows: the `<code>` block with its
 * line-number anchors and highlighting tags removed and entities decoded.
 */
export function rustdocSource(html: string): string | undefined {
  const start = html.indexOf('<pre class="rust"><code>');
  const end = html.indexOf("</code></pre>", start);
  if (start < 0 || end < 0) return undefined;
  const body = html.slice(start + '<pre class="rust"><code>'.length, end)
    .replace(/<a href=#\d+ id=\d+ data-nosnippet>\d+<\/a>/g, "")
    .replace(/<[^>]*>/g, "")
    .replace(
      /&(lt|gt|quot|#39|#x27|amp);/g,
      (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", "#x27": "'", amp: "&" })[e]!,
    );
  return body.endsWith("\n") ? body : body + "\n";
}

/** Writes the `.rs` sources of rustdoc's pages under `src` (one channel) into `dest`, once. */
async function rustdocTree(channel: string, dest: string): Promise<string | undefined> {
  const src = RUSTDOC(channel);
  if (!(await Deno.stat(src).catch(() => null))) return undefined;
  if (await Deno.stat(`${dest}/.done`).catch(() => null)) return dest;
  for (const rel of await filesUnder(src)) {
    if (!/^(core|alloc|std)\/.*\.rs\.html$/.test(rel)) continue;
    const text = rustdocSource(await Deno.readTextFile(`${src}/${rel}`));
    if (text === undefined) continue;
    const out = `${dest}/${rel.replace(/\.html$/, "")}`;
    await Deno.mkdir(out.slice(0, out.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(out, text);
  }
  await Deno.writeTextFile(`${dest}/.done`, "");
  return dest;
}

/** Unpacks `archive` (tar or zip) into `dest` once, only the members `patterns` name; `dest`, or undefined. */
async function unpacked(archive: string, dest: string, patterns: string[]): Promise<string | undefined> {
  if (!(await Deno.stat(archive).catch(() => null))) return undefined;
  if (await Deno.stat(`${dest}/.done`).catch(() => null)) return dest;
  await Deno.mkdir(dest, { recursive: true });
  const cmd = archive.endsWith(".zip")
    ? ["unzip", "-q", "-o", archive, ...patterns, "-d", dest]
    : ["tar", "-xf", archive, "-C", dest, "--wildcards", ...patterns];
  if (!(await run(cmd)).ok) return undefined;
  await Deno.writeTextFile(`${dest}/.done`, "");
  return dest;
}

/** The version a Cargo manifest declares (its first `version = "..."`). */
async function crateVersion(dir: string): Promise<string> {
  const text = await Deno.readTextFile(`${dir}/Cargo.toml`).catch(() => "");
  return /^version\s*=\s*"([^"]+)"/m.exec(text)?.[1] ?? "";
}

/** Orders two dotted versions numerically (a negative result: `a` is older). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map((p) => parseInt(p, 10) || 0);
  const pb = b.split(/[.+-]/).map((p) => parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  }
  return 0;
}

/** The pairs beyond Python that this machine has (unpacking archives into `work`). */
export async function otherPairs(work: string): Promise<TreePair[]> {
  const pairs: TreePair[] = [];
  const add = (repo: string, language: string, before?: string, after?: string, include = /./) => {
    if (before && after) pairs.push({ repo, language, before, after, include });
    else console.log(`skipped ${repo}: a tree is absent`);
  };
  const guava = await unpacked(
    `${ML_WORK}/debian/libguava-java/guava-libraries_31.1.orig.tar.xz`,
    `${work}/guava`,
    ["*/guava/src/*.java"],
  );
  add(
    "google/guava android→jre",
    "java",
    guava && `${guava}/guava-31.1/android/guava/src`,
    guava && `${guava}/guava-31.1/guava/src`,
    /\.java$/,
  );
  add(
    "cpython-include-3.11",
    "c",
    "/usr/include/python3.11",
    `${PYENV}/3.11.7/include/python3.11`,
    /^(?!pyconfig).*\.h$/,
  );
  add(
    "cpython-include-3.12",
    "c",
    `${PYENV}/3.12.1/include/python3.12`,
    `${GCLOUD_PY}/include/python3.12`,
    /^(?!pyconfig).*\.h$/,
  );
  add(
    "rust-lang/rust library",
    "rust",
    await rustdocTree("stable", `${work}/rust-stable`),
    await rustdocTree("nightly", `${work}/rust-nightly`),
    /\.rs$/,
  );
  pairs.push(...await cratePairs(work));
  for (const pair of [await goTypesPair(work), await libstdcxxPair(work)]) if (pair) pairs.push(pair);
  add("rubygems", "ruby", "/usr/lib/ruby/3.1.0", "/usr/lib/ruby/vendor_ruby", /^rubygems(\/.*)?\.rb$/);
  const composer = await unpacked(
    `${ML_WORK}/debian/composer/composer_2.5.5.orig.tar.xz`,
    `${work}/composer`,
    [
      "*/vendor/composer/*.php",
      "*/src/Composer/Autoload/ClassLoader.php",
      "*/src/Composer/InstalledVersions.php",
    ],
  );
  if (composer) pairs.push(...await composerPairs(composer));
  pairs.push(...npmPairs());
  return pairs;
}

/** Crates vendored by both rustc 1.63 and cargo 0.66, older → newer. */
async function cratePairs(work: string): Promise<TreePair[]> {
  const rustc = await unpacked(
    `${ML_WORK}/debian/rustc/rustc_1.63.0+dfsg1.orig.tar.xz`,
    `${work}/rustc`,
    ["*/vendor/*.rs", "*/vendor/*/Cargo.toml"],
  );
  const cargo = await unpacked(
    `${ML_WORK}/debian/cargo/cargo_0.66.0+ds1.orig-vendor.tar.gz`,
    `${work}/cargo`,
    ["vendor/*.rs", "vendor/*/Cargo.toml"],
  );
  if (!rustc || !cargo) return [];
  const rustcVendor = `${rustc}/rustc-1.63.0-src/vendor`;
  const pairs: TreePair[] = [];
  for (const entry of [...Deno.readDirSync(`${cargo}/vendor`)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    const a = `${rustcVendor}/${entry.name}`, b = `${cargo}/vendor/${entry.name}`;
    if (!(await Deno.stat(`${a}/Cargo.toml`).catch(() => null))) continue;
    const [va, vb] = [await crateVersion(a), await crateVersion(b)];
    if (va === vb) continue;
    const [before, after] = compareVersions(va, vb) < 0 ? [a, b] : [b, a];
    pairs.push({ repo: `crates/${entry.name}`, language: "rust", before, after, include: /^src\/.*\.rs$/ });
  }
  return pairs;
}

/**
 * A pair of trees made of files that stand at different paths on disk: each
 * `[before, after, path]` is copied to `path` under `view/before` and
 * `view/after` (once), so the diff names one path.
 */
async function viewPair(
  repo: string,
  language: string,
  view: string,
  files: [string, string, string][],
): Promise<TreePair | undefined> {
  for (const [before, after, path] of files) {
    for (const [side, from] of [["before", before], ["after", after]]) {
      const to = `${view}/${side}/${path}`;
      if (!(await Deno.stat(from).catch(() => null))) return undefined;
      await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
      await Deno.copyFile(from, to);
    }
  }
  return { repo, language, before: `${view}/before`, after: `${view}/after`, include: /./ };
}

/** Composer's fixture copies of its runtime classes → the source's own (one pair per fixture). */
async function composerPairs(root: string): Promise<TreePair[]> {
  const top = `${root}/composer-2.5.5`;
  const pairs: TreePair[] = [];
  for (const rel of (await filesUnder(top)).sort()) {
    const m = /^(tests\/.*\/vendor)\/composer\/(ClassLoader|InstalledVersions)\.php$/.exec(rel);
    if (!m) continue;
    const path = `${m[2] === "ClassLoader" ? "src/Composer/Autoload" : "src/Composer"}/${m[2]}.php`;
    const view = `${root}/views/${m[1].replaceAll("/", "_")}-${m[2]}`;
    const pair = await viewPair(`composer/${m[1].split("/").at(-2)}`, "php", view, [[
      `${top}/${rel}`,
      `${top}/${path}`,
      path,
    ]]);
    if (pair) pairs.push(pair);
  }
  return pairs;
}

/**
 * libstdc++ 12's Library Fundamentals and Filesystem TS headers → the
 * standard headers that grew out of them (`experimental/optional` →
 * `optional`, `experimental/bits/fs_path.h` → `bits/fs_path.h`, ...).
 */
async function libstdcxxPair(work: string): Promise<TreePair | undefined> {
  const inc = "/usr/include/c++/12";
  const files: [string, string, string][] = [];
  for (const name of ["fs_dir.h", "fs_fwd.h", "fs_ops.h", "fs_path.h"]) {
    files.push([`${inc}/experimental/bits/${name}`, `${inc}/bits/${name}`, `bits/${name}`]);
  }
  for (
    const name of ["any", "optional", "string_view", "memory_resource", "functional", "tuple", "type_traits"]
  ) {
    files.push([`${inc}/experimental/${name}`, `${inc}/${name}`, `${name}.hpp`]);
  }
  return await viewPair("gcc/libstdc++ experimental→std", "cpp", `${work}/libstdcxx`, files);
}

/**
 * Go 1.19's two type checkers: the compiler's `types2` → `go/types` (the same
 * algorithms kept in parallel upstream, one on the compiler's syntax tree,
 * one on `go/ast`), file by file where both have a file of that name.
 */
async function goTypesPair(work: string): Promise<TreePair | undefined> {
  const src = "/usr/lib/go-1.19/src";
  const files: [string, string, string][] = [];
  for (const rel of (await filesUnder(`${src}/go/types`)).sort()) {
    if (!rel.endsWith(".go") || rel.endsWith("_test.go") || rel.includes("/")) continue;
    if (await Deno.stat(`${src}/cmd/compile/internal/types2/${rel}`).catch(() => null)) {
      files.push([`${src}/cmd/compile/internal/types2/${rel}`, `${src}/go/types/${rel}`, `go/types/${rel}`]);
    }
  }
  return files.length
    ? await viewPair("golang/go types2→go/types", "go", `${work}/gotypes`, files)
    : undefined;
}

/** Jumps over several of the npm releases `unseen_multilang.ts` fetched. */
function npmPairs(): TreePair[] {
  const pairs: TreePair[] = [];
  const jump = (repo: string, language: string, pkg: string, from: string, to: string, include: RegExp) => {
    const at = (v: string) => `${ML_WORK}/npm/${pkg}/${v}/package`;
    pairs.push({ repo, language, before: at(from), after: at(to), include });
  };
  const lib = /^(lib\/.*|index)\.js$/;
  jump("tj/commander.js", "javascript", "commander", "14.0.0", "15.1.0", lib);
  jump("expressjs/express", "javascript", "express", "5.0.0", "5.3.0", lib);
  jump("websockets/ws", "javascript", "ws", "8.21.0", "8.23.0", lib);
  jump(
    "npm/node-semver",
    "javascript",
    "semver",
    "7.7.4",
    "7.8.6",
    /^(classes|functions|ranges|internal)\/.*\.js$/,
  );
  jump("ljharb/qs", "javascript", "qs", "6.15.2", "6.17.1", lib);
  jump("ReactiveX/rxjs", "typescript", "rxjs", "7.5.5", "7.8.2", /^src\/.*\.ts$/);
  jump("Effect-TS/effect", "typescript", "effect", "4.0.0", "4.1.0", /^src\/.*\.ts$/);
  jump("sindresorhus/type-fest", "typescript", "type-fest", "5.7.0", "6.0.3", /^source\/.*\.ts$/);
  jump("nodejs/nan", "cpp", "nan", "2.25.0", "2.30.0", /^nan[^/]*\.h$/);
  jump("nodejs/node-addon-api", "cpp", "node-addon-api", "8.4.0", "8.9.2", /^napi[^/]*\.h$/);
  jump("tree-sitter/tree-sitter-ruby", "cpp", "tree-sitter-ruby", "0.16.1", "0.19.0", /^src\/scanner\.cc$/);
  return pairs;
}

/**
 * The change a patch makes, context and position aside: sha1 of each hunk's
 * `-` and `+` lines. Two patches sharing a key make the same edit.
 */
export async function changeKeys(patch: string): Promise<string[]> {
  const keys: string[] = [];
  for (const hunk of patch.split(/^(?=@@ )/m).slice(1)) {
    const lines = hunk.split("\n").slice(1).filter((l) => l.startsWith("-") || l.startsWith("+"));
    if (lines.length) keys.push(await sha1Hex(lines.join("\n")));
  }
  return keys;
}

/** Reads the rows of a gzip-compressed JSON-lines file (none when it is absent). */
async function readJsonlGz(path: string): Promise<Record<string, unknown>[]> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path);
  } catch {
    return [];
  }
  const text = await new Response(file.readable.pipeThrough(new DecompressionStream("gzip"))).text();
  return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
}

/** The change keys of every patch in the corpus and in the earlier unseen sets. */
export async function knownChanges(files: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (const file of files) {
    for (const row of await readJsonlGz(file)) {
      for (const field of ["patch", "diff", "model_patch", "test_patch"]) {
        if (typeof row[field] === "string") {
          for (const k of await changeKeys(row[field] as string)) known.add(k);
        }
      }
    }
  }
  return known;
}

/** The corpus files and earlier unseen sets a v3 instance must not repeat. */
export function knownSetFiles(): string[] {
  const corpus = new URL("../../../shared/corpus/", import.meta.url).pathname;
  const files: string[] = [];
  try {
    for (const e of Deno.readDirSync(corpus)) {
      if (e.name.endsWith(".jsonl.gz")) files.push(`${corpus}${e.name}`);
    }
  } catch { /* no corpus: nothing to compare with */ }
  const unseen = "/work/lift-unseen";
  files.push(
    `${unseen}/dev.jsonl.gz`,
    `${unseen}/heldout.jsonl.gz`,
    `${unseen}/releases-v2/dev.jsonl.gz`,
    `${unseen}/releases-v2/heldout.jsonl.gz`,
    `${unseen}/multilang/unseen.jsonl.gz`,
  );
  return files.sort();
}

/** A candidate instance: which file of which pair, and which hunk (0: all of them). */
interface Candidate {
  key: string;
  id: string;
  path: string;
  before: string;
  after: string;
  hunk: number;
}

/** Every one-hunk and multi-hunk candidate of a pair, before selection. */
async function pairCandidates(pair: TreePair): Promise<Candidate[]> {
  const skip = (name: string) => name.startsWith(".") || name === "__pycache__";
  const found: Candidate[] = [];
  for (const path of (await filesUnder(pair.before, "", skip)).filter((p) => pair.include.test(p)).sort()) {
    const before = await readSmall(`${pair.before}/${path}`);
    const after = await readSmall(`${pair.after}/${path}`);
    if (before === undefined || after === undefined || before === after) continue;
    const hunks = (await unifiedDiff(path, before, after)).match(/^@@ /gm)?.length ?? 0;
    const base = `${pair.repo.replaceAll("/", "__")}__${path}`;
    for (let n = 1; n <= hunks; n++) {
      found.push({
        key: await sha1Hex(`${base}__h${n}`),
        id: `${base}__h${n}`,
        path,
        before,
        after,
        hunk: n,
      });
    }
    if (hunks >= MULTI_MIN && hunks <= MULTI_MAX) {
      found.push({ key: await sha1Hex(`${base}__all`), id: `${base}__all`, path, before, after, hunk: 0 });
    }
  }
  return found.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * The instances of one pair: lowest sha1 first, at most {@link PER_PAIR_ONE}
 * one-hunk and {@link PER_PAIR_MULTI} multi-hunk ones whose change `known`
 * does not hold, nor another kept one-hunk instance of the pair (what is
 * kept joins `known` once the pair is done).
 */
export async function pairInstances(pair: TreePair, known: Set<string>): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  const mine = new Set<string>(), singles = new Set<string>();
  let one = 0, multi = 0;
  for (const c of await pairCandidates(pair)) {
    if (c.hunk > 0 ? one >= PER_PAIR_ONE : multi >= PER_PAIR_MULTI) continue;
    const made = c.hunk > 0
      ? (await hunkInstances(c.path, c.before, c.after))[c.hunk - 1]
      : { after: c.after, patch: await unifiedDiff(c.path, c.before, c.after) };
    if (!made) continue;
    const keys = await changeKeys(made.patch);
    if (!keys.length || keys.some((k) => known.has(k))) continue;
    // a whole-file instance shares its hunks with that file's one-hunk ones; any other repeat goes
    if (c.hunk > 0 && singles.has(keys[0])) continue;
    if (c.hunk > 0) singles.add(keys[0]);
    for (const k of keys) mine.add(k);
    if (c.hunk > 0) one++;
    else multi++;
    rows.push({
      instance_id: c.id,
      repo: pair.repo,
      language: pair.language,
      hunks: c.hunk > 0 ? 1 : keys.length,
      patch: made.patch,
      files: [{ path: c.path, before: c.before, after: made.after }],
    });
  }
  for (const k of mine) known.add(k);
  return rows;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at >= 0 ? Deno.args[at + 1] : "/work/lift-unseen/v3";
  await Deno.mkdir(`${out}/work`, { recursive: true });
  const known = await knownChanges(knownSetFiles());
  console.log(`${known.size} known changes (corpus and earlier unseen sets)`);
  const byLanguage = new Map<string, Record<string, unknown>[][]>();
  for (const pair of [...pythonPairs(), ...await otherPairs(`${out}/work`)]) {
    if (
      !(await Deno.stat(pair.before).catch(() => null)) || !(await Deno.stat(pair.after).catch(() => null))
    ) {
      console.log(`skipped ${pair.repo}: "${pair.before}" or "${pair.after}" is absent`);
      continue;
    }
    const rows = await pairInstances(pair, known);
    console.log(`${pair.language} ${pair.repo}: ${rows.length}`);
    byLanguage.set(pair.language, [...(byLanguage.get(pair.language) ?? []), rows]);
  }
  const python: Record<string, unknown>[] = [];
  const other: Record<string, unknown>[] = [];
  for (const [language, lists] of byLanguage) {
    const kept = roundRobin(lists, PER_LANGUAGE[language] ?? PER_OTHER_LANGUAGE);
    (language === "python" ? python : other).push(...kept);
    const multi = kept.filter((r) => (r.hunks as number) > 1).length;
    console.log(
      `${language}: ${kept.length} (${multi} multi-hunk) from ${lists.filter((l) => l.length).length} pairs`,
    );
  }
  await writeJsonlGz(`${out}/python.jsonl.gz`, python);
  await writeJsonlGz(`${out}/multilang.jsonl.gz`, other);
  console.log(`python ${python.length}, multilang ${other.length} -> ${out}`);
}
