/**
 * Graph rules for C and C++ (tree-sitter-c and -cpp 0.20).
 *
 * A function is named by the innermost name of its declarator chain
 * (`char *(*f)(void)` → `f`); an out-of-class definition keeps its
 * qualified name (`void geo::Shape::area()` → `geo::Shape::area`). A
 * `struct`/`union`/`enum`/`class` is a symbol only with a body and a name
 * (unions are structs); `typedef struct node {...} node_t;` gives both
 * `typedef node_t` and `struct node`. `#include <stdio.h>` → module
 * `stdio.h`, symbol null; C++ `using namespace std;` → module `std` symbol
 * `*`, `using std::string;` → module `std` symbol `string`.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { type ImportSpec, type LanguageRules, squeeze, type SymbolRule, unquote } from "../rules.ts";

/** The name a declarator declares: follow `declarator` fields down to the identifier. */
function declaratorName(node: Node | null): string | undefined {
  let current = node;
  for (let guard = 0; current && guard < 32; guard++) {
    switch (current.type) {
      case "identifier":
      case "field_identifier":
      case "type_identifier":
      case "qualified_identifier":
      case "destructor_name":
      case "operator_name":
      case "primitive_type":
        return squeeze(current.text);
    }
    current = current.childForFieldName("declarator") ??
      (current.type === "parenthesized_declarator" ? current.namedChildren[0] : null);
  }
  return undefined;
}

/** A struct, union, enum or class: a symbol when it has both a name and a body. */
function tagged(kind: "struct" | "enum" | "class"): SymbolRule {
  return {
    kind: (node) => node.childForFieldName("body") ? kind : undefined,
    members: kind !== "enum",
  };
}

function include(node: Node): ImportSpec[] {
  const path = node.childForFieldName("path");
  return path ? [{ module: unquote(path.text), symbol: null }] : [];
}

function usingDeclaration(node: Node): ImportSpec[] {
  const target = node.namedChildren.find((n) =>
    n?.type === "identifier" || n?.type === "qualified_identifier"
  );
  if (!target) return [];
  const name = squeeze(target.text);
  if (/^using\s+namespace\b/.test(node.text)) return [{ module: name, symbol: "*" }];
  const cut = name.lastIndexOf("::");
  return cut === -1
    ? [{ module: name, symbol: null }]
    : [{ module: name.slice(0, cut), symbol: name.slice(cut + 2) }];
}

const LINE_KINDS: LanguageRules["lineKinds"] = {
  if_statement: "if_statement",
  for_statement: "for_statement",
  for_range_loop: "for_statement",
  while_statement: "while_statement",
  do_statement: "while_statement",
  return_statement: "return_statement",
  throw_statement: "raise_statement",
  try_statement: "try_statement",
};

const SKIP = [
  "comment",
  "identifier",
  "field_identifier",
  "type_identifier",
  "primitive_type",
  "string_literal",
  "raw_string_literal",
  "system_lib_string",
  "char_literal",
  "number_literal",
  "parameter_list",
  "preproc_include",
  "preproc_def",
  "preproc_function_def",
  "preproc_call",
  "enumerator_list",
  "type_qualifier",
  "storage_class_specifier",
  "sized_type_specifier",
  "template_argument_list",
  "template_parameter_list",
  "namespace_identifier",
  "access_specifier",
  "true",
  "false",
  "null",
];

/** C: functions, structs, unions, enums, typedefs, `#include`, control flow. */
export const C: LanguageRules = {
  symbols: {
    function_definition: {
      kind: "function",
      name: (node) => declaratorName(node.childForFieldName("declarator")),
    },
    struct_specifier: tagged("struct"),
    union_specifier: tagged("struct"),
    enum_specifier: tagged("enum"),
    type_definition: {
      kind: "typedef",
      encloses: false,
      name: (node) => declaratorName(node.childForFieldName("declarator")),
    },
  },
  imports: { preproc_include: include },
  lineKinds: LINE_KINDS,
  transparent: ["field_declaration_list"],
  skip: SKIP,
};

/** C++: C plus classes, namespaces, methods (in class bodies), type aliases and `using`. */
export const CPP: LanguageRules = {
  ...C,
  symbols: {
    ...C.symbols,
    function_definition: {
      kind: "function",
      method: true,
      name: (node) => declaratorName(node.childForFieldName("declarator")),
    },
    class_specifier: tagged("class"),
    namespace_definition: { kind: "namespace" },
    alias_declaration: { kind: "type_alias" },
  },
  imports: { ...C.imports, using_declaration: usingDeclaration },
  transparent: ["field_declaration_list", "template_declaration"],
};
