/**
 * Graph rules for Rust (tree-sitter-rust 0.20).
 *
 * An `impl` is named by its type without generic arguments (`impl<T>
 * Display for Point<T>` → `Point`), so its methods have that parent. A
 * `fn` directly in an impl or trait body is a method (a trait's bodiless
 * `fn` signatures too); unions are structs. `use` trees are flattened into
 * one record per name: `use std::io::{self, Read as R};` → module `std::io`
 * symbol null, and module `std::io` symbol `Read` alias `R`;
 * `use a::b::*;` → module `a::b`, symbol `*`; `use a;` and `extern crate a;`
 * → module `a`, symbol null. Line kinds map Rust's expressions (`if`,
 * `for`, `while`, `loop`, `return`) onto the shared names.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { type ImportSpec, type LanguageRules, squeeze } from "../rules.ts";

function join(prefix: string, path: string): string {
  return prefix === "" ? path : `${prefix}::${path}`;
}

/** Split `a::b::c` into module `a::b` and name `c`. */
function splitPath(path: string): { module: string; name: string } {
  const cut = path.lastIndexOf("::");
  return cut === -1 ? { module: "", name: path } : { module: path.slice(0, cut), name: path.slice(cut + 2) };
}

function useTree(node: Node, prefix: string, out: ImportSpec[]): void {
  switch (node.type) {
    case "use_list":
      for (const child of node.namedChildren) if (child) useTree(child, prefix, out);
      return;
    case "scoped_use_list": {
      const path = node.childForFieldName("path");
      const list = node.childForFieldName("list");
      if (list) useTree(list, path ? join(prefix, squeeze(path.text)) : prefix, out);
      return;
    }
    case "use_wildcard": {
      const path = node.namedChildren[0];
      out.push({ module: path ? join(prefix, squeeze(path.text)) : prefix, symbol: "*" });
      return;
    }
    case "use_as_clause": {
      const path = squeeze(node.childForFieldName("path")?.text ?? "");
      const alias = node.childForFieldName("alias")?.text;
      out.push({ ...named(prefix, path), ...(alias === undefined ? {} : { alias }) });
      return;
    }
    case "self":
      out.push({ module: prefix, symbol: null });
      return;
    default:
      if (node.type.endsWith("comment") || node.type === "attribute_item") return;
      out.push(named(prefix, squeeze(node.text)));
  }
}

/** The record for a path under `prefix`: `a::b` → module `a` symbol `b`; a bare `a` → module `a`. */
function named(prefix: string, path: string): ImportSpec {
  const full = join(prefix, path);
  const { module, name } = splitPath(full);
  if (name === "self") return { module, symbol: null };
  return module === "" ? { module: full, symbol: null } : { module, symbol: name };
}

function useDeclaration(node: Node): ImportSpec[] {
  const argument = node.childForFieldName("argument");
  const out: ImportSpec[] = [];
  if (argument) useTree(argument, "", out);
  return out;
}

function externCrate(node: Node): ImportSpec[] {
  const name = node.childForFieldName("name")?.text;
  if (!name) return [];
  const alias = node.childForFieldName("alias")?.text;
  return [alias === undefined ? { module: name, symbol: null } : { module: name, symbol: null, alias }];
}

/** An impl's type without generic arguments. */
function implName(node: Node): string | undefined {
  const type = node.childForFieldName("type");
  if (!type) return undefined;
  const base = type.type === "generic_type" ? type.childForFieldName("type") ?? type : type;
  return squeeze(base.text);
}

/** Rust: functions, methods, structs, enums, traits, impls, modules, type aliases, `use`, control flow. */
export const RUST: LanguageRules = {
  symbols: {
    function_item: { kind: "function", method: true },
    function_signature_item: { kind: "function", method: true },
    struct_item: { kind: "struct" },
    union_item: { kind: "struct" },
    enum_item: { kind: "enum" },
    trait_item: { kind: "trait", members: true },
    impl_item: { kind: "impl", name: implName, members: true },
    mod_item: { kind: "module" },
    type_item: { kind: "type_alias" },
  },
  imports: {
    use_declaration: useDeclaration,
    extern_crate_declaration: externCrate,
  },
  lineKinds: {
    if_expression: "if_statement",
    if_let_expression: "if_statement",
    for_expression: "for_statement",
    while_expression: "while_statement",
    while_let_expression: "while_statement",
    loop_expression: "while_statement",
    return_expression: "return_statement",
  },
  transparent: ["declaration_list"],
  skip: [
    "line_comment",
    "block_comment",
    "identifier",
    "field_identifier",
    "type_identifier",
    "primitive_type",
    "string_literal",
    "raw_string_literal",
    "integer_literal",
    "float_literal",
    "token_tree",
    "attribute_item",
    "inner_attribute_item",
    "use_declaration",
    "parameters",
    "type_arguments",
    "type_parameters",
    "generic_type",
    "scoped_type_identifier",
    "reference_type",
    "field_declaration_list",
    "visibility_modifier",
    "lifetime",
    "self",
  ],
};
