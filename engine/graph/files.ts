/**
 * Which files a `graph` request names: each path as given, except that a
 * directory stands for the source files below it.
 *
 * The files of a directory are listed in path order. Hidden entries (`.git`,
 * `.venv`, `.tox`, ...), `node_modules` and `__pycache__` are skipped,
 * symlinked directories are not followed (no loops, nothing outside the
 * root), and only files whose extension names a supported language are
 * kept. `.` means the whole repository. When the repository is a git
 * work tree and running `git` is allowed, what `.gitignore` (and the other
 * exclude files) ignores is left out too: the listing is `git ls-files
 * --cached --others --exclude-standard`, filtered by the same rules; else
 * the directory is walked. Paths that are not directories are passed on as
 * they are, so a missing or unsupported file still gets its own issue from
 * `buildGraph`.
 *
 * @module
 */

import { fail, type Issue, warning } from "../base/issue.ts";
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
    const found = gitListing(workspace.root, directory) ?? walked(workspace.root, directory);
    if (found.length === 0) {
      warnings.push(warning("no-source-files", `No source files under "${directory || "."}"`, {
        file: directory || ".",
        hint:
          "hidden directories, node_modules and __pycache__ are skipped; files need a supported extension",
      }));
    }
    for (const item of found) files.push(item);
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

/** Whether a directory entry named `name` is left out of listings: hidden, or a skipped directory. */
function excluded(name: string, directory: boolean): boolean {
  return name.startsWith(".") || (directory && SKIPPED_DIRECTORIES.has(name));
}

/** Whether a repository-relative file path passes the listing rules (see the module documentation). */
function listed(path: string): boolean {
  const parts = path.split("/");
  return !!detectLanguage(path) && !parts.some((part, index) => excluded(part, index < parts.length - 1));
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The files of `rel` git does not ignore, or undefined when git cannot tell (no git, not allowed, not a work tree). */
function gitListing(root: string, rel: string): string[] | undefined {
  try {
    if (Deno.permissions.querySync({ name: "run", command: "git" }).state !== "granted") return undefined;
    const out = new Deno.Command("git", {
      args: ["-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", rel || "."],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    if (!out.success) return undefined;
    const paths = new TextDecoder().decode(out.stdout).split("\0").filter((path) => path !== "");
    // Tracked files can be gone from the disk, and symlinks to directories are listed as files.
    return paths.filter((path) => listed(path) && isFile(`${root}/${path}`)).sort(byPath);
  } catch {
    return undefined;
  }
}

function walked(root: string, rel: string): string[] {
  const out: string[] = [];
  walk(root, rel, out);
  return out.sort(byPath);
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
  for (const entry of entries) {
    if (excluded(entry.name, entry.isDirectory)) continue;
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory) {
      walk(root, path, out);
    } else if (entry.isFile || entry.isSymlink) {
      // A symlink is kept only when it names a supported file; reading it checks it stays inside the root.
      if (detectLanguage(path) && (entry.isFile || isFile(`${root}/${path}`))) out.push(path);
    }
  }
}

/** Whether `abs` is (or links to) a regular file. */
function isFile(abs: string): boolean {
  try {
    return Deno.statSync(abs).isFile;
  } catch {
    return false;
  }
}
