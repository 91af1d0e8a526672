/**
 * The Rust table of the templates (tree-sitter-rust node types). Rust has
 * no `try` and no default parameter values: those refuse Rust files. A
 * method goes into an `impl` block (`add_method` targets the `impl`, or a
 * struct's `impl` by locator); a parameter is written `name: Type`.
 *
 * Precedence follows the Rust reference: assignment and ranges 1, `||` 2,
 * `&&` 3, comparisons 4, `|` 5, `^` 6, `&` 7, shifts 8, `+ -` 9, `* / %` 10,
 * `as` 11, unary 12, `?` and primaries 13.
 *
 * @module
 */

import type { Node } from "../../../parse/mod.ts";
import { bracedTable } from "./braced.ts";
import { type LanguageTable, statementsOf } from "./table.ts";

/** The Rust table. */
export const RUST: LanguageTable = bracedTable({
  languages: ["rust"],
  rootType: "source_file",
  blockTypes: ["block", "source_file"],
  functionTypes: ["function_item", "closure_expression"],
  classTypes: ["impl_item", "trait_item"],
  callTypes: ["call_expression"],
  conditionalTypes: ["if_expression", "while_expression"],
  returnTypes: ["return_expression"],
  guardHeader: (condition) => `if ${condition} {`,
  parameterTypes: ["parameter", "self_parameter", "variadic_parameter"],
  variadicTypes: ["variadic_parameter"],
  parameterName: (node) =>
    node.type === "self_parameter" ? "self" : node.childForFieldName("pattern")?.text ?? "",
  parameterDefaults: false,
  parameterTypeRequired: true,
  parameterText: ({ name, annotation }) => `${name}: ${annotation?.trim() ?? "_"}`,
  returnText: (value) => `return ${value};`,
  assignment: (name, value) => `let ${name} = ${value};`,
  parameterList: (fn) => fn.childForFieldName("parameters") ?? undefined,
  functionBody: (fn) => {
    const body = fn.childForFieldName("body");
    return body?.type === "block" ? body : undefined;
  },
  functionName: (fn) => fn.childForFieldName("name")?.text,
  classBody: (cls) => cls.childForFieldName("body") ?? undefined,
  memberText: (code) => `impl __C {\n${code}\n}`,
  contextMembers: (root) => {
    const body = root.namedChild(0)?.childForFieldName("body");
    return body ? statementsOf(body).filter((n) => !/comment|attribute_item/.test(n.type)) : [];
  },
  methodTypes: ["function_item", "function_signature_item"],
  memberName: (member: Node) => member.childForFieldName("name")?.text,
  binary: {
    "||": 2,
    "&&": 3,
    "==": 4,
    "!=": 4,
    "<": 4,
    ">": 4,
    "<=": 4,
    ">=": 4,
    "|": 5,
    "^": 6,
    "&": 7,
    "<<": 8,
    ">>": 8,
    "+": 9,
    "-": 9,
    "*": 10,
    "/": 10,
    "%": 10,
  },
  levels: { assignment: 1, ternary: 1, unary: 12, primary: 13 },
  notExpressions:
    /^(self|mutable_specifier|lifetime|metavariable|token_tree|shorthand_field_initializer|field_initializer|match_arm|match_pattern)$/,
  isNameSlot: (node) => /^(field_identifier|shorthand_field_identifier)$/.test(node.type),
  blockScoped: ["let_declaration"],
  identifierTypes: ["identifier"],
});
