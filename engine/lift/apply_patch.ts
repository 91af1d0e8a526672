/**
 * Reading OpenAI's `apply_patch` format (V4A, what GPT-5-family models and
 * Codex CLI write) into the unified diff reader's structure (`FilePatch`
 * with line-numbered hunks), so lift treats both alike.
 *
 * ```text
 * *** Begin Patch
 * *** Update File: src/app.py
 * @@ class Cart
 * @@     def total(self):
 *          items = self.items
 * -        return sum(items)
 * +        return sum(item.price for item in items)
 * *** Add File: src/util.py
 * +def clamp(x, lo, hi):
 * +    return max(lo, min(x, hi))
 * *** Delete File: old.py
 * *** Update File: a.py
 * *** Move to: b.py
 * @@
 * -x = 1
 * +x = 2
 * *** End of File
 * *** End Patch
 * ```
 *
 * An update's hunks carry no line numbers: each is found in the file. The
 * algorithm, per file, with a cursor starting at line 0:
 *
 * 1. Each `@@ TEXT` line of the hunk (several nest: a class, then a method)
 *    is an anchor: the first line at or after the cursor equal to TEXT
 *    (exactly, else ignoring trailing, else surrounding whitespace, else
 *    starting with it where a name ends: `@@ class Order` for `class
 *    Order:`) moves the cursor past it. An anchor found only before the
 *    cursor (repeated for a second hunk in the same function, which Codex
 *    refuses) leaves the cursor where it is. An anchor found nowhere is
 *    `patch-context-not-found`.
 * 2. The hunk's context and removed lines are then searched from the cursor,
 *    with the same three degrees of exactness; the first place wins (as
 *    Codex applies it). A hunk without an anchor whose lines occur at
 *    several places is `patch-context-ambiguous`: nothing says which one is
 *    meant. `*** End of File` after a hunk pins it to the file's end; a hunk
 *    with no context and no removed lines is appended at the end.
 * 3. The hunk becomes a unified hunk at the line found, its context and
 *    removed lines taken from the file (so a whitespace-lenient match
 *    applies exactly), and the cursor moves past it.
 *
 * Every error names the file and the anchor (or the first line searched).
 * A line inside a hunk written empty counts as an empty context line.
 *
 * @module
 */

import { error, type Issue } from "../base/issue.ts";
import type { FilePatch, Hunk, HunkLine } from "./unified_diff.ts";

/** One `@@` section of an update, before it is located. */
interface Chunk {
  anchors: string[];
  lines: HunkLine[];
  endOfFile: boolean;
  /** 1-based line of the chunk's first line in the patch. */
  inputLine: number;
}

/** One file section of the patch. */
export interface PatchAction {
  kind: "add" | "delete" | "update";
  path: string;
  moveTo?: string;
  /** `add`: the new file's lines. */
  added: string[];
  /** `update`: the hunks. */
  chunks: Chunk[];
  inputLine: number;
}

