/**
 * A C or C++ header that does not compile on its own, compiled where it is
 * used: in a file of the repository that includes it.
 *
 * Many headers declare nothing of what they use (`napi-inl.h` is included at
 * the end of `napi.h`, libstdc++'s `bits/stl_map.h` by `<map>` after
 * `bits/stl_tree.h`, CPython's `cpython/*.h` by `Python.h`), so `gcc`/`g++
 * -fsyntax-only` on the header alone reports hundreds of errors and gives
 * no verdict. Its includer does: the includer is compiled in a temporary
 * directory that mirrors the repository's paths, with the header's edited
 * text in its place and that directory first on the include path (every
 * ancestor directory of the header, so `#include "napi-inl.h"`,
 * `<bits/stl_map.h>` and `"cpython/funcobject.h"` all reach the copy), then
 * the repository's own directories.
 *
 * A clean compile of the includer says nothing about a header text the
 * preprocessor never reached (an include guard already defined, a branch
 * of a conditional the configuration leaves out, an includer that includes
 * another file of the same name). So the includer vouches for the text only
 * where it demonstrably reads it: a *sentinel* (`0 0`, two numbers in a
 * row, an error in every context the parser reads and in none it skips) put
 * at each place in question must make the compiler report an error on that
 * line of the header.
 *
 * Includers are found by a bounded walk of the repository ({@link WALK_LIMIT}
 * files) for `#include` lines whose spelled path ends the header's path;
 * those in the header's own directory come first, at most
 * {@link INCLUDERS} are tried.
 *
 * A header that is a copy of one installed with the compiler (libstdc++'s
 * `include/bits/fs_dir.h` and `/usr/include/c++/12/bits/fs_dir.h`, found by
 * `system_headers.ts`) has *installed includers* too: the files under the
 * same system root that include it (`/usr/include/c++/12/filesystem`),
 * found by the same walk there. Such an includer is compiled with the
 * header's text at its path below the root and nothing of the repository
 * on the include path, so the rest of the installed library around it is
 * the installed one. Every compile here also finds a `<header>` installed
 * one directory below a system root (`<node_api.h>`, `system_headers.ts`).
 *
 * @module
 */

import { ancestorDirs } from "./tool.ts";
import { compileFindingHeaders, installedCopyOf } from "./system_headers.ts";

/** Files read at most while looking for includers. */
export const WALK_LIMIT = 4000;
/** Includers tried at most. */
export const INCLUDERS = 2;
const MAX_SIZE = 2_000_000;
const SOURCE = /\.(c|cc|cpp|cxx|h|hh|hpp|hxx|inl|tcc)$/;
const SKIPPED_DIRS = new Set([".git", "node_modules", "build", "out", "target", ".venv"]);
const INCLUDE = /^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]/gm;

/** A file that includes the header, with its text. */
export interface Includer {
  /** Its path in the repository, or below its system root when `installed`. */
  path: string;
  text: string;
  /**
   * Set for a header installed with the compiler (see the module notes):
   * the path below the same root of the header it includes, and that
   * header's installed text.
   */
  installed?: { header: string; text: string };
}

/** Files of `root` (at most {@link WALK_LIMIT} read) that `#include` the header at `path`, nearest first. */
export async function includersOf(root: string, path: string): Promise<Includer[]> {
  return nearestFirst(await filesIncluding(root, path), path);
}

/**
 * When `path` is a copy of a header installed with the compiler (the same
 * tail of path below one of its system roots, `system_headers.ts`), the
 * installed files beside it that include it, nearest first; else none.
 */
export async function installedIncludersOf(path: string, language: "c" | "cpp"): Promise<Includer[]> {
  const copy = await installedCopyOf(language === "c" ? "gcc" : "g++", path);
  if (!copy) return [];
  const text = await readSmall(`${copy.root}/${copy.rel}`);
  if (text === undefined) return [];
  const found = await filesIncluding(copy.root, copy.rel);
  return nearestFirst(found, copy.rel).map((includer) => ({
    ...includer,
    installed: { header: copy.rel, text },
  }));
}

