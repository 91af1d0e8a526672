/**
 * The compiler's own include directories, as far as the C family's oracles
 * (`native.ts`, `includers.ts`) need them: where an installed header lives
 * that a compile cannot find, and whether a repository's header is a copy of
 * an installed one.
 *
 * ## Headers one directory down
 *
 * Libraries install their headers in a directory of their own under a system
 * root (`/usr/include/node/node_api.h`, `/usr/include/python3.11/Python.h`)
 * and their users spell `#include <node_api.h>`, since their build adds
 * `-I/usr/include/node`. Without that flag `gcc -fsyntax-only` stops at the
 * first such line (`fatal error: node_api.h: No such file or directory`)
 * and gives no verdict on anything. {@link compileFindingHeaders} reads the
 * missing name from that message, looks for it in every direct
 * subdirectory of the compiler's system roots (`gcc -E -v` lists them) and,
 * when exactly one directory holds it, compiles again with that directory
 * added (`-I`); with none or with several (two versions side by side) it
 * guesses nothing and the failure stands. At most {@link RETRIES} headers
 * are found this way per compile.
 *
 * Worked example: `napi.h` of node-addon-api includes `<node_api.h>`; the
 * first compile fails on that line, `/usr/include/node/node_api.h` is the
 * only match, and the second compile, with `-I /usr/include/node`, reads
 * `napi.h` and `napi-inl.h` to the end.
 *
 * ## Installed copies
 *
 * {@link installedCopyOf} tells whether a repository's header (libstdc++'s
 * own `include/bits/fs_dir.h`, a vendored copy of it) stands at the same
 * relative path under a system root (`/usr/include/c++/12/bits/fs_dir.h`):
 * the installed headers around it are then a context that uses it
 * (`includers.ts`).
 *
 * @module
 */

import { runTool } from "./tool.ts";

/** Headers found and added at most per compile. */
export const RETRIES = 4;

const MISSING = /fatal error: ([^\s:]+): No such file or directory\n[^\n]*#[ \t]*include[ \t]*<([^>\n]+)>/;

const roots = new Map<string, Promise<string[]>>();

/** The directories `program` searches for `#include <...>`, in its order (empty when it cannot run). */
export function systemIncludeRoots(program: "gcc" | "g++"): Promise<string[]> {
  let found = roots.get(program);
  if (!found) {
    found = runTool(program, ["-x", program === "gcc" ? "c" : "c++", "-E", "-v", "-"], {
      cwd: "/",
      stdinText: "",
    }).then((output) => {
      const text = output?.stderr ?? "";
      const start = text.indexOf("#include <...> search starts here:");
      const end = text.indexOf("End of search list.", start);
      if (start === -1 || end === -1) return [];
      return text.slice(start, end).split("\n").slice(1).map((line) => line.trim())
        .filter((line) => line.startsWith("/")).map((line) => line.replace(/\/+$/, ""));
    });
    roots.set(program, found);
  }
  return found;
}

/** The one direct subdirectory of a root in `rootDirs` that holds `name`, or undefined (none, or several). */
export function uniqueSubdirHolding(rootDirs: readonly string[], name: string): string | undefined {
  const holders = new Set<string>();
  for (const root of rootDirs) {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(root)];
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory && !entry.isSymlink) continue;
      const dir = `${root}/${entry.name}`;
      if (isFile(`${dir}/${name}`)) holders.add(Deno.realPathSync(dir));
    }
  }
  return holders.size === 1 ? [...holders][0] : undefined;
}

/**
 * Run `program` (gcc or g++) with `args`, adding `-I` for each `<header>`
 * it cannot find that one subdirectory of its system roots holds (see the
 * module notes); null when it could not run.
 */
export async function compileFindingHeaders(
  program: "gcc" | "g++",
  args: string[],
  options: { cwd: string; env?: Record<string, string>; stdinText?: string },
): Promise<{ success: boolean; stderr: string } | null> {
  const added: string[] = [];
  for (let attempt = 0;; attempt++) {
    const output = await runTool(program, [...added, ...args], options);
    if (!output || output.success || attempt === RETRIES) return output;
    const missing = MISSING.exec(output.stderr);
    if (!missing || missing[1] !== missing[2]) return output;
    const dir = uniqueSubdirHolding(await systemIncludeRoots(program), missing[1]);
    if (!dir || added.includes(dir)) return output;
    added.push("-I", dir);
  }
}

/**
 * Where `path` (a repository path) is installed: the system root and the
 * longest tail of `path` (whole segments, at least the file name) that is a
 * file under it; undefined when none is.
 */
export async function installedCopyOf(
  program: "gcc" | "g++",
  path: string,
): Promise<{ root: string; rel: string } | undefined> {
  const parts = path.split("/");
  const rootDirs = await systemIncludeRoots(program);
  for (let n = 0; n < parts.length; n++) {
    const rel = parts.slice(n).join("/");
    for (const root of rootDirs) if (isFile(`${root}/${rel}`)) return { root, rel };
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
