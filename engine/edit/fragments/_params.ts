/**
 * A minimal, Python-only stand-in for `validateParam` of
 * `engine/edit/params.ts` (typed parameters checked by parsing them in their
 * grammatical role), with the same signature, used until that module exists.
 * It also checks assignment/loop targets, a role `params.ts` does not have.
 *
 * @module
 */

import type { ParamKind } from "../catalog_types.ts";
import { error, type Issue } from "../../issue.ts";
import { type LanguageId, type Node, parse } from "../../parse/mod.ts";

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

const ROLE_NAMES: Partial<Record<ParamKind, string>> = {
  expression: "an expression",
  condition: "a condition expression",
  type_annotation: "a type annotation",
  parameters: "a parameter list",
  decorator: "a decorator expression",
  identifier: "an identifier",
};

const EXPRESSION_TOPS = new Set(["parenthesized_expression", "tuple", "generator_expression"]);

/**
 * Problems with `value` as a parameter of kind `kind` (Python only; other
 * kinds and languages are accepted unchecked). `name` names the parameter
 * in messages.
 */
export async function validateParam(
  kind: ParamKind,
  value: unknown,
  options: { language: LanguageId; name: string },
): Promise<Issue[]> {
  const { name, language } = options;
  const path = ["params", name];
  if (typeof value !== "string") {
    return [error("param-invalid", `Parameter "${name}" must be a string`, { path })];
  }
  if (language !== "python") return [];
  const invalid = (why: string) =>
    error("param-invalid", `Parameter "${name}" must be ${ROLE_NAMES[kind] ?? kind}: ${why}`, { path });
  switch (kind) {
    case "identifier":
      return isPythonIdentifier(value) ? [] : [invalid(`"${clip(value)}" is not a Python identifier`)];
    case "expression":
    case "condition":
    case "type_annotation":
    case "decorator": {
      const text = kind === "decorator" ? value.replace(/^\s*@/, "") : value;
      if (text.trim() === "") return [invalid("it is empty")];
      const ok = await expressionCheck(text, () => true);
      return ok ? [] : [invalid(`"${clip(value)}" does not parse as one`)];
    }
    case "parameters": {
      if (value.trim() === "") return [];
      const ok = await parsesAs(`def _(${value}\n): pass\n`, "function_definition");
      return ok ? [] : [invalid(`"${clip(value)}" does not parse as one`)];
    }
    default:
      return [];
  }
}

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
  const tree = await parse("python", `(${text}\n)\n`);
  try {
    const root = tree.rootNode;
    if (root.hasError) return false;
    const statements = named(root);
    if (statements.length !== 1 || statements[0].type !== "expression_statement") return false;
    const expr = named(statements[0]);
    if (expr.length !== 1 || !EXPRESSION_TOPS.has(expr[0].type)) return false;
    if (expr[0].type !== "parenthesized_expression") return accept(expr[0]);
    const inner = named(expr[0]);
    return inner.length === 1 && accept(inner[0]);
  } finally {
    tree.delete();
  }
}

function named(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => !!child && child.type !== "comment");
}

async function parsesAs(source: string, type: string): Promise<boolean> {
  const tree = await parse("python", source);
  try {
    const root = tree.rootNode;
    const statements = root.namedChildren.filter((child) => child && child.type !== "comment");
    return !root.hasError && statements.length === 1 && statements[0]!.type === type;
  } finally {
    tree.delete();
  }
}

function clip(value: string): string {
  const flat = value.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}
