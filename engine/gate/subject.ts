/**
 * What a check is about, as the gate compares rewrites of it: its subject
 * with the function's single-assignment locals written out, and whether
 * it pins that subject to a literal.
 *
 * A local assigned once in a function (`s = str(excinfo)`) stands for its
 * value, so `assert s.endswith("x")` is about `str(excinfo)` wherever
 * `excinfo` was bound the same way: two tests that spell the same check
 * through different locals (`s = repr(e); assert s == L` and
 * `assert repr(e) == L`) perform the same check. A name bound any other
 * way (a parameter, a loop target, a second assignment, `with ... as`) is
 * not written out and keeps the check local to its test.
 *
 * A check `assert S == L` (or `S is L`) with `L` a literal pins `S`: it
 * passes only when `S` is that value. Another check is decided by such a
 * pin when the pinned subject is all it reads from the code under test:
 * every step from the subject up to the check is Python itself (a
 * comparison, `not`, `and`/`or`, a builtin such as `len`/`str`/`sorted`, a
 * method, attribute or subscript of the derived value) and everything
 * else it reads is inert (literals, names not bound in the function,
 * builtins of those). `assert len(s.split(":")) >= 3` is decided by
 * `assert s == "<ExceptionInfo ValueError tblen=4>"`: the value is a
 * literal, so what Python computes from it is fixed. A method of a subject
 * that is not pinned to a literal runs the code under test
 * (`B[i, j]` of a pinned `B == BlockMatrix(...)`), so it is never decided.
 * `Check.derived` lists the subjects each assertion is decided by.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";
import { normalizeCode } from "../analysis/python_tests.ts";

/** Whether `node` is a literal whose value is fixed (a string, number, constant or a container of them). */
export function isLiteral(node: Node | null): boolean {
  if (!node) return false;
  switch (node.type) {
    case "integer":
    case "float":
    case "true":
    case "false":
    case "none":
    case "concatenated_string":
      return true;
    case "string":
      return !node.children.some((child) => child?.type === "interpolation");
    case "unary_operator":
    case "parenthesized_expression":
      return isLiteral(node.namedChildren.at(-1) ?? null);
    case "tuple":
    case "list":
    case "set":
      return node.namedChildren.every((child) => isLiteral(child));
    case "dictionary":
      return node.namedChildren.every((pair) => pair?.namedChildren.every((child) => isLiteral(child)));
    default:
      return false;
  }
}

const MAX_DEPTH = 4;
const BUILTINS = new Set([
  "abs",
  "all",
  "any",
  "bool",
  "bytes",
  "chr",
  "dict",
  "float",
  "format",
  "frozenset",
  "hash",
  "int",
  "isinstance",
  "len",
  "list",
  "max",
  "min",
  "ord",
  "repr",
  "reversed",
  "round",
  "set",
  "sorted",
  "str",
  "sum",
  "tuple",
  "type",
]);
const SCOPES = /^(function_definition|class_definition|lambda|decorated_definition)$/;
const PRIMARY =
  /^(call|attribute|subscript|identifier|string|integer|float|true|false|none|list|tuple|dictionary|set|parenthesized_expression)$/;

/** The locals of a function: those assigned once by `name = value`, and every name bound otherwise. */
export interface Locals {
  /** Name → the value of its one plain assignment. */
  values: Map<string, Node>;
  /** Every name the function binds (parameters, loop and `as` targets, assignments). */
  bound: Set<string>;
  /** Its parameters (fixtures, by name: the same wherever the name is the same). */
  parameters: Set<string>;
}

/** No locals (module level, or a body the gate does not write out). */
export const NO_LOCALS: Locals = { values: new Map(), bound: new Set(), parameters: new Set() };

/**
 * Whether `node` means the same wherever it stands: every local it reads is
 * a parameter or assigned once (and its value is stable too).
 */
export function stable(node: Node, locals: Locals, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  const uses = (node.type === "identifier" ? [node] : node.descendantsOfType("identifier"))
    .filter((n): n is Node => n !== null && isLoad(n) && locals.bound.has(n.text));
  return uses.every((use) => {
    if (locals.parameters.has(use.text)) return true;
    const value = locals.values.get(use.text);
    return value !== undefined && stable(value, locals, depth + 1);
  });
}

function identifiersOf(node: Node | null): string[] {
  if (!node) return [];
  if (node.type === "identifier") return [node.text];
  return node.descendantsOfType("identifier").map((n) => n?.text ?? "").filter((t) => t !== "");
}

/** The locals of function definition `fn`. */
export function localsOf(fn: Node): Locals {
  const counts = new Map<string, number>();
  const values = new Map<string, Node>();
  const bind = (name: string, value?: Node) => {
    counts.set(name, (counts.get(name) ?? 0) + (value ? 1 : 2));
    if (value) values.set(name, value);
  };
  const parameters = new Set(identifiersOf(fn.childForFieldName("parameters")));
  for (const name of parameters) bind(name);
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (SCOPES.test(child.type)) {
        const name = child.type === "decorated_definition"
          ? child.childForFieldName("definition")?.childForFieldName("name")?.text
          : child.childForFieldName("name")?.text;
        if (name) bind(name);
        continue;
      }
      const left = child.childForFieldName("left");
      switch (child.type) {
        case "assignment": {
          const right = child.childForFieldName("right");
          if (left?.type === "identifier" && right && right.type !== "assignment") bind(left.text, right);
          else if (left?.type !== "attribute" && left?.type !== "subscript") {
            identifiersOf(left).forEach((n) => bind(n));
          }
          break;
        }
        case "augmented_assignment":
        case "for_statement":
        case "for_in_clause":
          if (left?.type !== "attribute" && left?.type !== "subscript") {
            identifiersOf(left).forEach((n) => bind(n));
          }
          break;
        case "as_pattern":
          identifiersOf(child.childForFieldName("alias")).forEach((n) => bind(n));
          break;
        case "named_expression":
          identifiersOf(child.childForFieldName("name")).forEach((n) => bind(n));
          break;
        case "global_statement":
        case "nonlocal_statement":
        case "import_statement":
        case "import_from_statement":
          identifiersOf(child).forEach((n) => bind(n));
          break;
      }
      visit(child);
    }
  };
  const body = fn.childForFieldName("body");
  if (body) visit(body);
  for (const [name, count] of counts) if (count !== 1) values.delete(name);
  for (const name of parameters) if (counts.get(name) !== 1) parameters.delete(name);
  return { values, bound: new Set(counts.keys()), parameters };
}

