/**
 * Normalized kinds: the language-neutral names a locator's `kind` uses
 * (`function`, `class`, `method`, `import`, `statement`, ...), mapped per
 * language to tree-sitter node types.
 *
 * A mapping lists the node types a kind can take (`types`). Some kinds need
 * more than a type to be told apart, and say so with one of two refinements:
 *
 * - `where`: a predicate on the node. `method` is a `function_definition`
 *   whose owner (skipping decorators and the body block) is a class; a C
 *   `struct` is a `struct_specifier` with a body (not a mere reference).
 * - `childOf`: the kind is any named child of one of these node types, except
 *   comments. `parameter` is a child of a parameter list, `argument` a child
 *   of an argument list, a Ruby `statement` a child of a statement container.
 *   `types` is then `["*"]`.
 *
 * A kind with no mapping for a language does not exist there; a locator may
 * still name any node type of the language directly (`"kind": "if_statement"`).
 * The full table, language by language, is in `engine/locate/README.md`.
 *
 * @module
 */

import type { LanguageId, Node } from "../parse/mod.ts";

/** How one normalized kind appears in one language. */
export interface KindMapping {
  /** Node types of the kind, or `["*"]` with `childOf`. */
  readonly types: readonly string[];
  /** The kind is a named, non-comment child of one of these node types. */
  readonly childOf?: readonly string[];
  /** An extra condition a node of one of `types` must meet. */
  readonly where?: (node: Node) => boolean;
}

/** A kind's mappings by language (a language without one lacks the kind). */
export type KindTable = Readonly<Partial<Record<LanguageId, KindMapping>>>;

type Lang = LanguageId;

// ---------------------------------------------------------------------------
// Owners: the class-like node a member belongs to.

/** Nodes a member may sit in between itself and its class-like owner. */
const WRAPPERS: Readonly<Record<Lang, ReadonlySet<string>>> = byLanguage({
  text: [],
  python: ["block", "decorated_definition"],
  javascript: ["class_body"],
  typescript: ["class_body", "interface_body", "object_type"],
  tsx: ["class_body", "interface_body", "object_type"],
  java: ["class_body", "interface_body", "enum_body", "enum_body_declarations", "annotation_type_body"],
  go: ["field_declaration_list", "struct_type", "interface_type"],
  rust: ["declaration_list", "field_declaration_list"],
  ruby: ["body_statement"],
  php: ["declaration_list", "enum_declaration_list"],
  c: ["field_declaration_list"],
  cpp: ["field_declaration_list", "template_declaration"],
});

/** Class-like nodes: the owners of methods and fields. */
export const CLASS_LIKE: Readonly<Record<Lang, ReadonlySet<string>>> = byLanguage({
  text: [],
  python: ["class_definition"],
  javascript: ["class_declaration", "class", "object"],
  typescript: ["class_declaration", "class", "abstract_class_declaration", "interface_declaration", "object"],
  tsx: ["class_declaration", "class", "abstract_class_declaration", "interface_declaration", "object"],
  java: [
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "annotation_type_declaration",
  ],
  go: ["type_spec"],
  rust: ["impl_item", "trait_item", "struct_item", "union_item", "enum_item"],
  ruby: ["class", "module", "singleton_class"],
  php: ["class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"],
  c: ["struct_specifier", "union_specifier"],
  cpp: ["class_specifier", "struct_specifier", "union_specifier"],
});

/**
 * The class-like node `node` is directly a member of (skipping body blocks
 * and decorators), or null. Go methods and Rust `impl` members are not
 * inside their type: see `memberOfTypeName`.
 */
export function ownerOf(node: Node, language: Lang): Node | null {
  const wrappers = WRAPPERS[language];
  let up = node.parent;
  while (up && wrappers.has(up.type)) up = up.parent;
  return up && CLASS_LIKE[language].has(up.type) ? up : null;
}

// ---------------------------------------------------------------------------
// Predicates.

const hasBody = (node: Node): boolean => node.childForFieldName("body") !== null;
const typeFieldIs = (...types: string[]) => (node: Node): boolean =>
  types.includes(node.childForFieldName("type")?.type ?? "");
const typeFieldIsNot = (...types: string[]) => (node: Node): boolean =>
  !types.includes(node.childForFieldName("type")?.type ?? "");
const ownedIn = (language: Lang) => (node: Node): boolean => ownerOf(node, language) !== null;

