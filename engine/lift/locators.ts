/**
 * Locators the way a model writes them: a node's normalized kind, its name
 * when it has one, the chain of enclosing definitions as `parent`, and
 * `index` only when that still matches several nodes. Never byte offsets
 * or line numbers: the locator must keep working when lines move.
 *
 * The locator is checked by resolving it against the document it was made
 * for; the node it must find is identified by its span and type.
 *
 * @module
 */

import { IssueError } from "../base/issue.ts";
import { kindOf, NAMELESS_KINDS, nodeName, resolveLocator } from "../locate/mod.ts";
import type { Document, DocumentStore } from "../parse/documents.ts";
import type { LanguageId, Node } from "../parse/mod.ts";

const DEFINITION_KINDS = new Set(["function", "method", "class", "enum", "interface", "struct", "trait"]);

/** The normalized kind and name of a node, as a locator's fields. */
function kindAndName(node: Node, language: LanguageId, withName: boolean): Record<string, unknown> {
  const kind = kindOf(node, language);
  const out: Record<string, unknown> = { kind };
  if (withName && !NAMELESS_KINDS.has(kind)) {
    const name = nodeName(node, language);
    if (name && !name.includes("\n") && name.length <= 80) out.name = name;
  }
  return out;
}

/** The definitions enclosing `node`, innermost first (a decorated definition counts once). */
function enclosingDefinitions(node: Node, language: LanguageId): Node[] {
  const out: Node[] = [];
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === "decorated_definition") continue;
    if (DEFINITION_KINDS.has(kindOf(up, language)) && nodeName(up, language)) out.push(up);
  }
  return out;
}

/** The parent chain of definitions as a nested locator (without `file`), or undefined at top level. */
function parentChain(node: Node, language: LanguageId): Record<string, unknown> | undefined {
  const chain = enclosingDefinitions(node, language);
  let parent: Record<string, unknown> | undefined;
  for (const definition of chain.reverse()) {
    parent = { ...kindAndName(definition, language, true), ...(parent ? { parent } : {}) };
  }
  return parent;
}

const same = (a: Node, b: Node) =>
  a.startIndex === b.startIndex && a.endIndex === b.endIndex && a.type === b.type;

/**
 * A model-style locator for `node` of `doc` (the store's current document
 * of its file), or undefined when no such locator finds exactly it.
 */
export async function locatorFor(
  store: DocumentStore,
  doc: Document,
  node: Node,
): Promise<Record<string, unknown> | undefined> {
  const language = doc.file.language;
  const parent = parentChain(node, language);
  const tries: Record<string, unknown>[] = [
    { file: doc.file.path, ...kindAndName(node, language, true), ...(parent ? { parent } : {}) },
    { file: doc.file.path, ...kindAndName(node, language, false), ...(parent ? { parent } : {}) },
    { file: doc.file.path, kind: node.type, ...(parent ? { parent } : {}) },
  ];
  for (const locator of tries) {
    let nodes: Node[];
    try {
      nodes = (await resolveLocator(store, locator as never)).nodes;
    } catch (err) {
      if (err instanceof IssueError) continue;
      throw err;
    }
    const at = nodes.findIndex((candidate) => same(candidate, node));
    if (at < 0) continue;
    if (nodes.length === 1) return locator;
    return { ...locator, index: at };
  }
  return undefined;
}
