/**
 * Graph rules for Go (tree-sitter-go 0.20).
 *
 * A method's parent is its receiver's type name (`func (s *Store) Get()` →
 * method `Get`, parent `Store`), wherever that type is declared. A type spec
 * is a `struct`, an `interface`, or else a `typedef` (`type ID int`); `type A
 * = B` is a `type_alias`. Imports: `import "fmt"` → module `fmt`, symbol null;
 * `import f "fmt"` → alias `f`; `import . "fmt"` → symbol `*`; `import _
 * "embed"` → alias `_`.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { type ImportSpec, type LanguageRules, unquote } from "../rules.ts";

function importSpec(spec: Node): ImportSpec | undefined {
  const path = spec.childForFieldName("path");
  if (!path) return undefined;
  const module = unquote(path.text);
  const name = spec.childForFieldName("name");
  if (!name) return { module, symbol: null };
  if (name.type === "dot") return { module, symbol: "*" };
  return { module, symbol: null, alias: name.text };
}

function importDeclaration(node: Node): ImportSpec[] {
  const out: ImportSpec[] = [];
  for (const child of node.namedChildren) {
    const specs = child?.type === "import_spec_list" ? child.namedChildren : [child];
    for (const spec of specs) {
      if (spec?.type !== "import_spec") continue;
      const record = importSpec(spec);
      if (record) out.push(record);
    }
  }
  return out;
}

/** The type name of a method receiver: `(s *Store)`, `(Store)`, `(p Pair[K, V])` → the base type name. */
function receiverType(node: Node): string | undefined {
  const param = node.childForFieldName("receiver")?.namedChildren.find((n) =>
    n?.type === "parameter_declaration"
  );
  let type = param?.childForFieldName("type") ?? null;
  while (type && type.type !== "type_identifier") {
    type = type.type === "generic_type" ? type.childForFieldName("type") : type.namedChildren[0] ?? null;
  }
  return type?.text;
}

/** Go: functions, methods, struct/interface/other type declarations, imports, control flow. */
export const GO: LanguageRules = {
  symbols: {
    function_declaration: { kind: "function" },
    method_declaration: { kind: "method", parent: receiverType },
    type_spec: {
      kind: (node) => {
        const type = node.childForFieldName("type")?.type;
        return type === "struct_type" ? "struct" : type === "interface_type" ? "interface" : "typedef";
      },
    },
    type_alias: { kind: "type_alias" },
  },
  imports: { import_declaration: importDeclaration },
  lineKinds: {
    if_statement: "if_statement",
    for_statement: "for_statement",
    return_statement: "return_statement",
  },
  skip: [
    "comment",
    "identifier",
    "field_identifier",
    "type_identifier",
    "package_identifier",
    "interpreted_string_literal",
    "raw_string_literal",
    "int_literal",
    "parameter_list",
    "field_declaration_list",
    "import_declaration",
    "package_clause",
    "true",
    "false",
    "nil",
  ],
};
