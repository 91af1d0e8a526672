/**
 * Small SVG charts written by this code (no chart library): horizontal bars
 * of counts, vertical bars of values, and the phase funnel. Labels are
 * escaped; numbers are formatted here, so nothing outside reaches the markup
 * unescaped.
 *
 * @module
 */

import { type Html, html } from "./escape.ts";

/** One bar: a label, a value, an optional colour class and link. */
export interface Bar {
  label: string;
  value: number;
  /** A CSS class for the bar's fill (`st-ok`, `st-fail`, ...). */
  tone?: string;
  /** Shown on hover. */
  title?: string;
}

const FONT = 12;

/** A label cut to fit the label column (the whole label is in the bar's tooltip). */
function short(label: string): string {
  return label.length > 30 ? `${label.slice(0, 29)}…` : label;
}

function fmt(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 1 ? 4 : 2);
}

/** Horizontal bars, one row per item (exit statuses, phase funnel). */
export function horizontalBars(
  bars: Bar[],
  options: { title: string; unit?: string; prefix?: string },
): Html {
  const labelWidth = Math.min(220, 12 + Math.max(40, ...bars.map((bar) => short(bar.label).length * 7)));
  const prefix = options.prefix ?? "";
  const width = 460, row = 22, top = 6;
  const height = top + bars.length * row + 4;
  const max = Math.max(1e-9, ...bars.map((bar) => bar.value));
  const room = width - labelWidth - 60;
  return html`
    <figure class="chart">
      <figcaption>${options.title}</figcaption>
      <svg role="img" aria-label="${options.title}" viewBox="0 0 ${width} ${height}" width="${width}"
        height="${height}">${bars.map((bar, i) => {
          const y = top + i * row;
          const w = Math.max(bar.value > 0 ? 2 : 0, (bar.value / max) * room);
          return html`
            <g>
              <title>${bar.title ?? `${bar.label}: ${prefix}${fmt(bar.value)}${options.unit ?? ""}`}</title>
              <text x="${labelWidth - 6}" y="${y + 15}" text-anchor="end" font-size="${FONT}">${short(
                bar.label,
              )}</text>
              <rect class="bar ${bar.tone ?? ""}" x="${labelWidth}" y="${y + 3}" width="${w.toFixed(
                1,
              )}" height="${row - 6}"
                rx="3"></rect>
              <text x="${labelWidth + w + 5}" y="${y + 15}" font-size="${FONT}">${prefix}${fmt(
                bar.value,
              )}${options.unit ?? ""}</text>
            </g>
          `;
        })}</svg>
    </figure>
  `;
}

/** Vertical bars, one per item in the given order (cost per instance). */
export function verticalBars(bars: Bar[], options: { title: string; unit?: string; prefix?: string }): Html {
  const width = 460, height = 170, left = 44, bottom = 20, top = 8;
  const max = Math.max(1e-9, ...bars.map((bar) => bar.value));
  const slot = (width - left - 4) / Math.max(1, bars.length);
  const barWidth = Math.max(1, Math.min(28, slot * 0.8));
  const plot = height - bottom - top;
  const prefix = options.prefix ?? "";
  return html`
    <figure class="chart">
      <figcaption>${options.title}</figcaption>
      <svg role="img" aria-label="${options.title}" viewBox="0 0 ${width} ${height}" width="${width}"
        height="${height}">
    <line class="axis" x1="${left}" y1="${top}" x2="${left}" y2="${height - bottom}"></line>
    <line class="axis" x1="${left}" y1="${height - bottom}" x2="${width - 2}" y2="${height - bottom}"></line>
    <text x="${left - 4}" y="${top + 10}" text-anchor="end" font-size="10">${prefix}${fmt(max)}</text>
    <text x="${left - 4}" y="${height - bottom}" text-anchor="end" font-size="10">${prefix}0</text>${bars.map(
      (bar, i) => {
        const h = (bar.value / max) * plot;
        const x = left + 2 + i * slot + (slot - barWidth) / 2;
        return html`
          <rect class="bar ${bar.tone ?? ""}" x="${x.toFixed(1)}" y="${(top + plot - h).toFixed(
            1,
          )}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}">
            <title>${bar.title ?? `${bar.label}: ${prefix}${fmt(bar.value)}`}</title>
          </rect>
        `;
      },
    )}
    <text x="${left}" y="${height - 5}" font-size="10">${bars.length} instance${bars.length === 1
      ? ""
      : "s"}, most expensive first</text>
      </svg>
    </figure>
  `;
}
