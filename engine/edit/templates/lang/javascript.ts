/**
 * The JavaScript / TypeScript / TSX table of the templates (tree-sitter
 * javascript and typescript 0.20 node types).
 *
 * JS has no typed `catch`: `wrap_try_except` with an `exc_type` other than
 * `*` or `Error`... writes `catch (e) { if (!(e instanceof T)) throw e; ... }`
 * so only `T` is handled, as in Python. There is no `with`, no keyword-only
 * parameter and no decorator on functions; those templates refuse JS files.
 *
 * Precedence follows MDN's table, lowest first: `,` 1, assignment / arrow /
 * `yield` 2, `?:` 3, `|| ??` 4, `&&` 5, `|` 6, `^` 7, `&` 8, equality 9,
 * relational (and TS `as`, `satisfies`) 10, shifts 11, `+ -` 12, `* / %` 13,
 * `**` 14, unary and `await` 15, update 16, `new` 17, member / call 18.
 *
 * @module
 */

import { error } from "../../../base/issue.ts";
import type { Node } from "../../../parse/mod.ts";
import {
  type BranchPlan,
  fieldIs,
  type LanguageTable,
  normalizeCode,
  type ParamInfo,
  statementsOf,
} from "./table.ts";

const BINARY: Record<string, number> = {
  "||": 4,
  "??": 4,
  "&&": 5,
  "|": 6,
  "^": 7,
  "&": 8,
  "==": 9,
  "!=": 9,
  "===": 9,
  "!==": 9,
  "<": 10,
  ">": 10,
  "<=": 10,
  ">=": 10,
  "instanceof": 10,
  "in": 10,
  "<<": 11,
  ">>": 11,
  ">>>": 11,
  "+": 12,
  "-": 12,
  "*": 13,
  "/": 13,
  "%": 13,
  "**": 14,
};

const PRIMARY = 18;

function operatorOf(node: Node): string {
  return node.childForFieldName("operator")?.text ?? "";
}

function precedence(expr: Node): number {
  switch (expr.type) {
    case "sequence_expression":
      return 1;
    case "assignment_expression":
    case "augmented_assignment_expression":
    case "arrow_function":
    case "yield_expression":
      return 2;
    case "ternary_expression":
      return 3;
    case "binary_expression":
      return BINARY[operatorOf(expr)] ?? 10;
    case "as_expression":
    case "satisfies_expression":
      return 10;
    case "unary_expression":
    case "await_expression":
      return 15;
    case "update_expression":
      return 16;
    case "new_expression":
      return 17;
    default:
      return PRIMARY;
  }
}

function requiredPrecedence(slot: Node): number {
  const parent = slot.parent;
  if (!parent) return 0;
  switch (parent.type) {
    case "binary_expression": {
      const p = precedence(parent);
      const left = fieldIs(parent, "left", slot);
      // `-a ** b` is a syntax error; `??` does not mix with `||`/`&&` unparenthesised.
      if (p === 14) return left ? 16 : 14;
      if (p <= 5) return 6;
      return left ? p : p + 1;
    }
    case "unary_expression":
    case "await_expression":
      return 15;
    case "ternary_expression":
      return fieldIs(parent, "condition", slot) ? 4 : 2;
    case "member_expression":
    case "subscript_expression":
      return fieldIs(parent, "object", slot) ? PRIMARY : 1;
    case "call_expression":
      return fieldIs(parent, "function", slot) ? PRIMARY : 1;
    case "new_expression":
      return fieldIs(parent, "constructor", slot) ? PRIMARY : 1;
    case "parenthesized_expression":
    case "expression_statement":
      return 1;
    default:
      return 2;
  }
}

function paramInfo(node: Node): ParamInfo {
  const pattern = node.childForFieldName("pattern") ?? node;
  if (pattern.type === "rest_pattern") {
    return { node, name: pattern.namedChild(0)?.text ?? "", role: "varargs" };
  }
  const name = pattern.type === "assignment_pattern"
    ? pattern.childForFieldName("left")?.text ?? ""
    : pattern.text;
  const hasDefault = pattern.type === "assignment_pattern" || !!node.childForFieldName("value") ||
    node.type === "optional_parameter";
  return { node, name, role: hasDefault ? "default" : "plain" };
}

