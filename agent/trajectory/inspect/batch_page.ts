/**
 * The page of a batch: totals, three charts (exit statuses, cost per
 * instance, how far instances got in the phase machine) and a table of the
 * instances, sortable by any column and filterable by status, each row
 * linking to its instance's page.
 *
 * @module
 */

import { type Bar, horizontalBars, verticalBars } from "./charts.ts";
import type { BatchView, InstanceRow } from "./batch_view.ts";
import { type Html, html } from "./escape.ts";
import { dollars, duration, PHASE_MACHINE } from "./format.ts";
import { page, tone } from "./page.ts";

function sum(values: (number | undefined)[]): number {
  return values.reduce<number>((total, value) => total + (value ?? 0), 0);
}

function totals(rows: InstanceRow[]): Html {
  const patched = rows.filter((row) => row.patched).length;
  const fellBack = rows.filter((row) => row.fallbackPoint).length;
  const cost = sum(rows.map((row) => row.cost));
  const items: [string, string][] = [
    ["instances", String(rows.length)],
    ["with a patch", String(patched)],
    ["fell back", String(fellBack)],
    ["total cost", dollars(cost)],
    ["mean cost", dollars(rows.length ? cost / rows.length : 0)],
    ["model calls", String(sum(rows.map((row) => row.steps)))],
    ["wall time (sum)", duration(sum(rows.map((row) => row.wallTime)))],
  ];
  return html`<div class="totals" id="totals">${
    items.map(([k, v]) => html`<div><b>${v}</b>${k}</div>`)
  }</div>`;
}

function statusChart(rows: InstanceRow[]): Html {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.status, (counts.get(row.status) ?? 0) + 1);
  const bars: Bar[] = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map((
    [status, count],
  ) => ({ label: status, value: count, tone: tone(status) }));
  return horizontalBars(bars, { title: "Exit statuses" });
}

function costChart(rows: InstanceRow[]): Html {
  const bars: Bar[] = rows.filter((row) => row.cost !== undefined).sort((a, b) => b.cost! - a.cost!).map((
    row,
  ) => ({
    label: row.id,
    value: row.cost!,
    tone: tone(row.status),
    title: `${row.id}: ${dollars(row.cost)} (${row.status})`,
  }));
  // Up to 20 instances, one labelled row each; more, one column each (the id in the tooltip).
  return bars.length <= 20
    ? horizontalBars(bars, { title: "Cost per instance", prefix: "$" })
    : verticalBars(bars, { title: "Cost per instance", prefix: "$" });
}

/** How many instances entered each phase of the machine (at least), and how many fell back from it. */
function funnelChart(rows: InstanceRow[]): Html {
  const bars: Bar[] = PHASE_MACHINE.map((name, i) => ({
    label: name.toUpperCase(),
    value: rows.filter((row) => row.reached >= i).length,
    tone: "st-info",
    title: `${rows.filter((row) => row.reached >= i).length} instance(s) entered ${name}`,
  }));
  bars.push({
    label: "FALLBACK",
    value: rows.filter((row) => row.fallbackPoint).length,
    tone: "st-warn",
    title: PHASE_MACHINE.map((name) => `${name}: ${rows.filter((row) => row.fallbackPoint === name).length}`)
      .join(
        ", ",
      ),
  });
  return horizontalBars(bars, { title: "How far instances got (entered each phase)" });
}

function cell(value: string, sort: string | number, numeric = false): Html {
  return html`<td${
    numeric
      ? html`
        class="num"
      `
      : ""
  } data-sort="${sort}">${value}</td>`;
}

function table(rows: InstanceRow[], links: Map<string, string>): Html {
  const statuses = [...new Set(rows.map((row) => row.status))].sort();
  const body = rows.map((row) => {
    const link = links.get(row.id);
    return html`
      <tr data-status="${row.status}"
        data-id="${row.id}"><td data-sort="${row.id}">${link
          ? html`<a href="${link}">${row.id}</a>`
          : row.id}</td><td data-sort="${row.status}"><span class="badge ${tone(row.status)}">${row
          .status}</span>${row.error
          ? html`<div class="muted">${row.error.slice(0, 200)}</div>`
          : ""}</td>${cell(row.phase, row.reached)}${cell(
            row.fallbackPoint ?? "",
            row.fallbackPoint ?? "",
          )}${cell(row.steps === undefined ? "" : String(row.steps), row.steps ?? -1, true)}${cell(
            dollars(row.cost),
            row.cost ?? -1,
            true,
          )}${cell(duration(row.wallTime), row.wallTime ?? -1, true)}${cell(
            row.patched === undefined ? "" : row.patched ? `${row.patchLines} lines` : "empty",
            row.patchLines ?? -1,
            true,
          )}</tr>
    `;
  });
  return html`
    <div
      class="toolbar"><label>Status <select data-filter="instances" data-count="shown-count" id="status-filter">
    <option value="">all</option>${statuses.map((status) =>
      html`<option value="${status}">${status}</option>`
    )}</select></label>
    <span class="muted"><span id="shown-count">${rows
      .length}</span> shown; click a column to sort</span></div>
    <table id="instances">
      <thead>
        <tr>
          <th data-key="text">instance</th>
          <th data-key="text">status</th>
          <th data-key="num">phase reached</th>
          <th data-key="text">fallback point</th>
          <th data-key="num" class="num">steps</th>
          <th data-key="num" class="num">cost</th>
          <th data-key="num" class="num">wall time</th>
          <th data-key="num" class="num">patch</th>
        </tr>
      </thead>
      <tbody>${body}</tbody>
    </table>
  `;
}

/** The batch page; `links` maps an instance id to its page's URL relative to this page. */
export function batchPage(view: BatchView, links: Map<string, string>): string {
  const describe = Object.entries(view.batch).filter(([, value]) =>
    typeof value !== "object" || value === null
  )
    .map(([key, value]) => `${key}: ${String(value)}`);
  const body = html`
    <section class="card"><h2>Totals</h2>${totals(view.rows)}${describe.length
      ? html`<p class="muted">${describe.join(" · ")}</p>`
      : ""}${view.notes.map((note) => html`<div class="callout">${note}</div>`)}</section>
    <section class="card">
      <h2>Charts</h2>
      <div class="charts">${statusChart(view.rows)}${funnelChart(view.rows)}${costChart(view.rows)}</div>
    </section>
    <section class="card"><h2>Instances</h2>${table(view.rows, links)}</section>
  `;
  const subtitle = [view.dir, view.updatedAt ? `updated ${view.updatedAt}` : ""].filter(Boolean).join(" · ");
  return page(`Batch: ${view.rows.length} instance${view.rows.length === 1 ? "" : "s"}`, subtitle, body);
}
