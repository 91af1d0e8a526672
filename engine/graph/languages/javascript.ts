/**
 * Graph rules for JavaScript, TypeScript and TSX (tree-sitter-javascript and
 * -typescript 0.20; TSX uses the TypeScript rules).
 *
 * Besides declarations, a function bound to a name is a symbol of that name:
 * `const f = () => ...`, `let g = function () {}`, a class field
 * `onClick = () => {}` (a method), `exports.h = function () {}` and
 * `Foo.prototype.m = () => {}`. `export default function () {}` and
 * `export default class {}` are named `default`.
 *
 * Imports: `import x from "m"` → symbol `default` alias `x`; `import * as
 * ns from "m"` → `*` alias `ns`; `import {a as b} from "m"` → `a` alias `b`;
 * `import "m"`, `require("m")` and `import("m")` → symbol null; re-exports
 * (`export * from "m"`, `export {a} from "m"`) are imports of `m` too.
 * TypeScript's `import fs = require("fs")` → symbol null, alias `fs`.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { type ImportSpec, type LanguageRules, type SymbolRule, unquote } from "../rules.ts";

const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function",
  "function_expression",
  "generator_function",
]);

/** Whether a node is a function value (arrow function, function or generator expression). */
function isFunctionValue(node: Node | null): boolean {
  return node !== null && FUNCTION_VALUES.has(node.type);
}

/** `const f = () => ...`: a function named by its declarator. */
const declarator: SymbolRule = {
  kind: (node) => isFunctionValue(node.childForFieldName("value")) ? "function" : undefined,
  name: (node) => {
    const name = node.childForFieldName("name");
    return name?.type === "identifier" ? name.text : undefined;
  },
};

/** `onClick = () => {}` in a class body: a method named by its field. */
const field: SymbolRule = {
  kind: (node) => isFunctionValue(node.childForFieldName("value")) ? "function" : undefined,
  name: (node) => (node.childForFieldName("property") ?? node.childForFieldName("name"))?.text,
  method: true,
};

/** `exports.f = function () {}`, `Foo.prototype.m = () => {}`. */
const assignment: SymbolRule = {
  kind: (node) => isFunctionValue(node.childForFieldName("right")) ? "function" : undefined,
  name: (node) => {
    const left = node.childForFieldName("left");
    if (left?.type === "identifier") return left.text;
    if (left?.type === "member_expression") return left.childForFieldName("property")?.text;
    return undefined;
  },
};

/** A function or class expression: a symbol only as `export default`. */
const defaultExport = (kind: "class" | "function"): SymbolRule => ({
  kind: (_node, ctx) => ctx.parentType === "export_statement" ? kind : undefined,
  members: kind === "class",
  method: kind === "function",
  name: (node) => node.childForFieldName("name")?.text ?? "default",
});

function source(node: Node): string | undefined {
  const literal = node.childForFieldName("source");
  return literal ? unquote(literal.text) : undefined;
}

function importStatement(node: Node): ImportSpec[] {
  const module = source(node);
  const out: ImportSpec[] = [];
  for (const child of node.namedChildren) {
    if (child?.type === "import_require_clause") {
      const alias = child.namedChildren.find((n) => n?.type === "identifier")?.text;
      const required = child.childForFieldName("source");
      if (required) out.push({ module: unquote(required.text), symbol: null, alias });
      return out;
    }
    if (child?.type !== "import_clause" || module === undefined) continue;
    for (const part of child.namedChildren) {
      if (!part) continue;
      if (part.type === "identifier") out.push({ module, symbol: "default", alias: part.text });
      else if (part.type === "namespace_import") {
        out.push({ module, symbol: "*", alias: part.namedChildren[0]?.text });
      } else if (part.type === "named_imports") {
        for (const spec of part.namedChildren) {
          if (spec?.type !== "import_specifier") continue;
          const name = spec.childForFieldName("name")?.text ?? "";
          const alias = spec.childForFieldName("alias")?.text;
          out.push(alias === undefined ? { module, symbol: name } : { module, symbol: name, alias });
        }
      }
    }
  }
  if (out.length === 0 && module !== undefined) out.push({ module, symbol: null });
  return out;
}

