/**
 * Python roles fragments need beyond `validateParam` of
 * `engine/edit/params.ts`: assignment/loop targets, items of a class's base
 * list, identifiers (sync).
 *
 * @module
 */

import { error, type Issue } from "../../base/issue.ts";
import { type Node, withTree } from "../../parse/mod.ts";

/** Python's hard keywords: not usable as identifiers. */
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set([
  "False",
  "None",
  "True",
  "and",
  "as",
  "assert",
  "async",
  "await",
  "break",
  "class",
  "continue",
  "def",
  "del",
  "elif",
  "else",
  "except",
  "finally",
  "for",
  "from",
  "global",
  "if",
  "import",
  "in",
  "is",
  "lambda",
  "nonlocal",
  "not",
  "or",
  "pass",
  "raise",
  "return",
  "try",
  "while",
  "with",
  "yield",
]);

/** Whether `value` is a Python identifier that is not a keyword. */
export function isPythonIdentifier(value: string): boolean {
  return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(value) && !PYTHON_KEYWORDS.has(value);
}

const EXPRESSION_TOPS = new Set(["parenthesized_expression", "tuple", "generator_expression"]);

/** Problems with `value` as an assignment or loop target (`x`, `a, b`, `self.x`, `d[k]`, `*rest`). */
export async function validateTarget(value: string, name: string): Promise<Issue[]> {
  const path = ["params", name];
  if (value.trim() !== "" && await expressionCheck(value, isTarget)) return [];
  return [
    error("param-invalid", `Parameter "${name}" must be an assignment target: "${clip(value)}" is not one`, {
      path,
      hint: 'a name, attribute, subscript or a tuple of them, e.g. "x", "self.x", "a, b"',
    }),
  ];
}

/** Problems with `value` as one item of a class's base list (`Base`, `metaclass=Meta`, `*bases`). */
export async function validateBase(value: string, name: string): Promise<Issue[]> {
  if (value.trim() !== "") {
    const valid = await withTree("python", `class _(${value}\n): pass\n`, (tree) => {
      const root = tree.rootNode;
      const statements = named(root);
      const args = statements[0]?.childForFieldName("superclasses");
      return !root.hasError && statements.length === 1 && args !== null && named(args).length === 1;
    });
    if (valid) return [];
  }
  return [
    error(
      "param-invalid",
      `Parameter "${name}" must be a base class or keyword: "${clip(value)}" is not one`,
      {
        path: ["params", name],
        hint: 'e.g. "Base", "Generic[T]", "metaclass=ABCMeta"',
      },
    ),
  ];
}

function isTarget(node: Node): boolean {
  switch (node.type) {
    case "identifier":
    case "attribute":
    case "subscript":
      return true;
    case "parenthesized_expression":
    case "tuple":
    case "list":
    case "list_splat":
    case "expression_list":
      return node.namedChildren.length > 0 &&
        node.namedChildren.every((child) => !child || child.type === "comment" || isTarget(child));
    default:
      return false;
  }
}

/**
 * Whether `text`, wrapped in parentheses, parses as exactly one expression
 * that `accept` accepts (given the expression inside the parentheses).
 */
async function expressionCheck(text: string, accept: (node: Node) => boolean): Promise<boolean> {
  return await withTree("python", `(${text}\n)\n`, (tree) => {
    const root = tree.rootNode;
    if (root.hasError) return false;
    const statements = named(root);
    if (statements.length !== 1 || statements[0].type !== "expression_statement") return false;
    const expr = named(statements[0]);
    if (expr.length !== 1 || !EXPRESSION_TOPS.has(expr[0].type)) return false;
    if (expr[0].type !== "parenthesized_expression") return accept(expr[0]);
    const inner = named(expr[0]);
    return inner.length === 1 && accept(inner[0]);
  });
}

function named(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => !!child && child.type !== "comment");
}

function clip(value: string): string {
  const flat = value.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
