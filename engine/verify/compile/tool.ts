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
  /**
   * gcc and g++ only: a `<header>` the compile cannot find is looked for
   * beneath the compiler's system roots (`system_headers.ts`). L0's oracle
   * sets it; the post-plan check (`mod.ts`) does not.
   */
  findHeaders?: boolean;
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

/** How long one tool run may take before it is killed (no verdict then). */
const TIMEOUT_MS = 60_000;

/**
 * Run one tool: `stdinText` fed to it when given, its stderr read; killed
 * after a minute. Null when it could not start (not installed, not allowed)
 * or was killed: no verdict either way.
 */
export async function runTool(
  program: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; stdinText?: string },
): Promise<{ success: boolean; stderr: string } | null> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: options.cwd,
      ...(options.env ? { env: options.env } : {}),
      stdin: options.stdinText === undefined ? "null" : "piped",
      stdout: "null",
      stderr: "piped",
    }).spawn();
  } catch {
    return null;
  }
  if (options.stdinText !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdinText));
    await writer.close();
  }
  const timer = setTimeout(() => child.kill("SIGKILL"), TIMEOUT_MS);
  const output = await child.output();
  clearTimeout(timer);
  if (output.signal) return null;
  return { success: output.success, stderr: new TextDecoder().decode(output.stderr) };
}

/** Every directory from `path`'s own up to `base`, as `base/a/b`, `base/a`, `base` (the C family's -I list). */
export function ancestorDirs(base: string, path: string): string[] {
  const parts = path.split("/").slice(0, -1);
  const out: string[] = [];
  for (let n = parts.length; n >= 0; n--) out.push([base, ...parts.slice(0, n)].join("/"));
  return out;
}
