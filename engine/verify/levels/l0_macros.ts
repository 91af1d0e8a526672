/**
 * L0 in C and C++ around unknown macros before declarations. Projects put a
 * macro in front of a declaration to set its visibility, linkage or
 * inlining (`SPDLOG_INLINE std::string f()`, `YAML_CPP_API
 * std::atomic<size_t> x;`, `TINYXML2_PRIVATE XMLUnknown(const XMLUnknown&);`,
 * `class TINYXML2_LIB XMLNode`); the preprocessor turns it into an attribute
 * or nothing, but tree-sitter, which does not expand macros, reads it as a
 * type and the real type as garbage. An edit that writes such a declaration
 * exactly like its neighbours so leaves an ERROR node the grammar's reading
 * calls new, though the compiler sees no change of syntax; and in a file the
 * grammar already fails on for its macros, the broken-file checks would
 * read the macro in the edit's own sound node as the edit's fault.
 *
 * ## Reading the macros as blanks
 *
 * When L0 found new problems in a C or C++ file, every macro specifier and
 * qualifier (`analysis/macro_specifiers.ts` says which words those are; the
 * pattern is shared with `insert_sibling`) is replaced by spaces of the same
 * length in the texts before and after the edit, so offsets, lines and the
 * edit's span stay. Both are parsed again and compared by the same two
 * checks as the originals (`l0_syntax.ts` passes them: error regions, then
 * `brokenFileProblems` when the blanked file was still broken before). Only
 * the problems left then are the edit's. A word that is not such a macro
 * (lower case, function-like as `CJSON_PUBLIC(int)`) and anything that is not
 * an identifier (an inserted `@@ )`, a lost `}`) are never blanked, so
 * garbage stays refused; an undefined macro the edit invents passes L0 as
 * any unknown type name does, and is the compiler oracle's to refuse
 * (`verify/compile/`).
 *
 * ## Reading one configuration
 *
 * A conditional can split a declaration (`#if defined(__GNUC__)`,
 * `__attribute__((noreturn))`, `#endif`, then `void _fail(...);`): the
 * grammar, which reads directives as statements, leaves an ERROR node the
 * preprocessor never sees. When problems remain after the macros are
 * blanked, both texts are compared once more as one configuration would show
 * them (`analysis/one_configuration.ts`: first branches kept, directive lines
 * and other branches blanked, each `#define`'s body read as `0`: inside an
 * ERROR node the grammar's recovery parses a multi-line body as code, which
 * the preprocessor never does). That view is trusted only when it cannot
 * hide the edit: the conditionals after the edit open and close in order (an
 * unclosed `#if` stays an error), and nothing the edit wrote outside its
 * directive lines and their continuation lines is blanked. Code the edit
 * wrote in an `#else` branch (`#ifdef __USE_LARGEFILE64` `struct stat64 st;
 * if (fstat64(...) < 0) {` `#else` `struct stat st; if (fstat(...) < 0) {`
 * `#endif`, a `{` opened in both branches, as ninja's patch for 32-bit
 * systems writes it) is read in two other views: every conditional around
 * the edit keeps the branch the edit is in (ninja's is in the `#else` of an
 * `#ifdef _WIN32`), and the conditionals the edit wrote keep their first
 * branch in one view and their `#else` in the other. Both must show no new
 * problem; what neither shows (garbage in a middle `#elif`, after a
 * `#define` whose continuation was lost) stays refused.
 *
 * @module
 */

import { blankMacroSpecifiers, inDirective } from "../../analysis/macro_specifiers.ts";
import type { Document } from "../../parse/documents.ts";
import { editBetween } from "../../parse/documents.ts";
import { parse, type SyntaxProblem } from "../../parse/mod.ts";
import {
  conditionalsBalanced,
  editConfigurations,
  macroBodiesBlanked,
  oneConfiguration,
} from "../../analysis/one_configuration.ts";

/** The problems the checks find between two documents (`l0_syntax.ts` passes its own). */
export type Compare = (before: Document, after: Document) => Promise<SyntaxProblem[]>;

/**
 * The new problems of a C or C++ edit once the macros before declarations
 * are read as blanks (see the module notes); `problems` unchanged elsewhere
 * and where neither text has such a macro.
 */
export async function withoutMacros(
  before: Document,
  after: Document,
  problems: SyntaxProblem[],
  compare: Compare,
): Promise<SyntaxProblem[]> {
  const language = after.file.language;
  if (problems.length === 0 || (language !== "c" && language !== "cpp")) return problems;
  const was = blankMacroSpecifiers(before.file.text);
  const now = blankMacroSpecifiers(after.file.text);
  const left = was === before.file.text && now === after.file.text
    ? problems
    : await compareBlanked(before, was, after, now, compare);
  if (left.length === 0) return left;
  const views = configurationViews(before, after);
  if (!views) return left;
  for (const view of views) {
    const found = await compareBlanked(before, view.before, after, view.after, compare);
    if (found.length > 0) return found;
  }
  return [];
}

/** `compare` on the two documents read as `was` and `now` (same lengths). */
async function compareBlanked(
  before: Document,
  was: string,
  after: Document,
  now: string,
  compare: Compare,
): Promise<SyntaxProblem[]> {
  const blankBefore = await blanked(before, was);
  const blankAfter = await blanked(after, now);
  try {
    return await compare(blankBefore, blankAfter);
  } finally {
    blankBefore.tree.delete();
    blankAfter.tree.delete();
  }
}

/**
 * Both texts as configurations show them, when together they cannot hide
 * the edit (see the module notes): the first branches' view, and when the
 * edit wrote code that view hides, the two views that show the edit's own
 * conditionals (`editConfigurations`).
 */
export function configurationViews(
  before: Document,
  after: Document,
): { before: string; after: string }[] | undefined {
  const text = after.file.text;
  if (!conditionalsBalanced(text)) return undefined;
  const edit = editBetween(before, after);
  if (!edit) return undefined;
  const first = {
    before: macroBodiesBlanked(oneConfiguration(before.file.text)?.text ?? before.file.text),
    after: macroBodiesBlanked(oneConfiguration(text)?.text ?? text),
  };
  if (first.after === text) return undefined;
  const macros = blankMacroSpecifiers(text); // a macro the edit wrote is the first check's, not hidden here
  // offsets of what the edit wrote (outside directive lines) that a view blanks
  const hiddenBy = (now: string) => {
    const hidden: number[] = [];
    for (let i = edit.startIndex; i < edit.newEndIndex; i++) {
      if (now[i] !== macros[i] && !/\s/.test(text[i]) && !inDirective(text, i)) hidden.push(i);
    }
    return hidden;
  };
  if (hiddenBy(first.after).length === 0) return [first];
  const was = editConfigurations(before.file.text, edit.startIndex, edit.oldEndIndex);
  const now = editConfigurations(text, edit.startIndex, edit.newEndIndex);
  const views = [0, 1].map((k) => ({
    before: macroBodiesBlanked(was[k]),
    after: macroBodiesBlanked(now[k]),
  }));
  const shownByOne = new Set(hiddenBy(views[0].after));
  return hiddenBy(views[1].after).some((i) => shownByOne.has(i)) ? undefined : views;
}

async function blanked(document: Document, text: string): Promise<Document> {
  return { file: { ...document.file, text }, tree: await parse(document.file.language, text) };
}
