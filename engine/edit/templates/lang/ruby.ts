/**
 * The Ruby table of the templates (tree-sitter-ruby node types): the brace
 * languages' table (`braced.ts`) with Ruby's blocks (`if ... end`), its
 * `return` (whose value is an argument list) and its operators. Only the
 * templates that replace a slot (an expression, a condition, a returned
 * value) and `guard_clause` list Ruby.
 *
 * Precedence follows the Ruby manual: `not` 1, `and or` 0.5, `? :` 3,
 * `..` 3.5, `||` 4, `&&` 5, `<=> == === != =~ !~` 9, `< <= > >=` 10, `| ^` 6,
 * `&` 8, shifts 11, `+ -` 12, `* / %` 13, unary minus 14, `**` 14.5, `! ~`
 * unary plus 15, primaries 18.
 *
 * @module
 */

import type { Node } from "../../../parse/mod.ts";
import { bracedTable } from "./braced.ts";
import { type LanguageTable, statementsOf } from "./table.ts";

const base = bracedTable({
  languages: ["ruby"],
  rootType: "program",
  blockTypes: ["program", "body_statement", "then", "else", "do", "block_body", "begin", "ensure"],
  functionTypes: ["method", "singleton_method"],
  classTypes: [],
  callTypes: ["call"],
  conditionalTypes: [
    "if",
    "unless",
    "while",
    "until",
    "elsif",
    "if_modifier",
    "unless_modifier",
    "while_modifier",
    "until_modifier",
  ],
  returnTypes: ["return"],
  guardHeader: (condition) => `if ${condition}`,
  parameterTypes: [
    "identifier",
    "optional_parameter",
    "keyword_parameter",
    "splat_parameter",
    "hash_splat_parameter",
    "block_parameter",
  ],
  variadicTypes: ["splat_parameter", "hash_splat_parameter", "block_parameter"],
  parameterName: (node) => node.childForFieldName("name")?.text ?? node.text,
  parameterDefaults: true,
  parameterTypeRequired: false,
  parameterText: ({ name, default: value }) => `${name}${value !== undefined ? ` = ${value.trim()}` : ""}`,
  returnText: (value) => `return ${value}`,
  assignment: (name, value) => `${name} = ${value}`,
  parameterList: (fn) => fn.childForFieldName("parameters") ?? undefined,
  functionBody: (fn) => fn.childForFieldName("body") ?? undefined,
  functionName: (fn) => fn.childForFieldName("name")?.text,
  binary: {
    "and": 0.5,
    "or": 0.5,
    "||": 4,
    "&&": 5,
    "<=>": 9,
    "==": 9,
    "===": 9,
    "!=": 9,
    "=~": 9,
    "!~": 9,
    "<": 10,
    "<=": 10,
    ">": 10,
    ">=": 10,
    "|": 6,
    "^": 6,
    "&": 8,
    "<<": 11,
    ">>": 11,
    "+": 12,
    "-": 12,
    "*": 13,
    "/": 13,
    "%": 13,
    "**": 14.5,
  },
  levels: { assignment: 2, ternary: 3, unary: 15, primary: 18 },
  notExpressions:
    /^(if|unless|while|until|case|case_match|begin|method|singleton_method|class|singleton_class|module|then|else|elsif|ensure|rescue|do|return|do_block|block|heredoc_body|hash_key_symbol|string_content|when|in_clause|pair|begin_block|end_block|break|next|redo|retry|yield|alias|undef|uninterpreted|identifier_suffix)$/,
  isNameSlot: (node) =>
    !!node.parent && node.parent.type === "call" && node.parent.childForFieldName("method")?.id === node.id,
  blockScoped: [],
  identifierTypes: ["identifier"],
});

/** The Ruby table. */
export const RUBY: LanguageTable = {
  ...base,
  guard: (condition, body) => [{ line: `if ${condition.trim()}` }, { body }, { line: "end" }],
  bodyStatements(fn) {
    const block = fn.childForFieldName("body");
    if (!block) return undefined;
    return { block, statements: statementsOf(block), skipped: [] };
  },
  returnValue(node: Node) {
    const args = node.namedChildren.find((c) => c?.type === "argument_list");
    const inner = args ? statementsOf(args) : [];
    return inner.length === 1 ? inner[0] : undefined;
  },
  bracedBodies: false,
};
