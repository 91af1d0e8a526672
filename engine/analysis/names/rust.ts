/**
 * Name rules of Rust (`analysis/names/mod.ts`). Definitions: items
 * (functions, structs, enums, traits, types, constants, statics, modules,
 * macros), `let` and parameter patterns, closure parameters. Uses: a callee
 * path of one segment, arguments, operands, returned values, the value of a
 * field access, a struct literal's type. A method is reached through
 * `self.m()` or `Type::m()`, a field or a path: neither counts as a use.
 *
 * @module
 */

import { EXPRESSION_USES, type NameRules } from "./rules.ts";

/** Rust. */
export const RUST_RULES: NameRules = {
  names: new Set(["identifier", "type_identifier", "field_identifier", "shorthand_field_identifier"]),
  definitions: {
    function_item: ["name"],
    function_signature_item: ["name"],
    struct_item: ["name"],
    enum_item: ["name"],
    union_item: ["name"],
    trait_item: ["name"],
    type_item: ["name"],
    const_item: ["name"],
    static_item: ["name"],
    mod_item: ["name"],
    macro_definition: ["name"],
    let_declaration: ["pattern"],
    parameter: ["pattern"],
    closure_parameters: "*",
    tuple_pattern: "*",
    use_as_clause: ["alias"],
    use_list: "*",
    use_declaration: ["argument"],
    for_expression: ["pattern"],
  },
  uses: {
    ...EXPRESSION_USES,
    call_expression: ["function"],
    return_expression: "*",
    field_expression: ["value"],
    reference_expression: ["value"],
    let_declaration: ["value"],
    struct_expression: ["name"],
    index_expression: "*",
    assignment_expression: ["right"],
    try_expression: "*",
    if_expression: ["condition"],
  },
};
