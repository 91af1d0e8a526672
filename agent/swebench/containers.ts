/**
 * The containers of one batch, found by a label rather than remembered: a
 * batch killed with `kill -9` cannot remove its containers, so every
 * container a batch starts carries `graphplan.batch=KEY`, where KEY is
 * derived from the output directory's real path. The next batch writing to
 * the same directory (the resume) removes what the killed one left, and
 * every batch sweeps its label once more when it ends.
 *
 * @module
 */

import { removeArgv, runProcess } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";

/** The label every container of a batch carries. */
export const BATCH_LABEL = "graphplan.batch";

/** The batch key of an output directory: 12 hex digits of the SHA-256 of its real path. */
export async function batchKey(outDir: string): Promise<string> {
  const real = await Deno.realPath(outDir);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(real));
  return [...new Uint8Array(digest)].slice(0, 6).map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A container name for `instanceId` in batch `key`: unique, and valid for docker and podman. */
export function containerName(key: string, instanceId: string): string {
  const id = instanceId.replace(/[^a-zA-Z0-9_.-]+/g, "-").slice(0, 80);
  return `graphplan-${key}-${id}-${crypto.randomUUID().slice(0, 6)}`;
}

/** Lists and removes the containers of one batch with the container CLI. */
export class BatchContainers {
  readonly executable: string;
  readonly key: string;

  constructor(executable: string, key: string) {
    this.executable = executable;
    this.key = key;
  }

  /** The labels to start a container with. */
  get labels(): Record<string, string> {
    return { [BATCH_LABEL]: this.key };
  }

  /** Names of the containers carrying this batch's label, running or not. */
  async list(): Promise<string[]> {
    const result = await runProcess([
      this.executable,
      "ps",
      "-a",
      "--filter",
      `label=${BATCH_LABEL}=${this.key}`,
      "--format",
      "{{.Names}}",
    ], { timeout: 60 }).catch(() => null);
    // No container CLI (or it failed): nothing to list; starting an instance reports the problem.
    if (!result || result.returncode !== 0) return [];
    return result.output.split("\n").map((line) => line.trim()).filter(Boolean);
  }

  /** Remove every container of this batch; returns their names. */
  async sweep(): Promise<string[]> {
    const names = await this.list();
    if (names.length > 0) await runProcess(removeArgv(this.executable, names), { timeout: 120 });
    return names;
  }

  /**
   * Start the removal of this batch's containers in a process of its own
   * session, which outlives this one: the second Ctrl-C exits at once and
   * the removal goes on without it. It lists and removes until none is left
   * (at most 30 tries a second apart): a removal this process had started
   * may die with it, holding a container's lock for a moment.
   */
  removeDetached(): void {
    const exe = shellQuote(this.executable);
    const remove = removeArgv(this.executable, []).slice(1).map(shellQuote).join(" ");
    const script = `for try in $(seq 30); do ` +
      `names=$(${exe} ps -a -q --filter label=${BATCH_LABEL}=${this.key}); ` +
      `[ -z "$names" ] && exit 0; ${exe} ${remove} $names >/dev/null 2>&1; sleep 1; done`;
    try {
      const child = new Deno.Command("setsid", {
        args: ["sh", "-c", script],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      child.unref();
    } catch {
      // setsid missing: nothing more can be done without waiting
    }
  }
}
