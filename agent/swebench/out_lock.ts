/**
 * One batch at a time per output directory. Two batches writing to one
 * `-o OUT` would redo each other's instances, interleave `preds.json`
 * rewrites and, worst, remove each other's containers (a batch sweeps the
 * containers labelled with its directory's key when it starts).
 *
 * The lock is `OUT/.batch.lock`, held with `flock` (`tryLockSync`) for the
 * life of the batch. The kernel releases it when its process ends in any
 * way, `kill -9` included, so a stale lock needs no liveness guess: the next
 * batch simply takes it. The file also names its holder (pid, start time,
 * host) for the refusal message, as the journal's `meta.json` names the
 * process applying a plan. The file is never deleted: deleting a lock file
 * that another process has open would let two batches each lock a
 * different file of the same name.
 *
 * On network file systems `flock` is only as good as the server's locking
 * (NFSv4 maps it onto byte-range locks); shards of one batch each use
 * their own directory, so they never contend.
 *
 * @module
 */

import { OutputWriteError } from "../trajectory/atomic.ts";
import { join } from "../../engine/base/node_builtins.ts";

/** The lock file's name in the output directory. */
export const LOCK_NAME = ".batch.lock";

/** Another live batch holds the output directory. */
export class BatchBusyError extends Error {
  /** The holder's pid, when its lock file names it. */
  readonly pid: number | null;

  constructor(outDir: string, pid: number | null) {
    super(
      `Another batch is running in "${outDir}" (pid ${pid ?? "unknown"}): wait for it or choose another -o`,
    );
    this.name = "BatchBusyError";
    this.pid = pid;
  }
}

/** What the lock file says about its holder. */
interface LockOwner {
  pid: number;
  hostname: string;
  started_at: string;
}

/** A held lock: release it when the batch ends (the process ending releases it too). */
export interface OutDirLock {
  release(): void;
}

/**
 * Lock the existing directory `outDir` for this batch, or throw
 * {@linkcode BatchBusyError} naming the live batch that holds it. Writes
 * nothing when refused.
 */
export async function lockOutDir(outDir: string): Promise<OutDirLock> {
  const path = join(outDir, LOCK_NAME);
  const file = await Deno.open(path, { read: true, write: true, create: true }).catch((err) => {
    throw new OutputWriteError(path, err);
  });
  let held = false;
  try {
    held = await file.tryLock(true);
    if (!held) throw new BatchBusyError(outDir, await holderPid(path));
    const owner: LockOwner = {
      pid: Deno.pid,
      hostname: Deno.hostname(),
      started_at: new Date().toISOString(),
    };
    await file.truncate(0);
    await file.write(new TextEncoder().encode(JSON.stringify(owner) + "\n"));
  } catch (err) {
    file.close();
    throw err instanceof BatchBusyError ? err : new OutputWriteError(path, err);
  }
  let open = true;
  return {
    release() {
      if (!open) return;
      open = false;
      file.close(); // closing the last descriptor releases the flock
    },
  };
}

/**
 * The pid the lock file at `path` names. The holder writes it right after
 * taking the lock, so a batch refused in that instant reads again for a moment.
 */
async function holderPid(path: string): Promise<number | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      const pid = (JSON.parse(await Deno.readTextFile(path)) as Partial<LockOwner>).pid;
      if (typeof pid === "number" && Number.isInteger(pid)) return pid;
    } catch { /* not written yet */ }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return null;
}
