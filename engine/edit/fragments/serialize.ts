/**
 * Fragment serialization: a validated fragment to Python source, at a given
 * indentation, with the file's indentation unit and line ending.
 *
 * - A block kind with no body statements gets `pass` (a docstring alone is
 *   a body).
 * - Docstrings become `"""` strings: backslashes, `"""` and a leading or
 *   trailing `"` are escaped, control characters other than tab and newline
 *   written as `\xNN`, so the string's value is the text given, up to the
 *   indentation of the lines after the first, which sit at the body's
 *   indentation (as `inspect.cleandoc` expects); a multi-line docstring
 *   closes on its own line.
 * - Source text in properties is inserted as written; its continuation
 *   lines (a multi-line call, a dict) get the statement's indentation,
 *   except lines inside a multi-line string, whose leading whitespace is
 *   part of the string and stays as it is.
 * - Consecutive children of which one is a function or class definition are
 *   separated by one blank line.
 *
 * @module
 */

import { fail } from "../../base/issue.ts";
import { FRAGMENT_KINDS } from "./kinds.ts";
import type { Fragment } from "./fragment.ts";

/** Options for {@link serializeFragment}. */
export interface SerializeOptions {
  /** Indentation of the fragment's first line (default none). */
  indent?: string;
  /** One indentation level (default four spaces). */
  unit?: string;
  /** Line ending (default `"\n"`). */
  eol?: string;
}

/** Python source for `fragment` (validated first), without a final line break. */
export function serializeFragment(fragment: Fragment, options: SerializeOptions = {}): string {
  const lines: string[] = [];
  emit(fragment, options.indent ?? "", options.unit ?? "    ", lines);
  return lines.join(options.eol ?? "\n");
}

type Props = Record<string, unknown>;

function emit(node: Fragment, indent: string, unit: string, out: string[]): void {
  const spec = FRAGMENT_KINDS[node.kind];
  if (!spec) fail("fragment-unknown-kind", `Unknown fragment kind "${node.kind}"`);
  const p: Props = node.properties ?? {};
  const has = (name: string) => p[name] !== undefined && p[name] !== null;
  const s = (name: string) => String(p[name]);
  const line = (text: string) => pushText(out, indent, text);
  const asyncPrefix = p.async === true ? "async " : "";
  switch (node.kind) {
    case "function_definition": {
      decorators(p, line);
      const returns = has("return_type") ? ` -> ${s("return_type")}` : "";
      line(`${asyncPrefix}def ${s("name")}(${s("parameters")})${returns}:`);
      return body(node, indent, unit, out);
    }
    case "class_definition": {
      decorators(p, line);
      const bases = Array.isArray(p.bases) && p.bases.length > 0 ? `(${p.bases.join(", ")})` : "";
      line(`class ${s("name")}${bases}:`);
      return body(node, indent, unit, out);
    }
    case "if_statement":
      line(`if ${s("condition")}:`);
      return body(node, indent, unit, out);
    case "elif_clause":
      line(`elif ${s("condition")}:`);
      return body(node, indent, unit, out);
    case "else_clause":
      line("else:");
      return body(node, indent, unit, out);
    case "for_statement":
      line(`${asyncPrefix}for ${s("target")} in ${s("iterable")}:`);
      return body(node, indent, unit, out);
    case "while_statement":
      line(`while ${s("condition")}:`);
      return body(node, indent, unit, out);
    case "with_statement": {
      const items = (p.items as { expression: string; as?: string | null }[]).map((item) =>
        item.as !== undefined && item.as !== null ? `${item.expression} as ${item.as}` : item.expression
      );
      line(`${asyncPrefix}with ${items.join(", ")}:`);
      return body(node, indent, unit, out);
    }
    case "try_statement":
      line("try:");
      return body(node, indent, unit, out);
    case "except_clause": {
      const as = has("as") ? ` as ${s("as")}` : "";
      line(has("exception") ? `except ${s("exception")}${as}:` : "except:");
      return body(node, indent, unit, out);
    }
    case "finally_clause":
      line("finally:");
      return body(node, indent, unit, out);
    case "return_statement":
      return line(has("value") ? `return ${s("value")}` : "return");
    case "raise_statement": {
      const cause = has("cause") ? ` from ${s("cause")}` : "";
      return line(has("exception") ? `raise ${s("exception")}${cause}` : "raise");
    }
    case "assignment": {
      const annotation = has("annotation") ? `: ${s("annotation")}` : "";
      return line(`${s("target")}${annotation}${has("value") ? ` = ${s("value")}` : ""}`);
    }
    case "augmented_assignment": {
      const op = s("operator").endsWith("=") ? s("operator") : `${s("operator")}=`;
      return line(`${s("target")} ${op} ${s("value")}`);
    }
    case "expression_statement":
      return line(s("expression"));
    case "import_statement":
      return line(`import ${s("module")}${has("as") ? ` as ${s("as")}` : ""}`);
    case "import_from_statement": {
      const names = (p.names as (string | { name: string; as?: string | null })[]).map((item) =>
        typeof item === "string"
          ? item
          : item.as !== undefined && item.as !== null
          ? `${item.name} as ${item.as}`
          : item.name
      );
      return line(`from ${s("module")} import ${names.join(", ")}`);
    }
    case "assert_statement":
      return line(`assert ${s("condition")}${has("message") ? `, ${s("message")}` : ""}`);
    case "pass_statement":
      return line("pass");
    case "comment":
      return line(`#${s("text")}`);
    case "break_statement":
      return line("break");
    case "continue_statement":
      return line("continue");
    default:
      fail("fragment-unknown-kind", `Fragment kind "${node.kind}" has no serializer`);
  }
}

