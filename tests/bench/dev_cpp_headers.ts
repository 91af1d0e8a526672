/**
 * A tuning set of C and C++ header changes (issue 27's header family), built
 * offline from version pairs on this machine that the v3 unseen set does not
 * use (`unseen_v3.ts` takes CPython 3.11.2→3.11.7 and 3.12.1→3.12.10 and
 * libstdc++'s `experimental/` → std for any, optional, string_view,
 * memory_resource, functional, tuple, type_traits and the filesystem headers):
 *
 * - C: CPython's headers across pyenv's minor versions (3.6→3.7, 3.7→3.8,
 *   3.8→3.9, 3.9→3.10, 3.10→3.11.7, 3.11.7→3.12.1), internal headers with
 *   generated initialiser tables included.
 * - C++: libstdc++ 12's TR1 headers → the standard ones that replaced them
 *   (`tr1/hashtable.h` → `bits/hashtable.h`, `tr1/tuple` → `tuple`, ...) and
 *   the `experimental/` headers v3 leaves out (ratio, system_error, array,
 *   numeric, iterator, source_location, algorithm, memory, ...).
 * - Second round (branch cpp-ctx, headers that only compile where they are
 *   included): libstdc++'s sibling `bits/` headers written from one another
 *   (`bits/stl_map.h` → `bits/stl_multimap.h`, `stl_set.h` →
 *   `stl_multiset.h`, `stl_vector.h` → `stl_bvector.h`, `basic_string.h` →
 *   `cow_string.h`, `debug/map.h` → `debug/multimap.h`, ...), CPython
 *   3.12.1 → 3.13.0, and node-addon-api 8.5.0 → 8.8.0 and nan 2.26.0 →
 *   2.29.0 from the npm releases `unseen_multilang.ts` fetched (v3 jumps
 *   8.4.0 → 8.9.2 and 2.25.0 → 2.30.0; a change v3 holds is dropped too).
 *
 * Each changed file gives one-hunk instances (the hunk applied alone, as
 * `unseen_releases.ts` cuts them), at most {@link PER_FILE} per file (two for C), lowest
 * sha1 first; CPython headers under {@link MIN_SIZE} are left out. Files are split into `dev` and `heldout` by the sha1 of their
 * pair and path (a quarter held out), fixed before anything is measured; an
 * instance whose change the corpus or an earlier unseen set holds is dropped.
 *
 * `deno run -A tests/bench/dev_cpp_headers.ts [--out /work/lift-unseen/dev-cpp] [--second [--first DIR]]`
 * (`--second`: the second round's pairs only, the changes of the first
 * round written to DIR and v3's left out) writes `dev.jsonl.gz` and `heldout.jsonl.gz` (corpus format with
 * `language`); an absent tree is skipped with a line saying which.
 *
 * @module
 */

import { hunkInstances, sha1Hex, writeJsonlGz } from "./unseen_releases.ts";
import { changeKeys, knownChanges, knownSetFiles } from "./unseen_v3.ts";

/** One-hunk instances kept per changed file at most, by language (CPython's headers change far more often). */
export const PER_FILE: Record<string, number> = { c: 2, cpp: 6 };

/** One header pair: `before` and `after` paths and the path the instance gives it. */
interface HeaderPair {
  repo: string;
  language: string;
  before: string;
  after: string;
  path: string;
}

/** Smallest header (characters) taken, by language: the family is large headers, and small C ones abound. */
export const MIN_SIZE: Record<string, number> = { c: 16_000, cpp: 0 };

const HOME = Deno.env.get("HOME") ?? "/root";

/** CPython's headers between two pyenv versions, file by file. */
function cpythonPairs(from: string, to: string): HeaderPair[] {
  const dir = (v: string) => {
    const root = `${HOME}/.pyenv/versions/${v}/include`;
    try {
      for (const e of Deno.readDirSync(root)) if (e.name.startsWith("python")) return `${root}/${e.name}`;
    } catch { /* absent */ }
    return undefined;
  };
  const before = dir(from), after = dir(to);
  if (!before || !after) {
    console.log(`skipped cpython ${from}->${to}: a tree is absent`);
    return [];
  }
  const pairs: HeaderPair[] = [];
  const walk = (rel: string) => {
    for (const e of Deno.readDirSync(`${before}/${rel}`)) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) walk(path);
      else if (e.name.endsWith(".h") && !e.name.startsWith("pyconfig")) {
        pairs.push({
          repo: `cpython-include ${from}->${to}`,
          language: "c",
          before: `${before}/${path}`,
          after: `${after}/${path}`,
          path,
        });
      }
    }
  };
  walk("");
  return pairs;
}

/** libstdc++ 12: TR1 and `experimental/` headers → the standard headers (those v3 does not use). */
function libstdcxxPairs(): HeaderPair[] {
  const inc = "/usr/include/c++/12";
  const pairs: HeaderPair[] = [];
  const add = (repo: string, before: string, after: string) => {
    const path = after.includes("/") ? after : `${after}.hpp`;
    pairs.push({ repo, language: "cpp", before: `${inc}/${before}`, after: `${inc}/${after}`, path });
  };
  for (const name of ["array", "functional", "tuple", "type_traits", "memory"]) {
    add("tr1->std", `tr1/${name}`, name);
  }
  for (
    const name of [
      "hashtable.h",
      "hashtable_policy.h",
      "shared_ptr.h",
      "unordered_map.h",
      "unordered_set.h",
      "random.h",
      "random.tcc",
      "functional_hash.h",
    ]
  ) add("tr1->std", `tr1/${name}`, `bits/${name}`);
  for (
    const name of [
      "ratio",
      "system_error",
      "array",
      "numeric",
      "iterator",
      "source_location",
      "algorithm",
      "memory",
      "random",
      "utility",
      "chrono",
    ]
  ) add("experimental->std", `experimental/${name}`, name);
  add("experimental->std", "experimental/bits/shared_ptr.h", "bits/shared_ptr.h");
  add("experimental->std", "experimental/bits/string_view.tcc", "bits/string_view.tcc");
  return pairs;
}

