/**
 * File operations that a directory swapped for a symlink while they run
 * cannot turn into writes outside the repository, without ever changing
 * the process's working directory (which all threads of a process share:
 * `deno test --parallel`, workers).
 *
 * ## The race
 *
 * `Workspace.resolve` follows every symlink of a path once and insists that
 * the real path stays inside the root. Another process can then replace a
 * parent directory with a symlink to anywhere, and a later `open` or
 * `rename` by that absolute path would follow it. POSIX closes this with a
 * directory handle (`openat`, `renameat`, `unlinkat`); Deno has none of
 * them, nor `O_NOFOLLOW`, nor `fchmod`. So every operation here brackets
 * its system calls with checks instead, and undoes what a check shows went
 * astray:
 *
 * - the parent's real path (`realPath`) must still be the directory that
 *   was resolved inside the root (`path-changed` otherwise): equality, which
 *   is stricter than "inside the root" (a directory renamed within the
 *   repository is refused too, and the plan rolls back);
 * - the file an operation works on is identified by device and inode,
 *   taken from the open handle (`fstat`) or from `lstat`, and must still be
 *   the entry at its name in the checked parent after the operation.
 *
 * ## What each operation guarantees
 *
 * - **Replace** (`replaceConfined`, used by `atomicWrite`): check the
 *   parent; create the temporary file (a name unique to this process) with
 *   `createNew`; check that the parent is unchanged and that the entry at
 *   the temporary name is the file just opened, before a single byte is
 *   written (a temporary file that landed in an outside directory is
 *   removed there while still empty); write, chmod and fsync it; check both
 *   again right before `rename(2)` and right after it (the target name
 *   must now hold the temporary file's inode). A failed check refuses the
 *   write with `path-changed` after undoing it: the temporary file is
 *   removed wherever it is found (in the parent, at the parent's new real
 *   path, or in a sibling the parent was renamed to), and a file that was
 *   renamed into an outside directory is removed from there.
 * - **Remove** (`removeConfined`): the file is first renamed to a unique
 *   name beside it, and only unlinked once the checks show it is the file
 *   that was checked, in the checked directory; otherwise it is renamed
 *   back. Nothing outside is ever unlinked under its own name.
 * - **Read** (`readConfined`): the file read is the one at the name in the
 *   checked directory before and after the read (same inode); a symlink in
 *   the file's place is refused, not followed.
 * - Mode changes go through `atomicWrite` (a new file with the wanted
 *   mode), never `chmod` by name.
 *
 * ## The window that remains
 *
 * `rename(2)` looks up the old and the new path one after the other. A swap
 * that lands between those two lookups, inside that single system call (a
 * few microseconds, after the pre-rename check passed), makes the rename
 * move the temporary file into the outside directory, replacing a file of
 * the same name there. The post-rename check sees it and removes GraphPlan's
 * bytes from there, but the outside file it replaced is gone: that one
 * case is detected and reported (`path-changed`, naming the outside path),
 * not prevented. Likewise, two swaps (out and back) between creating a
 * temporary file and checking it leave an empty temporary file in the
 * outside directory, which cannot be found by name afterwards. Closing
 * these needs `renameat`/`openat` on a directory handle, which Deno does
 * not offer. The executor adds one more layer: a refused write fails the
 * step, and the journal rolls the plan back (or keeps the journal for
 * `rollback` when the directory still leads outside).
 *
 * @module
 */

import { fail, IssueError } from "../base/issue.ts";

/** Whether anything, even a dangling symlink, has the name `path` (`lstat`: links are not followed). */
export function entryExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Split an absolute path into its directory and its last name. */
export function splitPath(abs: string): { dir: string; base: string } {
  const slash = abs.lastIndexOf("/");
  return { dir: abs.slice(0, slash) || "/", base: abs.slice(slash + 1) };
}

/** Device and inode of a file: what identifies it whatever its name. */
interface Identity {
  dev: number;
  ino: number | null;
}

function identityOf(info: Deno.FileInfo): Identity {
  return { dev: info.dev, ino: info.ino };
}

function sameIdentity(a: Identity | null, b: Identity | null): boolean {
  return a !== null && b !== null && a.dev === b.dev && a.ino === b.ino;
}

/** The identity of the entry at `path` (not following a final symlink), or null when there is none. */
function entryAt(path: string): Identity | null {
  try {
    return identityOf(Deno.lstatSync(path));
  } catch {
    return null;
  }
}

/** The real path of `dir` now, or null when it cannot be resolved (removed, mid-swap). */
function realPathNow(dir: string): string | null {
  try {
    return Deno.realPathSync(dir);
  } catch {
    return null;
  }
}

