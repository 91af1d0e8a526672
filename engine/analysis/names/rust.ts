/**
 * Name rules of Rust (`analysis/names/mod.ts`). Definitions: items
 * (functions, structs, enums, traits, types, constants, statics, modules,
 * macros), `let` and parameter patterns, closure parameters. Uses: a callee
 * path of one segment, arguments, operands, returned values, the value of a
 * field access, a struct literal's type. A method called as `self.m()`,
 * `x.m()` or `Type::m()` is a call through a receiver (`receivers.ts`); a
 * method of `impl Trait for T` does not count (the trait may answer).
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import {
  EXPRESSION_USES,
  isCallee,
  type NameRules,
  objectReceiver,
  type Receiver,
  typeOfHolder,
} from "./rules.ts";

/** The receiver of `x.m()` or the path of `T::m()` (`name` is `m`). */
function receiver(_name: Node, parent: Node, field: string | null): Receiver | undefined {
  if (parent.type === "field_expression" && field === "field" && isCallee(parent)) {
    return objectReceiver(parent.childForFieldName("value"), "self");
  }
  if (parent.type === "scoped_identifier" && field === "name" && isCallee(parent)) {
    const path = parent.childForFieldName("path");
    if (!path) return { kind: "foreign" };
    if (path.text === "Self") return { kind: "self" };
    if (path.type === "identifier" || path.type === "type_identifier") {
      return { kind: "type", name: path.text };
    }
    const type = path.type === "generic_type" ? path.childForFieldName("type") : undefined;
    return type ? { kind: "type", name: type.text } : { kind: "foreign" };
  }
  return undefined;
}

/** The standard macros whose tokens are expressions: a name called there is a call. */
const EXPRESSION_MACROS = new Set([
  "assert",
  "assert_eq",
  "assert_ne",
  "debug_assert",
  "debug_assert_eq",
  "debug_assert_ne",
  "format",
  "print",
  "println",
  "eprint",
  "eprintln",
  "write",
  "writeln",
  "panic",
  "vec",
  "dbg",
]);

/** In a standard macro's tokens: `f(` is a call by name (`x.f(` and `a::f(` are left alone). */
function macroCall(name: Node, parent: Node): boolean {
  if (parent.type !== "token_tree" || name.type !== "identifier") return false;
  let macro: Node | null = parent;
  while (macro && macro.type === "token_tree") macro = macro.parent;
  if (
    macro?.type !== "macro_invocation" || !EXPRESSION_MACROS.has(macro.childForFieldName("macro")?.text ?? "")
  ) {
    return false;
  }
  const next = name.nextSibling;
  const previous = name.previousSibling?.type ?? "";
  return next?.type === "token_tree" && next.text.startsWith("(") && previous !== "." && previous !== "::";
}

/** A method of `impl Trait for T` answers through the trait's declaration, which may give a default. */
function inTraitImpl(parent: Node): boolean {
  if (parent.type !== "function_item") return false;
  const impl = parent.parent?.parent;
  return impl?.type === "impl_item" && impl.childForFieldName("trait") !== null;
}

/** Methods of the standard library's traits and everyday types. */
const KNOWN =
  "clone clone_from to_string to_owned fmt eq ne cmp partial_cmp hash into from try_into try_from as_ref as_mut borrow borrow_mut default drop deref deref_mut iter iter_mut into_iter next map map_err unwrap unwrap_or unwrap_or_else unwrap_or_default expect ok err and_then or_else is_some is_none is_ok is_err len is_empty push push_str pop get get_mut insert remove contains contains_key as_str as_bytes as_path to_str to_path_buf to_vec collect write write_all write_str write_fmt read read_to_string read_line flush lock join split trim parse chars bytes lines filter filter_map find any all count rev take skip zip enumerate extend sort sort_by dedup retain first last starts_with ends_with replace to_lowercase to_uppercase display take_while skip_while fold min max sum position keys values entry or_insert with_capacity capacity clear truncate drain chain peekable matches"
    .split(" ");

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
  countsAsDefinition: (_name, parent) => !inTraitImpl(parent),
  isOtherUse: macroCall,
  receiver,
  memberAccess: { field_expression: ["field", "value"] },
  types: new Set(["struct_item", "enum_item", "union_item", "trait_item", "type_item", "mod_item"]),
  declaredType: (name) => typeOfHolder(name, new Set(["parameter", "let_declaration"]), 1),
  knownMethods: new Set(KNOWN),
  selfReachesOtherFiles: true,
};
