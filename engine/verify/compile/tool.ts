/**
 * The shape of one language tool of `native.ts`: how to run it on a copy of
 * a file (`command`), and its name in reports.
 *
 * @module
 */

import type { LanguageId } from "../../parse/mod.ts";

/** Where a file is, for the tools' search paths. */
export interface NativeTarget {
  /** Repository root (absolute). */
  root: string;
  /** Repository-relative path. */
  path: string;
  language: LanguageId;
}

/** One tool: its command line for a copy of the file, and its name. */
export interface Tool {
  /**
   * The program and its arguments for a copy at `copy` (absolute), or how to
   * feed the text on stdin; undefined when the tool cannot judge this file
   * here (no TypeScript in the project).
   */
  command: (
    target: NativeTarget,
    copy: string,
    text: string,
  ) => Promise<
    { program: string; args: string[]; stdin?: boolean; env?: Record<string, string> } | undefined
  >;
  /** The tool's name (for `compiled`). */
  label: string;
}

/** A tool whose command needs nothing but the copy. */
export function simple(
  label: string,
  command: (
    target: NativeTarget,
    copy: string,
    text: string,
  ) => { program: string; args: string[]; stdin?: boolean },
): Tool {
  return { label, command: (target, copy, text) => Promise.resolve(command(target, copy, text)) };
}

/** The directory part of a path ("" for a bare name). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}
