/**
 * Reading back an output this program wrote, when it may have been damaged
 * since (a copy cut short, an editor, a directory made in its place): a
 * file that cannot be parsed is renamed to `NAME.damaged-TIMESTAMP` in the
 * same directory, never deleted or overwritten, and the caller rebuilds
 * what it can and says what it did. A file that cannot be read for another
 * reason (permissions) is an error: renaming it would not help.
 *
 * @module
 */

import { readFailure } from "../../engine/base/read_failure.ts";

/** A damaged file renamed aside. */
export interface SetAside {
  /** The path the file had. */
  file: string;
  /** The path it has now. */
  keptAs: string;
  /** What was wrong with it. */
  problem: string;
}

/**
 * The file at `path` parsed by `parse`: nothing when it is absent; when it
 * is a directory, empty (unless `emptyIsValid`) or `parse` throws, renamed
 * aside and reported instead.
 */
export async function readOrSetAside<T>(
  path: string,
  parse: (text: string) => T,
  options: { emptyIsValid?: boolean } = {},
): Promise<{ value?: T; damage?: SetAside }> {
  let text: string | undefined;
  let problem: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return {};
    if (!(err instanceof Deno.errors.IsADirectory)) {
      throw new Error(`Cannot read "${path}": ${readFailure(err)}`);
    }
  }
  if (text === undefined) {
    problem = "it is a directory";
  } else if (text.trim() === "" && !options.emptyIsValid) {
    problem = "it is empty";
  } else {
    try {
      return { value: parse(text) };
    } catch (err) {
      problem = (err as Error).message.replace(/^Cannot parse "[^"]*": /, "");
    }
  }
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  let keptAs = `${path}.damaged-${stamp}`;
  for (let n = 2; await exists(keptAs); n++) keptAs = `${path}.damaged-${stamp}-${n}`;
  await Deno.rename(path, keptAs);
  return { damage: { file: path, keptAs, problem: problem.split("\n")[0] } };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}
