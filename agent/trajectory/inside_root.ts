/**
 * The one check every path built from data passes before anything is
 * written or removed there: `OUT/ID`, `OUT/ID/ID.traj.json`, a merged
 * instance folder, a shard's output. An id or a name read from a file
 * could be `..`, `.`, empty or `../../x`; joined unchecked, a removal of
 * `OUT/..` empties the parent of the output directory.
 *
 * {@linkcode pathInside} joins the parts to the root one by one and refuses
 * the path unless each step lies strictly below the root: not the root itself (a removal
 * there would take every earlier result and the batch lock), not beside or
 * above it, and no part is empty, absolute or holds a NUL. It is lexical:
 * a symlink the user placed inside their own output directory is theirs to
 * follow.
 *
 * @module
 */

import { isAbsolute, resolve } from "../../engine/base/node_builtins.ts";

/** A path built from data would leave (or be) its root. */
export class OutsideRootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutsideRootError";
  }
}

/** `root/part/...`, refused ({@linkcode OutsideRootError}) unless strictly inside `root`. */
export function pathInside(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const shown = parts.map((part) => JSON.stringify(part)).join(", ");
  const refuse = (why: string) =>
    new OutsideRootError(`Refusing the path made of "${base}" and ${shown}: ${why}`);
  for (const part of parts) {
    if (part === "") throw refuse("a part is empty");
    if (part.includes("\0")) throw refuse("a part holds a NUL character");
    if (isAbsolute(part)) throw refuse("a part is an absolute path");
  }
  const prefix = base.endsWith("/") ? base : `${base}/`;
  // Each step stays below the root: `OUT/./..traj.json` is inside OUT, but "." names no instance folder.
  let path = base;
  for (const part of parts) {
    path = resolve(path, part);
    if (path === base) throw refuse("it is the root itself");
    if (!path.startsWith(prefix)) throw refuse("it leads outside the root");
  }
  return path;
}
