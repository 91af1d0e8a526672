/**
 * Layered text matching for `replace_code`: where is the pattern an LLM
 * wrote, in the file as it really is?
 *
 * The layers are tried in order and the first that finds anything decides:
 *
 * 1. **exact**: the pattern is a substring of the text (a CRLF file is
 *    searched with the pattern's `\n` turned into `\r\n`).
 * 2. **whitespace**: whole lines whose non-blank content is equal once runs
 *    of blanks are collapsed and trailing blanks dropped, at the same
 *    indentation (`x  =  1 ` matches `x = 1`). A single-line pattern may
 *    also match inside a line, blanks around punctuation ignored.
 * 3. **indentation**: the same, but the window is indented differently from
 *    the pattern as a whole (relative indentation kept): the pattern was
 *    copied out of its block. The replacement is re-indented by the same
 *    difference.
 * 4. **fuzzy**: windows of the pattern's line count (and one line more or
 *    less) scored by a difflib-like ratio on their dedented text; the best
 *    window scoring at least `threshold` (0.8) wins, re-indented as in 3.
 *
 * A layer that finds more than one place is ambiguous: every layer reports
 * all of its matches and the caller refuses to guess. In the fuzzy layer two
 * non-overlapping windows whose scores differ by less than `tie` (0.02) are
 * ambiguous too. Exact duplicates are *not* resolved by taking the first
 * one (the seed's `str.replace(..., 1)`): the wrong occurrence is a silent
 * failure, an error listing both lets the author add context.
 *
 * Worked example: the file has
 *
 * ```
 *     def f(self):
 *         if x:
 *             return 1
 * ```
 *
 * and the pattern is `if x:\n    return 1` (copied without the method's
 * indentation). No exact match; layer 3 finds lines 2-3 (dedented they are
 * equal), the window's indentation is 8 spaces against the pattern's 0, so
 * a replacement `if x:\n    return 2` is written as
 * `        if x:\n            return 2`.
 *
 * The ratio is Ratcliff/Obershelp as Python's `difflib.SequenceMatcher`
 * computes it (`2 * matches / total`), without difflib's "autojunk"
 * heuristic. Scoring every window exactly is quadratic, so windows are
 * first ranked by the overlap of their character bigrams with the
 * pattern's (a Dice coefficient kept up to date as the window slides, one
 * line in and one out) and only the best `FUZZY_CANDIDATES` are scored
 * exactly.
 *
 * @module
 */

import { lineAt } from "./text_edit.ts";

/** Which layer found a match. */
export type MatchLayer = "exact" | "whitespace" | "indentation" | "fuzzy";

/** One place the pattern was found. */
export interface TextMatch {
  layer: MatchLayer;
  /** Offsets (UTF-16) of the matched text. */
  start: number;
  end: number;
  /** 1-based lines of the match. */
  startLine: number;
  endLine: number;
  /** Similarity, 1 for exact/whitespace/indentation matches. */
  score: number;
  /** The matched text as it is in the file. */
  text: string;
  /** The replacement to write for this match (re-indented where needed). */
  replacement: string;
}

/** The outcome of a search. */
export interface FindResult {
  /** The single best match, when there is one. */
  match?: TextMatch;
  /** Every candidate, when the best layer found several (ambiguous). */
  ambiguous?: TextMatch[];
  /** The closest window below the threshold, to show the author. */
  closest?: { score: number; startLine: number; endLine: number; text: string };
  /** Why the fuzzy layer did not run, if it did not. */
  skipped?: string;
}

/** Tuning for `findText`. */
export interface FindOptions {
  /** Minimum fuzzy similarity (default 0.8). */
  threshold?: number;
  /** Two fuzzy scores closer than this are ambiguous (default 0.02). */
  tie?: number;
}

/** Patterns longer than this are only matched exactly and by whitespace. */
export const FUZZY_MAX_PATTERN = 20_000;
/** Upper bound on characters scanned by the fuzzy layer (window sizes times the text's length). */
export const FUZZY_MAX_WORK = 15_000_000;
/** How many bigram-ranked windows get an exact ratio. */
export const FUZZY_CANDIDATES = 24;
/** Patterns longer than this skip the line-based layers (no fuzzy either). */
const LINE_LAYERS_MAX_PATTERN = 200_000;

