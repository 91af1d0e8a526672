/**
 * Name rules of Go (`analysis/names/mod.ts`). Definitions: functions,
 * types, constants, variables (`var`, `:=`, `range`), parameters, imports
 * with a name. Uses: a callee, arguments, operands, returned values, the
 * operand of a selector (`x` in `x.F`), a type in a declaration or literal.
 * Methods are fields of their receiver's type (`field_identifier`): they
 * never count. Scope is the file, not the package: a name another file of
 * the package defines is no definition here, so a use of it was never
 * counted against a definition of this file.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { EXPRESSION_USES, type NameRules } from "./rules.ts";

const BINDS_LIST = new Set(["short_var_declaration", "range_clause"]);

/** Go. */
export const GO_RULES: NameRules = {
  names: new Set(["identifier", "type_identifier", "field_identifier", "package_identifier"]),
  definitions: {
    function_declaration: ["name"],
    type_spec: ["name"],
    type_alias: ["name"],
    const_spec: ["name"],
    var_spec: ["name"],
    parameter_declaration: ["name"],
    variadic_parameter_declaration: ["name"],
    type_parameter_declaration: ["name"],
    expression_list: "*",
  },
  countsAsDefinition: (_name: Node, parent: Node) =>
    parent.type !== "expression_list" || BINDS_LIST.has(parent.parent?.type ?? ""),
  uses: {
    ...EXPRESSION_USES,
    call_expression: ["function"],
    selector_expression: ["operand"],
    index_expression: ["operand", "index"],
    composite_literal: ["type"],
    keyed_element: "*",
    literal_element: "*",
    literal_value: "*",
    var_spec: ["type", "value"],
    parameter_declaration: ["type"],
    pointer_type: "*",
    slice_type: ["element"],
    field_declaration: ["type"],
    if_statement: ["condition"],
    expression_statement: "*",
  },
};
