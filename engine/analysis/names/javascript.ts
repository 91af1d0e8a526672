/**
 * Name rules of JavaScript and TypeScript (`analysis/names/mod.ts`).
 * Definitions: declarations, parameters, destructuring, imports. Uses: a
 * callee without a receiver, arguments, operands, the object of a member
 * access, values. A method (`m() {}`) is a property, reached through `this`
 * or an object: it never counts, and neither does a string mentioning a
 * name (`obj["f"]`, `exports["f"]`), which keeps it alive.
 *
 * @module
 */

import { EXPRESSION_USES, type NameRules } from "./rules.ts";

const DEFINITIONS = {
  function_declaration: ["name"],
  generator_function_declaration: ["name"],
  class_declaration: ["name"],
  variable_declarator: ["name"],
  formal_parameters: "*",
  assignment_pattern: ["left"],
  rest_pattern: "*",
  object_pattern: "*",
  array_pattern: "*",
  pair_pattern: ["value"],
  import_specifier: ["name", "alias"],
  namespace_import: "*",
  import_clause: "*",
  catch_clause: ["parameter"],
  for_in_statement: ["left"],
  arrow_function: ["parameter"],
} as const;

const USES = {
  ...EXPRESSION_USES,
  call_expression: ["function"],
  new_expression: ["constructor"],
  member_expression: ["object"],
  subscript_expression: ["object", "index"],
  ternary_expression: ["condition", "consequence", "alternative"],
  spread_element: "*",
  template_substitution: "*",
  await_expression: "*",
  assignment_expression: ["right"],
  augmented_assignment_expression: ["right"],
  variable_declarator: ["value"],
  array: "*",
  pair: ["value"],
  object: "*",
  expression_statement: "*",
  if_statement: ["condition"],
  jsx_expression: "*",
} as const;

/** JavaScript. */
export const JAVASCRIPT_RULES: NameRules = {
  names: new Set([
    "identifier",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
    "property_identifier",
    "private_property_identifier",
  ]),
  definitions: DEFINITIONS,
  uses: USES,
  words: new Set(["string_fragment"]),
};

/** TypeScript and TSX: JavaScript's rules, with type names and parameters. */
export const TYPESCRIPT_RULES: NameRules = {
  names: new Set([...JAVASCRIPT_RULES.names, "type_identifier"]),
  definitions: {
    ...DEFINITIONS,
    required_parameter: ["pattern"],
    optional_parameter: ["pattern"],
    interface_declaration: ["name"],
    type_alias_declaration: ["name"],
    enum_declaration: ["name"],
    abstract_class_declaration: ["name"],
    function_signature: ["name"],
    type_parameter: ["name"],
    import_require_clause: "*",
  },
  uses: {
    ...USES,
    type_annotation: "*",
    generic_type: ["name"],
    extends_clause: ["value"],
    implements_clause: "*",
    as_expression: "*",
    non_null_expression: "*",
  },
  words: JAVASCRIPT_RULES.words,
};