/** A line of a text with its offsets. */
interface Line {
  /** Offset of the first character. */
  start: number;
  /** Offset just past the content (before `\r\n` or `\n`). */
  end: number;
  text: string;
}

/**
 * Find `pattern` in `text` through the layers above and compute the text to
 * write for `replacement` at the match.
 */
export function findText(
  text: string,
  pattern: string,
  replacement: string,
  options: FindOptions = {},
): FindResult {
  const threshold = options.threshold ?? 0.8;
  const tie = options.tie ?? 0.02;
  const crlf = text.includes("\r\n");
  let pat = crlf ? toCrlf(pattern) : pattern;
  let rep = crlf ? toCrlf(replacement) : replacement;

  let exact = allIndexes(text, pat);
  if (exact.length === 0 && pat !== pattern) {
    // A file with mixed line endings: the pattern as written may still be there.
    exact = allIndexes(text, pattern);
    [pat, rep] = [pattern, replacement];
  }
  if (exact.length > 0) {
    const matches = exact.map((start) => makeMatch(text, "exact", start, start + pat.length, 1, rep));
    return exact.length === 1 ? { match: matches[0] } : { ambiguous: matches };
  }
  if (pattern.trim() === "") return {};
  if (pattern.length > LINE_LAYERS_MAX_PATTERN) {
    return { skipped: `the pattern is longer than ${LINE_LAYERS_MAX_PATTERN} characters` };
  }

  const lines = splitLines(text);
  const eol = crlf ? "\r\n" : "\n";
  const patBlock = splitBlock(pattern);
  const repBlock = splitBlock(replacement);
  const patLines = patBlock.lines.slice(patBlock.lead, patBlock.lines.length - patBlock.trail);
  /**
   * A match of the pattern's non-blank core at lines `i..i+n-1`: widened by
   * the blank lines the pattern has around its core where the file has them
   * too, with the replacement (re-indented from the pattern's indentation to
   * `indent`) losing the blank margins the file lacks. Replacing by nothing
   * removes the lines with their line breaks.
   */
  const lineMatch = (i: number, n: number, layer: MatchLayer, score: number, indent?: string): TextMatch => {
    let before = 0;
    while (before < patBlock.lead && i - before - 1 >= 0 && lines[i - before - 1].text.trim() === "") {
      before++;
    }
    let after = 0;
    while (
      after < patBlock.trail && i + n + after < lines.length && lines[i + n + after].text.trim() === ""
    ) after++;
    const first = i - before;
    const last = i + n + after - 1;
    const start = lines[first].start;
    let end = lines[last].end;
    let rep = "";
    if (replacement.trim() === "") {
      end = last + 1 < lines.length ? lines[last + 1].start : text.length;
    } else {
      const dropLead = Math.min(patBlock.lead - before, repBlock.lead);
      const dropTrail = Math.min(patBlock.trail - after, repBlock.trail);
      const repLines = repBlock.lines.slice(dropLead, repBlock.lines.length - dropTrail);
      rep = (indent === undefined ? repLines : reindent(repLines, patIndent, indent)).join(eol);
    }
    return {
      layer,
      start,
      end,
      startLine: first + 1,
      endLine: last + 1,
      score,
      text: text.slice(start, end),
      replacement: rep,
    };
  };

  // Layers 2 and 3: equal normalized lines, same or shifted indentation.
  const normPat = patLines.map(normalizeLine);
  const patIndent = commonIndent(patLines);
  const relPat = patLines.map((line) => relativeIndent(line, patIndent));
  const normLines = lines.map((line) => normalizeLine(line.text));
  const same: TextMatch[] = [];
  const shifted: TextMatch[] = [];
  for (let i = 0; i + patLines.length <= lines.length; i++) {
    let equal = true;
    for (let k = 0; k < patLines.length && equal; k++) equal = normLines[i + k] === normPat[k];
    if (!equal) continue;
    const window = lines.slice(i, i + patLines.length).map((line) => line.text);
    const winIndent = commonIndent(window);
    const relEqual = window.every((line, k) => relativeIndent(line, winIndent) === relPat[k]);
    const sameIndent = window.every((line, k) => indentWidth(line) === indentWidth(patLines[k]));
    if (sameIndent) same.push(lineMatch(i, patLines.length, "whitespace", 1));
    else if (relEqual) shifted.push(lineMatch(i, patLines.length, "indentation", 1, winIndent));
  }
  if (same.length > 0) return same.length === 1 ? { match: same[0] } : { ambiguous: same };
  if (patLines.length === 1) {
    const inline = inlineMatches(text, pattern, replacement);
    if (inline.length > 0) return inline.length === 1 ? { match: inline[0] } : { ambiguous: inline };
  }
  if (shifted.length > 0) return shifted.length === 1 ? { match: shifted[0] } : { ambiguous: shifted };

  // Layer 4: fuzzy.
  const patText = dedentLines(patLines).join("\n");
  if (patText.length > FUZZY_MAX_PATTERN) {
    return { skipped: `the pattern is longer than ${FUZZY_MAX_PATTERN} characters` };
  }
  const sizes = [...new Set([patLines.length, patLines.length - 1, patLines.length + 1])].filter((n) =>
    n >= 1 && n <= lines.length
  );
  if (sizes.length * text.length > FUZZY_MAX_WORK) {
    return { skipped: "the file and pattern are too large for fuzzy matching" };
  }
  // Rank windows by the overlap of their character bigrams with the pattern's (lines trimmed, so
  // indentation does not count), kept up to date as the window slides: O(text) per window size.
  const patGrams = new Map<number, number>();
  let patTotal = 0;
  for (const line of patLines) patTotal += addBigrams(patGrams, line.trim());
  const lineGrams = lines.map((line) => {
    const grams = new Map<number, number>();
    addBigrams(grams, line.text.trim());
    return grams;
  });
  const ranked: { i: number; n: number; rank: number }[] = [];
  for (const n of sizes) {
    const counts = new Map<number, number>();
    let common = 0;
    let total = 0;
    let chars = 0;
    let blank = 0;
    const slide = (k: number, sign: 1 | -1) => {
      for (const [gram, count] of lineGrams[k]) {
        for (let c = 0; c < count; c++) {
          const have = counts.get(gram) ?? 0;
          const want = patGrams.get(gram) ?? 0;
          if (sign === 1) {
            if (have < want) common++;
            counts.set(gram, have + 1);
          } else {
            if (have <= want) common--;
            counts.set(gram, have - 1);
          }
          total += sign;
        }
      }
      const trimmed = lines[k].text.trim().length;
      chars += sign * trimmed;
      if (trimmed === 0) blank += sign;
    };
    for (let k = 0; k < n; k++) slide(k, 1);
    for (let i = 0; i + n <= lines.length; i++) {
      if (i > 0) {
        slide(i - 1, -1);
        slide(i + n - 1, 1);
      }
      if (blank === n) continue;
      const length = chars + n - 1;
      const sum = length + patText.length;
      if (sum === 0 || (2 * Math.min(length, patText.length)) / sum < threshold * 0.9) continue;
      ranked.push({ i, n, rank: total + patTotal === 0 ? 0 : (2 * common) / (total + patTotal) });
    }
  }
  ranked.sort((a, b) => b.rank - a.rank || a.i - b.i);
  const scored = ranked.slice(0, FUZZY_CANDIDATES).map((candidate) => ({
    ...candidate,
    score: similarity(
      patText,
      dedentLines(lines.slice(candidate.i, candidate.i + candidate.n).map((l) => l.text)).join("\n"),
    ),
  }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i || a.n - b.n);
  const best = scored[0];
  if (!best) return {};
  if (best.score < threshold) {
    return {
      closest: {
        score: best.score,
        startLine: best.i + 1,
        endLine: best.i + best.n,
        text: lines.slice(best.i, best.i + best.n).map((line) => line.text).join("\n"),
      },
    };
  }
  const toMatch = (candidate: typeof best) => {
    const window = lines.slice(candidate.i, candidate.i + candidate.n).map((line) => line.text);
    return lineMatch(candidate.i, candidate.n, "fuzzy", candidate.score, commonIndent(window));
  };
  const rivals = scored.filter((other) =>
    other !== best && other.score >= threshold && best.score - other.score < tie &&
    (other.i + other.n <= best.i || best.i + best.n <= other.i)
  );
  if (rivals.length > 0) {
    const all = [best, ...rivals].sort((a, b) => a.i - b.i);
    return { ambiguous: dedupeOverlapping(all).map(toMatch) };
  }
  return { match: toMatch(best) };
}

/**
 * Similarity of two strings in [0, 1]: `2 * M / (a.length + b.length)`
 * where M counts the characters of the matching blocks found by
 * Ratcliff/Obershelp (longest common substring, then recursively left and
 * right of it), as `difflib.SequenceMatcher(None, a, b).ratio()` without
 * autojunk.
 */
export function similarity(a: string, b: string): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  return (2 * matchingCharacters(a, b)) / total;
}

