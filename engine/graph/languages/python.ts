/**
 * Graph rules for Python (tree-sitter-python 0.21).
 *
 * Python statements never sit inside expressions (a lambda holds only an
 * expression), so the walk enters statement containers only: it sees every
 * `def`, `class`, import and control-flow statement while skipping the bulk
 * of the tree.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { type ImportSpec, type LanguageRules, squeeze } from "../rules.ts";

/** `a.b` or `a.b as c` (an `import` name). */
function importedModule(name: Node): ImportSpec {
  if (name.type === "aliased_import") {
    return {
      module: squeeze(name.childForFieldName("name")?.text ?? ""),
      symbol: null,
      alias: name.childForFieldName("alias")?.text,
    };
  }
  return { module: squeeze(name.text), symbol: null };
}

/** `y` or `y as z` (a `from ... import` name). */
function importedName(module: string, name: Node): ImportSpec {
  if (name.type === "aliased_import") {
    return {
      module,
      symbol: squeeze(name.childForFieldName("name")?.text ?? ""),
      alias: name.childForFieldName("alias")?.text,
    };
  }
  return { module, symbol: squeeze(name.text) };
}

function fromImport(node: Node, module: string): ImportSpec[] {
  const names = node.childrenForFieldName("name");
  if (names.length === 0) {
    return node.namedChildren.some((child) => child?.type === "wildcard_import")
      ? [{ module, symbol: "*" }]
      : [];
  }
  return names.flatMap((name) => name ? [importedName(module, name)] : []);
}

/** Python: classes, functions and methods (nested ones too), imports, control flow. */
export const PYTHON: LanguageRules = {
  symbols: {
    class_definition: { kind: "class", members: true },
    function_definition: { kind: "function", method: true },
  },
  imports: {
    import_statement: (node) =>
      node.childrenForFieldName("name").flatMap((n) => n ? [importedModule(n)] : []),
    import_from_statement: (node) =>
      fromImport(node, squeeze(node.childForFieldName("module_name")?.text ?? "")),
    future_import_statement: (node) => fromImport(node, "__future__"),
  },
  lineKinds: {
    if_statement: "if_statement",
    for_statement: "for_statement",
    while_statement: "while_statement",
    return_statement: "return_statement",
    raise_statement: "raise_statement",
    try_statement: "try_statement",
  },
  transparent: ["block", "decorated_definition"],
  descendOnly: [
    "module",
    "block",
    "class_definition",
    "function_definition",
    "decorated_definition",
    "if_statement",
    "elif_clause",
    "else_clause",
    "for_statement",
    "while_statement",
    "try_statement",
    "except_clause",
    "except_group_clause",
    "finally_clause",
    "with_statement",
    "match_statement",
    "case_clause",
  ],
  // Statements whose block comes last: everything before it is keywords and
  // expressions. (if, for, while and try go on after their first block.)
  bodyLast: {
    function_definition: "block",
    class_definition: "block",
    elif_clause: "block",
    else_clause: "block",
    except_clause: "block",
    except_group_clause: "block",
    finally_clause: "block",
    with_statement: "block",
    case_clause: "block",
  },
};
