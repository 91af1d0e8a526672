/**
 * Code placed inside the braces of an f-string, made valid for the
 * repository's Python. Before 3.12 (PEP 701) an f-string was one string
 * token: a string inside its braces may not use the f-string's quote, and
 * no backslash may appear there. Inlining `names = ", ".join(x)` into
 * `f"{names}"` must therefore write `f"{', '.join(x)}"` for a 3.11 project,
 * not the `f"{", ".join(x)}"` only 3.12 reads.
 *
 * `fitIntoFString` switches the quote of each string in the snippet that
 * clashes with an enclosing f-string's quote (or with a string of the snippet
 * it is nested in) to the other quote character, and refuses (returns a
 * reason) when no quote is free, when the string's text holds the other
 * quote, or when the snippet has a backslash. A snippet outside any f-string,
 * or a repository on 3.12+, is left as it is.
 *
 * @module
 */

import { clashesWith, isFString, quoteOf } from "../analysis/syntax_features.ts";
import { firstLine, type Node, withTree } from "../parse/mod.ts";

/** The quotes of the f-strings whose braces hold `slot`, innermost first. */
export function enclosingFStringQuotes(slot: Node): string[] {
  const quotes: string[] = [];
  for (let current = slot.parent; current; current = current.parent) {
    if (current.type === "string" && isFString(current)) quotes.push(quoteOf(current));
  }
  return quotes;
}

/** The snippet with its clashing quotes switched, or why that cannot be done. */
export async function fitIntoFString(
  snippet: string,
  enclosing: readonly string[],
): Promise<{ text: string } | { refused: string }> {
  if (enclosing.length === 0) return { text: snippet };
  if (snippet.includes("\\")) {
    return { refused: "the code has a backslash, which an f-string's braces cannot hold before Python 3.12" };
  }
  return await withTree("python", snippet, (tree) => {
    const edits: { start: number; end: number; text: string }[] = [];
    let refused: string | undefined;
    const visit = (node: Node, outer: readonly string[]) => {
      if (refused) return;
      let inside = outer;
      if (node.type === "string") {
        let quote = quoteOf(node);
        if (outer.some((q) => clashesWith(node, q))) {
          const alternative = quote[0] === '"' ? "'" : '"';
          const switched = alternative.repeat(quote.length);
          const body = node.text.slice(node.namedChild(0)!.text.length, node.text.length - quote.length);
          const clash = outer.some((q) => (q.length === 1 ? q === alternative : q === switched));
          if (clash || body.includes(alternative)) {
            refused = `the string ${
              firstLine(node.text)
            } cannot take another quote inside the f-string's braces`;
            return;
          }
          const start = node.namedChild(0)!;
          const end = node.namedChild(node.namedChildCount - 1)!;
          edits.push({ start: start.endIndex - quote.length, end: start.endIndex, text: switched });
          edits.push({ start: end.startIndex, end: end.endIndex, text: switched });
          quote = switched;
        }
        if (isFString(node)) inside = [...outer, quote];
      }
      for (const child of node.namedChildren) if (child) visit(child, inside);
    };
    visit(tree.rootNode, enclosing);
    if (refused) return { refused };
    let text = snippet;
    for (const edit of edits.sort((a, b) => b.start - a.start)) {
      text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    }
    return { text };
  });
}
