/**
 * A unified diff as coloured lines: file headers, hunk headers, additions
 * and deletions each get a class; the text itself is escaped.
 *
 * @module
 */

import { type Html, html } from "./escape.ts";

function lineClass(line: string): string {
  if (line.startsWith("diff --git ") || line.startsWith("index ")) return "d-file";
  if (line.startsWith("+++ ") || line.startsWith("--- ")) return "d-file";
  if (line.startsWith("@@")) return "d-hunk";
  if (line.startsWith("+")) return "d-add";
  if (line.startsWith("-")) return "d-del";
  return "d-ctx";
}

/** `patch` as a `<pre>` of coloured lines, with its added/removed line counts in the caption. */
export function diffView(patch: string): Html {
  if (patch.trim() === "") return html`<p class="muted">No patch was submitted.</p>`;
  const lines = patch.replace(/\n$/, "").split("\n");
  const added = lines.filter((line) => line.startsWith("+") && !line.startsWith("+++ ")).length;
  const removed = lines.filter((line) => line.startsWith("-") && !line.startsWith("--- ")).length;
  const files = lines.filter((line) => line.startsWith("diff --git ")).length;
  return html`
    <p class="muted">${files} file${files === 1 ? "" : "s"}, <span class="d-add">+${added}</span>
    <span class="d-del">-${removed}</span></p>
    <pre class="diff">${lines.map((line) => html`<span class="${lineClass(line)}">${line}</span>\n`)}</pre>
  `;
}
