/**
 * The length of every function in the project's own TypeScript, read with the
 * project's tree-sitter parser, for the rule that orchestration reads as named
 * phases of about a screen each (issue 29).
 *
 * A function is a declaration, a method, a function expression or an arrow
 * function; its length counts the lines from its first token to its last,
 * blank lines and comments inside included. A function nested in another is
 * measured on its own and also counts toward its parent, as a reader scrolls
 * past both.
 *
 * @module
 */

import { withTree } from "../../engine/parse/mod.ts";
import type { Node } from "web-tree-sitter";

/** One function of a file: its name as a reader would search for it, and where it is. */
export interface FunctionSpan {
  file: string;
  name: string;
  /** 1-based line of its first token. */
  line: number;
  lines: number;
}

const FUNCTION_KINDS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "generator_function",
  "method_definition",
  "arrow_function",
]);

/** The name of a function node: its own, its variable's, its property's, or `<anonymous>`. */
function nameOf(node: Node): string {
  const own = node.childForFieldName("name");
  if (own) return own.text;
  const parent = node.parent;
  if (parent?.type === "variable_declarator" || parent?.type === "public_field_definition") {
    const name = parent.childForFieldName("name");
    if (name) return name.text;
  }
  if (parent?.type === "pair") {
    const key = parent.childForFieldName("key");
    if (key) return key.text;
  }
  return `<anonymous@${node.startPosition.row + 1}>`;
}

/** Every function of `source` (TypeScript text of `file`), outermost first. */
export function functionSpans(file: string, source: string): Promise<FunctionSpan[]> {
  return withTree("typescript", source, (tree) => {
    const spans: FunctionSpan[] = [];
    const visit = (node: Node) => {
      if (FUNCTION_KINDS.has(node.type)) {
        spans.push({
          file,
          name: nameOf(node),
          line: node.startPosition.row + 1,
          lines: node.endPosition.row - node.startPosition.row + 1,
        });
      }
      for (const child of node.namedChildren) if (child) visit(child);
    };
    visit(tree.rootNode);
    return spans;
  });
}