/** Characters in the matching blocks of `a` and `b`. */
function matchingCharacters(a: string, b: string): number {
  const b2j = new Map<number, number[]>();
  for (let j = 0; j < b.length; j++) {
    const c = b.charCodeAt(j);
    const list = b2j.get(c);
    if (list) list.push(j);
    else b2j.set(c, [j]);
  }
  let matched = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  let j2len = new Map<number, number>();
  let next = new Map<number, number>();
  while (queue.length > 0) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    let bestI = alo;
    let bestJ = blo;
    let bestK = 0;
    j2len.clear();
    for (let i = alo; i < ahi; i++) {
      next.clear();
      const positions = b2j.get(a.charCodeAt(i));
      if (positions) {
        for (const j of positions) {
          if (j < blo) continue;
          if (j >= bhi) break;
          const k = (j2len.get(j - 1) ?? 0) + 1;
          next.set(j, k);
          if (k > bestK) {
            bestI = i - k + 1;
            bestJ = j - k + 1;
            bestK = k;
          }
        }
      }
      [j2len, next] = [next, j2len];
    }
    if (bestK === 0) continue;
    matched += bestK;
    if (alo < bestI && blo < bestJ) queue.push([alo, bestI, blo, bestJ]);
    if (bestI + bestK < ahi && bestJ + bestK < bhi) queue.push([bestI + bestK, ahi, bestJ + bestK, bhi]);
  }
  return matched;
}