/** `export * from "m"`, `export * as ns from "m"`, `export {a as b} from "m"`. */
function reexport(node: Node): ImportSpec[] {
  const module = source(node);
  if (module === undefined) return [];
  const clause = node.namedChildren.find((n) => n?.type === "export_clause");
  if (!clause) {
    const ns = node.namedChildren.find((n) => n?.type === "namespace_export" || n?.type === "identifier");
    const alias = ns?.type === "namespace_export" ? ns.namedChildren[0]?.text : ns?.text;
    return [alias === undefined ? { module, symbol: "*" } : { module, symbol: "*", alias }];
  }
  return clause.namedChildren.flatMap((spec) => {
    if (spec?.type !== "export_specifier") return [];
    const symbol = spec.childForFieldName("name")?.text ?? "";
    const alias = spec.childForFieldName("alias")?.text;
    return [alias === undefined ? { module, symbol } : { module, symbol, alias }];
  });
}

/** `require("m")` and `import("m")` with a literal argument. */
function callImport(node: Node): ImportSpec[] {
  const callee = node.childForFieldName("function");
  if (!callee || !(callee.type === "import" || (callee.type === "identifier" && callee.text === "require"))) {
    return [];
  }
  const arg = node.childForFieldName("arguments")?.namedChildren[0];
  if (!arg || (arg.type !== "string" && arg.type !== "template_string")) return [];
  const text = arg.text;
  if (arg.type === "template_string" && text.includes("${")) return [];
  return [{ module: unquote(text), symbol: null }];
}

const SHARED_SKIP = [
  "comment",
  "string",
  "template_string",
  "regex",
  "number",
  "identifier",
  "property_identifier",
  "private_property_identifier",
  "shorthand_property_identifier",
  "shorthand_property_identifier_pattern",
  "statement_identifier",
  "this",
  "super",
  "true",
  "false",
  "null",
  "undefined",
  "import_statement",
  "formal_parameters",
  "jsx_text",
  "hash_bang_line",
];

/** JavaScript: classes, functions, methods (declared, exported, bound to names), imports, control flow. */
export const JAVASCRIPT: LanguageRules = {
  symbols: {
    class_declaration: { kind: "class", members: true },
    class: defaultExport("class"),
    function_declaration: { kind: "function", method: true },
    generator_function_declaration: { kind: "function", method: true },
    function: defaultExport("function"),
    function_expression: defaultExport("function"),
    arrow_function: defaultExport("function"),
    method_definition: { kind: "function", method: true },
    variable_declarator: declarator,
    field_definition: field,
    assignment_expression: assignment,
  },
  imports: {
    import_statement: importStatement,
    export_statement: reexport,
    call_expression: callImport,
  },
  lineKinds: {
    if_statement: "if_statement",
    for_statement: "for_statement",
    for_in_statement: "for_statement",
    for_of_statement: "for_statement",
    while_statement: "while_statement",
    do_statement: "while_statement",
    return_statement: "return_statement",
    throw_statement: "raise_statement",
    try_statement: "try_statement",
  },
  transparent: ["class_body"],
  decorators: ["decorator"],
  guards: { call_expression: { first: ["identifier", "import"], words: ["require", "import"] } },
  skip: SHARED_SKIP,
};

/** TypeScript (and TSX): JavaScript plus interfaces, enums, type aliases, namespaces and modules. */
export const TYPESCRIPT: LanguageRules = {
  ...JAVASCRIPT,
  symbols: {
    ...JAVASCRIPT.symbols,
    abstract_class_declaration: { kind: "class", members: true },
    public_field_definition: field,
    interface_declaration: { kind: "interface" },
    enum_declaration: { kind: "enum" },
    type_alias_declaration: { kind: "type_alias" },
    internal_module: { kind: "namespace" },
    module: {
      kind: "module",
      name: (node) => unquote(node.childForFieldName("name")?.text ?? "") || undefined,
    },
  },
  skip: [
    ...SHARED_SKIP,
    "type_identifier",
    "predefined_type",
    "type_annotation",
    "type_arguments",
    "type_parameters",
    "interface_body",
    "object_type",
    "union_type",
    "intersection_type",
    "literal_type",
    "generic_type",
    "nested_type_identifier",
    "enum_body",
    "accessibility_modifier",
    "implements_clause",
  ],
};
