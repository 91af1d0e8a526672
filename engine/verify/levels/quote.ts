/**
 * Node text and names in issue messages: every level quotes what it found
 * through `clip`, so a hostile plan (a 2 MB identifier, a statement list
 * of thousands of nodes) cannot blow up a message.
 *
 * @module
 */

import { firstLine } from "../../parse/mod.ts";

/** The first line of `text`, at most 80 characters (longer lines end in `...`). */
export function clip(text: string): string {
  return firstLine(String(text));
}

/** Quoted node types, the first `max` of them, then how many more there are. */
export function typeList(types: readonly string[], max = 3): string {
  const shown = types.slice(0, max).map((type) => `"${clip(type)}"`).join(", ");
  return types.length > max ? `${shown} and ${types.length - max} more` : shown;
}

/** `word` after its indefinite article: "a statement", "an expression", `an "attribute"`. */
export function withArticle(word: string): string {
  const bare = word.replace(/^["'`]/, "");
  const vowel = /^[aeiou]/i.test(bare) && !/^(un[aiu]|us[aeu]|eu|one)/i.test(bare);
  return `${vowel ? "an" : "a"} ${word}`;
}