/** libstdc++ 12: sibling `bits/` and `debug/` headers written from one another (they compile only where included). */
function libstdcxxSiblingPairs(): HeaderPair[] {
  const inc = "/usr/include/c++/12";
  const pairs: [string, string][] = [
    ["bits/stl_map.h", "bits/stl_multimap.h"],
    ["bits/stl_set.h", "bits/stl_multiset.h"],
    ["bits/stl_vector.h", "bits/stl_bvector.h"],
    ["bits/basic_string.h", "bits/cow_string.h"],
    ["bits/stl_list.h", "bits/forward_list.h"],
    ["bits/unique_ptr.h", "bits/shared_ptr.h"],
    ["bits/std_mutex.h", "bits/unique_lock.h"],
    ["bits/stl_queue.h", "bits/stl_stack.h"],
    ["debug/map.h", "debug/multimap.h"],
    ["debug/set.h", "debug/multiset.h"],
    ["backward/hash_map", "backward/hash_set"],
  ];
  return pairs.map(([before, after]) => ({
    repo: "libstdc++ siblings",
    language: "cpp",
    before: `${inc}/${before}`,
    after: `${inc}/${after}`,
    path: after,
  }));
}

/** Two npm releases of a header-only C++ package (`files` at the package's top). */
function npmHeaderPairs(pkg: string, from: string, to: string, files: string[]): HeaderPair[] {
  const at = (v: string) => `/work/lift-unseen/multilang/work/npm/${pkg}/${v}/package`;
  return files.map((path) => ({
    repo: `${pkg} ${from}->${to}`,
    language: "cpp",
    before: `${at(from)}/${path}`,
    after: `${at(to)}/${path}`,
    path,
  }));
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}

/** Whether a file goes to the held-out part: a quarter of files by sha1 of pair and path. */
export async function fileHeldOut(repo: string, path: string): Promise<boolean> {
  return parseInt((await sha1Hex(`${repo}\n${path}`)).slice(0, 2), 16) < 64;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--out");
  const out = at >= 0 ? Deno.args[at + 1] : "/work/lift-unseen/dev-cpp";
  await Deno.mkdir(out, { recursive: true });
  const second = Deno.args.includes("--second");
  const firstAt = Deno.args.indexOf("--first");
  const first = firstAt >= 0 ? Deno.args[firstAt + 1] : "/work/lift-unseen/dev-cpp";
  const known = await knownChanges([
    ...knownSetFiles(),
    "/work/lift-unseen/v3/multilang.jsonl.gz",
    ...(second ? [`${first}/dev.jsonl.gz`, `${first}/heldout.jsonl.gz`] : []),
  ]);
  const pairs = second
    ? [
      ...libstdcxxSiblingPairs(),
      ...cpythonPairs("3.12.1", "3.13.0"),
      ...npmHeaderPairs("node-addon-api", "8.5.0", "8.8.0", ["napi.h", "napi-inl.h"]),
      ...npmHeaderPairs("nan", "2.26.0", "2.29.0", [
        "nan.h",
        "nan_callbacks_12_inl.h",
        "nan_implementation_12_inl.h",
      ]),
    ]
    : [
      ...cpythonPairs("3.6.15", "3.7.16"),
      ...cpythonPairs("3.7.16", "3.8.18"),
      ...cpythonPairs("3.8.18", "3.9.18"),
      ...cpythonPairs("3.9.18", "3.10.13"),
      ...cpythonPairs("3.10.13", "3.11.7"),
      ...cpythonPairs("3.11.7", "3.12.1"),
      ...libstdcxxPairs(),
    ];
  const parts = { dev: [] as Record<string, unknown>[], heldout: [] as Record<string, unknown>[] };
  for (const pair of pairs) {
    const before = await readText(pair.before), after = await readText(pair.after);
    if (before === undefined || after === undefined || before === after) continue;
    if (before.length < MIN_SIZE[pair.language]) continue;
    const made = await hunkInstances(pair.path, before, after);
    const rows: { key: string; row: Record<string, unknown> }[] = [];
    for (const [k, hunk] of made.entries()) {
      const keys = await changeKeys(hunk.patch);
      if (!keys.length || keys.some((key) => known.has(key))) continue;
      for (const key of keys) known.add(key);
      const id = `${pair.repo.replace(/[^\w.>-]+/g, "_")}__${pair.path}__h${k + 1}`;
      rows.push({
        key: await sha1Hex(id),
        row: {
          instance_id: id,
          repo: pair.repo,
          language: pair.language,
          hunks: 1,
          patch: hunk.patch,
          files: [{ path: pair.path, before, after: hunk.after }],
        },
      });
    }
    rows.sort((a, b) => a.key < b.key ? -1 : 1);
    const part = await fileHeldOut(pair.repo, pair.path) ? "heldout" : "dev";
    parts[part].push(...rows.slice(0, PER_FILE[pair.language]).map((r) => r.row));
  }
  for (const [name, rows] of Object.entries(parts)) {
    await writeJsonlGz(`${out}/${name}.jsonl.gz`, rows);
    const by = (lang: string) => rows.filter((r) => r.language === lang).length;
    console.log(`${name}: ${rows.length} (c ${by("c")}, cpp ${by("cpp")}) -> ${out}/${name}.jsonl.gz`);
  }
}