function refuse(dir: string, detail: string): never {
  fail("path-changed", `The directory "${dir}" changed while GraphPlan was writing in it: ${detail}`, {
    hint:
      "a directory of the repository was moved or replaced by a symlink: check it, then run the plan again",
  });
}

/**
 * Refuse (`path-changed`) unless `dir` (an absolute, symlink-free path
 * that was resolved inside the repository) still is that directory.
 */
export function checkDirectory(dir: string): void {
  const real = realPathNow(dir);
  if (real === null) refuse(dir, "it can no longer be resolved");
  if (real !== dir) refuse(dir, `it now leads to "${real}"`);
}

/** Whether `dir` still is that directory and the entry at `path` in it is `id`. */
function stillThere(dir: string, path: string, id: Identity | null): boolean {
  return realPathNow(dir) === dir && sameIdentity(entryAt(path), id) && realPathNow(dir) === dir;
}

let counter = 0;

/** A hidden name beside `abs`, unique to this process: `.NAME.graphplan-PID-N.tmp`. */
export function tempPathFor(abs: string): string {
  const { dir, base } = splitPath(abs);
  counter++;
  return `${dir}/.${base}.graphplan-${Deno.pid}-${counter}.tmp`;
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
  try {
    return readChecked(abs);
  } catch (err) {
    throw movedError(err, splitPath(abs).dir);
  }
}

function readChecked(abs: string): ConfinedFile | null {
  const { dir, base } = splitPath(abs);
  checkDirectory(dir);
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(abs);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) {
      checkDirectory(dir);
      return null;
    }
    throw err;
  }
  if (info.isSymlink) refuse(dir, `"${base}" was replaced by a symlink`);
  const file = Deno.openSync(abs, { read: true });
  let opened: Deno.FileInfo;
  let bytes: Uint8Array;
  try {
    opened = file.statSync();
    bytes = readAll(file, opened.size);
  } finally {
    file.close();
  }
  if (!sameIdentity(identityOf(info), identityOf(opened)) || !stillThere(dir, abs, identityOf(opened))) {
    refuse(dir, `"${base}" was read from elsewhere`);
  }
  return { bytes, mode: opened.mode, uid: opened.uid, gid: opened.gid };
}

/** How `replaceConfined` fills the temporary file. */
export interface ReplaceSteps {
  /** The temporary path to use (from `tempPathFor`). */
  tempPath: string;
  /** Mode bits the temporary file is created with. */
  mode: number;
  /** Write the contents through the open handle (the file is fsync'd afterwards). */
  fill: (file: Deno.FsFile, tempPath: string) => void;
  /** Called right before the rename (a test hook; synchronous). */
  beforeRename?: () => void;
}

/**
 * Replace the file `abs` (in a checked directory) with a temporary file
 * filled by `steps.fill`, by one rename, refusing and undoing the write if
 * the directory changes around it (see the module notes).
 */
export function replaceConfined(abs: string, steps: ReplaceSteps): void {
  const { dir, base } = splitPath(abs);
  const temp = steps.tempPath;
  checkDirectory(dir);
  // The directory itself, found again by this if it is renamed while the temporary file is in it.
  const dirId = identityOfDir(dir);
  let tempId: Identity | null = null;
  let renamed = false;
  try {
    const file = Deno.openSync(temp, { write: true, createNew: true, mode: steps.mode });
    try {
      tempId = identityOf(file.statSync());
      // Checked before a byte is written: a temporary file created outside is removed while empty.
      if (!stillThere(dir, temp, tempId)) refuse(dir, "the temporary file was created elsewhere");
      steps.fill(file, temp);
      file.syncSync();
    } finally {
      file.close();
    }
    steps.beforeRename?.();
    if (!stillThere(dir, temp, tempId)) refuse(dir, "it changed before the rename");
    Deno.renameSync(temp, abs);
    renamed = true;
    if (!stillThere(dir, abs, tempId)) refuse(dir, landedReport(dir, base, tempId));
  } catch (err) {
    if (!renamed) removeTemp(dir, temp, dirId);
    throw movedError(err, dir);
  }
}

/** Read `file` to its end (`size` is the expected length, a hint). */
function readAll(file: Deno.FsFile, size: number): Uint8Array {
  let buffer = new Uint8Array(Math.max(size, 1024));
  let done = 0;
  for (;;) {
    if (done === buffer.length) {
      const bigger = new Uint8Array(buffer.length * 2);
      bigger.set(buffer);
      buffer = bigger;
    }
    const n = file.readSync(buffer.subarray(done));
    if (n === null) return buffer.slice(0, done);
    done += n;
  }
}

