/**
 * Pre-images: the bytes of the files an edit is about to change, recorded
 * before it runs so that the controller can put them back after a patch
 * that verified and ran but did not fix the failure.
 *
 * The helper's own journal cannot do this: it is committed (and deleted)
 * the moment a plan succeeds. Nor can `git apply -R`: it needs the
 * working tree to match the diff it was made from. So each file is stored
 * as a blob in the repository's own object store (`git hash-object -w
 * --no-filters`: raw bytes, no line-ending or clean filters), which lives
 * in the task's environment whatever it is (a host directory, a container)
 * and never shows in `git diff`. Restoring writes the blob back over the
 * file (`git cat-file blob`: raw bytes again; the file keeps its mode) and
 * checks that the file hashes to the recorded blob, so a restore is byte
 * for byte or an error. A file the edit creates is recorded as absent and
 * removed on restore; a file it deletes is written back.
 *
 * @module
 */

import type { Environment } from "../env/mod.ts";
import { shellQuote } from "../env/shell_quote.ts";

/** One file's recorded bytes. */
export interface PreImage {
  /** Repository-relative path. */
  path: string;
  /** The git blob holding the bytes; null when the file did not exist (the edit creates it). */
  blob: string | null;
}

const BLOB = /^[0-9a-f]{40,64}$/;

async function hashFile(env: Environment, path: string, write: boolean): Promise<string | { error: string }> {
  const hashed = await env.execute(
    `git hash-object${write ? " -w" : ""} --no-filters -- ${shellQuote(path)}`,
    { timeout: 60 },
  );
  const blob = hashed.output.trim();
  if (hashed.returncode !== 0 || !BLOB.test(blob)) {
    return { error: hashed.output.trim() || "no hash printed" };
  }
  return blob;
}

/**
 * Record the current bytes of `paths`; an error (a path that cannot be read,
 * no git repository) says which file and why, and nothing is kept.
 */
export async function recordPreImages(
  env: Environment,
  paths: readonly string[],
): Promise<PreImage[] | { error: string }> {
  const images: PreImage[] = [];
  for (const path of paths) {
    const present = await env.execute(`test -e ${shellQuote(path)} || test -L ${shellQuote(path)}`, {
      timeout: 60,
    });
    if (present.returncode !== 0) {
      images.push({ path, blob: null }); // a file the edit creates: restoring removes it
      continue;
    }
    const blob = await hashFile(env, path, true);
    if (typeof blob !== "string") {
      return { error: `Cannot record the bytes of "${path}" before the edit: ${blob.error}` };
    }
    images.push({ path, blob });
  }
  return images;
}

/** Put every file of `images` back as recorded; throws when one cannot be restored byte for byte. */
export async function restorePreImages(env: Environment, images: readonly PreImage[]): Promise<void> {
  for (const { path, blob } of images) {
    if (blob === null) {
      const removed = await env.execute(`rm -f -- ${shellQuote(path)} && ! test -e ${shellQuote(path)}`, {
        timeout: 60,
      });
      if (removed.returncode !== 0) {
        throw new Error(`Cannot remove "${path}", which the edit created: ${removed.output.trim()}`);
      }
      continue;
    }
    // A file the edit deleted comes back, in its directory if that went too.
    const dir = path.includes("/")
      ? `mkdir -p -- ${shellQuote(path.slice(0, path.lastIndexOf("/")))} && `
      : "";
    const written = await env.execute(`${dir}git cat-file blob ${blob} > ${shellQuote(path)}`, {
      timeout: 60,
    });
    if (written.returncode !== 0) {
      throw new Error(`Cannot restore "${path}" from blob "${blob}": ${written.output.trim()}`);
    }
    const now = await hashFile(env, path, false);
    if (now !== blob) {
      const got = typeof now === "string" ? `it hashes to "${now}"` : now.error;
      throw new Error(`Restoring "${path}" from blob "${blob}" did not reproduce its bytes: ${got}`);
    }
  }
}
