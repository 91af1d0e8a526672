/**
 * The names an edit introduces (Python): identifiers inside the changed
 * spans of the new text, classified as references or bindings, and the
 * import statements the spans contain. Shared by L3 and L4 and cached per
 * tree, so the two levels walk the spans once.
 *
 * A name counts as introduced when it did not occur as an identifier in the
 * code the span replaced: rewriting a function that already used an
 * unresolved name is not this edit's fault. Words of the replaced strings
 * and comments do not count: a docstring saying "the install schemes" does
 * not excuse a new use of an unbound `install` (setuptools' easy_install),
 * nor do names after a dot (`error.SubstrateUnderrunError` does not excuse
 * a bare `SubstrateUnderrunError`). The new text's f-string interpolations
 * are code and are read like any other, and a quoted type (`-> "Tag"`,
 * `cast("Tag", x)`) names its head (`quoted_types.ts`).
 *
 * @module
 */

import type { Node, Tree } from "../../parse/mod.ts";
import { classifyName, cursorField, type NameRole } from "../../analysis/scope.ts";
import type { FileChange } from "./mod.ts";
import { editSpans, type Span } from "./region.ts";
import { quotedTypeName } from "./quoted_types.ts";
import type { Document } from "../../parse/documents.ts";

/** One identifier inside a changed span. */
export interface SpanName {
  name: string;
  role: NameRole;
  start: number;
  end: number;
  /** Whether it is the object of an attribute access (`os` in `os.path`): a module-like use. */
  attributeBase: boolean;
  /** Whether the name occurred in the replaced text. */
  wasThere: boolean;
  /** The head of a quoted type (`"Tag"` in `-> "Tag"`: `quoted_types.ts`), not an identifier. */
  quoted?: boolean;
}

/** What the spans of a change contain. */
export interface SpanContents {
  spans: Span[];
  names: SpanName[];
  /** Import statements wholly inside a span. */
  imports: Node[];
  /** Identifiers of the replaced code (not the words of its strings and comments). */
  replacedWords: Set<string>;
}

const cache = new WeakMap<Tree, WeakMap<Tree, SpanContents>>();

/** The names and imports in the changed spans of a Python change (cached). */
export function spanContents(change: FileChange): SpanContents {
  let inner = cache.get(change.after.tree);
  if (!inner) {
    inner = new WeakMap();
    cache.set(change.after.tree, inner);
  }
  const known = inner.get(change.before.tree);
  if (known) return known;
  const spans = editSpans(change.before, change.after, change.records);
  const replacedWords = replacedIdentifiers(change.before, spans);
  const contents: SpanContents = { spans, names: [], imports: [], replacedWords };
  collect(change.after, spans, contents);
  inner.set(change.before.tree, contents);
  return contents;
}

/**
 * The identifiers of `tree` that overlap a span's replaced text, f-string
 * interpolations included; the subtrees outside every span are not entered.
 */
function replacedIdentifiers(doc: Document, spans: Span[]): Set<string> {
  const { tree, file: { text } } = doc;
  const words = new Set<string>();
  const overlaps = (s: number, e: number) => spans.some((span) => e > span.beforeStart && s < span.beforeEnd);
  if (!spans.some((span) => span.beforeEnd > span.beforeStart)) return words;
  const cursor = tree.walk();
  for (let more = true; more;) {
    const s = cursor.startIndex;
    const e = cursor.endIndex;
    const type = cursor.nodeType;
    // an attribute name (`SubstrateUnderrunError` of `error.SubstrateUnderrunError`) is no binding's
    // use: it does not excuse the same word used bare (pyasn1's ber/decoder.py)
    if (overlaps(s, e) && type === "identifier" && !isAttributeName(cursor)) words.add(text.slice(s, e));
    const quoted = overlaps(s, e) && type === "string" ? quotedTypeName(doc, cursor.currentNode) : undefined;
    if (quoted) words.add(quoted.name);
    if (overlaps(s, e) && type !== "comment" && cursor.gotoFirstChild()) continue;
    while (!(more = cursor.gotoNextSibling()) && cursor.gotoParent());
  }
  cursor.delete();
  return words;
}

