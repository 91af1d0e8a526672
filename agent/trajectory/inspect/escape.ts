/**
 * Escaping for the inspect pages: every string that comes from a model, a
 * repository or a task is text. {@linkcode text} makes it safe in element
 * content and in quoted attribute values; the tagged template
 * {@linkcode html} escapes every interpolated value unless it is markup
 * this module built ({@linkcode Html}), so a caller cannot forget.
 *
 * ```ts
 * html`<td title="${task}">${task}</td>` // both occurrences escaped
 * ```
 *
 * @module
 */

/** Markup produced by this module's functions: trusted, inserted as is. */
export class Html {
  readonly markup: string;
  constructor(markup: string) {
    this.markup = markup;
  }
  toString(): string {
    return this.markup;
  }
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** `value` as text that is safe in element content and in a quoted attribute value. */
export function text(value: unknown): string {
  return String(value ?? "").replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

/** One interpolated value: markup as it is, arrays joined, anything else escaped. */
function piece(value: unknown): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(piece).join("");
  if (value === null || value === undefined || value === false) return "";
  return text(value);
}

/** A template whose interpolations are escaped (see the module doc). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += piece(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup this code wrote itself (CSS, script, SVG built from numbers): never pass outside text here. */
export function trusted(markup: string): Html {
  return new Html(markup);
}
