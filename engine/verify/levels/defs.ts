/**
 * Function-like definitions touched by a change, keyed by their qualified
 * name (`Class.method`, `outer.inner`), in the tree before and after. Shared
 * by L5 (signatures) and L6 (bodies).
 *
 * @module
 */

import type { Node, Tree } from "../../parse/mod.ts";

/** Node types that define a callable, per grammar. */
export const FUNCTION_TYPES: ReadonlySet<string> = new Set([
  "function_definition", // python, c, cpp, php
  "function_declaration", // js, ts, go
  "generator_function_declaration",
  "method_definition", // js, ts
  "method_declaration", // java, go, php
  "constructor_declaration",
  "function_item", // rust
  "method", // ruby
  "singleton_method",
]);

/** Node types that contribute a name to a qualified name. */
const CONTAINER_TYPES = new Set([
  ...FUNCTION_TYPES,
  "class_definition",
  "class_declaration",
  "class",
  "impl_item",
  "module",
]);

/** A definition found near a change. */
export interface Definition {
  qualname: string;
  name: string;
  node: Node;
  /** Whether it is a method (defined directly in a class body). */
  method: boolean;
}

/**
 * Definitions overlapping [start, end), by qualified name: the function-like
 * nodes on the way down to the range and inside it.
 */
export function definitionsIn(
  tree: Tree,
  start: number,
  end: number,
  types = FUNCTION_TYPES,
): Map<string, Definition> {
  const out = new Map<string, Definition>();
  const visit = (node: Node, prefix: string, inClass: boolean) => {
    for (const child of namedChildrenOverlapping(node, start, end)) {
      let nextPrefix = prefix;
      let nextInClass = false;
      const nameNode = child.childForFieldName("name");
      if (CONTAINER_TYPES.has(child.type) && child.type !== "module" && nameNode) {
        const qualname = prefix ? `${prefix}.${nameNode.text}` : nameNode.text;
        if (types.has(child.type) && !out.has(qualname)) {
          out.set(qualname, { qualname, name: nameNode.text, node: child, method: inClass });
        }
        nextPrefix = qualname;
        nextInClass = !FUNCTION_TYPES.has(child.type);
      } else {
        nextInClass = inClass && (child.type === "block" || child.type === "decorated_definition" ||
          child.type === "class_body" || child.type === "declaration_list");
      }
      visit(child, nextPrefix, nextInClass);
    }
  };
  visit(tree.rootNode, "", false);
  return out;
}

/**
 * The named children of `node` overlapping [start, end] (a child ending at
 * `start` counts), in order. The first is found by tree-sitter, so the
 * children before the range are not visited: a module of thousands of
 * definitions costs the few that overlap, not all of them.
 */
export function namedChildrenOverlapping(node: Node, start: number, end: number): Node[] {
  const out: Node[] = [];
  let child = start > 0 ? node.firstNamedChildForIndex(start - 1) : node.firstNamedChild;
  for (; child && child.startIndex <= end; child = child.nextNamedSibling) {
    if (child.endIndex >= start) out.push(child);
  }
  return out;
}
