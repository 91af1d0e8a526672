/**
 * Where a span of a parsed file sits: inside a string literal, inside a
 * comment, or in code. The smallest node spanning the text is found and its
 * ancestors are walked; a string or comment among them decides (an
 * interpolation inside a string counts as code). A span that is exactly a
 * whole string literal is code: the literal itself.
 *
 * Used by `replace_code` (the candidates of an ambiguous pattern) and by
 * the plan verifier's layer 3 (a pattern matched inside a string).
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";

/** Where a span of text sits. */
export type TextContext = "string" | "comment" | "code";

const CODE_INSIDE_STRING =
  /^(interpolation|template_substitution|string_interpolation|escape_interpolation)$/;
const COMMENT = /comment/;
const STRING = /string|template_string|heredoc|char_literal|rune_literal|regex/;

/** Where the text [start, end) of a parsed file sits: inside a string, a comment, or in code. */
export function textContext(root: Node, start: number, end: number): TextContext {
  const node = root.descendantForIndex(start, Math.max(start, end - 1));
  return (node && nonCodeContext(node, start, end)) ?? "code";
}

/** "string" or "comment" when the match [start, end) lies inside one (see the module notes). */
function nonCodeContext(node: Node, start: number, end: number): "string" | "comment" | undefined {
  for (let current: Node | null = node; current; current = current.parent) {
    if (CODE_INSIDE_STRING.test(current.type)) return undefined;
    if (COMMENT.test(current.type)) return "comment";
    if (STRING.test(current.type)) {
      const literal = outermostString(current);
      if (literal.startIndex === start && literal.endIndex === end) return undefined;
      return "string";
    }
  }
  return undefined;
}

/** The whole literal a string-ish node belongs to (`string_content` → `string`). */
function outermostString(node: Node): Node {
  let top = node;
  for (
    let up = node.parent;
    up && STRING.test(up.type) && !CODE_INSIDE_STRING.test(up.type);
    up = up.parent
  ) {
    top = up;
  }
  return top;
}
