/**
 * Python syntax that needs a given version or newer, found in a tree. The
 * pinned grammar (2023) parses most of it whatever the target; a repository
 * that supports 3.7 cannot run a walrus. Each feature, with the version that
 * introduced it:
 *
 * | feature | since |
 * |---|---|
 * | f-string; variable annotation; `_` in a number | 3.6 |
 * | walrus `:=`; positional-only `/`; unparenthesized `*` in `return`/`yield` | 3.8 |
 * | decorator that is any expression (PEP 614) | 3.9 |
 * | `match`; parenthesized context managers `with (a as b, ...)` | 3.10 |
 * | `except*` | 3.11 |
 * | f-string reusing its quote inside `{}`, a backslash or a comment there (PEP 701); type parameters `def f[T]`; `type X = ...` | 3.12 |
 *
 * Before 3.12 an f-string was one string token: inside its braces no string
 * may use the same quote (for a triple-quoted f-string, the same triple
 * quote), and no backslash or `#` may appear. Nested f-strings therefore had
 * to alternate quotes, and the rule reaches through every level: in
 * `f"{f'{"x"}'}"` the innermost `"x"` ends the outer string.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";
import { childrenIn } from "../parse/children_in.ts";
import { preorder } from "../parse/walk.ts";
import type { PythonVersion } from "./python_version.ts";

/** One use of version-dependent syntax. */
export interface SyntaxFeature {
  /** Stable short name, e.g. `walrus`, `fstring-quote-reuse`. */
  feature: string;
  /** What it is, for messages (`assignment expression ":="`). */
  description: string;
  since: PythonVersion;
  startIndex: number;
  endIndex: number;
  /** 1-based line. */
  line: number;
  /** First line of the node's text. */
  text: string;
}

const v = (minor: number): PythonVersion => ({ major: 3, minor });

/**
 * Features used in `root` (only in nodes overlapping [start, end] when a
 * range is given). `atLeast` skips features older than that version.
 */
export function pythonFeatures(
  root: Node,
  options: { range?: { start: number; end: number }; atLeast?: PythonVersion } = {},
): SyntaxFeature[] {
  const out: SyntaxFeature[] = [];
  const minMinor = options.atLeast?.major === 3 ? options.atLeast.minor : 0;
  const add = (node: Node, feature: string, description: string, minor: number) => {
    if (minor < minMinor) return;
    out.push({
      feature,
      description,
      since: v(minor),
      startIndex: node.startIndex,
      endIndex: node.endIndex,
      line: node.startPosition.row + 1,
      text: node.text.split("\n", 1)[0].trim().slice(0, 80),
    });
  };
  const range = options.range;
  const visit = (node: Node): boolean => {
    if (range && (node.endIndex < range.start || node.startIndex > range.end)) return false;
    switch (node.type) {
      case "string":
        if (isFString(node)) {
          add(node, "fstring", "f-string", 6);
          fStringRules(node, add);
        }
        break;
      case "assignment":
        if (node.childForFieldName("type")) add(node, "variable-annotation", "variable annotation", 6);
        break;
      case "integer":
      case "float":
        if (node.text.includes("_")) add(node, "numeric-underscore", "underscore in a number", 6);
        break;
      case "named_expression":
        add(node, "walrus", 'assignment expression ":="', 8);
        break;
      case "positional_separator":
        add(node, "positional-only", 'positional-only parameters "/"', 8);
        break;
      case "return_statement":
      case "yield": {
        const value = node.namedChild(0);
        if (value?.type === "expression_list" && value.namedChildren.some((c) => c?.type === "list_splat")) {
          add(
            node,
            "unparenthesized-star",
            `unparenthesized "*" in "${node.type.replace("_statement", "")}"`,
            8,
          );
        }
        break;
      }
      case "decorator": {
        const expression = node.namedChildren.find((c) => c?.type !== "comment");
        if (expression && !classicDecorator(expression)) {
          add(node, "relaxed-decorator", "decorator that is not a dotted name or a call of one", 9);
        }
        break;
      }
      case "match_statement":
        add(node, "match", '"match" statement', 10);
        break;
      case "with_statement":
        if (parenthesizedItems(node)) {
          add(node, "parenthesized-with", 'parenthesized context managers "with (a as b, ...)"', 10);
        }
        break;
      case "except_group_clause":
        add(node, "except-star", '"except*"', 11);
        break;
      case "function_definition":
      case "class_definition": {
        // (the grammar also calls an annotation's subscript `type_parameter`: only the field counts)
        const params = node.childForFieldName("type_parameters");
        if (params) add(params, "type-parameters", 'type parameters "[T]" (PEP 695)', 12);
        break;
      }
      case "type_alias_statement":
        add(node, "type-alias", '"type" alias statement', 12);
        break;
    }
    return true;
  };
  // With a range, only the children of the root overlapping it are walked (found by position, not by
  // a walk over all of them: a module grown by thousands of statements would cost that much per call).
  if (!range) preorder(root, visit);
  else if (visit(root)) {
    for (const child of childrenIn(root, range.start, range.end)) {
      preorder(child, visit);
    }
  }
  return out;
}

