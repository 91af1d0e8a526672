/**
 * Durable, atomic file replacement: the new bytes go to a temporary file in
 * the same directory (so the rename never crosses a file system), are
 * fsync'd, get the old file's mode (and owner, where allowed), and replace the target with one
 * `rename(2)`; the directory is fsync'd last so the rename itself survives a
 * power cut. A reader (or a crash) sees the old bytes or the new ones, never
 * a mix.
 *
 * @module
 */

import { inDirectory, splitPath } from "./confined.ts";

let counter = 0;

/** The temporary file `atomicWrite` uses for `abs`: hidden, beside it, unique per process. */
export function tempPathFor(abs: string): string {
  const { dir, base } = splitPath(abs);
  counter++;
  return `${dir}/.${base}.graphplan-${Deno.pid}-${counter}.tmp`;
}

/** Options of `atomicWrite`. */
export interface AtomicWriteOptions {
  /** Mode bits for the file (the original file's); default 0o644. */
  mode?: number | null;
  /** Owner and group for the file (the original file's), kept where this process may set them. */
  owner?: { uid: number | null; gid: number | null } | null;
  /** The temporary path to use (from `tempPathFor`), when the caller journals it first. */
  tempPath?: string;
  /** Called after the temporary file is complete and before the rename (a test hook; synchronous). */
  beforeRename?: () => void;
}

/**
 * Replace the file at `abs` (an absolute, symlink-free path) with `bytes`
 * atomically and durably. The whole write happens inside the checked
 * directory (`confined.ts`): a directory swapped for a symlink before the
 * check is refused (`path-changed`), one swapped after it changes nothing,
 * and a failed write always removes its temporary file.
 */
export function atomicWrite(abs: string, bytes: Uint8Array, options: AtomicWriteOptions = {}): void {
  const { dir, base } = splitPath(abs);
  const tmp = splitPath(options.tempPath ?? tempPathFor(abs)).base;
  const mode = (options.mode ?? 0o644) & 0o7777;
  inDirectory(dir, () => {
    try {
      writeFileDurable(tmp, bytes, mode);
      keepOwner(tmp, options.owner);
      options.beforeRename?.();
      Deno.renameSync(tmp, base);
    } catch (err) {
      try {
        Deno.removeSync(tmp);
      } catch { /* never created */ }
      throw err;
    }
    syncDirectory(".");
  });
}

/** Give `path` the owner and group of the file it replaces, where allowed (else keep ours). */
function keepOwner(path: string, owner: AtomicWriteOptions["owner"]): void {
  if (!owner || owner.uid === null || owner.gid === null) return;
  const info = Deno.lstatSync(path);
  if (info.uid === owner.uid && info.gid === owner.gid) return;
  try {
    Deno.chownSync(path, owner.uid, owner.gid);
  } catch (err) {
    // Only root may give a file away; elsewhere the file is ours, as any editor leaves it.
    if (!(err instanceof Deno.errors.PermissionDenied)) throw err;
  }
}

/** Write `bytes` to a new file at `path` (it must not exist), chmod it and fsync it. */
export function writeFileDurable(path: string, bytes: Uint8Array, mode = 0o644): void {
  const file = Deno.openSync(path, { write: true, createNew: true, mode });
  try {
    let done = 0;
    while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
    // `mode` on open is filtered by the umask; chmod sets it exactly (before the fsync).
    Deno.chmodSync(path, mode);
    file.syncSync();
  } finally {
    file.close();
  }
}

/** fsync a directory, so renames and unlinks in it are durable (best effort where unsupported). */
export function syncDirectory(dir: string): void {
  let handle: Deno.FsFile | undefined;
  try {
    handle = Deno.openSync(dir, { read: true });
    handle.syncSync();
  } catch {
    // Some platforms cannot open or fsync a directory; the rename is still atomic there.
  } finally {
    handle?.close();
  }
}