/** A system error met while `dir` no longer is itself (a swap under way) as the refusal it is. */
function movedError(err: unknown, dir: string): unknown {
  if (err instanceof IssueError || realPathNow(dir) === dir) return err;
  try {
    refuse(dir, `it moved during the operation (${(err as Error).message.split(":")[0]})`);
  } catch (refusal) {
    return refusal;
  }
}

function identityOfDir(dir: string): Identity | null {
  try {
    return identityOf(Deno.statSync(dir));
  } catch {
    return null;
  }
}

/**
 * After a rename whose target is not where it should be: when it landed in
 * the directory `dir` now leads to, outside, remove it from there. Returns
 * the detail of the refusal.
 */
function landedReport(dir: string, base: string, id: Identity): string {
  const real = realPathNow(dir);
  if (real === null || real === dir) return `"${base}" was moved or replaced right after the rename`;
  const outside = `${real}/${base}`;
  if (!sameIdentity(entryAt(outside), id)) {
    return `it now leads to "${real}" (the new "${base}" stayed in the repository's directory)`;
  }
  unlinkIfStill(outside, id);
  return `it led to "${real}" during the rename, which replaced "${outside}": GraphPlan's bytes were removed ` +
    `from there, its previous content could not be kept`;
}

/** Unlink `path` when it still is the file `id` (checked, then moved to a unique name first). */
function unlinkIfStill(path: string, id: Identity): void {
  const aside = tempPathFor(path);
  try {
    Deno.renameSync(path, aside);
  } catch {
    return;
  }
  if (sameIdentity(entryAt(aside), id)) Deno.removeSync(aside);
  else Deno.renameSync(aside, path);
}

/**
 * Remove the temporary file `temp` (a name unique to this process, so
 * removing it can hit no other file) wherever the directory went: at its
 * path, at the directory's new real path, or in the sibling of `dir` that
 * is the original directory (`dirId`) after a rename.
 */
function removeTemp(dir: string, temp: string, dirId: Identity | null): void {
  const { base } = splitPath(temp);
  const places = [dir];
  const real = realPathNow(dir);
  if (real !== null && real !== dir) places.push(real);
  const moved = movedSibling(dir, dirId);
  if (moved) places.push(moved);
  for (const place of places) {
    try {
      Deno.removeSync(`${place}/${base}`);
    } catch { /* not there */ }
  }
}

/** The sibling directory of `dir` that is the directory `id`, when `dir` was renamed beside itself. */
function movedSibling(dir: string, id: Identity | null): string | null {
  if (id === null) return null;
  const parent = splitPath(dir).dir;
  try {
    for (const entry of Deno.readDirSync(parent)) {
      const path = `${parent}/${entry.name}`;
      if (entry.isDirectory && path !== dir && sameIdentity(entryAt(path), id)) return path;
    }
  } catch { /* the parent is gone */ }
  return null;
}

/**
 * Remove the file `abs` through its checked directory (no error when it is
 * already gone): moved to a unique name beside it, checked, then unlinked,
 * or moved back when the checks fail (see the module notes).
 */
export function removeConfined(abs: string): void {
  const { dir, base } = splitPath(abs);
  checkDirectory(dir);
  const id = entryAt(abs);
  if (id === null) return;
  if (!stillThere(dir, abs, id)) refuse(dir, `"${base}" was not removed`);
  const aside = tempPathFor(abs);
  try {
    Deno.renameSync(abs, aside);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return;
    throw err;
  }
  if (stillThere(dir, aside, id)) {
    Deno.removeSync(aside);
    return;
  }
  // The rename happened somewhere else: remove the file meant, put back any other, where they are now.
  const name = splitPath(aside).base;
  let removed = false;
  for (const place of new Set([dir, realPathNow(dir) ?? dir])) {
    const moved = entryAt(`${place}/${name}`);
    if (moved === null) continue;
    if (sameIdentity(moved, id)) {
      Deno.removeSync(`${place}/${name}`);
      removed = true;
    } else Deno.renameSync(`${place}/${name}`, `${place}/${base}`);
  }
  if (!removed) refuse(dir, `"${base}" was not removed`);
}

/**
 * The names in the checked directory `dir`, each removed by `remove(name)`
 * returning true; only for names unique to GraphPlan (temporary files).
 */
export function sweepConfined(dir: string, remove: (entry: Deno.DirEntry) => boolean): void {
  checkDirectory(dir);
  for (const entry of Deno.readDirSync(dir)) {
    if (!remove(entry)) continue;
    checkDirectory(dir);
    try {
      Deno.removeSync(`${dir}/${entry.name}`);
    } catch { /* already gone */ }
  }
}