/** Split `text` into lines with offsets (a final newline does not start a line). */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf("\n", start);
    const stop = nl === -1 ? text.length : nl;
    const end = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    lines.push({ start, end, text: text.slice(start, end) });
    if (nl === -1) break;
    start = nl + 1;
  }
  return lines;
}

/** The leading blanks of a line. */
export function leadingWhitespace(line: string): string {
  return line.slice(0, line.length - line.trimStart().length);
}

/** The longest indentation prefix shared by the non-blank lines. */
export function commonIndent(lines: readonly string[]): string {
  let common: string | undefined;
  for (const line of lines) {
    if (line.trim() === "") continue;
    const indent = leadingWhitespace(line);
    if (common === undefined) {
      common = indent;
      continue;
    }
    let k = 0;
    while (k < common.length && k < indent.length && common[k] === indent[k]) k++;
    common = common.slice(0, k);
  }
  return common ?? "";
}

/** Lines with their common indentation removed. */
export function dedentLines(lines: readonly string[]): string[] {
  const indent = commonIndent(lines);
  return lines.map((line) => (line.trim() === "" ? "" : line.slice(indent.length).trimEnd()));
}

/**
 * Move lines written at indentation `from` to indentation `to`: the part of
 * each line's indentation that `from` accounts for is replaced by `to`.
 * Blank lines stay empty.
 */
export function reindent(lines: readonly string[], from: string, to: string): string[] {
  return lines.map((line) => {
    if (line.trim() === "") return "";
    let k = 0;
    while (k < from.length && k < line.length && line[k] === from[k]) k++;
    return to + line.slice(k);
  });
}

/** Indentation width in columns (a tab counts as 8, as Python's tokenizer does). */
function indentWidth(line: string): number {
  let width = 0;
  for (const c of leadingWhitespace(line)) width = c === "\t" ? width + 8 - (width % 8) : width + 1;
  return width;
}

function relativeIndent(line: string, base: string): number {
  return line.trim() === "" ? 0 : indentWidth(line) - indentWidth(base);
}

