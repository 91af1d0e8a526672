/**
 * L0 in C and C++ around annotation macros. Projects put a macro in front of
 * a declaration to set its visibility or linkage (`YAML_CPP_API
 * std::atomic<size_t> x;`, `TINYXML2_PRIVATE XMLUnknown(const XMLUnknown&);`,
 * `class TINYXML2_LIB XMLNode`); the preprocessor turns it into an attribute
 * or nothing, but tree-sitter, which does not expand macros, reads it as a
 * type and the real type as garbage. An edit that writes such a macro so
 * leaves an ERROR node the grammar's reading calls new, though the compiler
 * sees no change of syntax.
 *
 * ## Reading the macros as blanks
 *
 * When L0 found new problems in a C or C++ file, the macro-shaped words the
 * edit wrote are looked up: an identifier in capitals with at least one
 * underscore (`YAML_CPP_API`, `TINYXML2_PRIVATE`; the convention of such
 * macros) followed by a name or `::` where a declaration continues. Every
 * occurrence of those words, before and after the edit, is replaced by
 * spaces of the same length (offsets and lines stay), both texts are parsed
 * again and compared the same way (`newSyntaxProblems`, then
 * `brokenFileProblems` for a file that was broken before). Only the problems
 * left then are the edit's. A word in capitals without an underscore, a
 * function-like macro (`CJSON_PUBLIC(int)`), and anything that is not an
 * identifier (an inserted `@@ )`) are never blanked, so garbage stays
 * refused; an undefined macro the edit invents passes L0 as any unknown
 * type name does, and is the compiler oracle's to refuse (`verify/compile/`).
 *
 * @module
 */

import { type Document, editBetween } from "../../parse/documents.ts";
import { parse, type SyntaxProblem } from "../../parse/mod.ts";

/** A macro-shaped word followed by a declaration's next name (the lookahead keeps it one word). */
const ANNOTATION = /\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b(?=[ \t]+(?:[A-Za-z_]|::))/g;

/** The problems the two comparisons find between two documents (`l0_syntax.ts` passes its own). */
export type Compare = (before: Document, after: Document) => Promise<SyntaxProblem[]>;

/**
 * The new problems of a C or C++ edit once the annotation macros it wrote are
 * read as blanks (see the module notes); `problems` unchanged elsewhere.
 */
export async function withoutAnnotationMacros(
  before: Document,
  after: Document,
  problems: SyntaxProblem[],
  compare: Compare,
): Promise<SyntaxProblem[]> {
  const language = after.file.language;
  if (problems.length === 0 || (language !== "c" && language !== "cpp")) return problems;
  const words = annotationsWritten(before, after);
  if (words.size === 0) return problems;
  const blank = (text: string) =>
    text.replace(ANNOTATION, (word) => (words.has(word) ? " ".repeat(word.length) : word));
  const was = await blanked(before, blank(before.file.text));
  const now = await blanked(after, blank(after.file.text));
  try {
    return await compare(was, now);
  } finally {
    was.tree.delete();
    now.tree.delete();
  }
}

/** The macro-shaped words in the text the edit wrote. */
function annotationsWritten(before: Document, after: Document): Set<string> {
  const edit = editBetween(before, after);
  if (!edit) return new Set();
  const text = after.file.text;
  // whole words: widen the written span to the word boundaries around it
  let start = edit.startIndex;
  let end = edit.newEndIndex;
  while (start > 0 && /\w/.test(text[start - 1])) start--;
  while (end < text.length && /\w/.test(text[end])) end++;
  const written = text.slice(start, end + 64);
  const words = new Set<string>();
  for (const match of written.matchAll(ANNOTATION)) {
    if (match.index < end - start) words.add(match[1]);
  }
  return words;
}

async function blanked(document: Document, text: string): Promise<Document> {
  return { file: { ...document.file, text }, tree: await parse(document.file.language, text) };
}
