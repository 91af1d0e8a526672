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

import { replaceConfined, splitPath, tempPathFor } from "./confined.ts";

export { tempPathFor };

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
 * atomically and durably. The directory is checked around every system
 * call (`confined.ts`): a directory swapped for a symlink is refused
 * (`path-changed`) and what was written is undone, and a failed write
 * always removes its temporary file.
 */
export function atomicWrite(abs: string, bytes: Uint8Array, options: AtomicWriteOptions = {}): void {
  const mode = (options.mode ?? 0o644) & 0o7777;
  replaceConfined(abs, {
    tempPath: options.tempPath ?? tempPathFor(abs),
    mode,
    fill: (file, temp) => {
      writeAll(file, bytes);
      // `mode` on open is filtered by the umask; chmod sets it exactly (the name is unique to this process).
      Deno.chmodSync(temp, mode);
      keepOwner(temp, options.owner);
    },
    beforeRename: options.beforeRename,
  });
  syncDirectory(splitPath(abs).dir);
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

function writeAll(file: Deno.FsFile, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += file.writeSync(bytes.subarray(done));
}

/** Write `bytes` to a new file at `path` (it must not exist), chmod it and fsync it. */
export function writeFileDurable(path: string, bytes: Uint8Array, mode = 0o644): void {
  const file = Deno.openSync(path, { write: true, createNew: true, mode });
  try {
    writeAll(file, bytes);
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