function decorators(p: Props, line: (text: string) => void): void {
  if (!Array.isArray(p.decorators)) return;
  for (const decorator of p.decorators) line(`@${String(decorator).replace(/^\s*@/, "")}`);
}

const DEFINITIONS = new Set(["function_definition", "class_definition"]);

/** The docstring and body statements one level deeper, then the clauses at this level. */
function body(node: Fragment, indent: string, unit: string, out: string[]): void {
  const inner = indent + unit;
  const children = node.children ?? [];
  const statements = children.filter((child) => FRAGMENT_KINDS[child.kind]?.role === "statement");
  const clauses = children.filter((child) => FRAGMENT_KINDS[child.kind]?.role === "clause");
  const doc = node.properties?.docstring;
  if (typeof doc === "string") pushDocstring(out, inner, doc);
  if (statements.length === 0 && typeof doc !== "string") out.push(`${inner}pass`);
  statements.forEach((child, index) => {
    const previous = index > 0 ? statements[index - 1] : undefined;
    const afterDoc = index === 0 && typeof doc === "string";
    if (
      (previous && (DEFINITIONS.has(previous.kind) || DEFINITIONS.has(child.kind))) ||
      (afterDoc && DEFINITIONS.has(child.kind))
    ) {
      out.push("");
    }
    emit(child, inner, unit, out);
  });
  for (const clause of clauses) emit(clause, indent, unit, out);
}

/**
 * Push `text` as lines at `indent`: the first line and every continuation
 * line outside a multi-line string get the indentation, blank lines stay
 * empty, lines inside a multi-line string are kept verbatim.
 */
function pushText(out: string[], indent: string, text: string): void {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const verbatim = stringContinuationRows(lines);
  lines.forEach((line, row) => {
    if (verbatim.has(row)) out.push(line);
    else if (line.trim() === "") out.push("");
    else out.push(indent + (row === 0 ? line : line.replace(/\s+$/, "")));
  });
}

/**
 * Rows (after the first) that begin inside a string literal: a
 * triple-quoted string, or a one-quote string continued with a backslash.
 * A small Python tokenizer: string prefixes, escapes and comments.
 */
export function stringContinuationRows(lines: string[]): Set<number> {
  const rows = new Set<number>();
  let quote = "";
  for (let row = 0; row < lines.length; row++) {
    if (quote && row > 0) rows.add(row);
    const line = lines[row];
    let i = 0;
    while (i < line.length) {
      const ch = line[i];
      if (quote) {
        if (ch === "\\") {
          i += 2;
          continue;
        }
        if (line.startsWith(quote, i)) {
          i += quote.length;
          quote = "";
          continue;
        }
        i++;
        continue;
      }
      if (ch === "#") break;
      if (ch === '"' || ch === "'") {
        quote = line.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
        i += quote.length;
        continue;
      }
      i++;
    }
    // A one-quote string ends at the line's end unless continued with a backslash.
    if (quote.length === 1 && !line.endsWith("\\")) quote = "";
  }
  return rows;
}

/** Push a docstring whose value is exactly `text`, at `indent`. */
function pushDocstring(out: string[], indent: string, text: string): void {
  const body = escapeDocstring(text.replace(/\r\n?/g, "\n").replace(/\n+$/, ""));
  const lines = body.split("\n");
  if (lines.length === 1) {
    out.push(`${indent}"""${body}"""`);
    return;
  }
  out.push(`${indent}"""${lines[0]}`);
  for (const line of lines.slice(1)) out.push(line.trim() === "" ? "" : indent + line);
  out.push(`${indent}"""`);
}

/** Escape `text` for the inside of a `"""` string (not raw). */
export function escapeDocstring(text: string): string {
  let out = text.replace(/\\/g, "\\\\").replace(/"""/g, '\\"\\"\\"');
  out = out.replace(
    // deno-lint-ignore no-control-regex
    /[\x00-\x08\x0b-\x1f\x7f]/g,
    (ch) => `\\x${ch.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
  if (out.endsWith('"')) out = `${out.slice(0, -1)}\\"`;
  if (out.startsWith('"')) out = `\\${out}`;
  return out;
}
