/**
 * The frame every inspect page shares: one HTML document with its style and
 * script inline. A Content-Security-Policy allows nothing from a network and
 * only the page's own script (by a nonce made per page), so even a string
 * that escaped escaping could not load or run anything.
 *
 * The script is fixed text (no data is interpolated into it): it expands and
 * collapses `<details>` groups, sorts a table by a column (cells carry their
 * sort key in `data-sort`) and filters its rows by status.
 *
 * @module
 */

import { type Html, html, trusted } from "./escape.ts";

const STYLE = `
:root { --fg:#1d232b; --muted:#5f6b7a; --line:#d9dee5; --bg:#f6f7f9; --card:#fff; --ok:#1f8a4c; --bad:#c23b30;
  --warn:#b7791f; --info:#2f6fb5; --mono: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
body { margin:0; font: 14px/1.45 system-ui, "DejaVu Sans", "Segoe UI", sans-serif; color:var(--fg); background:var(--bg); }
header.top { background:#1d2733; color:#fff; padding:14px 24px; }
header.top h1 { margin:0; font-size:20px; font-weight:600; }
header.top .sub { color:#b9c4d0; font-size:13px; margin-top:2px; }
main { max-width:1180px; margin:0 auto; padding:16px 24px 48px; }
section.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:14px 18px; margin:14px 0; }
section.card > h2 { margin:0 0 10px; font-size:16px; }
h3 { font-size:14px; margin:14px 0 6px; }
.muted { color:var(--muted); }
pre { font-family:var(--mono); font-size:12.5px; background:#f3f5f8; border:1px solid var(--line); border-radius:6px;
  padding:8px 10px; overflow:auto; max-height:520px; white-space:pre-wrap; word-break:break-word; margin:6px 0; }
code { font-family:var(--mono); font-size:12.5px; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:12px; font-weight:600; background:#e7ebf0; color:#2b3541; }
.st-ok { background:#dff3e6; color:var(--ok); fill:#3aa56a; }
.st-bad { background:#fbe3e1; color:var(--bad); fill:#d4574c; }
.st-warn { background:#fdf0d9; color:var(--warn); fill:#e0a23b; }
.st-info { background:#e1ecf8; color:var(--info); fill:#5b8fd0; }
.st-none { fill:#9aa5b1; }
.kv { display:grid; grid-template-columns: max-content 1fr; gap:4px 16px; margin:0; }
.kv dt { color:var(--muted); } .kv dd { margin:0; }
.timeline { display:flex; flex-wrap:wrap; align-items:stretch; gap:6px; margin:4px 0 8px; }
.timeline .ph { border:1px solid var(--line); border-radius:6px; padding:6px 10px; min-width:96px; background:#fbfcfd; }
.timeline .ph .name { font-weight:700; letter-spacing:.04em; font-size:12px; }
.timeline .ph .meta { font-size:11.5px; color:var(--muted); }
.timeline .arrow { align-self:center; color:var(--muted); }
.timeline .ph.st-ok { border-color:#9fd4b3; } .timeline .ph.st-bad { border-color:#eea8a1; }
.timeline .ph.st-warn { border-color:#efc97f; } .timeline .ph.fallback { border-style:dashed; border-width:2px; }
.machine { display:flex; gap:0; margin:6px 0 12px; }
.machine span { flex:1; text-align:center; padding:5px 4px; font-size:12px; font-weight:700; letter-spacing:.04em;
  background:#eef1f4; color:#8a95a3; border-right:2px solid #fff; }
.machine span.reached { background:#cfe8d9; color:#17663a; }
.machine span.fell { background:#f7d6d2; color:#a3271d; }
.callout { border-left:4px solid var(--warn); background:#fff8ea; padding:8px 12px; border-radius:4px; margin:8px 0; }
.callout.bad { border-color:var(--bad); background:#fdf1f0; }
details { border:1px solid var(--line); border-radius:6px; margin:6px 0; background:#fff; }
details > summary { cursor:pointer; padding:6px 10px; list-style-position:inside; }
details[open] > summary { border-bottom:1px solid var(--line); }
details > .body { padding:6px 12px 10px; }
.role { display:inline-block; min-width:74px; font-weight:700; font-size:12px; text-transform:uppercase; }
.role-system { color:#6b5ea8; } .role-user { color:var(--info); } .role-assistant { color:var(--ok); } .role-tool { color:var(--warn); }
.call { border-left:3px solid #c9d3de; padding-left:10px; margin:8px 0; }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; padding:5px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { font-size:12px; color:var(--muted); font-weight:600; white-space:nowrap; }
th[data-key] { cursor:pointer; user-select:none; } th[data-key]::after { content:" \\2195"; color:#b5bec9; }
th[aria-sort=ascending]::after { content:" \\2191"; color:var(--fg); } th[aria-sort=descending]::after { content:" \\2193"; color:var(--fg); }
td.num, th.num { text-align:right; font-variant-numeric: tabular-nums; }
tr.hidden { display:none; }
table.usage { width:auto; min-width:320px; margin-top:6px; }
.issue { border:1px solid var(--line); border-radius:6px; padding:6px 10px; margin:6px 0; }
.issue.error { border-left:4px solid var(--bad); } .issue.warning { border-left:4px solid var(--warn); }
.issue .code { font-family:var(--mono); font-weight:700; }
.issue .hint { color:var(--muted); }
.tier { display:inline-block; width:22px; height:22px; border-radius:50%; text-align:center; line-height:22px; font-weight:700;
  font-size:12px; background:#e7ebf0; }
.tier-1 { background:#dbe7f7; color:#234f86; } .tier-2 { background:#dff3e6; color:#17663a; } .tier-3 { background:#efe3f8; color:#5d2f86; }
.toolbar { display:flex; gap:8px; align-items:center; margin:6px 0; flex-wrap:wrap; }
button, select { font:inherit; font-size:13px; padding:3px 10px; border:1px solid var(--line); border-radius:5px; background:#fff; cursor:pointer; }
pre.diff { background:#fbfcfd; } .d-add { color:#17663a; background:#e6f5eb; } .d-del { color:#a3271d; background:#fcebe9; }
.d-hunk { color:#2f6fb5; } .d-file { font-weight:700; color:#333; } span.d-add, span.d-del, span.d-hunk, span.d-file, span.d-ctx { display:inline; }
pre.diff > span { display:inline-block; min-width:100%; }
.charts { display:flex; flex-wrap:wrap; gap:18px; }
figure.chart { margin:0; } figure.chart figcaption { font-weight:600; font-size:13px; margin-bottom:4px; }
svg text { fill:#2b3541; font-family: system-ui, "DejaVu Sans", sans-serif; } svg .axis { stroke:#9aa5b1; }
svg .bar { fill:#5b8fd0; }
svg .bar.st-ok { fill:#3aa56a; } svg .bar.st-bad { fill:#d4574c; } svg .bar.st-warn { fill:#e0a23b; } svg .bar.st-none { fill:#9aa5b1; }
.totals { display:flex; flex-wrap:wrap; gap:10px; }
.totals div { background:#f3f5f8; border-radius:6px; padding:6px 14px; } .totals b { display:block; font-size:18px; }
a { color:#2f6fb5; }
`;

