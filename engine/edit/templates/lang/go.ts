/**
 * The Go table of the templates (tree-sitter-go node types). Go has no
 * `try`, no default parameter values and no classes: `wrap_try_except`,
 * `add_method` and defaults refuse Go files. A parameter is written
 * `name Type` (the type is required).
 *
 * Precedence follows the Go specification: `||` 1, `&&` 2, comparisons 3,
 * `+ - | ^` 4, `* / % << >> & &^` 5, unary 6, primary 7.
 *
 * @module
 */

import { bracedTable, nameOf } from "./braced.ts";
import type { LanguageTable } from "./table.ts";

/** The Go table. */
export const GO: LanguageTable = bracedTable({
  languages: ["go"],
  rootType: "source_file",
  blockTypes: ["block", "source_file", "expression_case", "default_case", "type_case", "communication_case"],
  functionTypes: ["function_declaration", "method_declaration", "func_literal"],
  classTypes: [],
  callTypes: ["call_expression"],
  conditionalTypes: ["if_statement"],
  returnTypes: ["return_statement"],
  guardHeader: (condition) => `if ${condition} {`,
  parameterTypes: ["parameter_declaration", "variadic_parameter_declaration"],
  variadicTypes: ["variadic_parameter_declaration"],
  parameterName: (node) => node.childrenForFieldName("name").map((n) => n?.text).join(", "),
  parameterDefaults: false,
  parameterTypeRequired: true,
  parameterText: ({ name, annotation }) => `${name} ${annotation?.trim() ?? ""}`.trimEnd(),
  returnText: (value) => `return ${value}`,
  assignment: (name, value) => `${name} := ${value}`,
  parameterList: (fn) => fn.childForFieldName("parameters") ?? undefined,
  functionBody: (fn) => fn.childForFieldName("body") ?? undefined,
  functionName: (fn) => fn.childForFieldName("name")?.text ?? nameOf(fn.parent) ?? undefined,
  binary: {
    "||": 1,
    "&&": 2,
    "==": 3,
    "!=": 3,
    "<": 3,
    "<=": 3,
    ">": 3,
    ">=": 3,
    "+": 4,
    "-": 4,
    "|": 4,
    "^": 4,
    "*": 5,
    "/": 5,
    "%": 5,
    "<<": 5,
    ">>": 5,
    "&": 5,
    "&^": 5,
  },
  levels: { assignment: 0, ternary: 0, unary: 6, primary: 7 },
  isNameSlot: (node) => /^(field_identifier|package_identifier|label_name)$/.test(node.type),
  blockScoped: ["short_var_declaration", "var_declaration", "const_declaration"],
  identifierTypes: ["identifier"],
});
