/**
 * Units: the pieces of text the surgery operators pick up, put down, swap
 * and reorder, and the places they can go.
 *
 * ## What travels with a node
 *
 * A located node is first widened to its wrapper (a Python definition to its
 * `decorated_definition`, a JS/TS declaration to its `export_statement`), so
 * decorators and `export` travel with it. Then it takes one of two layouts:
 *
 * - **line**: the node is alone on its lines (a statement, a definition, a
 *   class member, a decorator). Its unit is whole lines (a TypeScript
 *   member's decorators, siblings before it in the grammar, included): from the first
 *   *attached comment* (comment lines directly above it, no blank line in
 *   between, at the node's indentation; a `#!` or coding line never) to the
 *   end of its last line, so a trailing comment on that line travels too. A
 *   JS member's `;` token, which the grammar keeps outside the member,
 *   counts as part of it.
 * - **inline**: the node shares a line with other code. List elements
 *   (arguments, parameters, array and dict elements, imported names) are
 *   inline even when each sits on its own line: their unit is the node's own
 *   span, and the commas stay where they are (each slot keeps its
 *   separator, see `reorder.ts`).
 *
 * ## Where a unit can go
 *
 * `placeLines` puts line-unit text before or after an anchor unit, or at the
 * start (after a Python docstring) or end of a body. The text is re-indented
 * to the anchor by `reindent()`. Blank lines follow the file: between two
 * neighbours of which one is a definition, the most common gap between
 * sibling definitions of that container (PEP 8's 2 at Python module level
 * and 1 elsewhere when the container has no such pair); none otherwise.
 * Blank lines already at the insertion point count toward that gap, so an
 * insertion never doubles a gap. A Python body that is only `pass` (or `...`)
 * has that statement replaced. `placeInList` inserts list elements with a
 * comma in the list's layout (inline or one element per line).
 *
 * `removeLines` deletes a line unit with the blank lines that only it
 * needed (the same rules as `separators.ts`, which handles list elements),
 * leaving `pass` in a Python block it would leave empty.
 *
 * @module
 */

import { fail } from "../../base/issue.ts";
import type { Document } from "../../parse/documents.ts";
import type { LanguageId, Node } from "../../parse/mod.ts";
import {
  blanksAbove,
  blanksBelow,
  detectIndentUnit,
  firstOnLine,
  lastOnLine,
  lineEnd,
  lineIndent,
  lineStart,
  nextLineStart,
  reindent,
  type ReindentOptions,
} from "../indent.ts";
import { listInsertEdit } from "../primitives.ts";
import { isListElement, listContext, withWrapper } from "../separators.ts";
import type { TextEdit } from "../text_edit.ts";

/** Where `copy_node`/`move_node` put the node relative to `destination` (the plan schema's values too). */
export const SURGERY_POSITIONS = ["before", "after", "append_to_body", "prepend_to_body"] as const;

/** One of {@link SURGERY_POSITIONS}. */
export type Position = typeof SURGERY_POSITIONS[number];

/** The accepted values of a `position` parameter (the plan schema reads {@link SURGERY_POSITIONS}). */
export const POSITIONS: readonly Position[] = SURGERY_POSITIONS;

/** A node with the text that travels with it (see the module documentation). */
export interface Unit {
  /** The node, widened to its decorator or export wrapper. */
  node: Node;
  /** Start of the unit's text (a line start for a line unit). */
  start: number;
  /** End of the unit's text (the end of its last line's content for a line unit). */
  end: number;
  layout: "line" | "inline";
  /** Whether the node is an element of a comma-separated list. */
  listElement: boolean;
  /** Whether the unit starts with TypeScript member decorators or Rust attributes, which the grammar keeps outside the node. */
  siblingDecorators?: boolean;
}

/** The file's layout, as `reindent()` needs it. */
export function styleOf(doc: Document): { unit: string; eol: string; language: LanguageId } {
  return { unit: detectIndentUnit(doc.file.text), eol: doc.file.eol, language: doc.file.language };
}

/**
 * `reindent()` unless the code already sits at `indent` (its first line's
 * indentation, `from`) with the file's line endings: then it is kept byte
 * for byte, whitespace-only lines included.
 */
export async function fit(code: string, from: string, options: ReindentOptions): Promise<string> {
  const crlf = code.includes("\r\n");
  const sameEol = options.eol === "\r\n" ? crlf || !code.includes("\n") : !code.includes("\r");
  if (from === options.indent && sameEol) return code.replace(/\r?\n$/, "");
  return await reindent(code, options);
}

export { withWrapper };

