/**
 * Reading a git-format unified diff: the files it touches and their hunks.
 *
 * Accepted: `diff --git` headers (optional), `---`/`+++` lines with `a/` and
 * `b/` prefixes (`-p1`; paths without them are taken as they are), `@@ -l,n
 * +l,n @@` hunk headers (counts default to 1), context/removed/added lines,
 * `\ No newline at end of file` markers, and a context line written empty
 * (some tools drop the lone space of a blank context line). Lines keep a
 * trailing `\r` when the diff has one: a CRLF file's diff carries its line
 * endings inside the lines. Creating or deleting a file (`/dev/null`) is
 * reported, not lifted: a plan edits existing files.
 *
 * @module
 */

import { error, type Issue } from "../issue.ts";

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

/** The hunks of one file. */
export interface FilePatch {
  /** Repository-relative path (the new path; the old one when the file is deleted). */
  path: string;
  oldPath: string | null;
  newPath: string | null;
  hunks: Hunk[];
}

/** The result of reading a diff: patches and every problem. */
export interface ParsedDiff {
  files: FilePatch[];
  issues: Issue[];
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Strip `a/` / `b/` (`-p1`), a trailing tab-separated timestamp, and `/dev/null`. */
function diffPath(raw: string): string | null {
  let path = raw.replace(/\t.*$/, "").replace(/\r$/, "").trim();
  if (path.startsWith('"') && path.endsWith('"')) path = JSON.parse(path) as string;
  if (path === "/dev/null") return null;
  return path.replace(/^[ab]\//, "");
}

/** Read a unified diff (see the module notes); problems are issue objects with the diff's line. */
export function parseUnifiedDiff(text: string): ParsedDiff {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: FilePatch[] = [];
  const issues: Issue[] = [];
  let current: FilePatch | undefined;
  let hunkIndex = 0;
  let i = 0;
  const startFile = (oldPath: string | null, newPath: string | null) => {
    current = { path: newPath ?? oldPath ?? "", oldPath, newPath, hunks: [] };
    files.push(current);
  };
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("diff --git ")) {
      const match = /^diff --git (?:"?a\/)?(.+?)"? (?:"?b\/)?(.+?)"?\r?$/.exec(line);
      startFile(match ? match[1] : null, match ? match[2] : null);
      i++;
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const oldPath = diffPath(line.slice(4));
      const newPath = diffPath(lines[i + 1].slice(4));
      if (!current || current.hunks.length > 0 || current.oldPath === null && current.newPath === null) {
        startFile(oldPath, newPath);
      } else {
        current.oldPath = oldPath;
        current.newPath = newPath;
        current.path = newPath ?? oldPath ?? current.path;
      }
      i += 2;
      continue;
    }
    const header = HEADER.exec(line);
    if (!header) {
      i++;
      continue;
    }
    if (!current) {
      issues.push(error("diff-invalid", `Hunk header without a file header at line ${i + 1} of the diff`, {
        line: i + 1,
        hint: 'a unified diff names its file with "--- a/PATH" and "+++ b/PATH" before the first "@@"',
      }));
      i++;
      continue;
    }
    const hunk: Hunk = {
      index: hunkIndex++,
      oldStart: Number(header[1]),
      oldLines: header[2] === undefined ? 1 : Number(header[2]),
      newStart: Number(header[3]),
      newLines: header[4] === undefined ? 1 : Number(header[4]),
      lines: [],
      diffLine: i + 1,
    };
    current.hunks.push(hunk);
    i++;
    let oldSeen = 0;
    let newSeen = 0;
    while (i < lines.length && (oldSeen < hunk.oldLines || newSeen < hunk.newLines)) {
      const body = lines[i];
      const marker = body[0];
      if (body.startsWith("\\")) {
        if (hunk.lines.length) hunk.lines[hunk.lines.length - 1].noEol = true;
        i++;
        continue;
      }
      if (body === "" || body === "\r") {
        hunk.lines.push({ op: " ", text: body, noEol: false });
      } else if (marker === " " || marker === "-" || marker === "+") {
        hunk.lines.push({ op: marker, text: body.slice(1), noEol: false });
      } else {
        break;
      }
      const op = hunk.lines[hunk.lines.length - 1].op;
      if (op !== "+") oldSeen++;
      if (op !== "-") newSeen++;
      i++;
    }
    if (lines[i]?.startsWith("\\")) {
      if (hunk.lines.length) hunk.lines[hunk.lines.length - 1].noEol = true;
      i++;
    }
    if (oldSeen !== hunk.oldLines || newSeen !== hunk.newLines) {
      issues.push(error(
        "diff-invalid",
        `Hunk ${hunk.index} of "${current.path}" is cut short: its header promises ${hunk.oldLines} old and ${hunk.newLines} new lines, the body has ${oldSeen} and ${newSeen}`,
        {
          file: current.path,
          line: hunk.oldStart,
          hint: `check the "@@" header at line ${hunk.diffLine} of the diff`,
        },
      ));
    }
  }
  const kept = files.filter((file) => file.hunks.length > 0);
  for (const file of kept) {
    if (file.oldPath === null || file.newPath === null) {
      issues.push(error(
        "diff-unsupported",
        `The diff ${
          file.oldPath === null ? "creates" : "deletes"
        } "${file.path}": a plan edits existing files only`,
        { file: file.path, hint: "create or delete the file outside the plan" },
      ));
    } else if (file.oldPath !== file.newPath) {
      issues.push(error("diff-unsupported", `The diff renames "${file.oldPath}" to "${file.newPath}"`, {
        file: file.path,
        hint: "rename the file outside the plan, then lift the content changes",
      }));
    }
  }
  if (kept.length === 0 && issues.length === 0) {
    issues.push(error("diff-empty", "The input has no hunks: nothing to lift", {
      hint: 'give a unified diff ("diff --git", "---", "+++", "@@" lines), e.g. the output of "git diff"',
    }));
  }
  return { files: kept, issues };
}