async function filesIncluding(root: string, path: string): Promise<Includer[]> {
  const found: Includer[] = [];
  let read = 0;
  const walk = async (dir: string): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(`${root}${dir ? `/${dir}` : ""}`)];
    } catch {
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : 1);
    for (const entry of entries) {
      if (read >= WALK_LIMIT) return;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".")) await walk(rel);
      } else if (entry.isFile && rel !== path && (SOURCE.test(entry.name) || !entry.name.includes("."))) {
        read++;
        const text = await readSmall(`${root}/${rel}`);
        if (text !== undefined && includes(text, path)) found.push({ path: rel, text });
      }
    }
  };
  await walk("");
  return found;
}

function nearestFirst(found: Includer[], path: string): Includer[] {
  const near = (p: string) => p.slice(0, p.lastIndexOf("/") + 1) === path.slice(0, path.lastIndexOf("/") + 1);
  found.sort((a, b) => Number(near(b.path)) - Number(near(a.path)) || a.path.length - b.path.length);
  return found.slice(0, INCLUDERS);
}

async function readSmall(abs: string): Promise<string | undefined> {
  try {
    if ((await Deno.stat(abs)).size > MAX_SIZE) return undefined;
    const text = await Deno.readTextFile(abs);
    return text.includes("\0") ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Whether `text` has an `#include` whose spelled path is the end of `path` (whole path segments). */
export function includes(text: string, path: string): boolean {
  for (const m of text.matchAll(INCLUDE)) {
    const spelled = m[1].replace(/^\.\//, "");
    if (path === spelled || path.endsWith(`/${spelled}`)) return true;
  }
  return false;
}

/** How one compile of an includer went: success, and the header's lines the compiler reported errors on. */
export interface IncluderRun {
  ok: boolean;
  errorLines: Set<number>;
}

/**
 * Compile `includer` (C when `language` is "c") with `header` (repository
 * path `path`) holding `text`; null when the compiler could not run.
 */
export async function compileThrough(
  root: string,
  path: string,
  text: string,
  includer: Includer,
  language: "c" | "cpp",
): Promise<IncluderRun | null> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-includer-" });
  // an installed includer finds the header at its own path below the root, and nothing of the repository's
  const at = includer.installed?.header ?? path;
  try {
    for (const [rel, content] of [[includer.path, includer.text], [at, text]]) {
      const abs = `${dir}/${rel}`;
      await Deno.mkdir(abs.slice(0, abs.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(abs, content);
    }
    const dirs = (base: string) => [...ancestorDirs(base, at), ...ancestorDirs(base, includer.path)];
    const search = [
      ...new Set([...dirs(dir), ...(includer.installed ? [] : [...dirs(root), `${root}/include`])]),
    ];
    const header = /\.(h|hh|hpp|hxx|inl|tcc)$|^[^.]*$/.test(
      includer.path.slice(includer.path.lastIndexOf("/") + 1),
    );
    const kind = language === "c" ? (header ? "c-header" : "c") : (header ? "c++-header" : "c++");
    const args = [
      "-fsyntax-only",
      language === "c" ? "-std=gnu11" : "-std=gnu++17",
      "-x",
      kind,
      ...search.flatMap((d) => ["-I", d]),
      `${dir}/${includer.path}`,
    ];
    const output = await compileFindingHeaders(language === "c" ? "gcc" : "g++", args, { cwd: dir });
    if (!output) return null;
    const stderr = output.stderr;
    const errorLines = new Set<number>();
    const escaped = `${dir}/${at}`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    for (const m of stderr.matchAll(new RegExp(`^${escaped}:(\\d+):\\d+: (?:fatal )?error`, "gm"))) {
      errorLines.add(Number(m[1]));
    }
    return { ok: output.success, errorLines };
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/** `text` with the sentinel `0 0` put at each of `offsets` (see the module notes), and the lines they stand on. */
export function withSentinels(text: string, offsets: number[]): { text: string; lines: number[] } {
  const sorted = [...new Set(offsets)].sort((a, b) => b - a);
  let out = text;
  for (const offset of sorted) out = `${out.slice(0, offset)} 0 0 ${out.slice(offset)}`;
  const lines = sorted.map((offset) => text.slice(0, offset).split("\n").length);
  return { text: out, lines };
}
