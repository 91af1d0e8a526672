/**
 * File operations that cannot be redirected outside the repository by a
 * directory swapped for a symlink while they run.
 *
 * A path is checked once (`Workspace.resolve` follows every symlink and
 * insists the real path stays inside the root), but another process can
 * replace a parent directory with a symlink to anywhere between that check
 * and the write. Deno has no `openat`/`renameat`, so the operations here use
 * the process's working directory as the directory handle: `chdir` into the
 * file's directory, check that its real path is still the one resolved
 * (refusing with `path-changed` when not), and then read, write and rename
 * by bare file name. From that moment the names are looked up in the
 * directory that was checked, wherever it is moved: a swap that happens
 * after the check redirects nothing. The whole operation is synchronous, so
 * no other code of this isolate runs with the changed working directory,
 * and the old one is put back before returning.
 *
 * The working directory belongs to the process, and one process may run
 * several isolates at once (`deno test --parallel` runs test files as
 * threads of one process; workers): two of them inside `inDirectory` would
 * read, write and rename in each other's directory. So the window holds an
 * exclusive lock that only the threads of this process share: `flock` on
 * the process's own `/proc/self/stat` (Linux; where there is no `/proc`,
 * nothing is locked).
 *
 * @module
 */

import { fail } from "../issue.ts";

/** Split an absolute path into its directory and its last name. */
export function splitPath(abs: string): { dir: string; base: string } {
  const slash = abs.lastIndexOf("/");
  return { dir: abs.slice(0, slash) || "/", base: abs.slice(slash + 1) };
}

/**
 * Run `fn` with the working directory at `dir` (an absolute, symlink-free
 * path), after checking that `dir` still is that directory. `fn` must be
 * synchronous and use bare names relative to it.
 */
export function inDirectory<T>(dir: string, fn: () => T): T {
  const lock = depth === 0 ? lockProcessCwd() : null;
  depth++;
  try {
    return inDirectoryLocked(dir, fn);
  } finally {
    depth--;
    lock?.close(); // closing the file releases its lock
  }
}

/** How deep this isolate is in `inDirectory` (the lock is taken once, by the outermost call). */
let depth = 0;

/** The process-wide lock of the working directory, or null where it cannot be taken. */
function lockProcessCwd(): Deno.FsFile | null {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync("/proc/self/stat", { read: true });
  } catch {
    return null;
  }
  try {
    file.lockSync(true);
  } catch {
    file.close();
    return null;
  }
  return file;
}

function inDirectoryLocked<T>(dir: string, fn: () => T): T {
  let back: string | null = null;
  try {
    back = Deno.cwd();
  } catch { /* the working directory was removed: return to "/" */ }
  try {
    try {
      Deno.chdir(dir);
    } catch (err) {
      refuse(dir, (err as Error).message.split(":")[0]);
    }
    const real = Deno.realPathSync(".");
    if (real !== dir) refuse(dir, `it now leads to "${real}"`);
    return fn();
  } finally {
    try {
      Deno.chdir(back ?? "/");
    } catch {
      Deno.chdir("/");
    }
  }
}

function refuse(dir: string, detail: string): never {
  fail("path-changed", `The directory "${dir}" changed while GraphPlan was writing in it: ${detail}`, {
    hint:
      "a directory of the repository was moved or replaced by a symlink: check it, then run the plan again",
  });
}

/** A file's bytes and status, read through its checked directory. */
export interface ConfinedFile {
  bytes: Uint8Array;
  mode: number | null;
  uid: number | null;
  gid: number | null;
}

/**
 * Read the regular file `abs` through its checked directory; null when it
 * does not exist. A symlink put in the file's place is refused, not followed.
 */
export function readConfined(abs: string): ConfinedFile | null {
  const { dir, base } = splitPath(abs);
  return inDirectory(dir, () => {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(base);
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return null;
      throw err;
    }
    if (info.isSymlink) refuse(dir, `"${base}" was replaced by a symlink`);
    return { bytes: Deno.readFileSync(base), mode: info.mode, uid: info.uid, gid: info.gid };
  });
}

/** Remove the file `abs` through its checked directory (no error when it is already gone). */
export function removeConfined(abs: string): void {
  const { dir, base } = splitPath(abs);
  inDirectory(dir, () => {
    try {
      Deno.removeSync(base);
    } catch (err) {
      if (!(err instanceof Deno.errors.NotFound)) throw err;
    }
  });
}
