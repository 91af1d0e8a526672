/**
 * Indentation-aware code placement: taking a snippet written by a model (at
 * column 0, or at any indentation, with LF line endings) and fitting it to
 * the place in a file where it goes.
 *
 * ## The problem
 *
 * A snippet arrives in one of three shapes, and we cannot ask which:
 *
 * 1. **Relative**: written at column 0, nested lines indented relative to
 *    the first (`def f():\n    return 1`).
 * 2. **Absolute**: copied from the file with its indentation
 *    (`    def f():\n        return 1`), common indentation included.
 * 3. **First line stripped**: copied from the file starting *at* the node,
 *    so the first line lost its indentation but the others kept theirs
 *    (`def f():\n        return 1` for a method at column 4). The seed's
 *    own `replace_node` example is of this shape.
 *
 * The result must sit at the anchor's indentation (`indent`), keep the
 * snippet's relative structure, use the file's indentation unit (tabs or
 * spaces) and line ending, add no trailing whitespace on blank lines, and
 * never change the value of a string literal.
 *
 * ## The algorithm
 *
 * 1. Normalise CRLF to LF and drop one trailing newline (the snippet's own
 *    line terminator; further trailing blank lines are kept as blank lines).
 * 2. Find **protected lines**: lines that begin inside a multi-line string
 *    literal (triple-quoted Python strings, JS template literals, raw strings
 *    in Go/Rust...). Their leading whitespace is part of the string's value,
 *    so they are copied verbatim, never dedented or indented. The snippet is
 *    parsed with the file's grammar (after a naive dedent, which keeps rows)
 *    and every string-like node spanning several rows protects its rows
 *    after the first (a concatenation of one-line strings, `"a\n"` on one
 *    row and `"b"` on the next, protects nothing: its rows are code).
 *    **Decision**: Python docstrings (a string that is the
 *    whole first statement of a module, class or function body) are *not*
 *    protected: re-indenting them changes only whitespace that
 *    `inspect.cleandoc` removes anyway, and leaving them at column 0 inside
 *    an indented method would look broken.
 * 3. Compute the **common indentation** `c` of the structural lines
 *    (non-blank, not protected), in columns (a tab counts 8). When the first
 *    line sits at column 0 and the other lines are indented by at least
 *    `m > 0`, the shape is ambiguous:
 *    - if the first line *opens* something (ends with `:`, `{`, `(`, `[`,
 *      `,`, an operator, a backslash), the next line is one level deeper
 *      (the first *logical* line: a signature continued inside brackets,
 *      `def f(a,\n      b):`, is judged by its last row and the line after
 *      it, not by its own continuation)
 *      than the first. If that next line is deeper than the target
 *      indentation `b` (and `b > 0`), the first line must have been at `b`:
 *      shape 3, `c = b`; otherwise shape 1, `c = 0`;
 *    - otherwise the followers belong at the first line's level: `c = m`
 *      (shape 3, e.g. a body `return x\n        y = 1` for a block at 8);
 *    - but when the first line continues a line of the file (`inlineFirst`,
 *      an expression replaced in place) and every other line starts with
 *      the anchor's indentation and goes deeper (`m > b`), the snippet was
 *      copied from that place with its alignment (a string continued under
 *      the call's bracket): its lines are kept as they are, no conversion.
 *      Re-indenting them to `b` plus their depth would move the aligned
 *      rows, which only a layout step after the edit could put back.
 * 4. Each structural line keeps its indentation beyond `c` (its relative
 *    indentation `r`). When the snippet's indentation differs from the
 *    file's unit (tabs in a space-indented file or the reverse, 4-space
 *    code in a 2-space file), `r` is converted level by level: `r / u`
 *    levels of the file's unit plus `r % u` spaces, where `u` is the
 *    snippet's step: the most common increase after a line that opens a
 *    block (a tab counts as one level). Block lines sit at multiples of
 *    `u`, so their nesting is kept; only the alignment of continuation
 *    lines inside brackets may shift.
 * 5. Emit: the anchor's indentation + relative indentation + content for
 *    structural lines, `""` for blank lines, protected lines verbatim; join
 *    with the file's line ending.
 *
 * ## Worked example
 *
 * A method at column 4 in a tab-free file, the model writes (shape 3):
 *
 * ```text
 * def area(self):
 *         """Area.
 *
 *         In square units."""
 *         s = """a
 *   b"""
 *         return s
 * ```
 *
 * Step 2 protects row 5 (`  b"""`, inside the non-docstring string) but not
 * rows 1-3 (the docstring). Step 3: the first line opens (`:`) and the next
 * line (8) is deeper than `b = 4`, so `c = 4`. Step 5 gives
 * `    def area(self):`, `        """Area.`, an empty line,
 * `        In square units."""`, `        s = """a`, `  b"""` untouched,
 * `        return s` (`indent_test.ts` checks this example).
 *
 * @module
 */