/** Whether identifier `node` reads a variable (not an attribute's or keyword's name). */
function isLoad(node: Node): boolean {
  const parent = node.parent;
  if (parent?.type === "attribute" && parent.childForFieldName("attribute")?.id === node.id) return false;
  if (parent?.type === "keyword_argument" && parent.childForFieldName("name")?.id === node.id) return false;
  return true;
}

/** The text of `node` with its single-assignment locals written out, whitespace-normalized. */
export function inlined(node: Node, locals: Locals, depth = 0): string {
  if (depth >= MAX_DEPTH || locals.values.size === 0) return normalizeCode(node.text);
  const base = node.startIndex;
  let text = node.text;
  const uses = (node.type === "identifier" ? [node] : node.descendantsOfType("identifier"))
    .filter((n): n is Node => n !== null && isLoad(n) && locals.values.has(n.text))
    .sort((a, b) => b.startIndex - a.startIndex);
  for (const use of uses) {
    const value = locals.values.get(use.text)!;
    if (value.startIndex <= use.startIndex && use.endIndex <= value.endIndex) continue;
    const written = inlined(value, locals, depth + 1);
    const piece = PRIMARY.test(value.type) ? written : `(${written})`;
    text = text.slice(0, use.startIndex - base) + piece + text.slice(use.endIndex - base);
  }
  return normalizeCode(text);
}

/** Whether `node` reads nothing the code under test computes (literals, names the function does not bind). */
function inert(node: Node, locals: Locals, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (isLiteral(node)) return true;
  switch (node.type) {
    case "identifier": {
      const value = locals.values.get(node.text);
      if (value) return inert(value, locals, depth + 1);
      return !locals.bound.has(node.text);
    }
    case "attribute":
      return inert(node.childForFieldName("object")!, locals, depth);
    case "subscript":
    case "slice":
    case "unary_operator":
    case "binary_operator":
    case "parenthesized_expression":
    case "argument_list":
      return node.namedChildren.every((child) => child === null || inert(child, locals, depth));
    case "call": {
      const callee = node.childForFieldName("function");
      return callee?.type === "identifier" && BUILTINS.has(callee.text) && !locals.bound.has(callee.text) &&
        inert(node.childForFieldName("arguments")!, locals, depth);
    }
    default:
      return false;
  }
}

/** The parts of `node` whose value decides it when pinned (each written out), `node` first. */
export function derivedSubjects(node: Node, locals: Locals): string[] {
  const out: string[] = [];
  const descend = (part: Node, depth: number) => {
    if (depth > 3 * MAX_DEPTH) return;
    if (stable(part, locals)) out.push(inlined(part, locals));
    const only = (inside: Node | null, others: (Node | null)[]) => {
      if (inside && others.every((other) => other === null || inert(other, locals))) {
        descend(inside, depth + 1);
      }
    };
    const children = part.namedChildren.filter((child): child is Node => child !== null);
    switch (part.type) {
      case "identifier": {
        const value = locals.values.get(part.text);
        if (value) descend(value, depth + 1);
        return;
      }
      case "comparison_operator":
      case "boolean_operator":
      case "not_operator":
      case "parenthesized_expression":
      case "binary_operator":
        for (const child of children) only(child, children.filter((c) => c.id !== child.id));
        return;
      case "attribute":
        return only(part.childForFieldName("object"), []);
      case "subscript":
        return only(part.childForFieldName("value"), part.childrenForFieldName("subscript"));
      case "call": {
        const callee = part.childForFieldName("function");
        const args = (part.childForFieldName("arguments")?.namedChildren ?? []).filter((n): n is Node =>
          n !== null
        );
        if (callee?.type === "attribute") return only(callee.childForFieldName("object"), args);
        if (callee?.type === "identifier" && BUILTINS.has(callee.text) && !locals.bound.has(callee.text)) {
          for (const arg of args) only(arg, args.filter((a) => a.id !== arg.id));
        }
        return;
      }
    }
  };
  descend(node, 0);
  return [...new Set(out)];
}

/** The subject an `assert` condition pins to a literal (`S == "x"`, `S is None`), written out. */
export function pinnedSubject(condition: Node, locals: Locals): string | undefined {
  if (condition.type === "parenthesized_expression" && condition.namedChildren[0]) {
    return pinnedSubject(condition.namedChildren[0], locals);
  }
  if (condition.type !== "comparison_operator") return undefined;
  const sides = condition.namedChildren.filter((child): child is Node => child !== null);
  const ops = condition.children.filter((c) => c !== null && !c.isNamed).map((c) => c!.type);
  if (sides.length !== 2 || ops.length !== 1 || (ops[0] !== "==" && ops[0] !== "is")) return undefined;
  const [left, right] = sides;
  const subject = isLiteral(right) && !isLiteral(left)
    ? left
    : isLiteral(left) && !isLiteral(right)
    ? right
    : undefined;
  return subject && stable(subject, locals) ? inlined(subject, locals) : undefined;
}
