/**
 * Writing a file so a reader sees the old bytes or the new, never half:
 * write a temporary file in the same directory, then rename it over the
 * target. Writes to one path from this process are queued, so two saves in
 * flight cannot finish out of order.
 *
 * A write that fails (a full disk, a read-only file system, a directory
 * where the file should be) leaves the old file as it was, removes its
 * temporary file and throws an {@linkcode OutputWriteError} naming the path
 * and the reason in words, so a batch can stop and say what to free.
 *
 * @module
 */

import { basename, dirname, join } from "../../engine/base/node_builtins.ts";
import { readFailure } from "../../engine/base/read_failure.ts";

/** A file could not be written; `diskFull` when the device or the quota is full. */
export class OutputWriteError extends Error {
  readonly path: string;
  readonly diskFull: boolean;

  constructor(path: string, cause: unknown) {
    const code = (cause as { code?: string } | null)?.code;
    const diskFull = code === "ENOSPC" || code === "EDQUOT";
    super(`Cannot write "${path}": ${diskFull ? "no space left on the device" : readFailure(cause)}`, {
      cause,
    });
    this.name = "OutputWriteError";
    this.path = path;
    this.diskFull = diskFull;
  }
}

const queues = new Map<string, Promise<unknown>>();

/** Write `text` to `path` atomically (parent directories created). */
export function writeTextAtomic(path: string, text: string): Promise<void> {
  return serialize(path, () => writeNow(path, text));
}

/**
 * {@linkcode writeTextAtomic} done synchronously, outside the queue: for a
 * process that exits right after (it cannot wait for queued writes).
 */
export function writeTextAtomicSync(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    Deno.writeTextFileSync(tmp, text);
    Deno.renameSync(tmp, path);
  } catch (err) {
    try {
      Deno.removeSync(tmp);
    } catch { /* not created */ }
    throw new OutputWriteError(path, err);
  }
}

/** Write `data` as indented JSON to `path` atomically. */
export function writeJsonAtomic(path: string, data: unknown): Promise<void> {
  return writeTextAtomic(path, JSON.stringify(data, null, 2) + "\n");
}

/** Run `task` after every earlier task queued for `path`. */
export function serialize<T>(path: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  const run = previous.then(task, task);
  const settled = run.then(() => {}, () => {});
  queues.set(path, settled);
  settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return run;
}

async function writeNow(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw new OutputWriteError(path, err);
  }
}
