/**
 * The Python table of the templates (tree-sitter-python 0.21 node types).
 *
 * Precedence follows the Python reference's table, lowest first:
 * `:=` 0, tuple display without parentheses 0.5, `lambda` 1, `x if c else y`
 * 2, `or` 3, `and` 4, `not` 5, comparisons 6, `|` 7, `^` 8, `&` 9, shifts 10,
 * `+ -` 11, `* / // % @` 12, unary 13, `**` 14, `await` 15, primaries 16.
 *
 * @module
 */

import { error, warning } from "../../../base/issue.ts";
import type { Node } from "../../../parse/mod.ts";
import { occurrencesOf, resolveName, scopeChainAt } from "../../../analysis/scope.ts";
import {
  type BranchPlan,
  fieldIs,
  type LanguageTable,
  normalizeCode,
  type ParamInfo,
  statementsOf,
} from "./table.ts";

const BINARY: Record<string, number> = {
  "|": 7,
  "^": 8,
  "&": 9,
  "<<": 10,
  ">>": 10,
  "+": 11,
  "-": 11,
  "*": 12,
  "/": 12,
  "//": 12,
  "%": 12,
  "@": 12,
  "**": 14,
};

const PRIMARY = 16;

function operatorOf(node: Node): string {
  return node.childForFieldName("operator")?.text ?? node.children.find((c) => c && !c.isNamed)?.text ?? "";
}

function precedence(expr: Node): number {
  switch (expr.type) {
    case "named_expression":
      return 0;
    case "expression_list":
      return 0.5;
    case "lambda":
      return 1;
    case "conditional_expression":
      return 2;
    case "boolean_operator":
      return operatorOf(expr) === "or" ? 3 : 4;
    case "not_operator":
      return 5;
    case "comparison_operator":
      return 6;
    case "binary_operator":
      return BINARY[operatorOf(expr)] ?? 12;
    case "unary_operator":
      return 13;
    case "await":
      return 15;
    default:
      return PRIMARY;
  }
}

function requiredPrecedence(slot: Node): number {
  const parent = slot.parent;
  if (!parent) return 0;
  switch (parent.type) {
    case "binary_operator": {
      const p = precedence(parent);
      const left = fieldIs(parent, "left", slot);
      if (p === 14) return left ? 15 : 13;
      return left ? p : p + 1;
    }
    case "boolean_operator":
      return precedence(parent);
    case "comparison_operator":
      return 7;
    case "not_operator":
      return 5;
    case "unary_operator":
      return 13;
    case "await":
      return PRIMARY;
    case "conditional_expression":
      return 3;
    case "attribute":
      return fieldIs(parent, "object", slot) ? PRIMARY : 0;
    case "call":
      return fieldIs(parent, "function", slot) ? PRIMARY : 0;
    case "subscript":
      return fieldIs(parent, "value", slot) ? PRIMARY : 1;
    case "parenthesized_expression":
      return 0;
    case "expression_statement":
    case "return_statement":
    case "assignment":
    case "augmented_assignment":
      return 0.5;
    default:
      return 1;
  }
}

function isDocstring(statement: Node | undefined): boolean {
  return !!statement && statement.type === "expression_statement" && statement.namedChildCount === 1 &&
    /^(string|concatenated_string)$/.test(statement.namedChild(0)?.type ?? "");
}

function paramInfo(node: Node, index: number, isMethod: boolean): ParamInfo {
  const nameOf = (n: Node | null | undefined): string =>
    !n ? "" : n.type === "identifier" ? n.text : nameOf(n.childForFieldName("name") ?? n.namedChild(0));
  switch (node.type) {
    case "identifier":
      return { node, name: node.text, role: index === 0 && isMethod ? "self" : "plain" };
    case "typed_parameter":
      return { node, name: nameOf(node.namedChild(0)), role: roleOfSplat(node.namedChild(0)) ?? "plain" };
    case "default_parameter":
    case "typed_default_parameter":
      return { node, name: nameOf(node.childForFieldName("name")), role: "default" };
    case "list_splat_pattern":
    case "dictionary_splat_pattern":
      return { node, name: nameOf(node.namedChild(0)), role: roleOfSplat(node)! };
    case "keyword_separator":
      return { node, name: "", role: "kwsep" };
    case "positional_separator":
      return { node, name: "", role: "posonly" };
    default:
      return { node, name: node.text, role: "plain" };
  }
}

function roleOfSplat(node: Node | null): ParamInfo["role"] | undefined {
  if (node?.type === "list_splat_pattern") return "varargs";
  if (node?.type === "dictionary_splat_pattern") return "kwargs";
  return undefined;
}

function isMethod(fn: Node): boolean {
  let owner = fn.parent;
  if (owner?.type === "decorated_definition") {
    const decorators = owner.namedChildren.filter((c) => c?.type === "decorator").map((c) => c!.text);
    if (decorators.some((d) => /^@staticmethod\b/.test(d))) return false;
    owner = owner.parent;
  }
  return owner?.type === "block" && owner.parent?.type === "class_definition";
}

