/**
 * Names and node text quoted in messages: cut to their first line and at
 * most 80 characters, so a hostile plan (a 2 MB identifier) cannot blow up
 * a message. The verification levels quote through the same function.
 *
 * @module
 */

import { firstLine } from "../parse/mod.ts";

/** The first line of `text`, at most 80 characters (longer lines end in `...`). */
export function clip(text: string): string {
  return firstLine(String(text));
}
