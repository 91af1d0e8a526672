/**
 * Applying hunks (or SEARCH/REPLACE blocks) to a file's text in memory, as
 * `git apply --check` would judge them: every hunk's context and removed
 * lines must be found, at the header's line or shifted (the nearest place
 * wins), in order and without overlapping the previous hunk. The result is
 * the target text and the changed **regions**: for each run of consecutive
 * removed/added lines, the span of the old text it replaces and the new
 * text, tagged with its hunk. Regions are what lift maps onto the trees.
 *
 * Line endings: lines are compared without a trailing `\r`, so a diff
 * written with LF applies to a CRLF file; added lines get the line ending
 * given (lift passes the file's dominant one), or, without one, the line
 * ending the diff wrote them with; a line marked `\ No newline at end of
 * file` gets none.
 *
 * @module
 */

import { applyEdits } from "../edit/text_edit.ts";
import { error, type Issue } from "../base/issue.ts";
import type { Hunk } from "./unified_diff.ts";
import type { SearchReplaceBlock } from "./search_replace.ts";

/** A changed span of the old text and its new text. */
export interface Region {
  /** The hunk (or block) it comes from. */
  hunk: number;
  /** Other hunks merged into this region (a whitespace-only hunk lifted with its function's change). */
  alsoHunks?: number[];
  /** Offsets into the old text (UTF-16 units, as the trees index). */
  start: number;
  end: number;
  replacement: string;
}

/** The text after the hunks, and the regions, or the issues of the hunks that do not apply. */
export interface Applied {
  after: string;
  regions: Region[];
  issues: Issue[];
}

interface Line {
  /** Content without the line break. */
  content: string;
  start: number;
  /** Offset after the line break. */
  end: number;
}

function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl + 1;
    let content = text.slice(start, nl === -1 ? text.length : nl);
    if (content.endsWith("\r")) content = content.slice(0, -1);
    out.push({ content, start, end });
    start = end;
  }
  return out;
}

const bare = (line: string) => line.endsWith("\r") ? line.slice(0, -1) : line;

/**
 * The hint for a change whose result, not its starting point, is in the file:
 * typically `git diff > fix.diff` lifted (or gated) in the working tree it was taken from.
 */
const ALREADY_APPLIED = (what: "hunk" | "block") =>
  `the file already holds this ${what}'s result: the change is made already, and a diff applies to the files before it; revert it first (git stash, or git checkout -- FILE)`;

/**
 * Apply a file's hunks to `text`; `eol` is the line ending for added lines
 * (without it, each added line keeps the one the diff gives it).
 */
export function applyHunks(text: string, hunks: Hunk[], options: { file: string; eol?: string }): Applied {
  const lines = splitLines(text);
  const issues: Issue[] = [];
  const regions: Region[] = [];
  let floor = 0;
  for (const hunk of hunks) {
    const old = hunk.lines.filter((line) => line.op !== "+").map((line) => bare(line.text));
    const want = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
    const at = findLines(lines, old, want, floor);
    if (at < 0) {
      issues.push(error(
        "hunk-not-applicable",
        `Hunk ${hunk.index} does not apply to "${options.file}": its context and removed lines (from line ${hunk.oldStart}) are not in the file`,
        {
          file: options.file,
          line: Math.max(1, hunk.oldStart),
          hint: findLines(
              lines,
              hunk.lines.filter((line) => line.op !== "-").map((line) => bare(line.text)),
              0,
              0,
            ) >= 0
            ? ALREADY_APPLIED("hunk")
            : `the first line expected is ${
              JSON.stringify(old[0] ?? "")
            }; the diff was made against other content`,
        },
      ));
      continue;
    }
    let row = at;
    let run: { start: number; end: number; added: string[] } | undefined;
    const flush = () => {
      if (run) {
        regions.push({ hunk: hunk.index, start: run.start, end: run.end, replacement: run.added.join("") });
      }
      run = undefined;
    };
    for (const line of hunk.lines) {
      if (line.op === " ") {
        flush();
        row++;
        continue;
      }
      const offset = row < lines.length ? lines[row].start : text.length;
      run ??= { start: offset, end: offset, added: [] };
      if (line.op === "-") {
        run.end = lines[row].end;
        row++;
      } else {
        const text = options.eol === undefined ? line.text : bare(line.text);
        run.added.push(text + (line.noEol ? "" : options.eol ?? "\n"));
      }
    }
    flush();
    floor = row;
  }
  regions.sort((a, b) => a.start - b.start);
  return { after: applyEdits(text, regions, options.file), regions, issues };
}

/** The row where `old` occurs, nearest to `want`, at or after `floor`; -1 when nowhere. */
function findLines(lines: Line[], old: string[], want: number, floor: number): number {
  const fits = (at: number) => {
    if (at < floor || at + old.length > lines.length) return false;
    for (let k = 0; k < old.length; k++) if (lines[at + k].content !== old[k]) return false;
    return true;
  };
  if (old.length === 0) return Math.min(Math.max(want, floor), lines.length);
  for (let distance = 0; distance <= lines.length; distance++) {
    if (fits(want + distance)) return want + distance;
    if (distance > 0 && fits(want - distance)) return want - distance;
  }
  return -1;
}

/**
 * Apply SEARCH/REPLACE blocks of one file: each search text must occur in
 * the file as the earlier blocks left it (exactly; a unique occurrence, else
 * the first after the previous block, as Aider does).
 */
export function applyBlocks(
  text: string,
  blocks: SearchReplaceBlock[],
  options: { file: string; eol: string },
): Applied {
  const issues: Issue[] = [];
  const regions: Region[] = [];
  const toFile = (s: string) => options.eol === "\r\n" ? s.replace(/\r?\n/g, "\r\n") : s;
  for (const block of blocks) {
    const search = toFile(block.search);
    const replace = toFile(block.replace);
    if (search === "") {
      issues.push(
        error("search-empty", `Block ${block.index} for "${options.file}" has an empty SEARCH part`, {
          file: options.file,
          line: block.inputLine,
          hint: "copy the lines to change into SEARCH; creating files is not lifted",
        }),
      );
      continue;
    }
    const at = text.indexOf(search);
    if (at < 0) {
      issues.push(error(
        "hunk-not-applicable",
        `Block ${block.index} does not apply to "${options.file}": its SEARCH text is not in the file`,
        {
          file: options.file,
          hint: replace !== "" && text.includes(replace)
            ? ALREADY_APPLIED("block")
            : `the SEARCH part starts ${
              JSON.stringify(block.search.split("\n")[0])
            }; copy it from the file as it is`,
        },
      ));
      continue;
    }
    // Overlaps with an earlier block's span are not supported: blocks apply to distinct places.
    const end = at + search.length;
    if (regions.some((r) => r.start < end && at < r.end)) {
      issues.push(
        error("hunk-overlap", `Block ${block.index} for "${options.file}" overlaps an earlier block`, {
          file: options.file,
          hint: "merge the two blocks into one",
        }),
      );
      continue;
    }
    regions.push({ hunk: block.index, start: at, end, replacement: replace });
  }
  regions.sort((a, b) => a.start - b.start);
  return { after: applyEdits(text, regions, options.file), regions, issues };
}