/** What `parseApplyPatch` read. */
export interface ParsedApplyPatch {
  actions: PatchAction[];
  issues: Issue[];
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const HEADER = /^\*\*\* (Add|Delete|Update) File: (.+)$/;

/** Whether `text` is an `apply_patch` document (it has a `*** Begin Patch` line). */
export function isApplyPatch(text: string): boolean {
  return /^\*\*\* Begin Patch[ \t]*\r?$/m.test(text);
}

/** Read an `apply_patch` document (see the module notes); problems name the patch's line. */
export function parseApplyPatch(text: string): ParsedApplyPatch {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const issues: Issue[] = [];
  const actions: PatchAction[] = [];
  let i = lines.findIndex((line) => line.trim() === BEGIN);
  const invalid = (at: number, message: string, hint: string) =>
    issues.push(error("patch-invalid", message, { line: at + 1, hint }));
  if (i < 0) {
    invalid(
      0,
      `The input has no "${BEGIN}" line: it is not an apply_patch document`,
      `start with "${BEGIN}"`,
    );
    return { actions, issues };
  }
  let current: PatchAction | undefined;
  let chunk: Chunk | undefined;
  let ended = false;
  for (i++; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === END) {
      ended = true;
      break;
    }
    const header = HEADER.exec(line.trimEnd());
    if (header) {
      const kind = header[1].toLowerCase() as PatchAction["kind"];
      current = { kind, path: header[2].trim(), added: [], chunks: [], inputLine: i + 1 };
      chunk = undefined;
      actions.push(current);
      continue;
    }
    if (!current) {
      if (line.trim() !== "") {
        invalid(i, `Line ${i + 1} of the patch is outside a file section: "${clip(line)}"`, FILE_HINT);
      }
      continue;
    }
    if (current.kind === "add") {
      if (line.startsWith("+")) current.added.push(line.slice(1));
      else if (line !== "" || lines[i + 1]?.startsWith("+")) {
        invalid(
          i,
          `Line ${i + 1} of the patch adds to "${current.path}" without "+": "${clip(line)}"`,
          ADD_HINT,
        );
      }
      continue;
    }
    if (current.kind === "delete") {
      if (line.trim() !== "") {
        invalid(
          i,
          `Line ${i + 1} of the patch follows "Delete File: ${current.path}": "${clip(line)}"`,
          FILE_HINT,
        );
      }
      continue;
    }
    const move = /^\*\*\* Move to: (.+)$/.exec(line.trimEnd());
    if (move && current.chunks.length === 0 && !chunk) {
      current.moveTo = move[1].trim();
      continue;
    }
    if (line.trimEnd() === "*** End of File") {
      if (chunk) chunk.endOfFile = true;
      chunk = undefined;
      continue;
    }
    if (line.startsWith("@@")) {
      const anchor = line.slice(2).trim();
      if (!chunk || chunk.lines.length > 0) {
        chunk = { anchors: [], lines: [], endOfFile: false, inputLine: i + 1 };
        current.chunks.push(chunk);
      }
      if (anchor !== "") chunk.anchors.push(anchor);
      continue;
    }
    const op = line[0];
    if (op === " " || op === "-" || op === "+" || line === "") {
      if (!chunk) {
        // The first hunk may leave out its "@@" line.
        chunk = { anchors: [], lines: [], endOfFile: false, inputLine: i + 1 };
        current.chunks.push(chunk);
      }
      chunk.lines.push({ op: line === "" ? " " : op as HunkLine["op"], text: line.slice(1), noEol: false });
      continue;
    }
    invalid(
      i,
      `Line ${i + 1} of the patch is not part of a hunk of "${current.path}": "${clip(line)}"`,
      HUNK_HINT,
    );
  }
  if (!ended) invalid(lines.length - 1, `The patch does not end with "${END}"`, `close it with "${END}"`);
  for (const action of actions) {
    // Blank lines after a file's last hunk separate sections; they are not context.
    const last = action.chunks.at(-1);
    while (last && last.lines.length > 0 && last.lines.at(-1)!.text === "" && last.lines.at(-1)!.op === " ") {
      last.lines.pop();
    }
    if (action.kind === "update" && action.chunks.every((c) => c.lines.length === 0) && !action.moveTo) {
      invalid(action.inputLine - 1, `"Update File: ${action.path}" has no hunk`, HUNK_HINT);
    }
  }
  if (actions.length === 0 && issues.length === 0) {
    invalid(i, "The patch has no file section: nothing to lift", FILE_HINT);
  }
  return { actions, issues };
}

const FILE_HINT =
  'a file section starts with "*** Update File: PATH", "*** Add File: PATH" or "*** Delete File: PATH"';
const ADD_HINT = 'every line of an added file starts with "+"';
const HUNK_HINT = 'a hunk is "@@" (optionally "@@ def name"), then lines starting with " ", "-" or "+"';

function clip(line: string): string {
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/**
 * Turn the parsed actions into file patches, locating each update's hunks
 * in the file's current text (`read` gives it, undefined when the file does
 * not exist). Hunk indexes count across the whole patch.
 */
export async function resolveApplyPatch(
  parsed: ParsedApplyPatch,
  read: (path: string) => Promise<string | undefined>,
): Promise<{ files: FilePatch[]; issues: Issue[] }> {
  const files: FilePatch[] = [];
  const issues: Issue[] = [];
  let index = 0;
  for (const action of parsed.actions) {
    const base = {
      oldMode: null,
      newMode: null,
      binary: false,
      similarity: null,
      diffLine: action.inputLine,
    };
    if (action.kind === "add") {
      const lines = action.added.map((text): HunkLine => ({ op: "+", text, noEol: false }));
      const hunks = lines.length === 0 ? [] : [hunkOf(index++, 0, lines, action.inputLine)];
      files.push({ ...base, path: action.path, oldPath: null, newPath: action.path, status: "added", hunks });
      continue;
    }
    if (action.kind === "delete") {
      files.push({
        ...base,
        path: action.path,
        oldPath: action.path,
        newPath: null,
        status: "deleted",
        hunks: [],
      });
      continue;
    }
    const text = await read(action.path);
    if (text === undefined) {
      issues.push(
        error("hunk-not-applicable", `"Update File: ${action.path}" names a file that does not exist`, {
          file: action.path,
          hint: 'create a new file with "*** Add File:"',
        }),
      );
      continue;
    }
    const located = locateChunks(action, text.replace(/\r\n/g, "\n").split("\n"), index);
    index += action.chunks.length;
    issues.push(...located.issues);
    const to = action.moveTo ?? action.path;
    files.push({
      ...base,
      path: to,
      oldPath: action.path,
      newPath: to,
      status: to === action.path ? "modified" : "renamed",
      hunks: located.hunks,
    });
  }
  return { files, issues };
}

function hunkOf(index: number, oldStart: number, lines: HunkLine[], diffLine: number): Hunk {
  const oldLines = lines.filter((line) => line.op !== "+").length;
  const newLines = lines.filter((line) => line.op !== "-").length;
  return { index, oldStart, oldLines, newStart: oldStart, newLines, lines, diffLine };
}

/** The three degrees of exactness, strictest first. */
const LOOSENESS: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim()];