/** A line with indentation and trailing blanks dropped and inner blank runs collapsed. */
function normalizeLine(line: string): string {
  return line.trim().replace(/\s+/g, " ");
}

/** A snippet's lines (a final line break starts no line) and its count of leading and trailing blank lines. */
function splitBlock(snippet: string): { lines: string[]; lead: number; trail: number } {
  const lines = snippet.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  let lead = 0;
  while (lead < lines.length && lines[lead].trim() === "") lead++;
  let trail = 0;
  while (trail < lines.length - lead && lines[lines.length - 1 - trail].trim() === "") trail++;
  return { lines, lead, trail };
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, "\r\n");
}

function allIndexes(text: string, pattern: string): number[] {
  const out: number[] = [];
  if (pattern.length === 0) return out;
  for (let i = text.indexOf(pattern); i !== -1; i = text.indexOf(pattern, i + 1)) out.push(i);
  return out;
}

function makeMatch(
  text: string,
  layer: MatchLayer,
  start: number,
  end: number,
  score: number,
  replacement: string,
): TextMatch {
  const startLine = lineAt(text, start);
  const endLine = startLine + countNewlines(text, start, Math.max(start, end - 1));
  return { layer, start, end, startLine, endLine, score, text: text.slice(start, end), replacement };
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * Whitespace-insensitive matches of a one-line pattern inside lines: blank
 * runs between word characters must exist (any width), blanks next to
 * punctuation are optional. The replacement loses the blanks the pattern
 * had around it.
 */
function inlineMatches(text: string, pattern: string, replacement: string, blank = "[ \\t]"): TextMatch[] {
  const core = pattern.trim();
  if (core === "" || core.length > 2_000) return [];
  const tokens = core.match(/\w+|\s+|[^\w\s]/g) ?? [];
  let source = "";
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k];
    if (/^\s+$/.test(token)) {
      const between = /\w$/.test(tokens[k - 1] ?? "") && /^\w/.test(tokens[k + 1] ?? "");
      source += between ? `${blank}+` : `${blank}*`;
      continue;
    }
    if (k > 0 && !/^\s+$/.test(tokens[k - 1]) && !(/\w$/.test(tokens[k - 1]) && /^\w/.test(token))) {
      source += `${blank}*`;
    }
    source += token.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  const prefix = /\w/.test(core[0]) ? "(?<![\\w])" : "";
  const suffix = /\w/.test(core[core.length - 1]) ? "(?![\\w])" : "";
  const regex = new RegExp(prefix + source + suffix, "g");
  const lead = leadingWhitespace(pattern);
  const trail = pattern.slice(pattern.trimEnd().length);
  let rep = replacement;
  if (lead && rep.startsWith(lead)) rep = rep.slice(lead.length);
  if (trail && rep.endsWith(trail)) rep = rep.slice(0, rep.length - trail.length);
  const out: TextMatch[] = [];
  for (const m of text.matchAll(regex)) {
    out.push(makeMatch(text, "whitespace", m.index, m.index + m[0].length, 1, rep));
    if (out.length > 50) break;
  }
  return out;
}

/**
 * Whitespace-insensitive matches of `pattern` anywhere in `text`, line
 * breaks included (blank runs between words must exist, blanks next to
 * punctuation are optional), with `replacement` trimmed as the pattern is.
 */
export function looseMatches(text: string, pattern: string, replacement: string): TextMatch[] {
  return inlineMatches(text, pattern, replacement, "\\s");
}

/** Add the character bigrams of `text` (as numbers) to `grams`; returns how many. */
function addBigrams(grams: Map<number, number>, text: string): number {
  for (let i = 0; i + 1 < text.length; i++) {
    const gram = text.charCodeAt(i) * 65536 + text.charCodeAt(i + 1);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return Math.max(0, text.length - 1);
}

/** Keep the first of each group of overlapping windows (sorted by start). */
function dedupeOverlapping<T extends { i: number; n: number }>(sorted: T[]): T[] {
  const out: T[] = [];
  for (const item of sorted) {
    const last = out[out.length - 1];
    if (last && item.i < last.i + last.n) continue;
    out.push(item);
  }
  return out;
}
