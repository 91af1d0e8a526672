/**
 * The `-o/--output OUT` directory of `run`, `batch` and `merge-preds`,
 * checked before anything starts: OUT must be a directory or a path where
 * one can be made. A file there (or a file on the way to it) would
 * otherwise surface as an internal error from the first `mkdir`, after
 * containers were started and helpers deployed. The check writes nothing.
 *
 * @module
 */

import { dirname, resolve } from "../engine/base/node_builtins.ts";
import { type ParsedArgs, stringOption, UsageError } from "./command.ts";

/** `-o/--output` (or `fallback`), refused (usage error) when no directory can be there. */
export async function outputDirOption(args: ParsedArgs, fallback?: string): Promise<string | undefined> {
  const out = stringOption(args, "output", fallback);
  if (out === undefined) return undefined;
  let path = resolve(out);
  while (true) {
    const info = await Deno.stat(path).catch((err) => {
      // NotADirectory: a file on the way, found as the walk goes up.
      if (err instanceof Deno.errors.NotFound || err instanceof Deno.errors.NotADirectory) return null;
      throw err;
    });
    if (info?.isDirectory) return out;
    if (info) {
      const where = path === resolve(out) ? "it is a file" : `"${path}" is a file`;
      throw new UsageError(
        `Cannot write to -o "${out}": ${where}; give a directory (it is created if missing)`,
      );
    }
    const parent = dirname(path);
    if (parent === path) return out;
    path = parent;
  }
}