import { type LanguageId, type Node, withTree } from "../parse/mod.ts";

/** Column width of a tab when measuring indentation. */
const TAB_WIDTH = 8;

/** Where a line starts: the offset after the previous `\n` (or 0). */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** Where a line's content ends: the offset of its `\r\n`/`\n`, or the text's end. */
export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  if (nl === -1) return text.length;
  return nl > 0 && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
}

/** The offset just after the line break that ends the line containing `offset` (or the text's end). */
export function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf("\n", offset);
  return nl === -1 ? text.length : nl + 1;
}

/** The leading whitespace of the line containing `offset`. */
export function lineIndent(text: string, offset: number): string {
  const start = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(start, lineEnd(text, start)))![0];
}

/** Whether only spaces and tabs precede `offset` on its line. */
export function firstOnLine(text: string, offset: number): boolean {
  return /^[ \t]*$/.test(text.slice(lineStart(text, offset), offset));
}

const LINE_COMMENT: Partial<Record<LanguageId, RegExp>> = {
  python: /^[ \t]*(#.*)?$/,
  ruby: /^[ \t]*(#.*)?$/,
  php: /^[ \t]*((#|\/\/).*|\/\*.*\*\/[ \t]*)?$/,
};
const C_LIKE_COMMENT = /^[ \t]*(\/\/.*|\/\*.*\*\/[ \t]*)?$/;

/** Whether the rest of the line after `offset` is blank or a comment. */
export function lastOnLine(text: string, offset: number, language: LanguageId): boolean {
  const rest = text.slice(offset, lineEnd(text, offset));
  return (LINE_COMMENT[language] ?? C_LIKE_COMMENT).test(rest);
}

/** Width in columns of leading whitespace (tabs count {@link TAB_WIDTH}). */
export function indentWidth(ws: string): number {
  let width = 0;
  for (const ch of ws) width = ch === "\t" ? width + TAB_WIDTH - (width % TAB_WIDTH) : width + 1;
  return width;
}

/**
 * The file's indentation unit: `"\t"` when most indented lines start with a
 * tab, else the most common step between a line and a more indented next
 * line (`"    "` when the file gives no evidence).
 */
export function detectIndentUnit(text: string): string {
  // Every step of a lift's candidates asks it of the same file text: the last answer is kept.
  if (lastUnit?.text !== text) lastUnit = { text, unit: indentUnitOf(text) };
  return lastUnit.unit;
}

let lastUnit: { text: string; unit: string } | undefined;

/** `detectIndentUnit` without the memo. */
function indentUnitOf(text: string): string {
  let tabs = 0;
  let spaces = 0;
  const steps = new Map<number, number>();
  let previous = -1;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    const ws = /^[ \t]*/.exec(line)![0];
    if (ws.startsWith("\t")) tabs++;
    else if (ws.length > 0) spaces++;
    if (!ws.includes("\t")) {
      const width = ws.length;
      if (previous >= 0 && width > previous && width - previous <= 8) {
        steps.set(width - previous, (steps.get(width - previous) ?? 0) + 1);
      }
      previous = width;
    }
  }
  if (tabs > spaces) return "\t";
  let best = 4;
  let bestCount = 0;
  for (const [step, count] of steps) {
    if (count > bestCount || (count === bestCount && step > best)) [best, bestCount] = [step, count];
  }
  return " ".repeat(best);
}

const STRING_TYPE = /string|template|heredoc|raw_string|text_block/;

/**
 * Rows (0-based) of `code` that begin inside a multi-line string literal
 * other than a Python docstring: their leading whitespace is string content.
 */
export async function protectedRows(code: string, language: LanguageId): Promise<Set<number>> {
  const rows = new Set<number>();
  if (!code.includes("\n")) return rows;
  const lines = code.split("\n");
  // A reduce, not Math.min(...): a snippet of a million lines would overflow the call stack.
  const common = lines.filter((line) => line.trim() !== "").map((line) => /^[ \t]*/.exec(line)![0].length)
    .reduce((a, b) => Math.min(a, b), Infinity);
  const naive = lines.map((line) => line.slice(Math.min(common, /^[ \t]*/.exec(line)![0].length))).join("\n");
  try {
    await withTree(language, naive, (tree) => {
      for (const row of stringRows(tree.rootNode, language)) rows.add(row);
    });
  } catch {
    // A snippet that cannot be parsed has no string rows to protect.
  }
  return rows;
}

/**
 * Rows (0-based, of the tree's text) that begin inside a multi-line string
 * literal under `root`, Python docstrings excepted.
 */
export function stringRows(root: Node, language: LanguageId): Set<number> {
  const rows = new Set<number>();
  const visit = (node: Node): void => {
    if (node.startPosition.row === node.endPosition.row) return;
    // A concatenation's own rows are code (`"a"\n"b"`): only its multi-line parts are protected.
    if (STRING_TYPE.test(node.type) && node.isNamed && node.type !== "concatenated_string") {
      if (isDocstring(node, language)) return;
      for (let row = node.startPosition.row + 1; row <= node.endPosition.row; row++) rows.add(row);
      return;
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(root);
  return rows;
}

/** A Python string that is the whole first statement of a module or block. */
function isDocstring(node: Node, language: LanguageId): boolean {
  if (language !== "python" || node.type !== "string") return false;
  const statement = node.parent;
  if (!statement || statement.type !== "expression_statement" || statement.namedChildCount !== 1) {
    return false;
  }
  const body = statement.parent;
  if (!body || (body.type !== "block" && body.type !== "module")) return false;
  const first = body.namedChildren.find((child) => child && child.type !== "comment");
  return first?.id === statement.id;
}

/** Options for {@link reindent}. */
export interface ReindentOptions {
  /** Indentation of the anchor's line: every structural line starts with it. */
  indent: string;
  /** The file's indentation unit (`"\t"`, `"    "`, ...). */
  unit: string;
  /** The file's line ending. */
  eol: string;
  /** Grammar used to find multi-line strings in the snippet. */
  language: LanguageId;
  /**
   * The first line continues a line of the file (it replaces a node that
   * starts after the line's indentation): it gets no indentation itself.
   */
  inlineFirst?: boolean;
}

const OPENER = /([:{(\[,\\+\-*\/%&|<>=]|=>|\band|\bor|\bnot)\s*$/;

/**
 * Re-indent `code` for its place in a file: see the module documentation for
 * the algorithm. The result has no trailing line break.
 */
export async function reindent(code: string, options: ReindentOptions): Promise<string> {
  const { indent, unit, eol, language } = options;
  let source = code.replace(/\r\n?/g, "\n");
  if (source.endsWith("\n")) source = source.slice(0, -1);
  const lines = source.split("\n");
  const guarded = await protectedRows(source, language);
  const wsOf = (line: string) => /^[ \t]*/.exec(line)![0];
  const structural = lines.map((line, row) => !guarded.has(row) && line.trim() !== "");
  const widths = lines.map((line) => indentWidth(wsOf(line)));
  const firstRow = structural.indexOf(true);
  if (firstRow === -1) {
    return lines.map((line, row) => guarded.has(row) ? line : "").join(eol);
  }
  const others = widths.filter((_, row) => structural[row] && row !== firstRow);
  const m = others.reduce((a, b) => Math.min(a, b), others.length ? Infinity : 0);
  let common: number;
  if (widths[firstRow] === 0 && others.length && m > 0) {
    const b = indentWidth(indent);
    // The first logical line: a signature or call continued inside brackets ends where they close.
    // (A snippet that is one logical line keeps the first row's test.)
    let lastRow = logicalLineEnd(lines, firstRow, language);
    if (structural.indexOf(true, lastRow + 1) === -1) lastRow = firstRow;
    const opens = OPENER.test(stripLineComment(lines[lastRow], language));
    const nextRow = structural.indexOf(true, lastRow + 1);
    if (
      options.inlineFirst && firstRow === 0 && m > b && (!opens || widths[nextRow] > b) &&
      lines.every((line, row) => row === 0 || !structural[row] || wsOf(line).startsWith(indent))
    ) {
      // Copied from the file where it goes (shape 3 continuing a line): its rows stay as they are.
      return lines.map((line, row) =>
        row === 0 ? line.slice(wsOf(line).length) : structural[row] || guarded.has(row) ? line : ""
      ).join(eol);
    }
    common = opens ? (widths[nextRow] > b && b > 0 ? Math.min(b, m) : 0) : m;
  } else {
    common = widths.filter((_, row) => structural[row]).reduce((a, b) => Math.min(a, b), Infinity);
  }
  // The snippet's own indentation character and step, for tab/space conversion.
  const usesTabs = lines.some((line, row) => structural[row] && wsOf(line).includes("\t"));
  const fileTabs = unit === "\t";
  const step = usesTabs ? TAB_WIDTH : snippetStep(lines, structural, widths, language);
  const convert = usesTabs !== fileTabs || (!fileTabs && step > 0 && step !== unit.length);
  const relative = (rel: number): string => {
    if (rel <= 0) return "";
    if (!convert) {
      return usesTabs
        ? "\t".repeat(Math.floor(rel / TAB_WIDTH)) + " ".repeat(rel % TAB_WIDTH)
        : " ".repeat(rel);
    }
    return unit.repeat(Math.floor(rel / step)) + " ".repeat(rel % step);
  };
  const out = lines.map((line, row) => {
    if (guarded.has(row)) return line;
    if (line.trim() === "") return "";
    const content = line.slice(wsOf(line).length);
    if (row === 0 && options.inlineFirst) return content;
    return indent + relative(widths[row] - common) + content;
  });
  return out.join(eol);
}

/**
 * The snippet's indentation step: the most common increase after a line
 * that opens a block (continuation lines and docstring text do not count),
 * else the most common increase at all; 0 when nothing is indented.
 */
function snippetStep(lines: string[], structural: boolean[], widths: number[], language: LanguageId): number {
  const afterOpener = new Map<number, number>();
  const any = new Map<number, number>();
  const aligned = new Map<number, number>();
  const count = (counts: Map<number, number>, increase: number) =>
    counts.set(increase, (counts.get(increase) ?? 0) + 1);
  let previous = -1;
  let previousRow = -1;
  let next = 0;
  for (let row = 0; row < lines.length; row++) {
    if (!structural[row]) continue;
    if (previousRow >= 0 && widths[row] > widths[previousRow]) {
      count(aligned, widths[row] - widths[previousRow]);
    }
    previousRow = row;
    // rows inside brackets a row above opened are alignment, not nesting
    if (row < next) continue;
    const previousEnd = next - 1;
    next = logicalLineEnd(lines, row, language) + 1;
    if (previous >= 0 && widths[row] > widths[previous]) {
      const increase = widths[row] - widths[previous];
      count(any, increase);
      if (/[:{]\s*$/.test(stripLineComment(lines[previousEnd], language))) count(afterOpener, increase);
    }
    previous = row;
  }
  const best = (counts: Map<number, number>) =>
    [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
  // a snippet that nests nothing (one bracketed expression): its alignment steps
  return best(afterOpener) || best(any) || best(aligned);
}

/**
 * The last row of the logical line starting at `row`: the row where the
 * brackets it opens are closed again (roughly: quotes and comments skipped),
 * or `row` itself when it opens none. Braces count in Python only (a dict or
 * set); elsewhere they open blocks.
 */
function logicalLineEnd(lines: string[], row: number, language: LanguageId): number {
  const [open, close] = language === "python" ? ["([{", ")]}"] : ["([", ")]"];
  let depth = 0;
  for (let at = row; at < lines.length; at++) {
    let quote = "";
    const line = stripLineComment(lines[at], language);
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quote) {
        if (ch === "\\") i++;
        else if (ch === quote) quote = "";
      } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
      else if (open.includes(ch)) depth++;
      else if (close.includes(ch)) depth--;
    }
    if (depth <= 0) return at;
  }
  return row;
}

/** Drop a trailing line comment (roughly: outside quotes) for the "opens a block" test. */
function stripLineComment(line: string, language: LanguageId): string {
  const marker = language === "python" || language === "ruby" ? "#" : "//";
  let quote = "";
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'" || ch === "`") {
      quote = ch;
    } else if (line.startsWith(marker, i)) {
      return line.slice(0, i);
    }
  }
  return line;
}

/** Split off leading blank lines of a snippet: how many there are and the rest. */
export function leadingBlankLines(code: string): { blank: number; rest: string } {
  const normal = code.replace(/\r\n?/g, "\n");
  const match = /^([ \t]*\n)*/.exec(normal)![0];
  return { blank: match.split("\n").length - 1, rest: normal.slice(match.length) };
}

/**
 * Split off trailing blank lines of a snippet: how many there are and the
 * rest. The final line break only ends the last line: `"x = 1\n"` has none,
 * `"x = 1\n\n"` has one.
 */
export function trailingBlankLines(code: string): { blank: number; rest: string } {
  const normal = code.replace(/\r\n?/g, "\n");
  const match = /(\n[ \t]*)*$/.exec(normal)![0];
  const blank = Math.max(0, match.split("\n").length - 2);
  return { blank, rest: normal.slice(0, normal.length - match.length) };
}

function isBlankLine(text: string, offset: number): boolean {
  return text.slice(offset, lineEnd(text, offset)).trim() === "";
}

/** Blank lines just above the line starting at `at`. */
export function blanksAbove(text: string, at: number): number {
  let count = 0;
  for (let offset = at; offset > 0;) {
    const previous = lineStart(text, offset - 1);
    if (!isBlankLine(text, previous)) break;
    count++;
    offset = previous;
  }
  return count;
}

/** Blank lines starting at the line start `at`. */
export function blanksBelow(text: string, at: number): number {
  let count = 0;
  for (
    let offset = at;
    offset < text.length && isBlankLine(text, offset);
    offset = nextLineStart(text, offset)
  ) {
    count++;
  }
  return count;
}
