/**
 * A small disk that really fills up, for tests of a full disk: a tmpfs
 * mounted on a scratch directory (root only), and a filler file that takes
 * all of it but a few bytes.
 */

import { skipReason } from "./skips.ts";

/** Mount a tmpfs of `size` (`1m`) at `dir`; why it cannot be done, or "". */
export function mountTmpfs(dir: string, size: string): string {
  try {
    const out = new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir],
      stderr: "piped",
    })
      .outputSync();
    return out.success ? "" : `cannot mount a tmpfs: ${new TextDecoder().decode(out.stderr).trim()}`;
  } catch (err) {
    return `cannot mount a tmpfs: ${(err as Error).message}`;
  }
}

/** Unmount what {@linkcode mountTmpfs} mounted at `dir`. */
export function unmount(dir: string): void {
  new Deno.Command("umount", { args: [dir] }).outputSync();
}

/** Why a tmpfs cannot be mounted here (recorded as the skip reason), or undefined. */
export function tmpfsSkip(): string | undefined {
  if (Deno.uid() !== 0) return skipReason("a full disk needs a tmpfs, which only root can mount");
  const probe = Deno.makeTempDirSync({ prefix: "gp_tmpfs_probe_" });
  const why = mountTmpfs(probe, "64k");
  if (!why) unmount(probe);
  Deno.removeSync(probe);
  return skipReason(why || undefined);
}

/** Write zeros to `path` until its disk is full, then give back `spare` bytes. */
export async function fillDisk(path: string, spare: number): Promise<void> {
  const file = await Deno.open(path, { write: true, create: true });
  const chunk = new Uint8Array(4096);
  let size = 0;
  try {
    while (true) size += await file.write(chunk);
  } catch {
    // full
  } finally {
    file.close();
  }
  await Deno.truncate(path, Math.max(0, size - spare));
}
