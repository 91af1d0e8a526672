/**
 * Which files a `graph` request names: each path as given, except that a
 * directory stands for the source files below it.
 *
 * A directory is walked in name order. Hidden entries (`.git`, `.venv`,
 * `.tox`, ...), `node_modules` and `__pycache__` are skipped, symlinked
 * directories are not followed (no loops, nothing outside the root), and
 * only files whose extension names a supported language are kept. `.`
 * means the whole repository. Paths that are not directories are passed on
 * as they are, so a missing or unsupported file still gets its own issue
 * from `buildGraph`. `.gitignore` is not read.
 *
 * @module
 */

import { fail, type Issue, warning } from "../issue.ts";
import { detectLanguage } from "../parse/mod.ts";
import type { Workspace } from "../workspace.ts";

/** Directory names never entered (besides hidden ones). */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(["node_modules", "__pycache__"]);

/** The files `paths` name, with directories expanded; `warnings` for directories without source files. */
export function expandSourcePaths(
  workspace: Workspace,
  paths: readonly string[],
): { files: string[]; warnings: Issue[] } {
  const files: string[] = [];
  const warnings: Issue[] = [];
  for (const path of paths) {
    const directory = directoryOf(workspace, path);
    if (directory === undefined) {
      files.push(path);
      continue;
    }
    const found: string[] = [];
    walk(workspace.root, directory, found);
    if (found.length === 0) {
      warnings.push(warning("no-source-files", `No source files under "${directory || "."}"`, {
        file: directory || ".",
        hint:
          "hidden directories, node_modules and __pycache__ are skipped; files need a supported extension",
      }));
    }
    files.push(...found);
  }
  return { files, warnings };
}

/** The repository-relative path of `path` when it names a directory ("" for the root), else undefined. */
function directoryOf(workspace: Workspace, path: string): string | undefined {
  if (path === "." || path === "./") return "";
  let resolved: { rel: string; abs: string };
  try {
    resolved = workspace.resolve(path);
  } catch {
    return undefined; // reported when the path is read as a file
  }
  try {
    return Deno.statSync(resolved.abs).isDirectory ? resolved.rel : undefined;
  } catch {
    return undefined;
  }
}

function walk(root: string, rel: string, out: string[]): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(rel ? `${root}/${rel}` : root)];
  } catch (err) {
    fail("directory-unreadable", `Cannot list "${rel || "."}": ${(err as Error).message}`, {
      file: rel || ".",
    });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(root, path, out);
    } else if (entry.isFile || entry.isSymlink) {
      // A symlink is kept only when it names a supported file; reading it checks it stays inside the root.
      if (detectLanguage(path) && (entry.isFile || isFileLink(`${root}/${path}`))) out.push(path);
    }
  }
}

function isFileLink(abs: string): boolean {
  try {
    return Deno.statSync(abs).isFile;
  } catch {
    return false;
  }
}
