/**
 * How much of one text an inspect page shows. A trajectory can hold a
 * message of 50 MB (a model that printed a file, a heredoc of a huge plan);
 * copied whole, it made a 50 MB page that browsers choke on. Each text (a
 * message's content, a tool call's command or output, the task, the error)
 * is shown up to {@linkcode SHOWN_CHARS} characters, and a note says how much
 * more there is and where it is: the field in the raw trajectory file.
 *
 * @module
 */

import { type Html, html } from "./escape.ts";

/** The most characters of one text a page shows (ten times the default observation limit, 10,000). */
export const SHOWN_CHARS = 100_000;

/** Where a text comes from, for the note under a cut text. */
export interface TextOrigin {
  /** The raw trajectory file, when known. */
  source?: string;
  /** The text's JSON path in it, e.g. `messages[3].content`. */
  field: string;
}

/** `text` in a `<pre>`, cut at {@linkcode SHOWN_CHARS} with a note on the rest. */
export function cappedPre(text: string, origin: TextOrigin): Html {
  if (text.length <= SHOWN_CHARS) return html`<pre>${text}</pre>`;
  return html`<pre>${text.slice(0, SHOWN_CHARS)}</pre>${cutNote(text.length, SHOWN_CHARS, origin)}`;
}

/** The note under a text of `length` characters of which the first `shown` are on the page. */
export function cutNote(length: number, shown: number, origin: TextOrigin): Html {
  const rest = (length - shown).toLocaleString("en-US");
  const where = origin.source
    ? html`
      in <code>${origin.source}</code>
    `
    : "";
  return html`<p class="muted cut" data-field="${origin.field}">${rest} more characters not shown: the whole text is
    <code>${origin.field}</code>${where}</p>`;
}

/** The start of `text` for a one-line summary, without splitting a huge text into lines. */
export function firstLine(text: string, max = 140): string {
  const head = text.slice(0, 4096);
  return (head.split("\n").find((line) => line.trim() !== "") ?? "").slice(0, max);
}