/** The definition inside a wrapper (decorators, `export`), else the node. */
export function unwrap(node: Node): Node {
  let current = node;
  for (;;) {
    const inner = current.type === "decorated_definition"
      ? current.childForFieldName("definition")
      : current.type === "export_statement"
      ? current.childForFieldName("declaration")
      : null;
    if (!inner) return current;
    current = inner;
  }
}

const DEFINITION = new RegExp(
  "^(" + [
    // Python, JavaScript, TypeScript
    "function_definition|class_definition|decorated_definition|function_declaration",
    "generator_function_declaration|class_declaration|abstract_class_declaration|method_definition",
    "interface_declaration|export_statement",
    // Go and Java
    "method_declaration|type_declaration|constructor_declaration|enum_declaration|record_declaration",
    // Rust
    "function_item|struct_item|enum_item|union_item|impl_item|trait_item|mod_item|macro_definition",
  ].join("|") + ")$",
);

/** Whether a node is a function, class or method definition (wrappers included). */
export function isDefinition(node: Node): boolean {
  if (node.type === "export_statement") {
    return DEFINITION.test(node.childForFieldName("declaration")?.type ?? "");
  }
  return DEFINITION.test(node.type);
}

/** The end of a node, extended over a `;` token the grammar keeps outside it on the same line. */
function endOf(node: Node): number {
  const next = node.nextSibling;
  if (next && next.type === ";" && next.startPosition.row === node.endPosition.row) return next.endIndex;
  return node.endIndex;
}

/** Start of the comment lines directly above `node` at its indentation (or the node's start). */
function attachedStart(doc: Document, node: Node): number {
  const text = doc.file.text;
  const root = doc.tree.rootNode;
  const indent = lineIndent(text, node.startIndex);
  let start = node.startIndex;
  for (;;) {
    const here = lineStart(text, start);
    if (here === 0) return start;
    const previous = lineStart(text, here - 1);
    const content = text.slice(previous, lineEnd(text, previous)).trimEnd();
    if (content.trim() === "") return start;
    const end = previous + content.length;
    let comment: Node | null = root.descendantForIndex(end - 1, end);
    while (comment && !/comment/.test(comment.type)) comment = comment.parent;
    if (!comment || comment.endIndex < end) return start;
    if (!firstOnLine(text, comment.startIndex) || lineIndent(text, comment.startIndex) !== indent) {
      return start;
    }
    if (/^#!|coding[:=]/.test(comment.text) && comment.startPosition.row <= 1) return start;
    start = comment.startIndex;
  }
}

/**
 * The outermost node with the same span as `node` (a call that is a whole
 * expression statement is the statement; in JS its `;` does not count), up
 * to but not including a body.
 */
function outermost(node: Node, text: string): Node {
  let current = node;
  for (let parent = current.parent; parent && !BODY.test(parent.type); parent = current.parent) {
    if (parent.startIndex !== current.startIndex) break;
    const rest = text.slice(current.endIndex, parent.endIndex).trim();
    if (rest !== "" && !(rest === ";" && parent.type === "expression_statement")) break;
    current = parent;
  }
  return current;
}

/** The unit of a located node. */
export function unitOf(doc: Document, located: Node): Unit {
  const text = doc.file.text;
  const language = doc.file.language;
  const node = withWrapper(outermost(located, text));
  const listElement = isListElement(node);
  const end = endOf(node);
  // TypeScript keeps a member's decorators, Rust an item's attributes, as siblings before it
  let head = node;
  while (head.previousNamedSibling && isSiblingPrefix(head.previousNamedSibling)) {
    head = head.previousNamedSibling;
  }
  if (!listElement && firstOnLine(text, head.startIndex) && lastOnLine(text, end, language)) {
    // a decorator's comments above belong to its definition
    const start = lineStart(text, node.type === "decorator" ? node.startIndex : attachedStart(doc, head));
    const siblingDecorators = head.id !== node.id;
    return { node, start, end: lineEnd(text, end), layout: "line", listElement, siblingDecorators };
  }
  return { node, start: node.startIndex, end: node.endIndex, layout: "inline", listElement };
}

/** The text of a unit. */
export function unitText(doc: Document, unit: Unit): string {
  return doc.file.text.slice(unit.start, unit.end);
}

const BODY =
  /^(block|module|program|source_file|translation_unit|class_body|statement_block|declaration_list|field_declaration_list|enum_body|interface_body|interface_type|enum_variant_list)$/;

/** The body a node's children live in: a class's or function's body, or the node itself if it is one. */
export function bodyOf(node: Node): Node | undefined {
  const inner = unwrap(node);
  if (BODY.test(inner.type)) return inner;
  const body = inner.childForFieldName("body") ?? inner.childForFieldName("consequence");
  if (body) return body;
  // a Go type's struct or interface: its field list, or the interface itself
  const type = inner.type === "type_declaration"
    ? inner.namedChildren.find((c) => c?.type === "type_spec")
    : inner;
  const declared = type?.type === "type_spec" ? type.childForFieldName("type") : null;
  if (declared?.type === "struct_type") {
    return declared.namedChildren.find((c) => c?.type === "field_declaration_list") ?? undefined;
  }
  if (declared?.type === "interface_type") return declared;
  // clauses without a body field (a Python `except` clause): their block
  return members(inner).findLast((child) => child.type === "block" || child.type === "statement_block");
}

/**
 * Whether `node` belongs to the named sibling after it: a TypeScript member
 * decorator in a class body, a Rust attribute (`#[derive(...)]`) before an
 * item or a field.
 */
function isSiblingPrefix(node: Node): boolean {
  return node.type === "attribute_item" || (node.type === "decorator" && node.parent?.type === "class_body");
}

/** Named children of `node` other than comments (and sibling decorators or attributes, which go with their member). */
export function members(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node =>
    child !== null && !/comment/.test(child.type) && !isSiblingPrefix(child)
  );
}

