/**
 * Graph rules for Java (tree-sitter-java 0.20).
 *
 * Constructors are methods named after their class; records are classes and
 * annotation types are interfaces. A symbol starts at its first modifier that
 * is not an annotation. `import a.b.C;` → module `a.b`, symbol `C`;
 * `import a.b.*;` → module `a.b`, symbol `*`; `import static a.B.m;` →
 * module `a.B`, symbol `m`.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { type ImportSpec, type LanguageRules, squeeze } from "../rules.ts";

function importDeclaration(node: Node): ImportSpec[] {
  let name: string | undefined;
  let star = false;
  for (const child of node.namedChildren) {
    if (child?.type === "scoped_identifier" || child?.type === "identifier") name = squeeze(child.text);
    else if (child?.type === "asterisk") star = true;
  }
  if (name === undefined) return [];
  if (star) return [{ module: name, symbol: "*" }];
  const dot = name.lastIndexOf(".");
  return dot === -1
    ? [{ module: name, symbol: null }]
    : [{ module: name.slice(0, dot), symbol: name.slice(dot + 1) }];
}

/** Java: classes, interfaces, enums, records, methods and constructors, imports, control flow. */
export const JAVA: LanguageRules = {
  symbols: {
    class_declaration: { kind: "class", members: true },
    record_declaration: { kind: "class", members: true },
    interface_declaration: { kind: "interface", members: true },
    annotation_type_declaration: { kind: "interface", members: true },
    enum_declaration: { kind: "enum", members: true },
    method_declaration: { kind: "method" },
    constructor_declaration: { kind: "method" },
    compact_constructor_declaration: { kind: "method" },
  },
  imports: { import_declaration: importDeclaration },
  lineKinds: {
    if_statement: "if_statement",
    for_statement: "for_statement",
    enhanced_for_statement: "for_statement",
    while_statement: "while_statement",
    do_statement: "while_statement",
    return_statement: "return_statement",
    throw_statement: "raise_statement",
    try_statement: "try_statement",
    try_with_resources_statement: "try_statement",
  },
  transparent: [
    "class_body",
    "interface_body",
    "enum_body",
    "enum_body_declarations",
    "annotation_type_body",
  ],
  decorators: ["marker_annotation", "annotation"],
  modifierLists: ["modifiers"],
  skip: [
    "line_comment",
    "block_comment",
    "identifier",
    "type_identifier",
    "string_literal",
    "decimal_integer_literal",
    "modifiers",
    "formal_parameters",
    "type_arguments",
    "type_parameters",
    "generic_type",
    "scoped_type_identifier",
    "package_declaration",
    "import_declaration",
    "throws",
    "this",
    "true",
    "false",
    "null_literal",
  ],
};