/** Rows at or after `from` where `wanted` occurs, at the strictest degree that finds any. */
function findAll(lines: string[], wanted: string[], from: number, to = lines.length): number[] {
  for (const norm of LOOSENESS) {
    const want = wanted.map(norm);
    const found: number[] = [];
    for (let at = from; at + want.length <= to; at++) {
      let k = 0;
      while (k < want.length && norm(lines[at + k]) === want[k]) k++;
      if (k === want.length) found.push(at);
    }
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * The row of `anchor` at or after `from`: a line equal to it (`findAll`'s
 * degrees), else one that starts with it where a name ends (`class Order`
 * for `class Order(Base):`). When there is none, the nearest such line
 * before `from` (an anchor repeated for a second hunk in the same function);
 * undefined when the file has none at all.
 */
function findAnchor(rows: string[], anchor: string, from: number): number | undefined {
  const exact = findAll(rows, [anchor], from);
  if (exact.length > 0) return exact[0];
  const want = anchor.trim();
  const starts = (row: number) => {
    const line = rows[row].trim();
    return line.startsWith(want) && !/^[\p{L}\p{N}_]/u.test(line.slice(want.length));
  };
  for (let row = from; row < rows.length; row++) if (starts(row)) return row;
  const before = findAll(rows, [anchor], 0, from);
  if (before.length > 0) return before.at(-1);
  for (let row = Math.min(from, rows.length) - 1; row >= 0; row--) if (starts(row)) return row;
  return undefined;
}

/** Locate each chunk of `action` in `lines` (see the module notes). */
function locateChunks(
  action: PatchAction,
  lines: string[],
  firstIndex: number,
): { hunks: Hunk[]; issues: Issue[] } {
  // A final empty string is the text after the last line break, not a line.
  const rows = lines.at(-1) === "" ? lines.slice(0, -1) : lines;
  const hunks: Hunk[] = [];
  const issues: Issue[] = [];
  let cursor = 0;
  action.chunks.forEach((chunk, k) => {
    const index = firstIndex + k;
    const where = chunk.anchors.length ? `after "@@ ${chunk.anchors.join(" / @@ ")}"` : "";
    for (const anchor of chunk.anchors) {
      const found = findAnchor(rows, anchor, cursor);
      if (found === undefined) {
        issues.push(error(
          "patch-context-not-found",
          `Hunk ${index} of "${action.path}": the anchor "@@ ${anchor}" is not in the file${
            cursor > 0 ? ` after line ${cursor}` : ""
          }`,
          { file: action.path, hint: 'an anchor repeats a line of the file, such as "def name(...):"' },
        ));
        return;
      }
      cursor = Math.max(cursor, found + 1);
    }
    const old = chunk.lines.filter((line) => line.op !== "+").map((line) => line.text);
    let at: number;
    if (old.length === 0) {
      at = chunk.anchors.length && !chunk.endOfFile ? cursor : rows.length;
    } else {
      const found = chunk.endOfFile
        ? findAll(rows, old, Math.max(cursor, rows.length - old.length))
        : findAll(rows, old, cursor);
      if (found.length === 0) {
        issues.push(error(
          "patch-context-not-found",
          `Hunk ${index} of "${action.path}": its context and removed lines${
            where ? ` ${where}` : ""
          } are not in the file (first line "${clip(old[0])}")`,
          { file: action.path, hint: "copy the lines around the change from the file as it is now" },
        ));
        return;
      }
      if (found.length > 1 && chunk.anchors.length === 0 && !chunk.endOfFile && hunks.length === 0) {
        issues.push(error(
          "patch-context-ambiguous",
          `Hunk ${index} of "${action.path}": its context and removed lines (first line "${
            clip(old[0])
          }") occur at lines ${found.slice(0, 5).map((row) => row + 1).join(", ")}`,
          {
            file: action.path,
            line: found[0] + 1,
            hint: 'add an anchor ("@@ def name(...):") or more context lines to say which one is meant',
          },
        ));
        return;
      }
      at = found[0];
    }
    // Context and removed lines as the file has them (a lenient match applies exactly).
    let row = at;
    const lines = chunk.lines.map((line): HunkLine =>
      line.op === "+" ? line : { ...line, text: rows[row++] }
    );
    hunks.push(hunkOf(index, old.length === 0 ? at : at + 1, lines, chunk.inputLine));
    cursor = row;
  });
  return { hunks, issues };
}