/** A Python docstring statement: a lone string as the first member of a body. */
export function isDocstring(node: Node, language: LanguageId): boolean {
  if (language !== "python" || node.type !== "expression_statement" || node.namedChildCount !== 1) {
    return false;
  }
  const only = node.namedChild(0)!;
  if (only.type !== "string" && only.type !== "concatenated_string") return false;
  return node.parent !== null && members(node.parent)[0]?.id === node.id;
}

function isBlank(text: string, offset: number): boolean {
  return text.slice(offset, lineEnd(text, offset)).trim() === "";
}

/**
 * Blank lines between definitions in `container`: the most common gap
 * between consecutive sibling definitions, else 2 at Python module level
 * and 1 elsewhere.
 */
export function definitionGap(doc: Document, container: Node | null): number {
  const text = doc.file.text;
  const siblings = container ? members(container) : [];
  const counts = new Map<number, number>();
  for (let i = 1; i < siblings.length; i++) {
    if (!isDefinition(siblings[i]) || !isDefinition(siblings[i - 1])) continue;
    const start = lineStart(text, attachedStart(doc, siblings[i]));
    const gap = blanksAbove(text, start);
    counts.set(gap, (counts.get(gap) ?? 0) + 1);
  }
  if (counts.size) return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0][0];
  return doc.file.language === "python" && container?.type === "module" ? 2 : 1;
}

/** What is being placed: its text and whether it is a definition (for blank lines). */
export interface Cargo {
  text: string;
  definition: boolean;
  /** The indentation the text's first line has (kept verbatim when it lands at the same one). */
  indent: string;
  /**
   * Blank lines that followed the code where it came from (a moved statement
   * keeps its separation from what comes next); none when it ended its block.
   */
  blankAfter?: number;
}

/**
 * Whether a blank line separates `unit` from the next statement of its
 * container: 1 or 0. Not when it is the last one, nor when the next member is
 * a definition (the gap before a definition is the definition's).
 */
export function blankLinesAfter(doc: Document, unit: Unit): number {
  const container = unit.node.parent;
  const siblings = container ? members(container) : [];
  const index = siblings.findIndex((sibling) => sibling.id === unit.node.id);
  const next = siblings[index + 1];
  if (index === -1 || !next || isDefinition(withWrapper(next))) return 0;
  return Math.min(1, blanksBelow(doc.file.text, nextLineStart(doc.file.text, unit.end)));
}

function pythonPlaceholder(node: Node): boolean {
  if (node.type === "pass_statement") return true;
  return node.type === "expression_statement" && node.namedChildCount === 1 &&
    node.namedChild(0)!.type === "ellipsis";
}

/**
 * The edit that puts line-unit `cargo` at `position` of `destination`
 * (before/after its unit, or into its body).
 */
