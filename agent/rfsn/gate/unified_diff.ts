/**
 * Unified diffs read into per-file patches, and applied in memory.
 *
 * The gate judges a patch by what it does to the files, so it needs the
 * files as the patch leaves them without touching the disk. This reader
 * understands what `git diff` and `diff -u` print: `diff --git` headers,
 * `---`/`+++` names with their `a/`/`b/` prefixes (or `/dev/null` for an
 * added or deleted file), `new file`/`deleted file`/`rename from`/`rename to`
 * lines, hunks `@@ -a,b +c,d @@`, and `\ No newline at end of file`.
 *
 * Applying follows `git apply` without fuzz: a hunk's old lines (context and
 * removals) must appear in the file exactly; they are looked for at the line
 * the header names first, then at the nearest offset either way.
 *
 * (`engine/lift` parses diffs too; the two readers are meant to be unified.)
 *
 * @module
 */

import { error, type Issue } from "../../../engine/issue.ts";

/** One hunk: the old lines it replaces and the new lines it puts there (without `\n`). */
export interface Hunk {
  /** 1-based first old line, as the header says (0 for an empty old side). */
  oldStart: number;
  oldLines: string[];
  newLines: string[];
  /** Whether the old (new) side's last line has no newline. */
  oldNoEol: boolean;
  newNoEol: boolean;
  /** 1-based line of the `@@` header in the diff. */
  diffLine: number;
}

/** Everything one file's part of a diff says. */
export interface FilePatch {
  /** Repository-relative path before the patch; null for an added file. */
  oldPath: string | null;
  /** Repository-relative path after the patch; null for a deleted file. */
  newPath: string | null;
  hunks: Hunk[];
  /** Binary change (content unknown to a text diff). */
  binary: boolean;
}

/** The result of reading a diff: its file patches, or the problems that stopped it. */
export interface ParsedDiff {
  files: FilePatch[];
  errors: Issue[];
}

function stripPrefix(name: string): string | null {
  const path = name.split("\t")[0].trim();
  if (path === "/dev/null") return null;
  return /^[ab]\//.test(path) ? path.slice(2) : path;
}