function cppMethod(node: Node): boolean {
  if (ownerOf(node, "cpp")) return true;
  // An out-of-class definition: `void Inventory::add(...) {...}`.
  let declarator = node.childForFieldName("declarator");
  while (declarator && declarator.type !== "function_declarator") {
    declarator = declarator.childForFieldName("declarator");
  }
  return declarator?.childForFieldName("declarator")?.type === "qualified_identifier";
}

function pythonEnum(node: Node): boolean {
  const bases = node.childForFieldName("superclasses")?.text ?? "";
  return /\b(Enum|IntEnum|StrEnum|Flag|IntFlag)\b/.test(bases);
}

function pythonField(node: Node): boolean {
  const first = node.firstNamedChild;
  return (first?.type === "assignment" || first?.type === "augmented_assignment") &&
    node.parent?.type === "block" && node.parent.parent?.type === "class_definition";
}

function rubyCallTo(...methods: string[]) {
  return (node: Node): boolean => {
    const method = node.childForFieldName("method");
    return !node.childForFieldName("receiver") && method !== null && methods.includes(method.text);
  };
}

/** A CommonJS `require("m")` call, possibly read through members (`require("m").x`) or awaited. */
function isRequire(node: Node | null | undefined): boolean {
  let current = node;
  while (current && /^(member_expression|await_expression|parenthesized_expression)$/.test(current.type)) {
    current = current.type === "member_expression"
      ? current.childForFieldName("object")
      : current.namedChild(0);
  }
  return current?.type === "call_expression" && current.childForFieldName("function")?.text === "require";
}

/**
 * A JS/TS import: an `import` statement, a declaration every declarator of
 * which is a `require(...)` (`const fs = require("fs")`), or a bare
 * `require("./setup")` statement.
 */
function jsImport(node: Node): boolean {
  if (node.type === "import_statement") return true;
  if (node.type === "expression_statement") return isRequire(node.namedChild(0));
  const declarators = node.namedChildren.filter((child) => child?.type === "variable_declarator");
  return declarators.length > 0 && declarators.every((d) => isRequire(d!.childForFieldName("value")));
}

function phpInclude(node: Node): boolean {
  const first = node.firstNamedChild?.type ?? "";
  return /^(require|include)(_once)?_expression$/.test(first);
}

function cDeclarationIsVariable(node: Node): boolean {
  for (const declarator of node.childrenForFieldName("declarator")) {
    let d: Node | null = declarator;
    while (d) {
      if (d.type === "function_declarator") return false;
      d = d.childForFieldName("declarator");
    }
  }
  return true;
}

// ---------------------------------------------------------------------------
// Shared type lists.

const JS_FUNCTIONS = [
  "function_declaration",
  "generator_function_declaration",
  "function_expression",
  "generator_function",
  "arrow_function",
  "method_definition",
];
const TS_FUNCTIONS = [...JS_FUNCTIONS, "function_signature", "method_signature", "abstract_method_signature"];
const JS_STATEMENTS = [
  "expression_statement",
  "lexical_declaration",
  "variable_declaration",
  "return_statement",
  "if_statement",
  "for_statement",
  "for_in_statement",
  "while_statement",
  "do_statement",
  "try_statement",
  "throw_statement",
  "switch_statement",
  "break_statement",
  "continue_statement",
  "labeled_statement",
  "debugger_statement",
  "with_statement",
  "import_statement",
];
const C_STATEMENTS = [
  "expression_statement",
  "declaration",
  "return_statement",
  "if_statement",
  "for_statement",
  "while_statement",
  "do_statement",
  "switch_statement",
  "break_statement",
  "continue_statement",
  "goto_statement",
  "labeled_statement",
];
const RUBY_STATEMENT_CONTAINERS = [
  "program",
  "body_statement",
  "then",
  "else",
  "begin",
  "block_body",
  "do",
  "ensure",
  "parenthesized_statements",
];
const STRUCTURAL_RUBY = new Set(["rescue", "else", "ensure", "then", "comment", "heredoc_body"]);

/** Shorthand for a mapping without refinements. */
function t(...types: string[]): KindMapping {
  return { types };
}

/** The same mapping for JavaScript, TypeScript and TSX. */
function js(mapping: KindMapping, ts: KindMapping = mapping): Partial<Record<Lang, KindMapping>> {
  return { javascript: mapping, typescript: ts, tsx: ts };
}

/** The same mapping for C and C++. */
function cc(mapping: KindMapping, cpp: KindMapping = mapping): Partial<Record<Lang, KindMapping>> {
  return { c: mapping, cpp };
}

// ---------------------------------------------------------------------------
// The table.

