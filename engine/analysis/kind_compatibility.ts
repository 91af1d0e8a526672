/**
 * Node-kind compatibility for L1: which node types may replace which.
 *
 * Two types are compatible when they are equal or fall in the same
 * category. Python and JavaScript/TypeScript have explicit tables; other
 * languages use a generic rule on the grammar's naming conventions
 * (`*_statement`, `*_expression`, `*_declaration`, `*_definition`, `*_item`,
 * `*_literal`).
 *
 * @module
 */

import type { LanguageId } from "../parse/mod.ts";

/** Categories a node type can fall in. */
export type KindCategory =
  | "function"
  | "class"
  | "statement"
  | "expression"
  | "parameter"
  | "declaration"
  | "block"
  | "import";

// deno-fmt-ignore
const PY_STATEMENTS = [
  "expression_statement", "return_statement", "pass_statement", "break_statement", "continue_statement",
  "raise_statement", "assert_statement", "delete_statement", "global_statement", "nonlocal_statement",
  "if_statement", "for_statement", "while_statement", "try_statement", "with_statement", "match_statement",
  "print_statement", "exec_statement", "type_alias_statement",
];
// deno-fmt-ignore
const PY_EXPRESSIONS = [
  "identifier", "call", "attribute", "subscript", "binary_operator", "boolean_operator",
  "comparison_operator", "not_operator", "unary_operator", "lambda", "conditional_expression", "string",
  "concatenated_string", "integer", "float", "true", "false", "none", "ellipsis", "list", "tuple",
  "dictionary", "set", "list_comprehension", "dictionary_comprehension", "set_comprehension",
  "generator_expression", "parenthesized_expression", "await", "named_expression", "yield", "list_splat",
  "dictionary_splat",
];
// deno-fmt-ignore
const PY_PARAMETERS = [
  "typed_parameter", "default_parameter", "typed_default_parameter", "list_splat_pattern",
  "dictionary_splat_pattern",
];

// deno-fmt-ignore
const JS_FUNCTIONS = [
  "function_declaration", "generator_function_declaration", "function", "function_expression",
  "generator_function", "arrow_function", "method_definition", "function_signature", "method_signature",
  "abstract_method_signature",
];
const JS_CLASSES = ["class_declaration", "class", "abstract_class_declaration"];
// deno-fmt-ignore
const JS_STATEMENTS = [
  "expression_statement", "return_statement", "if_statement", "for_statement", "for_in_statement",
  "while_statement", "do_statement", "try_statement", "throw_statement", "switch_statement",
  "break_statement", "continue_statement", "labeled_statement", "empty_statement", "statement_block",
  "lexical_declaration", "variable_declaration", "with_statement", "debugger_statement",
];
// deno-fmt-ignore
const JS_EXPRESSIONS = [
  "identifier", "this", "super", "number", "string", "template_string", "regex", "true", "false", "null",
  "undefined", "array", "object", "call_expression", "member_expression", "subscript_expression",
  "binary_expression", "unary_expression", "update_expression", "ternary_expression",
  "assignment_expression", "augmented_assignment_expression", "await_expression", "new_expression",
  "parenthesized_expression", "sequence_expression", "yield_expression", "as_expression",
  "satisfies_expression", "non_null_expression", "type_assertion", "jsx_element",
  "jsx_self_closing_element", "function", "function_expression", "arrow_function", "class",
];
const JS_DECLARATIONS = ["interface_declaration", "type_alias_declaration", "enum_declaration"];

function table(entries: [string[], KindCategory][]): Map<string, KindCategory> {
  const map = new Map<string, KindCategory>();
  for (const [types, category] of entries) {
    for (const type of types) if (!map.has(type)) map.set(type, category);
  }
  return map;
}

const PYTHON = table([
  [["function_definition"], "function"],
  [["class_definition"], "class"],
  [["import_statement", "import_from_statement", "future_import_statement"], "import"],
  [PY_STATEMENTS, "statement"],
  [PY_EXPRESSIONS, "expression"],
  [PY_PARAMETERS, "parameter"],
  [["block"], "block"],
]);

const JAVASCRIPT = table([
  [JS_FUNCTIONS, "function"],
  [JS_CLASSES, "class"],
  [["import_statement"], "import"],
  [JS_STATEMENTS, "statement"],
  [JS_EXPRESSIONS, "expression"],
  [JS_DECLARATIONS, "declaration"],
  [["required_parameter", "optional_parameter", "assignment_pattern", "rest_pattern"], "parameter"],
]);

/** Wrapper types whose category is that of their wrapped definition. */
const WRAPPERS = new Set(["decorated_definition", "export_statement"]);

/** The category of a node type in `language`, or undefined when it has none. */
export function kindCategory(language: LanguageId, type: string): KindCategory | undefined {
  if (language === "python") return PYTHON.get(type);
  if (language === "javascript" || language === "typescript" || language === "tsx") {
    const known = JAVASCRIPT.get(type);
    if (known) return known;
  }
  return genericCategory(type);
}

/** Literal node types of the other grammars whose names say nothing of it. */
const SCALARS = new Set(["integer", "float", "number", "true", "false", "nil", "null", "boolean", "regex"]);

function genericCategory(type: string): KindCategory | undefined {
  if (/(^|_)(function|method|constructor)(_declaration|_definition|_item)?$/.test(type)) return "function";
  if (
    /(^|_)(class|struct|interface|enum|trait|impl)(_declaration|_definition|_item|_specifier)?$/.test(type)
  ) {
    return "class";
  }
  if (type.startsWith("import") || type.endsWith("_import") || type === "use_declaration") return "import";
  if (type.endsWith("_statement")) return "statement";
  if (type.endsWith("_expression") || type.endsWith("_literal") || type === "identifier") return "expression";
  // Strings and scalars without a `_literal` suffix: PHP `'a'` (string) and `"a"` (encapsed_string) are one family.
  if (/(^|_)(string|heredoc|nowdoc|symbol)$/.test(type) || SCALARS.has(type)) return "expression";
  if (type.endsWith("_declaration") || type.endsWith("_definition") || type.endsWith("_item")) {
    return "declaration";
  }
  if (type.endsWith("_parameter")) return "parameter";
  if (type === "block" || type === "statement_block" || type === "compound_statement") return "block";
  return undefined;
}

/** Argument-list elements that are not expressions: an expression may become one and back. */
const ARGUMENT_ELEMENTS = new Set(["keyword_argument", "spread_element"]);

/**
 * Whether a `replacement` node type may stand where a `replaced` one stood.
 * Argument-list elements are one family: `re.ASCII` may become
 * `flags=re.ASCII` (the grammar only yields a keyword argument inside an
 * argument list, so the edit stays where it was).
 */
export function compatibleKinds(language: LanguageId, replaced: string, replacement: string): boolean {
  if (replaced === replacement) return true;
  const a = kindCategory(language, replaced);
  const b = kindCategory(language, replacement);
  if (a !== undefined && a === b) return true;
  return (ARGUMENT_ELEMENTS.has(replaced) || a === "expression") &&
    (ARGUMENT_ELEMENTS.has(replacement) || b === "expression");
}

/** Whether a wrapper type (decorated definition, export) should be judged by what it wraps. */
export function isWrapperKind(type: string): boolean {
  return WRAPPERS.has(type);
}
