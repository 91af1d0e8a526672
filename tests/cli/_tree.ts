/** A directory tree as data, to assert that a command changed nothing in it. */

import { join } from "node:path";

/**
 * Every entry under `dir` by relative path: a file's bytes as text, `<dir>`
 * for a directory, `<link> TARGET` for a symlink (not followed).
 */
export function tree(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of Deno.readDirSync(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    const path = join(dir, rel);
    if (entry.isSymlink) out.set(rel, `<link> ${Deno.readLinkSync(path)}`);
    else if (entry.isDirectory) {
      out.set(rel, "<dir>");
      for (const [k, v] of tree(dir, rel)) out.set(k, v);
    } else out.set(rel, Deno.readTextFileSync(path));
  }
  return out;
}