/** Read a unified diff. Problems (a malformed hunk header, hunk counts that disagree) are issues. */
export function parseUnifiedDiff(text: string): ParsedDiff {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const files: FilePatch[] = [];
  const errors: Issue[] = [];
  let current: FilePatch | undefined;
  let gitHeader = false;
  let i = 0;
  const startFile = (oldPath: string | null, newPath: string | null) => {
    current = { oldPath, newPath, hunks: [], binary: false };
    files.push(current);
  };
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith("diff --git ")) {
      const match = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
      startFile(match?.[1] ?? null, match?.[2] ?? null);
      gitHeader = true;
      i++;
      continue;
    }
    if (line.startsWith("--- ") && lines[i + 1]?.startsWith("+++ ")) {
      const oldPath = stripPrefix(line.slice(4));
      const newPath = stripPrefix(lines[i + 1].slice(4));
      if (current && gitHeader && current.hunks.length === 0) {
        current.oldPath = oldPath;
        current.newPath = newPath;
      } else startFile(oldPath, newPath);
      gitHeader = false;
      i += 2;
      continue;
    }
    if (current && gitHeader) {
      if (line.startsWith("new file mode")) current.oldPath = null;
      else if (line.startsWith("deleted file mode")) current.newPath = null;
      else if (line.startsWith("rename from ")) current.oldPath = line.slice(12);
      else if (line.startsWith("rename to ")) current.newPath = line.slice(10);
      else if (line.startsWith("Binary files ") || line === "GIT binary patch") current.binary = true;
    }
    if (line.startsWith("@@")) {
      const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!header || !current) {
        errors.push(error("diff-malformed", `Malformed hunk header at line ${i + 1} of the diff: "${line}"`, {
          line: i + 1,
          hint: "give a unified diff as git diff prints it",
        }));
        i++;
        continue;
      }
      gitHeader = false;
      const oldCount = header[2] === undefined ? 1 : Number(header[2]);
      const newCount = header[4] === undefined ? 1 : Number(header[4]);
      const hunk: Hunk = {
        oldStart: Number(header[1]),
        oldLines: [],
        newLines: [],
        oldNoEol: false,
        newNoEol: false,
        diffLine: i + 1,
      };
      i++;
      let last: " " | "-" | "+" = " ";
      while (i < lines.length && (hunk.oldLines.length < oldCount || hunk.newLines.length < newCount)) {
        const body = lines[i];
        const tag = body[0];
        if (tag === "\\") {
          if (last !== "+") hunk.oldNoEol = true;
          if (last !== "-") hunk.newNoEol = true;
        } else if (tag === " " || tag === undefined) {
          hunk.oldLines.push(body.slice(1));
          hunk.newLines.push(body.slice(1));
          last = " ";
        } else if (tag === "-") {
          hunk.oldLines.push(body.slice(1));
          last = "-";
        } else if (tag === "+") {
          hunk.newLines.push(body.slice(1));
          last = "+";
        } else break;
        i++;
      }
      if (lines[i]?.startsWith("\\")) {
        if (last !== "+") hunk.oldNoEol = true;
        if (last !== "-") hunk.newNoEol = true;
        i++;
      }
      if (hunk.oldLines.length !== oldCount || hunk.newLines.length !== newCount) {
        errors.push(error(
          "diff-malformed",
          `Hunk at line ${hunk.diffLine} of the diff has ${hunk.oldLines.length} old and ${hunk.newLines.length} new lines, its header says ${oldCount} and ${newCount}`,
          { line: hunk.diffLine, hint: "regenerate the diff; hand-edited hunks must keep their counts" },
        ));
      }
      current.hunks.push(hunk);
      continue;
    }
    i++;
  }
  if (files.length === 0 && errors.length === 0) {
    errors.push(error("diff-empty", "The patch contains no file changes", {
      hint: "give a unified diff (git diff output)",
    }));
  }
  return { files, errors };
}

/**
 * `before` with `patch`'s hunks applied (`before` is null for an added
 * file), or a `patch-does-not-apply` issue when a hunk's old lines are not
 * in the file.
 */
export function applyFilePatch(before: string | null, patch: FilePatch): { text: string } | { issue: Issue } {
  const file = patch.newPath ?? patch.oldPath ?? "";
  const source = before ?? "";
  const endsWithNewline = source === "" || source.endsWith("\n");
  const lines = source === "" ? [] : source.split("\n");
  if (endsWithNewline && lines.length > 0) lines.pop();
  const out: string[] = [];
  let cursor = 0;
  let finalNoEol = !endsWithNewline;
  for (const hunk of patch.hunks) {
    const want = hunk.oldStart === 0 ? 0 : hunk.oldStart - 1;
    const at = findLines(lines, hunk.oldLines, want, cursor);
    if (at < 0) {
      return {
        issue: error(
          "patch-does-not-apply",
          `Hunk at line ${hunk.diffLine} of the diff does not apply to "${file}": its old lines are not in the file`,
          { file, line: hunk.oldStart, hint: "make the patch against the repository's current files" },
        ),
      };
    }
    out.push(...lines.slice(cursor, at), ...hunk.newLines);
    cursor = at + hunk.oldLines.length;
    if (cursor === lines.length) finalNoEol = hunk.newNoEol;
  }
  out.push(...lines.slice(cursor));
  if (out.length === 0) return { text: "" };
  return { text: out.join("\n") + (finalNoEol ? "" : "\n") };
}

function findLines(lines: string[], wanted: string[], near: number, from: number): number {
  const fits = (at: number) => {
    if (at < from || at + wanted.length > lines.length) return false;
    for (let k = 0; k < wanted.length; k++) if (lines[at + k] !== wanted[k]) return false;
    return true;
  };
  for (let offset = 0; offset <= lines.length; offset++) {
    if (fits(near - offset)) return near - offset;
    if (fits(near + offset)) return near + offset;
  }
  return -1;
}
