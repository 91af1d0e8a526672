/**
 * A JavaScript / TypeScript function bound to a name by a declaration,
 * `const f = (x) => x + 1;` or `let g = function () {...};`, is addressed
 * as that declaration: a locator `{"kind": "function", "name": "f"}`
 * resolves to the `lexical_declaration` (or `variable_declaration`), not to
 * the arrow function inside it. Edits of the function as a unit then act on
 * the statement: `delete_node` removes the whole `const f = ...;` line
 * (leaving `const f = ;` otherwise), `insert_after_node` lands after its
 * `;`, `replace_node` replaces the declaration. A declaration binds it only
 * when it declares nothing else (`const a = 1, f = () => a;` keeps the
 * arrow function).
 *
 * What looks inside the function (a `field` such as `body` or
 * `parameters`, the templates) reaches it through {@link boundFunction}.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";

const DECLARATIONS = new Set(["lexical_declaration", "variable_declaration"]);
const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function"]);

/** The declaration that binds `fn` and nothing else, if `fn` is a function value bound that way. */
export function boundDeclaration(fn: Node): Node | undefined {
  if (!FUNCTION_VALUES.has(fn.type)) return undefined;
  const declarator = fn.parent;
  if (declarator?.type !== "variable_declarator" || declarator.childForFieldName("value")?.id !== fn.id) {
    return undefined;
  }
  const declaration = declarator.parent;
  if (!declaration || !DECLARATIONS.has(declaration.type)) return undefined;
  const declarators = declaration.namedChildren.filter((child) => child?.type === "variable_declarator");
  return declarators.length === 1 ? declaration : undefined;
}

/** The function a declaration binds (the inverse of {@link boundDeclaration}), if `node` is one. */
export function boundFunction(node: Node): Node | undefined {
  if (!DECLARATIONS.has(node.type)) return undefined;
  const declarators = node.namedChildren.filter((child) => child?.type === "variable_declarator");
  const value = declarators.length === 1 ? declarators[0]!.childForFieldName("value") : null;
  return value && FUNCTION_VALUES.has(value.type) ? value : undefined;
}