export async function placeLines(
  doc: Document,
  cargo: Cargo,
  options: { destination: Node; position: Position },
): Promise<TextEdit> {
  const { destination, position } = options;
  const text = doc.file.text;
  const style = styleOf(doc);
  const file = doc.file.path;
  if (position === "before" || position === "after") {
    const anchor = unitOf(doc, destination);
    if (anchor.layout !== "line") {
      fail(
        "destination-not-line",
        `Cannot put code ${position} ${describe(anchor.node)}: it shares its line with other code`,
        {
          file,
          line: anchor.node.startPosition.row + 1,
          hint: "choose the enclosing statement as the destination",
        },
      );
    }
    const container = anchor.node.parent;
    const siblings = container ? members(container) : [];
    const index = siblings.findIndex((sibling) => sibling.id === anchor.node.id);
    const prev = position === "before" ? siblings[index - 1] : anchor.node;
    const next = position === "before" ? anchor.node : siblings[index + 1];
    const at = position === "before" ? anchor.start : nextLineStart(text, anchor.end);
    return await linesAt(doc, cargo, {
      at,
      indent: lineIndent(text, anchor.node.startIndex),
      prev,
      next,
      container,
      style,
    });
  }
  const body = bodyOf(destination);
  if (!body) {
    fail("destination-has-no-body", `Cannot ${verb(position)} ${describe(destination)}: it has no body`, {
      file,
      line: destination.startPosition.row + 1,
      hint: 'use "before" or "after", or choose a class, function or block as the destination',
    });
  }
  const list = members(body);
  const language = doc.file.language;
  if (list.length > 0 && !firstOnLine(text, list[0].startIndex)) {
    fail(
      "body-on-header-line",
      `Cannot ${verb(position)} ${describe(destination)}: its body shares line ${
        list[0].startPosition.row + 1
      } with its header`,
      { file, line: list[0].startPosition.row + 1, hint: "rewrite it with replace_node" },
    );
  }
  if (list.length === 0) return await emptyBody(doc, cargo, body);
  if (language === "python" && list.length === 1 && pythonPlaceholder(list[0])) {
    const only = list[0];
    const indent = lineIndent(text, only.startIndex);
    const fitted = await fit(cargo.text, cargo.indent, { ...style, indent });
    return {
      start: lineStart(text, only.startIndex),
      end: lineEnd(text, only.endIndex),
      replacement: fitted,
    };
  }
  const container = body;
  if (position === "append_to_body") {
    const last = unitOf(doc, list[list.length - 1]);
    return await linesAt(doc, cargo, {
      at: nextLineStart(text, last.end),
      indent: lineIndent(text, last.node.startIndex),
      prev: last.node,
      next: undefined,
      container,
      style,
    });
  }
  const first = unitOf(doc, list[0]);
  if (isDocstring(first.node, language)) {
    return await linesAt(doc, cargo, {
      at: nextLineStart(text, first.end),
      indent: lineIndent(text, first.node.startIndex),
      prev: first.node,
      next: list[1] ? withWrapper(list[1]) : undefined,
      container,
      style,
    });
  }
  return await linesAt(doc, cargo, {
    at: first.start,
    indent: lineIndent(text, first.node.startIndex),
    prev: undefined,
    next: first.node,
    container,
    style,
  });
}

interface LinesAt {
  at: number;
  indent: string;
  prev: Node | undefined;
  next: Node | undefined;
  container: Node | null;
  style: { unit: string; eol: string; language: LanguageId };
}

async function linesAt(doc: Document, cargo: Cargo, where: LinesAt): Promise<TextEdit> {
  const text = doc.file.text;
  const { at, indent, prev, next, container, style } = where;
  const { eol } = style;
  const gap = definitionGap(doc, container);
  const want = (a: boolean, b: boolean) => (a || b ? gap : 0);
  const above = prev ? want(isDefinition(prev), cargo.definition) : 0;
  const below = next ? Math.max(want(cargo.definition, isDefinition(next)), cargo.blankAfter ?? 0) : 0;
  const body = await fit(cargo.text, cargo.indent, { ...style, indent });
  const needsBreak = at === text.length && text.length > 0 && !text.endsWith("\n");
  const head = eol.repeat(Math.max(0, above - blanksAbove(text, at)));
  const tail = eol.repeat(Math.max(0, below - blanksBelow(text, at)));
  if (needsBreak) return { start: at, end: at, replacement: eol + head + body + tail };
  return { start: at, end: at, replacement: head + body + eol + tail };
}