function blockOf(node: Node, field: string): Node | undefined {
  const block = node.childForFieldName(field);
  return block ?? undefined;
}

/** The Python table. */
export const PYTHON: LanguageTable = {
  languages: ["python"],
  rootType: "module",
  blockTypes: new Set(["block", "module"]),
  functionTypes: new Set(["function_definition"]),
  classTypes: new Set(["class_definition"]),
  callTypes: new Set(["call"]),
  conditionalTypes: new Set(["if_statement", "elif_clause", "while_statement"]),
  returnTypes: new Set(["return_statement"]),
  keywordOnly: true,
  keywordOnlyMarker: "*",

  bodyStatements(fn) {
    const block = blockOf(fn, "body");
    if (!block) return undefined;
    const statements = statementsOf(block);
    const skipped = isDocstring(statements[0]) ? [statements[0]] : [];
    return { block, statements: statements.slice(skipped.length), skipped };
  },

  guard: (condition, body) => [{ line: `if ${condition.trim()}:` }, { body }],

  tryExcept({ excType, asName, handler, finallyBody }) {
    return [
      { line: "try:" },
      { target: true },
      { line: `except ${excType.trim()}${asName ? ` as ${asName}` : ""}:` },
      { body: handler },
      ...(finallyBody ? [{ line: "finally:" }, { body: finallyBody }] : []),
    ];
  },

  inTry(statement, excType) {
    const block = statement.parent;
    const tryNode = block?.parent;
    if (!block || tryNode?.type !== "try_statement" || !fieldIs(tryNode, "body", block)) return false;
    if (statementsOf(block).length !== 1) return false;
    return tryNode.namedChildren.some((clause) => {
      if (clause?.type !== "except_clause") return false;
      const handled = /^except\s*\*?\s*([\s\S]*?)(\s+as\s+\w+)?\s*:/.exec(clause.text)?.[1] ?? "";
      return normalizeCode(handled) === normalizeCode(excType);
    });
  },

  withBlock: (context, asName) => [
    { line: `with ${context.trim()}${asName ? ` as ${asName}` : ""}:` },
    { target: true },
  ],

  inWith(statement, context) {
    const block = statement.parent;
    const withNode = block?.parent;
    if (!block || withNode?.type !== "with_statement" || statementsOf(block).length !== 1) return false;
    const clause = withNode.namedChildren.find((c) => c?.type === "with_clause");
    return !!clause && normalizeCode(clause.text).startsWith(normalizeCode(context));
  },

  parameterList: (fn) => fn.childForFieldName("parameters") ?? undefined,

  parameters(list) {
    const fn = list.parent;
    const method = !!fn && isMethod(fn);
    return statementsOf(list).map((node, index) => paramInfo(node, index, method));
  },

  parameterText({ name, default: value, annotation }) {
    if (annotation) return `${name}: ${annotation.trim()}${value !== undefined ? ` = ${value.trim()}` : ""}`;
    return value !== undefined ? `${name}=${value.trim()}` : name;
  },

  functionName: (fn) => fn.childForFieldName("name")?.text,

  callArguments(call) {
    const args = call.childForFieldName("arguments");
    if (!args || args.type !== "argument_list") return undefined;
    let positional = 0;
    const keywords: string[] = [];
    for (const arg of statementsOf(args)) {
      if (arg.type === "list_splat" || arg.type === "dictionary_splat") return undefined;
      if (arg.type === "keyword_argument") keywords.push(arg.childForFieldName("name")?.text ?? "");
      else positional++;
    }
    return { positional, keywords };
  },

  condition: (node) => node.childForFieldName("condition") ?? undefined,

  returnValue: (node) => node.namedChildren.find((c) => c && c.type !== "comment") ?? undefined,

  returnText: (value) => `return ${value.trim()}`,

  assignment: (name, value) => `${name} = ${value.trim()}`,

  branch(ifNode, { condition, body }): BranchPlan | { error: string } {
    const clauses = ifNode.childrenForFieldName("alternative").filter((c): c is Node => !!c);
    const elseClause = clauses.find((c) => c.type === "else_clause");
    if (condition === undefined) {
      if (elseClause) {
        return { error: `The if statement at line ${ifNode.startPosition.row + 1} has an else branch` };
      }
      return { at: ifNode.endIndex, inline: false, parts: [{ line: "else:" }, { body }] };
    }
    const present = [ifNode, ...clauses].some((c) =>
      c.type !== "else_clause" && normalizeCode(c.childForFieldName("condition")?.text ?? "") ===
        normalizeCode(condition)
    );
    const parts = [{ line: `elif ${condition.trim()}:` }, { body }];
    if (elseClause) return { at: elseClause.startIndex, inline: false, parts, present };
    return { at: ifNode.endIndex, inline: false, parts, present };
  },

  bodyRange(fn, keepDocstring) {
    const block = blockOf(fn, "body")!;
    const statements = statementsOf(block);
    const inline = block.startPosition.row === fn.childForFieldName("parameters")?.endPosition.row &&
      !block.text.includes("\n");
    if (keepDocstring && isDocstring(statements[0]) && statements.length > 1) {
      return { block, start: statements[1].startIndex, end: block.endIndex, inline: false };
    }
    if (keepDocstring && isDocstring(statements[0])) {
      return { block, start: statements[0].endIndex, end: block.endIndex, inline: false };
    }
    // Comments between the colon and the first statement are the body's (tree-sitter puts them before the block).
    const leading = inline
      ? undefined
      : fn.children.find((child) =>
        child?.type === "comment" && child.startIndex < block.startIndex &&
        child.startPosition.row > (fn.childForFieldName("parameters")?.endPosition.row ?? Infinity) &&
        fn.tree.rootNode.text.slice(
            fn.tree.rootNode.text.lastIndexOf("\n", child.startIndex - 1) + 1,
            child.startIndex,
          )
            .trim() === ""
      );
    return { block, start: leading?.startIndex ?? block.startIndex, end: block.endIndex, inline };
  },

  classAttribute: (name, value, annotation) =>
    annotation ? `${name}: ${annotation.trim()} = ${value.trim()}` : `${name} = ${value.trim()}`,

  classBody: (cls) => cls.childForFieldName("body") ?? undefined,

  classMembers(cls) {
    const attributes = new Map<string, Node>();
    const methods = new Map<string, Node>();
    const body = cls.childForFieldName("body");
    for (const statement of body ? statementsOf(body) : []) {
      const definition = statement.type === "decorated_definition"
        ? statement.childForFieldName("definition")
        : statement;
      if (definition?.type === "function_definition" || definition?.type === "class_definition") {
        const name = definition.childForFieldName("name")?.text;
        if (name) methods.set(name, statement);
      } else if (statement.type === "expression_statement") {
        const assignment = statement.namedChild(0);
        const left = assignment?.type === "assignment" ? assignment.childForFieldName("left") : null;
        if (left?.type === "identifier") attributes.set(left.text, statement);
      }
    }
    return { attributes, methods };
  },

  definedName(code) {
    const definition = code.type === "decorated_definition" ? code.childForFieldName("definition") : code;
    return definition?.type === "function_definition"
      ? definition.childForFieldName("name")?.text
      : undefined;
  },

  unwrapExpression(node) {
    if (node.type === "expression_statement" && node.namedChildCount === 1) return node.namedChild(0)!;
    return node;
  },

  isExpression(node) {
    if (
      /statement|definition|clause|block|module|parameters|argument_list|keyword_argument/.test(node.type)
    ) {
      return false;
    }
    if (
      /^(assignment|augmented_assignment|comment|pair|type|decorator|dotted_name|aliased_import)$/.test(
        node.type,
      )
    ) {
      return false;
    }
    return node.isNamed;
  },

  isNameSlot(node) {
    const parent = node.parent;
    if (!parent || node.type !== "identifier") return false;
    if (parent.type === "attribute") return fieldIs(parent, "attribute", node);
    if (parent.type === "keyword_argument") return fieldIs(parent, "name", node);
    return /^(function_definition|class_definition|parameters|default_parameter|typed_parameter|typed_default_parameter|global_statement|nonlocal_statement|dotted_name)$/
      .test(parent.type);
  },

  precedence,
  requiredPrecedence,

  memberContext: (code) => ({ text: code, members: (root) => statementsOf(root) }),
  isDocstring: (statement) => isDocstring(statement),
  isPlaceholder: (statement) =>
    statement.type === "pass_statement" ||
    (statement.type === "expression_statement" && statement.namedChildCount === 1 &&
      statement.namedChild(0)?.type === "ellipsis"),
  detachedTerminators: false,
  blockScoped: new Set(),
  decoratable: new Set(["function_definition", "class_definition"]),
  bracedBodies: false,
  assignmentPrecedence: 0.5,

  newNameConflicts(doc, node, name) {
    const file = doc.file.path;
    const scope = scopeChainAt(doc, node)[0];
    const bound = scope.bindings.get(name);
    if (bound?.length) {
      return [error("name-bound", `Name "${name}" is already bound in this scope (line ${bound[0].line})`, {
        file,
        line: bound[0].line,
        hint: "choose another name",
      })];
    }
    const range = scope.kind === "module"
      ? undefined
      : { from: scope.node.startIndex, to: scope.node.endIndex };
    const read = occurrencesOf(doc, name, range).find((o) => o.role === "reference");
    if (read) {
      const line = read.node.startPosition.row + 1;
      return [error(
        "name-bound",
        `Name "${name}" is already used in this scope (line ${line}); the new variable would shadow it`,
        { file, line, hint: "choose another name" },
      )];
    }
    if (resolveName(doc, name, node).status === "builtin") {
      return [warning("shadows", `"${name}" shadows a builtin`, { file, line: node.startPosition.row + 1 })];
    }
    return [];
  },
};
