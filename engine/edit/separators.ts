/**
 * Deleting a node together with what only exists because of it: the comma
 * of a list element, the line of a statement, the statement of a last
 * imported name, the body that would be left empty.
 *
 * A node is a *list element* when a `,` token is its sibling next to it
 * (arguments, parameters, list/tuple/set/dict elements, imported names, JS
 * array elements, object properties, import specifiers, declarators...).
 * Rules, `a, b, c` style:
 * - an element followed by a comma loses that comma and the space up to the
 *   next element (`a, b, c` minus `b` → `a, c`);
 * - the last element loses the comma before it (`a, b` minus `b` → `a`),
 *   keeping a trailing comma (`[a, b,]` minus `b` → `[a,]`);
 * - an element alone on its line(s) with its comma loses the whole lines;
 * - the only imported name of an import deletes the import statement
 *   (`from x import b`, `import b`, `import { b } from "x"`).
 *
 * A node alone on its lines (a statement, a definition, a decorator) is
 * deleted with its lines, line break included, and the blank lines before
 * it (or, at the start of a block, after it) so no gap is left doubled.
 * When it was the last statement of a Python block, `pass` takes its place.
 *
 * @module
 */

import type { LanguageId, Node } from "../parse/mod.ts";
import { firstOnLine, lastOnLine, lineEnd, lineStart, nextLineStart } from "./indent.ts";
import type { TextEdit } from "./text_edit.ts";

/** The comma-separated neighbourhood of a list element. */
export interface ListContext {
  commaBefore?: Node;
  commaAfter?: Node;
  /** The element before `commaBefore` / after `commaAfter`, when there is one. */
  previous?: Node;
  next?: Node;
}

function skipComments(node: Node | null, forward: boolean): Node | null {
  let current = node;
  while (current && current.type === "comment") {
    current = forward ? current.nextSibling : current.previousSibling;
  }
  return current;
}

/** The list context of `node`, or undefined when no comma is next to it. */
export function listContext(node: Node): ListContext | undefined {
  const before = skipComments(node.previousSibling, false);
  const after = skipComments(node.nextSibling, true);
  const context: ListContext = {};
  if (before?.type === ",") {
    context.commaBefore = before;
    const previous = skipComments(before.previousSibling, false);
    if (previous?.isNamed) context.previous = previous;
  }
  if (after?.type === ",") {
    context.commaAfter = after;
    const next = skipComments(after.nextSibling, true);
    if (next?.isNamed) context.next = next;
  }
  return context.commaBefore || context.commaAfter ? context : undefined;
}

/** Containers whose named children are comma-separated, even when there is only one. */
const LIST_CONTAINER =
  /^(argument_list|arguments|parameters|formal_parameters|parameter_list|lambda_parameters|type_parameters|type_arguments|list|tuple|set|dictionary|array|object|named_imports|export_clause|import_from_statement|import_statement|expression_list|pattern_list|tuple_pattern|list_pattern|object_pattern|array_pattern|dict_pattern|global_statement|nonlocal_statement|initializer_list|enumerator_list|use_list|array_expression|tuple_expression|field_initializer_list|array_initializer|literal_value|hash|method_parameters|array_creation_expression)$/;

/**
 * Whether `node` is an element of a comma-separated list: a comma next to
 * it, or a named child of a list container (`f(a)`, `def f(self)`, `[x]`).
 */
export function isListElement(node: Node): boolean {
  if (listContext(node)) return true;
  const parent = node.parent;
  if (!parent || !node.isNamed || node.type === "comment" || !LIST_CONTAINER.test(parent.type)) return false;
  if (parent.type === "import_from_statement" || parent.type === "import_statement") {
    return parent.childrenForFieldName("name").some((name) => name?.id === node.id);
  }
  return true;
}

/**
 * The statement that wraps a definition and belongs with it, if any: a
 * Python `decorated_definition`, a JS/TS `export_statement`, a Go
 * `type_declaration` that declares only this type (`type Point struct
 * {...}`; a `type ( ... )` group is not a wrapper of each of its types).
 */
export function definitionWrapper(node: Node): Node | undefined {
  const parent = node.parent;
  if (!parent) return undefined;
  switch (parent.type) {
    case "decorated_definition":
      return parent.childForFieldName("definition")?.id === node.id ? parent : undefined;
    case "export_statement":
      return parent.childForFieldName("declaration")?.id === node.id ? parent : undefined;
    case "type_declaration":
      return node.type === "type_spec" && parent.namedChildCount === 1 &&
          !parent.children.some((child) => child?.type === "(")
        ? parent
        : undefined;
    default:
      return undefined;
  }
}

/** `node` with every wrapper around it (see {@link definitionWrapper}): an exported decorated class as a whole. */
export function withWrapper(node: Node): Node {
  let current = node;
  for (let wrapper = definitionWrapper(current); wrapper; wrapper = definitionWrapper(current)) {
    current = wrapper;
  }
  return current;
}

