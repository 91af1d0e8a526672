/**
 * Reading a unified diff into a faithful structure: the files it touches,
 * what happens to each (modified, added, deleted, renamed, copied, mode
 * changed, binary) and its hunks. Lift and the gate both read diffs here;
 * each decides what it accepts (lift refuses what a plan cannot express,
 * `mod.ts`), the reader only reports what the text is.
 *
 * Accepted: what `git diff` prints and what `diff -u` prints.
 * - `diff --git a/OLD b/NEW` headers (optional) and git's extended header
 *   lines: `new file mode`, `deleted file mode`, `old mode`/`new mode`,
 *   `index X..Y [MODE]`, `similarity index`, `rename from`/`rename to`,
 *   `copy from`/`copy to`, `Binary files ... differ`, `GIT binary patch`.
 *   Paths git quotes (`"a/caf\303\251.py"`) are unquoted.
 * - `---`/`+++` lines with `a/` and `b/` prefixes (`-p1`; paths without
 *   them are taken as they are; a tab-separated timestamp is dropped;
 *   `/dev/null` marks an added or deleted file).
 * - `@@ -l,n +l,n @@` hunk headers (counts default to 1), context, removed
 *   and added lines, `\ No newline at end of file` markers, and a context
 *   line written empty (some tools drop the lone space of a blank context
 *   line). Lines keep a trailing `\r` when the diff has one: a CRLF file's
 *   diff carries its line endings inside the lines.
 *
 * Problems are `diff-invalid` (a hunk header outside a file, a malformed
 * header, a hunk whose body disagrees with its counts) and `diff-empty`;
 * callers with other public codes map them at their boundary.
 *
 * @module
 */

import { error, type Issue } from "../base/issue.ts";

/** One line of a hunk. */
export interface HunkLine {
  /** `" "` context, `"-"` removed, `"+"` added. */
  op: " " | "-" | "+";
  /** The line's text without its marker and without the `\n` (a `\r` stays). */
  text: string;
  /** The line has no line break after it (`\ No newline at end of file` followed it). */
  noEol: boolean;
}

/** One `@@` hunk. */
export interface Hunk {
  /** 0-based index of the hunk in the whole input (across files), for messages and provenance. */
  index: number;
  /** 1-based first line in the old file (0 for an empty range). */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: HunkLine[];
  /** 1-based line of the `@@` header in the diff. */
  diffLine: number;
}

/** What a diff does to one file. */
export type FileStatus = "modified" | "added" | "deleted" | "renamed" | "copied";

/** Everything one file's part of a diff says. */
export interface FilePatch {
  /** Repository-relative path (the new path; the old one when the file is deleted). */
  path: string;
  /** The path before the diff; null for an added file. */
  oldPath: string | null;
  /** The path after the diff; null for a deleted file. */
  newPath: string | null;
  status: FileStatus;
  /** Git file modes (`"100644"`, `"100755"`, `"120000"`) when the diff names them; null otherwise. */
  oldMode: string | null;
  newMode: string | null;
  /** A binary change: its content is not in hunks. */
  binary: boolean;
  /** `similarity index` of a rename or copy, in percent. */
  similarity: number | null;
  hunks: Hunk[];
  /** 1-based line of the file's first header line in the diff. */
  diffLine: number;
}

