/**
 * Locators: how plans address AST nodes, resolved against the live tree of
 * a file at every step (so there is no line drift).
 *
 * ```json
 * {"file": "query.py", "kind": "method", "name": "defer", "parent": {"kind": "class", "name": "QuerySet"}}
 * {"type": "sexp", "file": "query.py", "query": "(identifier) @id (#eq? @id \"defer\")", "capture": "id"}
 * ```
 *
 * - `locator.ts`: the `Locator` type and `parseLocator` (shape validation).
 * - `kinds.ts`: `NORMALIZED_KINDS`, the per-language kind table.
 * - `names.ts`: what `name` matches (`nodeName`).
 * - `resolve.ts`: resolution and its errors; `predicates.ts`: query text repair.
 * - `schema.ts`: the zod schema (`LOCATOR_SCHEMA`) for plan schemas.
 *
 * The table of kinds and the exact rules are in `engine/locate/README.md`.
 *
 * @module
 */

import type { Document } from "../parse/documents.ts";
import { endLine, firstLine, type Node, startLine } from "../parse/mod.ts";
import { kindOf } from "./kinds.ts";

export {
  CLASS_LIKE,
  isComment,
  KIND_NAMES,
  type KindMapping,
  kindMapping,
  kindNodeTypes,
  kindOf,
  kindsOf,
  type KindTable,
  matchesKind,
  NAMELESS_KINDS,
  NORMALIZED_KINDS,
  ownerOf,
  SYMBOL_KINDS,
} from "./kinds.ts";
export {
  describeLocator,
  type Locator,
  type LocatorBase,
  parseLocator,
  type ParseLocatorOptions,
  type SexpLocator,
  type StructuredLocator,
} from "./locator.ts";
export { lastSegment, nameMatches, nodeName, nodeNames } from "./names.ts";
export {
  describeNode,
  isDescendant,
  type Resolution,
  resolveDetailed,
  resolveLocator,
  resolveOne,
  type ResolveOptions,
  resolveSome,
} from "./resolve.ts";

/** One node in the output of the read-only `locate` primitive. */
export interface LocatedNode {
  /** 1-based. */
  start_line: number;
  /** 1-based, inclusive. */
  end_line: number;
  /** The normalized kind (`method`, `if`, ...) or, where none applies, the node type. */
  kind: string;
  /** The tree-sitter node type. */
  type: string;
  /** The node's first line, trimmed, at most 80 characters. */
  text_preview: string;
}

/** Output of the `locate` primitive. */
export interface LocateResult {
  found: boolean;
  count: number;
  file: string;
  nodes: LocatedNode[];
}

/** The `locate` primitive's output for a resolution: `{found, count, file, nodes}`. */
export function locateResult(doc: Document, nodes: Node[]): LocateResult {
  const language = doc.file.language;
  return {
    found: nodes.length > 0,
    count: nodes.length,
    file: doc.file.path,
    nodes: nodes.map((node) => ({
      start_line: startLine(node),
      end_line: endLine(node),
      kind: kindOf(node, language),
      type: node.type,
      text_preview: firstLine(node.text),
    })),
  };
}

/** Output of the `locate_region` primitive. */
export interface LocateRegion {
  /**
   * Start offset. Named as in the seed, but it is a UTF-16 code unit offset
   * into the file's text (BOM stripped), not a byte offset.
   */
  start_byte: number;
  /** End offset (exclusive), in UTF-16 code units like `start_byte`. */
  end_byte: number;
  start_line: number;
  end_line: number;
  /** The node's source text. */
  text: string;
}

/** The `locate_region` primitive's output for one node. */
export function locateRegion(doc: Document, node: Node): LocateRegion {
  return {
    start_byte: node.startIndex,
    end_byte: node.endIndex,
    start_line: startLine(node),
    end_line: endLine(node),
    text: doc.file.text.slice(node.startIndex, node.endIndex),
  };
}