/**
 * The node that should really go when `node` is deleted: a decorated,
 * exported or declared definition instead of the bare definition (see
 * {@link definitionWrapper}), the list element an identifier is all of (an
 * imported name's `dotted_name`), the import statement instead of its only
 * imported name.
 */
export function deletionTarget(node: Node): Node {
  let current = node;
  for (;;) {
    const parent = current.parent;
    if (!parent) return current;
    const wrapper = definitionWrapper(current);
    if (wrapper) {
      current = wrapper;
    } else if (isWholeListElement(current, parent)) {
      current = parent;
    } else if (isOnlyImportedName(current, parent)) {
      current = parent;
    } else {
      return current;
    }
  }
}

/**
 * Whether `node` spans all of `parent` and `parent` is a list element: the
 * identifier of an imported `dotted_name` (`from m import a, b`), whose
 * deletion must take the element's comma too.
 */
function isWholeListElement(node: Node, parent: Node): boolean {
  return parent.startIndex === node.startIndex && parent.endIndex === node.endIndex &&
    (isListElement(parent) || (parent.parent !== null && isOnlyImportedName(parent, parent.parent)));
}

function isOnlyImportedName(node: Node, parent: Node): boolean {
  if (listContext(node)) return false;
  if (node.type === "import_clause") return parent.type === "import_statement";
  switch (parent.type) {
    case "import_from_statement":
      return parent.childrenForFieldName("name").some((name) => name?.id === node.id);
    case "import_statement":
      return parent.childrenForFieldName("name").some((name) => name?.id === node.id);
    case "named_imports":
    case "import_clause":
      return parent.namedChildren.filter((child) => child && child.type !== "comment").length === 1;
    default:
      return false;
  }
}

/** Is `node` a statement that Python needs at least one of in its block? */
function isLastInPythonBlock(node: Node, language: LanguageId): boolean {
  const parent = node.parent;
  if (language !== "python" || parent?.type !== "block") return false;
  return parent.namedChildren.filter((child) => child && child.type !== "comment").length === 1;
}

/** The edit that deletes `node` (already passed through {@link deletionTarget}) and its separator. */
export function deletionEdit(text: string, node: Node, language: LanguageId): TextEdit {
  const list = listContext(node);
  if (list) return listDeletion(text, node, list, language);
  const alone = firstOnLine(text, node.startIndex) && lastOnLine(text, node.endIndex, language);
  if (!alone) return { start: node.startIndex, end: node.endIndex, replacement: "" };
  if (isLastInPythonBlock(node, language)) {
    return { start: node.startIndex, end: lineEnd(text, node.endIndex), replacement: "pass" };
  }
  return lineDeletion(text, node.startIndex, node.endIndex);
}

/** Delete whole lines `[start's line, end's line]`, absorbing a doubled gap of blank lines. */
function lineDeletion(text: string, startOffset: number, endOffset: number): TextEdit {
  let start = lineStart(text, startOffset);
  let end = nextLineStart(text, endOffset);
  const isBlank = (from: number) => text.slice(from, lineEnd(text, from)).trim() === "";
  // Blank lines just above: absorb them (the gap below then separates what remains).
  let above = start;
  while (above > 0) {
    const prev = lineStart(text, above - 1);
    if (!isBlank(prev)) break;
    above = prev;
  }
  const blankBelow = end < text.length && isBlank(end);
  // The block ends below (a closing bracket or a dedent): the gap above would be left dangling.
  const below = text.slice(end, lineEnd(text, end));
  const closes = !blankBelow && end < text.length &&
    (/^\s*[}\])]/.test(below) ||
      /^[ \t]*/.exec(below)![0].length < startOffset - lineStart(text, startOffset));
  if (above < start && (blankBelow || closes || end >= text.length)) {
    start = above;
  } else if (above === start) {
    // At the start of a block or file: absorb blank lines below instead.
    const prevContent = text.slice(0, start).trimEnd();
    const opensBlock = prevContent === "" || /[:{]$/.test(prevContent);
    if (opensBlock) {
      while (end < text.length && isBlank(end)) end = nextLineStart(text, end);
    }
  }
  return { start, end, replacement: "" };
}

function listDeletion(text: string, node: Node, list: ListContext, language: LanguageId): TextEdit {
  if (list.commaAfter) {
    const alone = firstOnLine(text, node.startIndex) && lastOnLine(text, list.commaAfter.endIndex, language);
    if (alone) return lineDeletion(text, node.startIndex, list.commaAfter.endIndex);
    if (list.next) return { start: node.startIndex, end: list.next.startIndex, replacement: "" };
    // Trailing comma: `[a, b,]` minus `b` keeps the trailing comma after `a`.
    if (list.previous && list.commaBefore) {
      return { start: list.previous.endIndex, end: node.endIndex, replacement: "" };
    }
    return { start: node.startIndex, end: list.commaAfter.endIndex, replacement: "" };
  }
  // Last element, comma before it.
  return {
    start: list.previous?.endIndex ?? list.commaBefore!.startIndex,
    end: node.endIndex,
    replacement: "",
  };
}