const SCRIPT = `
"use strict";
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-details]");
  if (button) {
    const scope = document.getElementById(button.getAttribute("data-scope")) || document;
    const open = button.getAttribute("data-details") === "open";
    for (const d of scope.querySelectorAll("details")) d.open = open;
    return;
  }
  const th = event.target.closest("th[data-key]");
  if (th) sortBy(th);
});
function sortBy(th) {
  const table = th.closest("table");
  const column = Array.prototype.indexOf.call(th.parentNode.children, th);
  const numeric = th.getAttribute("data-key") === "num";
  const descending = th.getAttribute("aria-sort") === "ascending";
  for (const other of th.parentNode.children) other.removeAttribute("aria-sort");
  th.setAttribute("aria-sort", descending ? "descending" : "ascending");
  const body = table.tBodies[0];
  const rows = Array.from(body.rows);
  const key = (row) => {
    const cell = row.cells[column];
    const value = cell.getAttribute("data-sort") ?? cell.textContent;
    return numeric ? Number(value) : value.toLowerCase();
  };
  rows.sort((a, b) => {
    const x = key(a), y = key(b);
    const order = x < y ? -1 : x > y ? 1 : 0;
    return descending ? -order : order;
  });
  for (const row of rows) body.appendChild(row);
}
document.addEventListener("change", (event) => {
  const select = event.target.closest("select[data-filter]");
  if (!select) return;
  const table = document.getElementById(select.getAttribute("data-filter"));
  const wanted = select.value;
  let shown = 0;
  for (const row of table.tBodies[0].rows) {
    const hide = wanted !== "" && row.getAttribute("data-status") !== wanted;
    row.classList.toggle("hidden", hide);
    if (!hide) shown++;
  }
  const count = document.getElementById(select.getAttribute("data-count"));
  if (count) count.textContent = String(shown);
});
`;

/** A whole page: `title` (text), a header with `subtitle`, and `body`. */
export function page(title: string, subtitle: string, body: Html): string {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(18))));
  const csp = `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src data:`;
  return html`
    <!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="${csp}">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="graphplan inspect">
        <title>${title}</title>
        <style nonce="${nonce}">${trusted(STYLE)}</style>
      </head>
      <body>
        <header class="top">
          <h1>${title}</h1>
          <div class="sub">${subtitle}</div>
        </header>
        <main>${body}</main>
        <script nonce="${nonce}">${trusted(SCRIPT)}</script>
      </body>
    </html>
  `.markup.trim() + "\n";
}

/** Buttons that open or close every `<details>` inside the element with id `scope`. */
export function expandButtons(scope: string): Html {
  return html`<span class="toolbar"><button type="button" data-details="open" data-scope="${scope}">Expand all</button>
<button type="button" data-details="close" data-scope="${scope}">Collapse all</button></span>`;
}

/** A CSS class for a status: green for success, red for failure, amber for fallbacks and limits. */
export function tone(status: string): string {
  if (/^(Submitted|done|passed|ended|ok)$/.test(status)) return "st-ok";
  if (/^Fallback|fallback|exhausted|LimitsExceeded|rolled_back|empty|helper_unavailable/.test(status)) {
    return "st-warn";
  }
  if (/^(running|Running|\(running\))$/.test(status)) return "st-info";
  return "st-bad";
}
