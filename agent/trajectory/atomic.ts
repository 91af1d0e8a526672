/**
 * Writing a file so a reader sees the old bytes or the new, never half:
 * write a temporary file in the same directory, then rename it over the
 * target. Writes to one path from this process are queued, so two saves in
 * flight cannot finish out of order.
 *
 * @module
 */

import { basename, dirname, join } from "../../engine/node_builtins.ts";

const queues = new Map<string, Promise<unknown>>();

/** Write `text` to `path` atomically (parent directories created). */
export function writeTextAtomic(path: string, text: string): Promise<void> {
  return serialize(path, () => writeNow(path, text));
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
  await Deno.mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (err) {
    await Deno.remove(tmp).catch(() => {});
    throw err;
  }
}