/**
 * Normalized kind → language → node types (and refinement). The order of the
 * keys is the priority `kindOf` uses to name a node (`method` before
 * `function`, `if` before `statement`).
 */
export const NORMALIZED_KINDS: Readonly<Record<string, KindTable>> = {
  method: {
    python: { types: ["function_definition"], where: ownedIn("python") },
    ...js(t("method_definition"), t("method_definition", "method_signature", "abstract_method_signature")),
    java: t("method_declaration", "constructor_declaration", "compact_constructor_declaration"),
    go: t("method_declaration"),
    rust: { types: ["function_item", "function_signature_item"], where: ownedIn("rust") },
    ruby: { types: ["method", "singleton_method"], where: ownedIn("ruby") },
    php: t("method_declaration"),
    cpp: { types: ["function_definition"], where: cppMethod },
    // Seed 002 maps `method` to C's function definitions (C has no classes): an alias, see ALIAS_KINDS.
    c: t("function_definition"),
  },
  function: {
    python: t("function_definition"),
    ...js(t(...JS_FUNCTIONS), t(...TS_FUNCTIONS)),
    java: t("method_declaration", "constructor_declaration", "compact_constructor_declaration"),
    go: t("function_declaration", "method_declaration"),
    rust: t("function_item", "function_signature_item"),
    ruby: t("method", "singleton_method"),
    php: t("function_definition", "method_declaration"),
    ...cc(t("function_definition")),
  },
  enum: {
    python: { types: ["class_definition"], where: pythonEnum },
    ...js({ types: [] }, t("enum_declaration")),
    java: t("enum_declaration"),
    rust: t("enum_item"),
    php: t("enum_declaration"),
    ...cc({ types: ["enum_specifier"], where: hasBody }),
  },
  struct: {
    go: { types: ["type_spec"], where: typeFieldIs("struct_type") },
    rust: t("struct_item", "union_item"),
    ...cc({ types: ["struct_specifier", "union_specifier"], where: hasBody }),
  },
  class: {
    python: t("class_definition"),
    ...js(t("class_declaration", "class"), t("class_declaration", "class", "abstract_class_declaration")),
    java: t("class_declaration", "record_declaration"),
    go: { types: ["type_spec"], where: typeFieldIs("struct_type") },
    rust: t("struct_item"),
    ruby: t("class", "singleton_class"),
    php: t("class_declaration"),
    ...cc({ types: ["struct_specifier"], where: hasBody }, {
      types: ["class_specifier", "struct_specifier"],
      where: hasBody,
    }),
  },
  trait: {
    rust: t("trait_item"),
    php: t("trait_declaration"),
  },
  interface: {
    ...js({ types: [] }, t("interface_declaration")),
    java: t("interface_declaration", "annotation_type_declaration"),
    go: { types: ["type_spec"], where: typeFieldIs("interface_type") },
    rust: t("trait_item"),
    php: t("interface_declaration"),
  },
  impl: {
    rust: t("impl_item"),
  },
  namespace: {
    ...js({ types: [] }, t("internal_module")),
    php: t("namespace_definition"),
    cpp: t("namespace_definition"),
  },
  module: {
    ...js({ types: [] }, t("internal_module", "module")),
    rust: t("mod_item"),
    ruby: t("module"),
  },
  typedef: {
    ...cc(t("type_definition")),
  },
  type_alias: {
    python: t("type_alias_statement"),
    ...js({ types: [] }, t("type_alias_declaration")),
    go: { types: ["type_alias", "type_spec"], where: typeFieldIsNot("struct_type", "interface_type") },
    rust: t("type_item"),
    ...cc(t("type_definition"), t("type_definition", "alias_declaration")),
  },
  import: {
    python: t("import_statement", "import_from_statement", "future_import_statement"),
    ...js({
      types: ["import_statement", "lexical_declaration", "variable_declaration", "expression_statement"],
      where: jsImport,
    }),
    java: t("import_declaration"),
    go: t("import_declaration"),
    rust: t("use_declaration", "extern_crate_declaration"),
    ruby: { types: ["call"], where: rubyCallTo("require", "require_relative", "load", "autoload") },
    php: {
      types: ["namespace_use_declaration", "expression_statement"],
      where: (node) => node.type === "namespace_use_declaration" || phpInclude(node),
    },
    ...cc(t("preproc_include"), t("preproc_include", "using_declaration")),
  },
  decorator: {
    python: t("decorator"),
    ...js(t("decorator")),
    java: t("annotation", "marker_annotation"),
    rust: t("attribute_item"),
    php: t("attribute"),
  },
  field: {
    python: { types: ["expression_statement"], where: pythonField },
    ...js(t("field_definition"), t("public_field_definition", "property_signature")),
    java: t("field_declaration"),
    go: t("field_declaration"),
    rust: t("field_declaration"),
    php: t("property_declaration"),
    ...cc(t("field_declaration")),
  },
  variable: {
    ...js(t("lexical_declaration", "variable_declaration")),
    java: t("local_variable_declaration"),
    go: t("var_declaration", "short_var_declaration", "const_declaration"),
    rust: t("let_declaration", "const_item", "static_item"),
    php: t("const_declaration"),
    ...cc({ types: ["declaration"], where: cDeclarationIsVariable }),
  },
  if: {
    python: t("if_statement"),
    ...js(t("if_statement")),
    java: t("if_statement"),
    go: t("if_statement"),
    rust: t("if_expression"),
    ruby: t("if", "unless", "if_modifier", "unless_modifier"),
    php: t("if_statement"),
    ...cc(t("if_statement")),
  },
  for: {
    python: t("for_statement"),
    ...js(t("for_statement", "for_in_statement")),
    java: t("for_statement", "enhanced_for_statement"),
    go: t("for_statement"),
    rust: t("for_expression"),
    ruby: t("for"),
    php: t("for_statement", "foreach_statement"),
    ...cc(t("for_statement"), t("for_statement", "for_range_loop")),
  },
  while: {
    python: t("while_statement"),
    ...js(t("while_statement", "do_statement")),
    java: t("while_statement", "do_statement"),
    rust: t("while_expression", "loop_expression"),
    ruby: t("while", "until", "while_modifier", "until_modifier"),
    php: t("while_statement", "do_statement"),
    ...cc(t("while_statement", "do_statement")),
  },
  try: {
    python: t("try_statement"),
    ...js(t("try_statement")),
    java: t("try_statement", "try_with_resources_statement"),
    ruby: t("begin"),
    php: t("try_statement"),
    cpp: t("try_statement"),
  },
  with: {
    python: t("with_statement"),
    ...js(t("with_statement")),
    java: t("try_with_resources_statement"),
  },
  switch: {
    python: t("match_statement"),
    ...js(t("switch_statement")),
    java: t("switch_expression"),
    go: t("expression_switch_statement", "type_switch_statement", "select_statement"),
    rust: t("match_expression"),
    ruby: t("case", "case_match"),
    php: t("switch_statement", "match_expression"),
    ...cc(t("switch_statement")),
  },
  return: {
    python: t("return_statement"),
    ...js(t("return_statement")),
    java: t("return_statement"),
    go: t("return_statement"),
    rust: t("return_expression"),
    ruby: t("return"),
    php: t("return_statement"),
    ...cc(t("return_statement"), t("return_statement", "co_return_statement")),
  },
  raise: {
    python: t("raise_statement"),
    ...js(t("throw_statement")),
    java: t("throw_statement"),
    ruby: { types: ["call"], where: rubyCallTo("raise", "fail") },
    php: t("throw_expression"),
    cpp: t("throw_statement"),
  },
  throw: {
    python: t("raise_statement"),
    ...js(t("throw_statement")),
    java: t("throw_statement"),
    ruby: { types: ["call"], where: rubyCallTo("raise", "fail") },
    php: t("throw_expression"),
    cpp: t("throw_statement"),
  },
  call: {
    python: t("call"),
    ...js(t("call_expression", "new_expression")),
    java: t("method_invocation", "object_creation_expression"),
    go: t("call_expression"),
    rust: t("call_expression", "macro_invocation"),
    ruby: t("call"),
    php: t(
      "function_call_expression",
      "member_call_expression",
      "nullsafe_member_call_expression",
      "scoped_call_expression",
      "object_creation_expression",
    ),
    ...cc(t("call_expression"), t("call_expression", "new_expression")),
  },
  assignment: {
    python: t("assignment", "augmented_assignment"),
    ...js(t("assignment_expression", "augmented_assignment_expression")),
    java: t("assignment_expression"),
    go: t("assignment_statement"),
    rust: t("assignment_expression", "compound_assignment_expr"),
    ruby: t("assignment", "operator_assignment"),
    php: t("assignment_expression", "augmented_assignment_expression", "reference_assignment_expression"),
    ...cc(t("assignment_expression")),
  },
  lambda: {
    python: t("lambda"),
    ...js(t("arrow_function", "function_expression")),
    java: t("lambda_expression"),
    go: t("func_literal"),
    rust: t("closure_expression"),
    ruby: t("lambda", "block", "do_block"),
    php: t("anonymous_function_creation_expression", "arrow_function"),
    cpp: t("lambda_expression"),
  },
  parameter: {
    python: { types: ["*"], childOf: ["parameters", "lambda_parameters"] },
    ...js({ types: ["*"], childOf: ["formal_parameters"] }),
    java: { types: ["*"], childOf: ["formal_parameters"] },
    go: { types: ["*"], childOf: ["parameter_list"] },
    rust: { types: ["*"], childOf: ["parameters", "closure_parameters"] },
    ruby: { types: ["*"], childOf: ["method_parameters", "block_parameters", "lambda_parameters"] },
    php: { types: ["*"], childOf: ["formal_parameters"] },
    ...cc({ types: ["*"], childOf: ["parameter_list"] }),
  },
  argument: {
    python: { types: ["*"], childOf: ["argument_list"] },
    ...js({ types: ["*"], childOf: ["arguments"] }),
    java: { types: ["*"], childOf: ["argument_list"] },
    go: { types: ["*"], childOf: ["argument_list"] },
    rust: { types: ["*"], childOf: ["arguments"] },
    ruby: { types: ["*"], childOf: ["argument_list"] },
    php: { types: ["*"], childOf: ["arguments"] },
    ...cc({ types: ["*"], childOf: ["argument_list"] }),
  },
  attribute: {
    python: t("attribute"),
    ...js(t("member_expression")),
    java: t("field_access"),
    go: t("selector_expression"),
    rust: t("field_expression"),
    php: t(
      "member_access_expression",
      "nullsafe_member_access_expression",
      "scoped_property_access_expression",
    ),
    ...cc(t("field_expression")),
  },
  string: {
    python: t("string", "concatenated_string"),
    ...js(t("string", "template_string")),
    java: t("string_literal"),
    go: t("interpreted_string_literal", "raw_string_literal"),
    rust: t("string_literal", "raw_string_literal"),
    ruby: t("string"),
    php: t("string", "encapsed_string", "heredoc", "nowdoc"),
    ...cc(
      t("string_literal", "concatenated_string"),
      t("string_literal", "raw_string_literal", "concatenated_string"),
    ),
  },
  comment: {
    python: t("comment"),
    ...js(t("comment")),
    java: t("line_comment", "block_comment"),
    go: t("comment"),
    rust: t("line_comment", "block_comment"),
    ruby: t("comment"),
    php: t("comment"),
    ...cc(t("comment")),
  },
  identifier: {
    python: t("identifier"),
    ...js(
      t("identifier", "property_identifier", "shorthand_property_identifier", "private_property_identifier"),
      t(
        "identifier",
        "property_identifier",
        "shorthand_property_identifier",
        "private_property_identifier",
        "type_identifier",
      ),
    ),
    java: t("identifier", "type_identifier"),
    go: t("identifier", "field_identifier", "type_identifier", "package_identifier"),
    rust: t("identifier", "field_identifier", "type_identifier"),
    ruby: t("identifier", "constant", "instance_variable", "class_variable", "global_variable"),
    php: t("name"),
    ...cc(
      t("identifier", "field_identifier", "type_identifier"),
      t("identifier", "field_identifier", "type_identifier", "namespace_identifier"),
    ),
  },
  statement: {
    python: t(
      "expression_statement",
      "return_statement",
      "pass_statement",
      "if_statement",
      "for_statement",
      "while_statement",
      "try_statement",
      "with_statement",
      "raise_statement",
      "assert_statement",
      "delete_statement",
      "break_statement",
      "continue_statement",
      "global_statement",
      "nonlocal_statement",
      "import_statement",
      "import_from_statement",
      "future_import_statement",
      "match_statement",
      "print_statement",
      "exec_statement",
      "type_alias_statement",
    ),
    ...js(t(...JS_STATEMENTS)),
    java: t(
      "expression_statement",
      "local_variable_declaration",
      "return_statement",
      "if_statement",
      "for_statement",
      "enhanced_for_statement",
      "while_statement",
      "do_statement",
      "try_statement",
      "try_with_resources_statement",
      "throw_statement",
      "break_statement",
      "continue_statement",
      "yield_statement",
      "synchronized_statement",
      "assert_statement",
      "labeled_statement",
    ),
    go: t(
      "expression_statement",
      "assignment_statement",
      "short_var_declaration",
      "inc_statement",
      "dec_statement",
      "return_statement",
      "if_statement",
      "for_statement",
      "expression_switch_statement",
      "type_switch_statement",
      "select_statement",
      "go_statement",
      "defer_statement",
      "break_statement",
      "continue_statement",
      "goto_statement",
      "fallthrough_statement",
      "labeled_statement",
      "send_statement",
      "var_declaration",
      "const_declaration",
    ),
    rust: t("expression_statement", "let_declaration"),
    ruby: {
      types: ["*"],
      childOf: RUBY_STATEMENT_CONTAINERS,
      where: (node) => !STRUCTURAL_RUBY.has(node.type),
    },
    php: t(
      "expression_statement",
      "return_statement",
      "if_statement",
      "for_statement",
      "foreach_statement",
      "while_statement",
      "do_statement",
      "try_statement",
      "switch_statement",
      "break_statement",
      "continue_statement",
      "echo_statement",
      "unset_statement",
      "global_declaration",
      "function_static_declaration",
      "goto_statement",
    ),
    ...cc(
      t(...C_STATEMENTS),
      t(...C_STATEMENTS, "for_range_loop", "try_statement", "throw_statement", "co_return_statement"),
    ),
  },
};

