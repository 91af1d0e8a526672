/**
 * Python scopes as CPython evaluates them: which scope evaluates a node
 * (a function's defaults and decorators belong to the scope around it, a
 * comprehension's first iterable to the enclosing scope), and which names a
 * function binds (read generously: a missed binding would be a false alarm).
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";
import { preorder } from "../parse/walk.ts";
import { typeAliasName } from "./scope.ts";

/** The comprehension node types (each a scope of its own). */
export const COMPREHENSIONS = new Set([
  "list_comprehension",
  "set_comprehension",
  "dictionary_comprehension",
  "generator_expression",
]);

/** What kind of scope evaluates a node. */
export type ScopeKind = "module" | "class" | "def" | "async" | "lambda" | "generator" | "comprehension";

/** A scope and the node that opens it (the module, a class, a function, a comprehension). */
export interface Scope {
  kind: ScopeKind;
  node: Node;
}

/** Whether a `def`, `for`, `with` or comprehension clause carries `async`. */
export const isAsyncDef = (node: Node) => node.children.some((child) => child?.type === "async");

/** The scope that evaluates `node` (see the module notes). */
export function evalScope(node: Node): Scope {
  let child = node;
  let grandchild: Node | null = null;
  for (let current = node.parent; current; current = current.parent) {
    switch (current.type) {
      case "function_definition":
        if (current.childForFieldName("body")?.id === child.id) {
          return { kind: isAsyncDef(current) ? "async" : "def", node: current };
        }
        break;
      case "lambda":
        if (current.childForFieldName("body")?.id === child.id) return { kind: "lambda", node: current };
        break;
      case "class_definition":
        if (current.childForFieldName("body")?.id === child.id) return { kind: "class", node: current };
        break;
      case "module":
        return { kind: "module", node: current };
      default:
        if (COMPREHENSIONS.has(current.type) && !isFirstIterable(current, child, grandchild)) {
          return {
            kind: current.type === "generator_expression" ? "generator" : "comprehension",
            node: current,
          };
        }
    }
    grandchild = child;
    child = current;
  }
  return { kind: "module", node };
}

/** Whether `part` (reached through `clause`) is the first iterable of `comprehension`. */
function isFirstIterable(comprehension: Node, clause: Node, part: Node | null): boolean {
  if (clause.type !== "for_in_clause" || !part) return false;
  const first = comprehension.namedChildren.find((c) => c?.type === "for_in_clause");
  if (first?.id !== clause.id) return false;
  return clause.childrenForFieldName("right").some((right) => right?.id === part.id);
}

/** Names of a function's parameters. */
export function parameterNames(fn: Node): Set<string> {
  const out = new Set<string>();
  const params = fn.childForFieldName("parameters");
  for (const param of params?.namedChildren ?? []) {
    const name = param && parameterName(param);
    if (name) out.add(name.text);
  }
  return out;
}

/** The name node of one parameter (undefined for `*`, `/` and Python 2 tuple parameters). */
export function parameterName(param: Node): Node | undefined {
  switch (param.type) {
    case "identifier":
      return param;
    case "default_parameter":
    case "typed_default_parameter":
      return param.childForFieldName("name") ?? undefined;
    case "typed_parameter":
    case "list_splat_pattern":
    case "dictionary_splat_pattern": {
      const first = param.namedChild(0);
      return first ? parameterName(first) : undefined;
    }
    default:
      return undefined;
  }
}

/** Names a function binds in its own scope, read generously (see the module notes). */
export function functionBindings(fn: Node): Set<string> {
  const out = parameterNames(fn);
  const globals = new Set<string>();
  const body = fn.childForFieldName("body");
  if (!body) return out;
  const targets = (node: Node | null) => {
    if (!node) return;
    if (node.type === "identifier") out.add(node.text);
    else if (
      /^(pattern_list|tuple_pattern|list_pattern|list_splat_pattern|tuple|list|expression_list|parenthesized_expression|as_pattern_target|case_pattern|splat_pattern)$/
        .test(node.type)
    ) {
      for (const child of node.namedChildren) targets(child);
    }
  };
  preorder(body, (node) => {
    switch (node.type) {
      case "function_definition":
      case "class_definition":
        targets(node.childForFieldName("name"));
        return false;
      case "lambda":
        return false;
      case "type_alias_statement":
        targets(typeAliasName(node) ?? null);
        return false;
      case "assignment":
      case "augmented_assignment":
      case "for_statement":
      case "for_in_clause":
        if (node.type !== "for_in_clause") targets(node.childForFieldName("left"));
        return true;
      case "named_expression":
        targets(node.childForFieldName("name"));
        return true;
      case "as_pattern_target":
      case "delete_statement":
        for (const child of node.namedChildren) targets(child);
        return true;
      case "aliased_import":
        targets(node.childForFieldName("alias"));
        return false;
      case "import_statement":
      case "import_from_statement":
        for (const name of node.childrenForFieldName("name")) {
          if (name?.type === "dotted_name") targets(name.namedChild(0));
        }
        return true;
      case "nonlocal_statement":
        for (const child of node.namedChildren) targets(child);
        return false;
      case "global_statement":
        for (const child of node.namedChildren) if (child) globals.add(child.text);
        return false;
      case "case_pattern":
        preorder(node, (inner) => {
          if (inner.type === "identifier") out.add(inner.text);
        });
        return false;
      default:
        return true;
    }
  });
  for (const name of globals) out.delete(name);
  return out;
}
