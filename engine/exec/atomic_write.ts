/**
 * Durable, atomic file replacement: the new bytes go to a temporary file in
 * the same directory (so the rename never crosses a file system), are
 * fsync'd, get the old file's mode, and replace the target with one
 * `rename(2)`; the directory is fsync'd last so the rename itself survives a
 * power cut. A reader (or a crash) sees the old bytes or the new ones, never
 * a mix.
 *
 * @module
 */

let counter = 0;

/** The temporary file `atomicWrite` uses for `abs`: hidden, beside it, unique per process. */
export function tempPathFor(abs: string): string {
  const slash = abs.lastIndexOf("/");
  const dir = abs.slice(0, slash);
  const base = abs.slice(slash + 1);
  counter++;
  return `${dir}/.${base}.graphplan-${Deno.pid}-${counter}.tmp`;
}

/** Options of `atomicWrite`. */
export interface AtomicWriteOptions {
  /** Mode bits for the file (the original file's); default 0o644. */
  mode?: number | null;
  /** The temporary path to use (from `tempPathFor`), when the caller journals it first. */
  tempPath?: string;
  /** Called after the temporary file is complete and before the rename (a test hook). */
  beforeRename?: () => Promise<void> | void;
}

/** Replace the file at `abs` with `bytes` atomically and durably. */
export async function atomicWrite(
  abs: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const tmp = options.tempPath ?? tempPathFor(abs);
  const mode = (options.mode ?? 0o644) & 0o7777;
  try {
    writeFileDurable(tmp, bytes, mode);
    await options.beforeRename?.();
    Deno.renameSync(tmp, abs);
  } catch (err) {
    try {
      Deno.removeSync(tmp);
    } catch { /* already gone */ }
    throw err;
  }
  syncDirectory(abs.slice(0, abs.lastIndexOf("/")) || "/");
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