/** Every normalized kind, in priority order. */
export const KIND_NAMES: readonly string[] = Object.keys(NORMALIZED_KINDS);

/**
 * Kinds whose nodes have no name: a locator with `name` and one of these
 * kinds is refused (`name` would match nothing).
 */
export const NAMELESS_KINDS: ReadonlySet<string> = new Set([
  "statement",
  "try",
  "with",
  "switch",
  "return",
  "raise",
  "throw",
  "string",
  "comment",
]);

/** Kinds a locator with a `name` and no `kind` searches: named definitions. */
export const SYMBOL_KINDS: readonly string[] = [
  "method",
  "function",
  "enum",
  "struct",
  "class",
  "trait",
  "interface",
  "impl",
  "namespace",
  "module",
  "typedef",
  "type_alias",
];

/** The mapping of `kind` in `language`, or undefined when the kind does not exist there. */
export function kindMapping(kind: string, language: LanguageId): KindMapping | undefined {
  const mapping = Object.hasOwn(NORMALIZED_KINDS, kind) ? NORMALIZED_KINDS[kind][language] : undefined;
  return mapping && mapping.types.length > 0 ? mapping : undefined;
}

/** The normalized kinds that exist in `language`, in priority order. */
export function kindsOf(language: LanguageId): string[] {
  return KIND_NAMES.filter((kind) => kindMapping(kind, language) !== undefined);
}