/** Code into an empty body (`{}`, `{\n}`, an empty file). */
async function emptyBody(doc: Document, cargo: Cargo, body: Node): Promise<TextEdit> {
  const text = doc.file.text;
  const style = styleOf(doc);
  const open = body.child(0);
  if (!open || open.type !== "{") {
    const at = text.length;
    const body = await fit(cargo.text, cargo.indent, { ...style, indent: "" });
    const lead = text.length > 0 && !text.endsWith("\n") ? style.eol : "";
    return { start: at, end: at, replacement: lead + body + style.eol };
  }
  const close = body.child(body.childCount - 1)!;
  const outer = lineIndent(text, body.startIndex);
  const fitted = await fit(cargo.text, cargo.indent, { ...style, indent: outer + style.unit });
  const sameLine = close.startPosition.row === open.startPosition.row;
  return {
    start: open.endIndex,
    end: sameLine ? close.startIndex : open.endIndex,
    replacement: style.eol + fitted + (sameLine ? style.eol + outer : ""),
  };
}

/** The comma-separated list of type `listType` at or directly under `node`. */
export function listAt(node: Node, listType: string): Node | undefined {
  if (node.type === listType) return node;
  for (const child of node.namedChildren) if (child?.type === listType) return child;
  const inner = unwrap(node);
  if (inner.id !== node.id) return listAt(inner, listType);
  return undefined;
}

/**
 * The edit that puts list element `code` at `position` of `destination`: a
 * list element (before/after) or a list (prepend/append).
 */
export async function placeInList(
  doc: Document,
  code: string,
  options: { destination: Node; position: Position; listType: string },
): Promise<TextEdit> {
  const { destination, position, listType } = options;
  const text = doc.file.text;
  const style = styleOf(doc);
  if (position === "before" || position === "after") {
    if (!isListElement(destination)) {
      fail(
        "destination-incompatible",
        `Cannot put a list element ${position} ${describe(destination)}: it is not a list element`,
        { file: doc.file.path, line: destination.startPosition.row + 1 },
      );
    }
    return await besideElement(doc, code, destination, position);
  }
  const list = listAt(destination, listType);
  if (!list) {
    fail(
      "destination-incompatible",
      `Cannot ${verb(position)} ${describe(destination)}: it has no "${listType}" to put the element in`,
      { file: doc.file.path, line: destination.startPosition.row + 1 },
    );
  }
  const elements = members(list);
  if (elements.length === 0) {
    const open = list.child(0);
    const at = open && !open.isNamed ? open.endIndex : list.startIndex;
    const fitted = await reindent(code, { ...style, indent: lineIndent(text, at), inlineFirst: true });
    return { start: at, end: at, replacement: fitted };
  }
  const anchor = position === "prepend_to_body" ? elements[0] : elements[elements.length - 1];
  return await besideElement(doc, code, anchor, position === "prepend_to_body" ? "before" : "after");
}

async function besideElement(
  doc: Document,
  code: string,
  anchor: Node,
  where: "before" | "after",
): Promise<TextEdit> {
  return await listInsertEdit(doc, anchor, code, where, listContext(anchor) ?? {});
}

/**
 * The edit that removes a line unit and the blank lines only it needed; the
 * last statement of a Python block becomes `pass`.
 */
export function removeLines(doc: Document, unit: Unit): TextEdit {
  const text = doc.file.text;
  const parent = unit.node.parent;
  if (doc.file.language === "python" && parent?.type === "block" && members(parent).length === 1) {
    return { start: unit.start, end: unit.end, replacement: lineIndent(text, unit.node.startIndex) + "pass" };
  }
  let start = unit.start;
  let end = nextLineStart(text, unit.end);
  const above = start - lineStartAbove(text, start);
  const blankBelow = end < text.length && isBlank(text, end);
  const below = text.slice(end, lineEnd(text, end));
  const indentWidth = unit.node.startIndex - lineStart(text, unit.node.startIndex);
  const closes = !blankBelow && end < text.length &&
    (/^\s*[}\])]/.test(below) || /^[ \t]*/.exec(below)![0].length < indentWidth);
  if (above > 0 && (blankBelow || closes || end >= text.length)) {
    start = lineStartAbove(text, start);
  } else if (above === 0) {
    const before = text.slice(0, start).trimEnd();
    if (before === "" || /[:{]$/.test(before)) {
      while (end < text.length && isBlank(text, end)) end = nextLineStart(text, end);
    }
  }
  return { start, end, replacement: "" };
}

/** The start of the run of blank lines just above the line start `at` (or `at`). */
function lineStartAbove(text: string, at: number): number {
  let offset = at;
  while (offset > 0) {
    const previous = lineStart(text, offset - 1);
    if (!isBlank(text, previous)) break;
    offset = previous;
  }
  return offset;
}

function verb(position: Position): string {
  return position === "append_to_body" ? "append to" : "prepend to";
}

/** How a node reads in a message: `function_definition at line 12`. */
export function describe(node: Node): string {
  return `the ${node.type} at line ${node.startPosition.row + 1}`;
}
