/**
 * `set_blank_lines`: the number of blank lines directly above (`before`) or
 * directly below (`after`) a node becomes exactly N. Vertical spacing is
 * part of a file's layout that every style guide fixes (PEP 8: two blank
 * lines around top-level definitions, one around methods), and real fixes
 * change it: a new function gets the file's two blank lines, a stray third
 * one is dropped. No other operator can say "only the spacing changes";
 * without it such a change falls to a text operator.
 *
 * The run of blank lines is the stretch of whitespace-only lines (spaces,
 * tabs, form feeds) between
 * the node's first line and the closest line above it that has code or a
 * comment (for `after`: between the node's last line and the next such
 * line). It is replaced by N empty lines in the file's line-break style;
 * nothing else changes, so the tree's statements, their order and their
 * text stay as they were. A decorated definition is spaced from its first
 * decorator. The node must start its line (`before`); a run that lies inside
 * a string literal is refused (its blank lines are the string's value).
 *
 * @module
 */

import { fail } from "../../base/issue.ts";
import type { Node } from "../../parse/mod.ts";
import { firstOnLine, lineStart, nextLineStart } from "../indent.ts";
import type { OperatorFn } from "../operator.ts";
import type { TextEdit } from "../text_edit.ts";
import { locatedParam } from "./params.ts";
import { describe } from "./units.ts";

/** The most blank lines a step may ask for (more is not spacing, it is a mistake). */
export const MAX_BLANK_LINES = 20;

/**
 * A blank line: spaces, tabs and form feeds only (Python's tokenizer skips
 * all three, and PEP 8 allows a form feed line as a page break between
 * sections, which the standard library uses), ending in a line break.
 */
export const BLANK_LINE = /^[ \t\f]*\r?\n$/;

/** A count parameter: undefined when absent, else an integer in [0, MAX_BLANK_LINES]. */
function countParam(params: Record<string, unknown>, name: string): number | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > MAX_BLANK_LINES) {
    fail("param-invalid", `Parameter "${name}" must be a whole number from 0 to ${MAX_BLANK_LINES}`, {
      path: ["params", name],
    });
  }
  return value;
}

/** The run of whitespace-only lines ending at `from` (a line start), walking up. */
function runAbove(text: string, from: number): { start: number; end: number } {
  let start = from;
  while (start > 0) {
    const previous = lineStart(text, start - 1);
    if (!BLANK_LINE.test(text.slice(previous, start))) break;
    start = previous;
  }
  return { start, end: from };
}

/** The run of whitespace-only lines starting at `from` (a line start), walking down; whole lines only. */
function runBelow(text: string, from: number): { start: number; end: number } {
  let end = from;
  while (end < text.length) {
    const next = nextLineStart(text, end);
    if (next === end || !BLANK_LINE.test(text.slice(end, next))) break;
    end = next;
  }
  return { start: from, end };
}

/** `set_blank_lines`. */
export const setBlankLines: OperatorFn = async (params, ctx) => {
  const { doc, node: found } = await locatedParam(ctx, params, { name: "target" });
  const before = countParam(params, "before");
  const after = countParam(params, "after");
  if (before === undefined && after === undefined) {
    fail("param-missing", 'Give "before", "after" or both: the number of blank lines wanted', {
      path: ["params"],
    });
  }
  const node = found.parent?.type === "decorated_definition" ? found.parent : found;
  const text = doc.file.text;
  const file = doc.file.path;
  const line = node.startPosition.row + 1;
  const eol = doc.file.eol === "\r\n" ? "\r\n" : "\n";
  const edits: TextEdit[] = [];
  const runs: { start: number; end: number }[] = [];
  if (before !== undefined) {
    if (!firstOnLine(text, node.startIndex)) {
      fail("blank-lines-target", `Cannot space ${describe(node)}: it does not start its line ${line}`, {
        file,
        line,
        path: ["params", "target"],
        hint: "target the statement that starts the line",
      });
    }
    const run = runAbove(text, lineStart(text, node.startIndex));
    runs.push(run);
    edits.push({ ...run, replacement: eol.repeat(before) });
  }
  if (after !== undefined) {
    const from = nextLineStart(text, Math.max(node.startIndex, node.endIndex - 1));
    if (from === text.length && !text.endsWith("\n") && after > 0) {
      fail(
        "blank-lines-target",
        `Cannot add blank lines after ${describe(node)}: the file ends on its line`,
        {
          file,
          line: node.endPosition.row + 1,
          path: ["params", "after"],
        },
      );
    }
    const run = runBelow(text, from);
    if (!runs.some((other) => other.start === run.start && other.end === run.end)) {
      runs.push(run);
      edits.push({ ...run, replacement: eol.repeat(after!) });
    }
  }
  for (const run of runs) {
    const inside = insideString(doc.tree.rootNode, run.start, run.end);
    if (inside) {
      fail("blank-lines-in-string", `The blank lines next to ${describe(node)} are inside a string literal`, {
        file,
        line: inside.startPosition.row + 1,
        path: ["params", "target"],
        hint: "a string's lines are its value: change it with replace_expression",
      });
    }
  }
  const changed = edits.filter((edit) => text.slice(edit.start, edit.end) !== edit.replacement);
  const result = { file, line, changed: changed.length > 0 };
  if (changed.length) await ctx.edit(file, "set_blank_lines", changed);
  return result;
};

/** The string node that contains [start, end) with text on both sides, if any. */
function insideString(root: Node, start: number, end: number): Node | undefined {
  for (
    let node: Node | null = root.descendantForIndex(start, Math.max(start, end - 1));
    node;
    node = node.parent
  ) {
    if (node.startIndex < start && node.endIndex > end && /string/.test(node.type)) return node;
  }
  return undefined;
}