/** The result of reading a diff: file patches and every problem. */
export interface ParsedDiff {
  files: FilePatch[];
  issues: Issue[];
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Undo git's C-style quoting of a path (`"a\tb"`, octal bytes for non-ASCII). */
function unquote(raw: string): string {
  if (!(raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"'))) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, a: 7, b: 8, f: 12, v: 11, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    const ch = body[i];
    if (ch !== "\\") {
      bytes.push(...new TextEncoder().encode(ch));
      continue;
    }
    const next = body[++i];
    const octal = /^[0-7]{3}/.exec(body.slice(i));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else bytes.push(simple[next] ?? next.charCodeAt(0));
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** A `---`/`+++` name: timestamp, quoting and `a/`/`b/` stripped; null for `/dev/null`. */
function diffPath(raw: string): string | null {
  const quoted = /^"(?:[^"\\]|\\.)*"/.exec(raw);
  const path = quoted ? unquote(quoted[0]) : raw.replace(/\r$/, "").replace(/\t.*$/, "").trim();
  if (path === "/dev/null") return null;
  return path.replace(/^[ab]\//, "");
}

/** The two paths of `diff --git a/OLD b/NEW` (equal unless renamed; quoted when git had to). */
function gitHeaderPaths(rest: string): [string | null, string | null] {
  rest = rest.replace(/\r$/, "");
  const quoted = /^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(rest);
  if (quoted && (quoted[1].startsWith('"') || quoted[2].startsWith('"'))) {
    return [diffPath(quoted[1]), diffPath(quoted[2])];
  }
  // Unquoted paths may hold spaces: the usual case, one path twice, splits in the middle.
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " ") {
    const [a, b] = [rest.slice(0, half), rest.slice(half + 1)];
    if (a.replace(/^a\//, "") === b.replace(/^b\//, "")) return [diffPath(a), diffPath(b)];
  }
  const split = /^(a\/.+?) (b\/.+)$/.exec(rest) ?? /^(\S+) (\S+)$/.exec(rest);
  return split ? [diffPath(split[1]), diffPath(split[2])] : [null, null];
}

/** Read a unified diff (see the module notes); problems are issue objects with the diff's line. */
export function parseUnifiedDiff(text: string): ParsedDiff {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: FilePatch[] = [];
  const issues: Issue[] = [];
  let current: FilePatch | undefined;
  /** Inside a `diff --git` header: its extended lines are read until the first hunk. */
  let inGitHeader = false;
  const fromGit = new Set<FilePatch>();
  let hunkIndex = 0;
  let i = 0;
  const startFile = (oldPath: string | null, newPath: string | null) => {
    current = {
      path: newPath ?? oldPath ?? "",
      oldPath,
      newPath,
      status: "modified",
      oldMode: null,
      newMode: null,
      binary: false,
      similarity: null,
      hunks: [],
      diffLine: i + 1,
    };
    files.push(current);
  };
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("diff --git ")) {
      startFile(...gitHeaderPaths(line.slice(11)));
      fromGit.add(current!);
      inGitHeader = true;
      i++;
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const oldPath = diffPath(line.slice(4));
      const newPath = diffPath(lines[i + 1].slice(4));
      if (current && inGitHeader) {
        current.oldPath = oldPath;
        current.newPath = newPath;
      } else startFile(oldPath, newPath);
      inGitHeader = false;
      i += 2;
      continue;
    }
    if (current && inGitHeader && readExtendedHeader(current, line.replace(/\r$/, ""))) {
      i++;
      continue;
    }
    const header = HEADER.exec(line);
    if (!line.startsWith("@@") || (!header && !current)) {
      // Prose between files, or the payload of a `GIT binary patch`.
      i++;
      continue;
    }
    if (!current || !header) {
      issues.push(error(
        "diff-invalid",
        current
          ? `Malformed hunk header at line ${i + 1} of the diff: "${line}"`
          : `Hunk header without a file header at line ${i + 1} of the diff`,
        {
          line: i + 1,
          hint: current
            ? 'a hunk header reads "@@ -START,COUNT +START,COUNT @@"'
            : 'a unified diff names its file with "--- a/PATH" and "+++ b/PATH" before the first "@@"',
        },
      ));
      i++;
      continue;
    }
    inGitHeader = false;
    i = readHunk(lines, i, current, hunkIndex++, issues);
  }
  for (const file of files) {
    if (file.oldPath === null) file.status = "added";
    else if (file.newPath === null) file.status = "deleted";
    else if (file.status === "modified" && file.oldPath !== file.newPath) file.status = "renamed";
    file.path = file.newPath ?? file.oldPath ?? "";
  }
  // A `---`/`+++` pair without hunks says nothing; a git header always says something.
  const kept = files.filter((file) => file.path !== "" && (file.hunks.length > 0 || fromGit.has(file)));
  if (kept.length === 0 && issues.length === 0) {
    issues.push(error("diff-empty", "The input has no file changes: it is not a unified diff", {
      hint: 'give a unified diff ("diff --git", "---", "+++", "@@" lines), e.g. the output of "git diff"',
    }));
  }
  return { files: kept, issues };
}

/** Apply one git extended header line to `file`; false when `line` is not one. */
function readExtendedHeader(file: FilePatch, line: string): boolean {
  let match: RegExpExecArray | null;
  if ((match = /^new file mode (\d+)$/.exec(line))) {
    file.oldPath = null;
    file.newMode = match[1];
  } else if ((match = /^deleted file mode (\d+)$/.exec(line))) {
    file.newPath = null;
    file.oldMode = match[1];
  } else if ((match = /^old mode (\d+)$/.exec(line))) file.oldMode = match[1];
  else if ((match = /^new mode (\d+)$/.exec(line))) file.newMode = match[1];
  else if ((match = /^index [0-9a-f]+\.\.[0-9a-f]+(?: (\d+))?$/.exec(line))) {
    if (match[1]) [file.oldMode, file.newMode] = [match[1], match[1]];
  } else if ((match = /^(?:dis)?similarity index (\d+)%$/.exec(line))) file.similarity = Number(match[1]);
  else if ((match = /^(rename|copy) from (.+)$/.exec(line))) {
    file.oldPath = unquote(match[2]);
    file.status = match[1] === "rename" ? "renamed" : "copied";
  } else if ((match = /^(rename|copy) to (.+)$/.exec(line))) file.newPath = unquote(match[2]);
  else if (line.startsWith("Binary files ") || line === "GIT binary patch") file.binary = true;
  else return false;
  return true;
}

/** Read the hunk whose header is at `start` into `file`; returns the index of the line after it. */
function readHunk(lines: string[], start: number, file: FilePatch, index: number, issues: Issue[]): number {
  const header = HEADER.exec(lines[start])!;
  const hunk: Hunk = {
    index,
    oldStart: Number(header[1]),
    oldLines: header[2] === undefined ? 1 : Number(header[2]),
    newStart: Number(header[3]),
    newLines: header[4] === undefined ? 1 : Number(header[4]),
    lines: [],
    diffLine: start + 1,
  };
  file.hunks.push(hunk);
  let i = start + 1;
  let oldSeen = 0;
  let newSeen = 0;
  const markNoEol = () => {
    if (hunk.lines.length) hunk.lines[hunk.lines.length - 1].noEol = true;
  };
  while (i < lines.length && (oldSeen < hunk.oldLines || newSeen < hunk.newLines)) {
    const body = lines[i];
    const marker = body[0];
    if (marker === "\\") {
      markNoEol();
      i++;
      continue;
    }
    if (body === "" || body === "\r") hunk.lines.push({ op: " ", text: body, noEol: false });
    else if (marker === " " || marker === "-" || marker === "+") {
      hunk.lines.push({ op: marker, text: body.slice(1), noEol: false });
    } else break;
    const op = hunk.lines[hunk.lines.length - 1].op;
    if (op !== "+") oldSeen++;
    if (op !== "-") newSeen++;
    i++;
  }
  if (lines[i]?.startsWith("\\")) {
    markNoEol();
    i++;
  }
  if (oldSeen !== hunk.oldLines || newSeen !== hunk.newLines) {
    issues.push(error(
      "diff-invalid",
      `Hunk ${hunk.index} of "${
        file.newPath ?? file.oldPath
      }" is cut short: its header promises ${hunk.oldLines} old and ${hunk.newLines} new lines, the body has ${oldSeen} and ${newSeen}`,
      {
        file: file.newPath ?? file.oldPath ?? undefined,
        line: hunk.oldStart,
        hint: `check the "@@" header at line ${hunk.diffLine} of the diff`,
      },
    ));
  }
  return i;
}
