/**
 * Graph rules for PHP (tree-sitter-php 0.20).
 *
 * `use A\B\C;` → module `A\B`, symbol `C` (also `use function`/`use const`);
 * `use A\{B, C as D};` → one record per name; `require`/`include` (and their
 * `_once` forms) → the path as written, quotes removed, symbol null. A class
 * starts at its first token after `#[...]` attributes.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { type ImportSpec, type LanguageRules, squeeze, unquote } from "../rules.ts";

function split(path: string): ImportSpec {
  const name = path.replace(/^\\/, "");
  const cut = name.lastIndexOf("\\");
  return cut === -1
    ? { module: name, symbol: null }
    : { module: name.slice(0, cut), symbol: name.slice(cut + 1) };
}

function aliasOf(clause: Node): string | undefined {
  const aliasing = clause.namedChildren.find((n) => n?.type === "namespace_aliasing_clause");
  return aliasing?.namedChildren[0]?.text;
}

function withAlias(spec: ImportSpec, alias: string | undefined): ImportSpec {
  return alias === undefined ? spec : { ...spec, alias };
}

function useDeclaration(node: Node): ImportSpec[] {
  const out: ImportSpec[] = [];
  let prefix: string | undefined;
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (child.type === "namespace_use_clause") {
      const name = child.namedChildren.find((n) => n?.type === "qualified_name" || n?.type === "name");
      if (name) out.push(withAlias(split(squeeze(name.text)), aliasOf(child)));
    } else if (child.type === "namespace_name") {
      prefix = squeeze(child.text).replace(/^\\/, "");
    } else if (child.type === "namespace_use_group") {
      for (const clause of child.namedChildren) {
        if (clause?.type !== "namespace_use_group_clause") continue;
        const name = clause.namedChildren.find((n) => n?.type === "namespace_name" || n?.type === "name");
        if (!name) continue;
        const full = `${prefix ?? ""}\\${squeeze(name.text)}`;
        out.push(withAlias(split(full), aliasOf(clause)));
      }
    }
  }
  return out;
}

function includeExpression(node: Node): ImportSpec[] {
  const arg = node.namedChildren[0];
  if (!arg) return [];
  const text = arg.type === "string" || arg.type === "encapsed_string" ? unquote(arg.text) : arg.text;
  return [{ module: text, symbol: null }];
}

/** PHP: classes, interfaces, traits, enums, functions, methods, namespaces, `use`, includes, control flow. */
export const PHP: LanguageRules = {
  symbols: {
    class_declaration: { kind: "class", members: true },
    interface_declaration: { kind: "interface", members: true },
    trait_declaration: { kind: "trait", members: true },
    enum_declaration: { kind: "enum", members: true },
    function_definition: { kind: "function" },
    method_declaration: { kind: "method" },
    namespace_definition: { kind: "namespace", name: (node) => node.childForFieldName("name")?.text },
  },
  imports: {
    namespace_use_declaration: useDeclaration,
    require_expression: includeExpression,
    require_once_expression: includeExpression,
    include_expression: includeExpression,
    include_once_expression: includeExpression,
  },
  lineKinds: {
    if_statement: "if_statement",
    for_statement: "for_statement",
    foreach_statement: "for_statement",
    while_statement: "while_statement",
    do_statement: "while_statement",
    return_statement: "return_statement",
    throw_expression: "raise_statement",
    throw_statement: "raise_statement",
    try_statement: "try_statement",
  },
  transparent: ["declaration_list", "enum_declaration_list"],
  decorators: ["attribute_list"],
  skip: [
    "comment",
    "name",
    "variable_name",
    "string",
    "encapsed_string",
    "integer",
    "php_tag",
    "text",
    "formal_parameters",
    "namespace_use_declaration",
    "attribute_list",
    "primitive_type",
    "named_type",
    "visibility_modifier",
  ],
};