/** The node types a kind maps to in `language` (`["*"]` for child-of kinds; empty when absent). */
export function kindNodeTypes(kind: string, language: LanguageId): readonly string[] {
  return kindMapping(kind, language)?.types ?? [];
}

/** Whether `node` is of the normalized `kind` in `language`. */
export function matchesKind(node: Node, kind: string, language: LanguageId): boolean {
  const mapping = kindMapping(kind, language);
  if (!mapping || !node.isNamed) return false;
  if (mapping.childOf) {
    const parent = node.parent;
    if (!parent || !mapping.childOf.includes(parent.type) || isComment(node)) return false;
  } else if (!mapping.types.includes(node.type)) {
    return false;
  }
  return mapping.where ? mapping.where(node) : true;
}

/** The most specific normalized kind of `node` (by table order), or its node type. */
export function kindOf(node: Node, language: LanguageId | undefined): string {
  if (!language) return node.type;
  for (const kind of KIND_NAMES) {
    if (ALIAS_KINDS[language]?.includes(kind)) continue;
    if (matchesKind(node, kind, language)) return kind;
  }
  return node.type;
}

/**
 * Kinds a language accepts in locators only as another kind's alias: they
 * never name a node (`kindOf`). C's `method` is its `function`.
 */
const ALIAS_KINDS: Partial<Record<LanguageId, readonly string[]>> = { c: ["method"] };

/** Whether a node is a comment (never a `nth_child` target nor a child-of kind). */
export function isComment(node: Node): boolean {
  return node.type === "comment" || node.type.endsWith("_comment");
}

function byLanguage(table: Record<Lang, string[]>): Record<Lang, ReadonlySet<string>> {
  const out: Partial<Record<Lang, ReadonlySet<string>>> = {};
  for (const [language, types] of Object.entries(table)) out[language as Lang] = new Set(types);
  return out as Record<Lang, ReadonlySet<string>>;
}
