/**
 * Names and node text quoted in messages: cut to their first line and at
 * most 80 characters, so a hostile plan (a 2 MB identifier) cannot blow up
 * a message. The verification levels quote through the same function.
 * `withArticle` puts "a" or "an" before a word (edit and verify messages).
 *
 * @module
 */

import { firstLine } from "../parse/mod.ts";

/** The first line of `text`, at most 80 characters (longer lines end in `...`). */
export function clip(text: string): string {
  return firstLine(String(text));
}

/** `word` after its indefinite article: "a statement", "an expression", `an "attribute"`. */
export function withArticle(word: string): string {
  const bare = word.replace(/^["'`]/, "");
  const vowel = /^[aeiou]/i.test(bare) && !/^(un[aiu]|us[aeu]|eu|one)/i.test(bare);
  return `${vowel ? "an" : "a"} ${word}`;
}
