/**
 * The LLM-facing view of a code graph: one block per file, imports first,
 * then symbols in source order, each nested symbol indented under its parent.
 *
 * ```
 * FILE: app/service.py
 *   IMPORT: from app.models import Order [line 3]
 *   CLASS: OrderService (lines 8-40)
 *     METHOD: total (lines 12-20)
 *       FUNCTION: line_total (lines 13-15)
 *   FUNCTION: main (lines 43-50)
 * ```
 *
 * Each kind has one label (`TYPE_ALIAS` for `type_alias`). Python imports are
 * shown in Python syntax; other languages as `IMPORT: name from module`.
 * Problems follow as `ERROR:`/`WARNING:` lines.
 *
 * @module
 */

import { detectLanguage } from "../parse/mod.ts";
import type { CodeGraph, GraphImport, GraphSymbol } from "./mod.ts";

/** Options of `renderGraphView`. */
export interface ViewOptions {
  /** Include the graph's problems as `ERROR:`/`WARNING:` lines (default true). */
  errors?: boolean;
}

/** The LLM-facing text of a code graph. */
export function renderGraphView(graph: CodeGraph, options: ViewOptions = {}): string {
  const files: string[] = [];
  const add = (file: string | undefined) => {
    if (file !== undefined && !files.includes(file)) files.push(file);
  };
  for (const file of Object.keys(graph.line_kinds)) add(file);
  for (const symbol of graph.symbols) add(symbol.file);
  for (const record of graph.imports) add(record.file);
  if (options.errors !== false) { for (const issue of graph.errors) add(issue.file); }

  const lines: string[] = [];
  for (const file of files) {
    lines.push(`FILE: ${file}`);
    const python = detectLanguage(file) === "python";
    for (const record of graph.imports) {
      if (record.file === file) {
        lines.push(
          `  IMPORT: ${python ? pythonImport(record) : genericImport(record)} [line ${record.line}]`,
        );
      }
    }
    for (const item of symbolLines(graph.symbols.filter((symbol) => symbol.file === file))) lines.push(item);
    if (options.errors !== false) {
      for (const issue of graph.errors) {
        if (issue.file !== file) continue;
        const where = issue.line && !issue.message.includes(`line ${issue.line}`)
          ? ` [line ${issue.line}]`
          : "";
        lines.push(`  ${issue.severity.toUpperCase()}: ${issue.message}${where}`);
      }
    }
  }
  if (options.errors !== false) {
    for (const issue of graph.errors) {
      if (issue.file === undefined) lines.push(`${issue.severity.toUpperCase()}: ${issue.message}`);
    }
  }
  return lines.join("\n");
}

/** Symbol lines, each indented one step deeper than the symbol that contains it. */
function symbolLines(symbols: GraphSymbol[]): string[] {
  const open: GraphSymbol[] = [];
  const out: string[] = [];
  for (const symbol of symbols) {
    while (open.length > 0 && !contains(open[open.length - 1], symbol)) open.pop();
    const indent = "  ".repeat(open.length + 1);
    const label = symbol.kind.toUpperCase();
    const span = symbol.start_line === symbol.end_line
      ? `line ${symbol.start_line}`
      : `lines ${symbol.start_line}-${symbol.end_line}`;
    out.push(`${indent}${label}: ${symbol.name} (${span})`);
    open.push(symbol);
  }
  return out;
}

/** Whether `inner` is nested in `outer`: its parent is `outer`'s name and its span lies within. */
function contains(outer: GraphSymbol, inner: GraphSymbol): boolean {
  return inner.parent === outer.name && inner.start_line >= outer.start_line &&
    inner.end_line <= outer.end_line;
}

function pythonImport(record: GraphImport): string {
  const alias = record.alias !== undefined ? ` as ${record.alias}` : "";
  if (record.symbol === null) return `import ${record.module}${alias}`;
  return `from ${record.module} import ${record.symbol}${alias}`;
}

function genericImport(record: GraphImport): string {
  const alias = record.alias !== undefined ? ` as ${record.alias}` : "";
  if (record.symbol === null) return `${record.module}${alias}`;
  return `${record.symbol}${alias} from ${record.module}`;
}