function functionBody(fn: Node): Node | undefined {
  const body = fn.childForFieldName("body");
  return body?.type === "statement_block" ? body : undefined;
}

function isDirective(statement: Node | undefined): boolean {
  return !!statement && statement.type === "expression_statement" &&
    statement.namedChild(0)?.type === "string";
}

/** The JavaScript, TypeScript and TSX table. */
export const JAVASCRIPT: LanguageTable = {
  languages: ["javascript", "typescript", "tsx"],
  rootType: "program",
  blockTypes: new Set(["statement_block", "program", "switch_case", "switch_default"]),
  functionTypes: new Set([
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
  ]),
  classTypes: new Set(["class_declaration", "class", "abstract_class_declaration"]),
  callTypes: new Set(["call_expression"]),
  conditionalTypes: new Set(["if_statement", "while_statement", "do_statement"]),
  returnTypes: new Set(["return_statement"]),
  keywordOnly: false,

  bodyStatements(fn) {
    const block = functionBody(fn);
    if (!block) return undefined;
    const statements = statementsOf(block);
    let skip = 0;
    while (isDirective(statements[skip])) skip++;
    return { block, statements: statements.slice(skip), skipped: statements.slice(0, skip) };
  },

  guard: (condition, body) => [{ line: `if (${condition.trim()}) {` }, { body }, { line: "}" }],

  tryExcept({ excType, asName, handler, finallyBody }) {
    const name = asName ?? "error";
    const type = excType.trim();
    const rethrow = type === "*" || type === ""
      ? []
      : [{ body: `if (!(${name} instanceof ${type})) throw ${name};` }];
    return [
      { line: "try {" },
      { target: true },
      { line: `} catch (${name}) {` },
      ...rethrow,
      { body: handler },
      ...(finallyBody ? [{ line: "} finally {" }, { body: finallyBody }] : []),
      { line: "}" },
    ];
  },

  inTry(statement, excType) {
    const block = statement.parent;
    const tryNode = block?.parent;
    if (!block || tryNode?.type !== "try_statement" || !fieldIs(tryNode, "body", block)) return false;
    if (statementsOf(block).length !== 1) return false;
    const handler = tryNode.childForFieldName("handler");
    const type = excType.trim();
    return !!handler && (type === "*" || handler.text.includes(`instanceof ${type})`));
  },

  parameterList: (fn) => fn.childForFieldName("parameters") ?? undefined,

  parameters: (list) => statementsOf(list).map(paramInfo),

  parameterText({ name, default: value, annotation }) {
    return `${name}${annotation ? `: ${annotation.trim()}` : ""}${
      value !== undefined ? ` = ${value.trim()}` : ""
    }`;
  },

  functionName(fn) {
    const own = fn.childForFieldName("name")?.text;
    if (own) return own;
    const parent = fn.parent;
    if (parent?.type === "variable_declarator") return parent.childForFieldName("name")?.text;
    return undefined;
  },

  callArguments(call) {
    const args = call.childForFieldName("arguments");
    if (!args || args.type !== "arguments") return undefined;
    const list = statementsOf(args);
    if (list.some((arg) => arg.type === "spread_element")) return undefined;
    return { positional: list.length, keywords: [] };
  },

  condition(node) {
    const condition = node.childForFieldName("condition");
    if (condition?.type === "parenthesized_expression") {
      return statementsOf(condition)[0] ?? undefined;
    }
    return condition ?? undefined;
  },

  returnValue: (node) => node.namedChildren.find((c) => c && c.type !== "comment") ?? undefined,

  returnText: (value) => `return ${value.trim()};`,

  assignment: (name, value) => `const ${name} = ${value.trim()};`,

  branch(ifNode, { condition, body }): BranchPlan | { error: string } {
    // Walk the else-if chain to its last if statement.
    let last = ifNode;
    const conditions = [ifNode.childForFieldName("condition")?.text ?? ""];
    for (;;) {
      const alternative = last.childForFieldName("alternative");
      const inner = alternative ? statementsOf(alternative)[0] : undefined;
      if (inner?.type !== "if_statement") break;
      last = inner;
      conditions.push(inner.childForFieldName("condition")?.text ?? "");
    }
    const elseClause = last.childForFieldName("alternative") ?? undefined;
    const consequence = last.childForFieldName("consequence");
    if (condition === undefined) {
      if (elseClause) {
        return { error: `The if statement at line ${ifNode.startPosition.row + 1} has an else branch` };
      }
      return {
        at: consequence!.endIndex,
        inline: true,
        parts: [{ line: " else {" }, { body }, { line: "}" }],
      };
    }
    const present = conditions.some((c) => normalizeCode(c) === normalizeCode(`(${condition})`));
    const parts = [{ line: ` else if (${condition.trim()}) {` }, { body }, { line: "}" }];
    return { at: consequence!.endIndex, inline: true, parts, present };
  },

  bodyRange(fn) {
    const block = functionBody(fn)!;
    const open = block.child(0)!;
    const close = block.child(block.childCount - 1)!;
    return { block, start: open.endIndex, end: close.startIndex, inline: true };
  },

  classAttribute: (name, value, annotation) =>
    `${name}${annotation ? `: ${annotation.trim()}` : ""} = ${value.trim()};`,

  classBody: (cls) => cls.childForFieldName("body") ?? undefined,

  classMembers(cls) {
    const attributes = new Map<string, Node>();
    const methods = new Map<string, Node>();
    const body = cls.childForFieldName("body");
    for (const member of body ? statementsOf(body) : []) {
      const name = (member.childForFieldName("name") ?? member.childForFieldName("property"))?.text;
      if (!name) continue;
      if (member.type === "method_definition") methods.set(name, member);
      else attributes.set(name, member);
    }
    return { attributes, methods };
  },

  definedName(code) {
    return code.type === "method_definition" ? code.childForFieldName("name")?.text : undefined;
  },

  unwrapExpression(node) {
    if (node.type === "expression_statement" && node.namedChildCount === 1) return node.namedChild(0)!;
    return node;
  },

  isExpression(node) {
    if (
      /statement|declaration|clause|block|program|formal_parameters|arguments|declarator|^pair$|pattern|type/
        .test(node.type)
    ) {
      return false;
    }
    return node.isNamed && node.type !== "comment";
  },

  isNameSlot(node) {
    const parent = node.parent;
    if (/property_identifier|shorthand_property/.test(node.type)) return true;
    if (!parent) return false;
    if (parent.type === "member_expression" && fieldIs(parent, "property", node)) return true;
    if (parent.type === "pair" && fieldIs(parent, "key", node)) return true;
    return false;
  },

  precedence,
  requiredPrecedence,

  memberContext: (code) => ({
    text: `class __C {\n${code}\n}`,
    members: (root) => {
      const body = root.namedChild(0)?.childForFieldName("body");
      return body ? statementsOf(body) : [];
    },
  }),
  isDocstring: () => false,
  isPlaceholder: () => false,
  detachedTerminators: true,
  blockScoped: new Set([
    "lexical_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "enum_declaration",
  ]),
  decoratable: new Set(),
  bracedBodies: true,
  assignmentPrecedence: 2,

  newNameConflicts(doc, node, name) {
    // No scope model for JS: any identifier spelled `name` in the enclosing function (or file) clashes.
    let scope: Node = doc.tree.rootNode;
    for (let current = node.parent; current; current = current.parent) {
      if (JAVASCRIPT.functionTypes.has(current.type)) {
        scope = current;
        break;
      }
    }
    const clash = scope.descendantsOfType(["identifier", "shorthand_property_identifier_pattern"])
      .find((id) => id?.text === name);
    if (!clash) return [];
    const line = clash.startPosition.row + 1;
    return [error("name-bound", `Name "${name}" is already used in this function (line ${line})`, {
      file: doc.file.path,
      line,
      hint: "choose another name",
    })];
  },
};