/** Whether a string node is an f-string. */
export function isFString(node: Node): boolean {
  const start = node.namedChild(0);
  return node.type === "string" && start?.type === "string_start" && /^[a-zA-Z]*[fF]/.test(start.text);
}

/** The quote of a string node: `"`, `'`, `"""` or `'''`. */
export function quoteOf(node: Node): string {
  const start = node.namedChild(0)?.text ?? '"';
  return start.replace(/^[a-zA-Z]*/, "");
}

/** The expression parts of an f-string: its fields' expressions and those nested in format specs. */
export function fieldExpressions(fstring: Node): Node[] {
  const out: Node[] = [];
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "interpolation" || child.type === "format_expression") {
        const expression = child.childForFieldName("expression");
        if (expression) out.push(expression);
        visit(child);
      } else if (child.type === "format_specifier") {
        visit(child);
      }
    }
  };
  visit(fstring);
  return out;
}

/** Whether `inner` (a string inside the braces of an f-string quoted `quote`) ends it before 3.12. */
export function clashesWith(inner: Node, quote: string): boolean {
  const innerQuote = quoteOf(inner);
  return quote.length === 1 ? innerQuote[0] === quote : innerQuote === quote;
}

function fStringRules(
  node: Node,
  add: (node: Node, feature: string, description: string, minor: number) => void,
) {
  const quote = quoteOf(node);
  for (const expression of fieldExpressions(node)) {
    const clash = expression.descendantsOfType("string").find((inner) => inner && clashesWith(inner, quote));
    if (clash) add(clash, "fstring-quote-reuse", `the f-string's own quote ${quote} inside its braces`, 12);
    if (expression.text.includes("\\")) {
      add(expression, "fstring-backslash", "a backslash inside the braces of an f-string", 12);
    }
    if (expression.descendantsOfType("comment").length > 0) {
      add(expression, "fstring-comment", "a comment inside the braces of an f-string", 12);
    }
  }
}

/** Pre-3.9 decorators: a dotted name, optionally called once. */
function classicDecorator(expression: Node): boolean {
  const dotted = (node: Node | null): boolean =>
    !!node && (node.type === "identifier" ||
      (node.type === "attribute" && dotted(node.childForFieldName("object"))));
  if (expression.type === "call") return dotted(expression.childForFieldName("function"));
  return dotted(expression);
}

/** `with (a as b, c as d):` — the parenthesis belongs to the item list, not to the first item. */
function parenthesizedItems(node: Node): boolean {
  const clause = node.namedChildren.find((child) => child?.type === "with_clause");
  const first = clause?.namedChildren.find((child) => child?.type === "with_item");
  if (!clause || !first) return false;
  const open = node.text.slice(0, first.startIndex - node.startIndex).replace(/^(async\s+)?with\s*/, "");
  return open.startsWith("(") && clause.descendantsOfType("as_pattern").length > 0;
}
