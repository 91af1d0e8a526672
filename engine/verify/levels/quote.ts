/**
 * Node text and names in issue messages: every level quotes what it found
 * through `clip`, so a hostile plan (a 2 MB identifier, a statement list
 * of thousands of nodes) cannot blow up a message.
 *
 * @module
 */

import { clip, withArticle } from "../../analysis/quote.ts";

export { clip, withArticle };

/** Quoted node types, the first `max` of them, then how many more there are. */
export function typeList(types: readonly string[], max = 3): string {
  const shown = types.slice(0, max).map((type) => `"${clip(type)}"`).join(", ");
  return types.length > max ? `${shown} and ${types.length - max} more` : shown;
}
