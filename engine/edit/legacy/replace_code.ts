/**
 * `replace_code(file, pattern, replacement)`: the seed's string
 * find-and-replace, with Aider-style layered matching (`../fuzzy.ts`):
 * exact, whitespace-insensitive, indentation-shifted, then fuzzy (≥ 0.8).
 *
 * - A match found by any layer but the first is applied only when it is the
 *   single best candidate, and is reported as a warning naming the text it
 *   replaced, so the author sees what was changed.
 * - Several equally good places (two exact occurrences included) are an
 *   error listing every one with its line: the seed's "replace the first"
 *   silently edits the wrong occurrence.
 * - No match is the error `pattern-not-found`, with the closest text in the
 *   file (and its similarity) as a hint when there is one.
 *
 * @module
 */

import { fail, type Issue, warning } from "../../base/issue.ts";
import type { IssueCode } from "../../base/issue_codes.ts";
import { firstLine } from "../../parse/mod.ts";
import { findText, type TextMatch } from "../fuzzy.ts";
import type { OperatorFn } from "../operator.ts";
import { at, prepare, preview } from "./_util.ts";
import { skipIfPresent } from "../already_present.ts";
import { textContext } from "../../analysis/text_context.ts";

interface Params {
  file: string;
  pattern: string;
  replacement: string;
}

const LAYER_TEXT: Record<string, string> = {
  whitespace: "ignoring whitespace",
  indentation: "at a different indentation",
  fuzzy: "by fuzzy matching",
};

const LAYER_CODE: Record<string, IssueCode> = {
  whitespace: "match-whitespace",
  indentation: "match-indentation",
  fuzzy: "match-fuzzy",
};

/** The legacy `replace_code` operator. */
export const replaceCode: OperatorFn = async (params, ctx) => {
  const { p, doc, file } = await prepare<Params>("replace_code", params, ctx);
  const result = findText(doc.file.text, p.pattern, p.replacement);
  if (result.ambiguous) {
    const matches = result.ambiguous;
    const where = matches.slice(0, 10).map((m) => lineRange(m)).join(", ");
    const contexts = matches.map((m) => textContext(doc.tree.rootNode, m.start, m.end));
    const outside = contexts.filter((context) => context !== "code").length;
    fail(
      "pattern-ambiguous",
      `Pattern matches ${matches.length} places in "${file}" (${layerName(matches[0])}, lines ${where}): ${
        preview(p.pattern)
      }`,
      {
        ...at(ctx, file, "pattern", matches[0].startLine),
        hint: "include more surrounding lines in the pattern so it matches one place only" +
          (outside > 0 ? ` (${outside} of the matches are inside a string or a comment)` : ""),
        candidates: matches.slice(0, 20).map((m, i) => ({
          file,
          line: m.startLine,
          kind: `${m.layer === "fuzzy" ? `${Math.round(m.score * 100)}% similar` : `${m.layer} match`}, in ${
            contexts[i] === "code" ? "code" : `a ${contexts[i]}`
          }`,
          text: firstLine(m.text),
        })),
      },
    );
  }
  const match = result.match;
  if (!match) {
    const closest = result.closest;
    fail("pattern-not-found", `Pattern not found in "${file}": ${preview(p.pattern)}`, {
      ...at(ctx, file, "pattern", closest?.startLine),
      hint: closest
        ? `the closest text (${Math.round(closest.score * 100)}% similar, below the 80% needed) is at line${
          closest.endLine > closest.startLine
            ? `s ${closest.startLine}-${closest.endLine}`
            : ` ${closest.startLine}`
        }: ${preview(closest.text)}`
        : result.skipped
        ? `no fuzzy search was made: ${result.skipped}`
        : "copy the pattern from the file as it is now",
    });
  }
  if (match.layer !== "exact") ctx.warnings.push(inexactWarning(match, ctx.step, file));
  const edit = { start: match.start, end: match.end, replacement: match.replacement };
  const present = skipIfPresent(ctx, doc, edit);
  if (!present) await ctx.edit(file, "replace_code", [edit]);
  return {
    ...(present ? { changed: false } : {}),
    file,
    layer: match.layer,
    score: match.score,
    start_line: match.startLine,
    end_line: match.endLine,
  };
};

/** The warning for a match found by a layer other than `exact`. */
function inexactWarning(match: TextMatch, step: number, file: string): Issue {
  const similar = match.layer === "fuzzy" ? `, ${Math.round(match.score * 100)}% similar` : "";
  return warning(
    LAYER_CODE[match.layer],
    `Pattern not found exactly; matched ${LAYER_TEXT[match.layer]} at line${
      match.endLine > match.startLine ? `s ${match.startLine}-${match.endLine}` : ` ${match.startLine}`
    } of "${file}"${similar}: ${preview(match.text)}`,
    { step, file, line: match.startLine, path: ["params", "pattern"] },
  );
}

function lineRange(match: TextMatch): string {
  return match.endLine > match.startLine ? `${match.startLine}-${match.endLine}` : `${match.startLine}`;
}

function layerName(match: TextMatch): string {
  return match.layer === "exact"
    ? "exactly"
    : match.layer === "fuzzy"
    ? "fuzzy, equally similar"
    : LAYER_TEXT[match.layer];
}