/** Whether the cursor's identifier is the name after the dot of an attribute access. */
function isAttributeName(cursor: ReturnType<Tree["walk"]>): boolean {
  const node = cursor.currentNode;
  return node.parent?.type === "attribute" && node.parent.childForFieldName("attribute")?.id === node.id;
}

/** Whether a string node holds an f-string replacement field. */
function hasInterpolation(node: Node): boolean {
  return node.children.some((child) => child?.type === "interpolation");
}

interface Level {
  type: string;
  field: string | null;
}

function collect(doc: Document, spans: Span[], contents: SpanContents): void {
  const tree = doc.tree;
  // Only the top-level statements that overlap a span, each walked from its own cursor as the
  // walk from the root would meet it: the others cost nothing, however many the module has.
  const root = tree.rootNode;
  const from = Math.min(...spans.map((span) => span.afterStart));
  const to = Math.max(...spans.map((span) => span.afterEnd));
  let child = from > 0 ? root.firstChildForIndex(from - 1) : root.firstChild;
  for (; child && child.startIndex <= to; child = child.nextSibling) {
    const e = child.endIndex;
    const s = child.startIndex;
    if (!spans.some((span) => e > span.afterStart && s < span.afterEnd)) continue;
    const cursor = child.walk();
    collectFrom(cursor, [{ type: root.type, field: null }], doc, spans, contents);
    cursor.delete();
  }
}

/** The walk of `collect` from the cursor's node (whose ancestors are `levels`) through its subtree. */
function collectFrom(
  cursor: ReturnType<Tree["walk"]>,
  levels: Level[],
  doc: Document,
  spans: Span[],
  contents: SpanContents,
): void {
  const text = doc.file.text;
  const advance = (): boolean => {
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return false;
      levels.pop();
      if (levels.length === 0) return false;
    }
    levels[levels.length - 1].field = cursorField(cursor, levels[levels.length - 1].type);
    return true;
  };
  let descend = false;
  for (let first = true;; first = false) {
    if (first) {
      // the cursor's own node
    } else if (descend) {
      const parentType = cursor.nodeType;
      if (cursor.gotoFirstChild()) levels.push({ type: parentType, field: cursorField(cursor, parentType) });
      else if (!advance()) break;
    } else if (!advance()) break;
    descend = false;
    const s = cursor.startIndex;
    const e = cursor.endIndex;
    let overlaps = false;
    let inside = false;
    for (const span of spans) {
      if (e > span.afterStart && s < span.afterEnd) overlaps = true;
      if (s >= span.afterStart && e <= span.afterEnd) inside = true;
    }
    if (!overlaps) continue;
    const type = cursor.nodeType;
    if (inside && (type === "import_statement" || type === "import_from_statement")) {
      contents.imports.push(cursor.currentNode);
      continue;
    }
    if (type === "identifier") {
      if (!inside) continue;
      const reversed = levels.slice().reverse();
      const name = text.slice(s, e);
      contents.names.push({
        name,
        role: classifyName(reversed),
        start: s,
        end: e,
        attributeBase: reversed[0]?.type === "attribute" && reversed[0].field === "object",
        wasThere: contents.replacedWords.has(name),
      });
      continue;
    }
    const quoted = type === "string" ? quotedTypeName(doc, cursor.currentNode) : undefined;
    if (quoted && spans.some((span) => quoted.end > span.afterStart && quoted.start < span.afterEnd)) {
      const wasThere = contents.replacedWords.has(quoted.name);
      const { name, start, end } = quoted;
      contents.names.push({
        name,
        start,
        end,
        role: "reference",
        attributeBase: false,
        wasThere,
        quoted: true,
      });
      continue;
    }
    // a string's other names are its f-string interpolations' (`f"cp{threading}"`, packaging's tags.py)
    if (type === "comment" || (type === "string" && !hasInterpolation(cursor.currentNode))) continue;
    descend = true;
  }
}
