/**
 * Statement contexts: code the grammar accepts but the language's compiler
 * rejects because of where it stands. The pinned tree-sitter grammars parse
 * `break` after a `return` in a function, `return` in a class body or
 * `f(a=1, b)` without an ERROR node; CPython and JavaScript engines refuse
 * them. This module finds those places in a tree, without a compiler (the
 * helper has none), following CPython 3.8–3.12's compiler and symbol-table
 * rules (`compile()` is the oracle in the tests).
 *
 * ## Python scopes, as CPython evaluates them
 *
 * Where a node is evaluated decides what it may be: a function's default
 * values, annotations and decorators are evaluated in the scope around the
 * `def`, a class body is a scope of its own, and a comprehension is a scope
 * except for its first iterable (`[x for x in <here>]`), which the enclosing
 * scope evaluates. `evalScope` walks up to that scope. On top of it:
 *
 * - `break`/`continue` need a loop body between them and the nearest
 *   function or class (a loop's `else` is outside the loop);
 * - `return` needs a function; with a value, not in an async generator;
 * - `yield` needs a function or lambda (not a class body, not a
 *   comprehension); `yield from` not in an `async def`;
 * - `await` (and an `async for` clause) makes a list, set or dict
 *   comprehension asynchronous, which needs an `async def` further up; a
 *   generator expression absorbs it anywhere; elsewhere it needs an
 *   `async def` (top-level `await` is refused: `compile(..., "exec")` does);
 *   `async for`/`async with` statements need an `async def`;
 * - `nonlocal x` needs an enclosing function (class scopes skipped) that
 *   binds `x`, and `x` must not be a parameter of the declaring function;
 * - parameters: no duplicate, no plain parameter after a defaulted one
 *   (before `*`), a bare `*` followed by a named one;
 * - arguments: no positional after a keyword or `**`, no `*` after `**`, no
 *   keyword repeated;
 * - targets: augmented assignment to a single name, attribute or subscript;
 *   a starred target inside a tuple or list, at most one per level; `del`
 *   and `with ... as` of names, attributes, subscripts, tuples and lists;
 * - Python 2 `print`/`exec` statements and tuple parameters;
 * - a block without a statement: the grammar reads `if x:` followed by an
 *   unindented line as an `if` with an empty (zero-width) block, CPython
 *   says "expected an indented block".
 *
 * Bindings for `nonlocal` are read generously (any name in a target
 * position of the function, annotations without value, imports, `del`, walrus
 * targets of its comprehensions): a missed violation is better than a false
 * alarm on correct code.
 *
 * The scopes are `python_scopes.ts`; JavaScript and TypeScript's rules
 * (`break`/`continue`/`return`) are `script_context.ts`.
 *
 * Only the top-level statements overlapping a range are analysed when one is
 * given (every rule above is decided inside one top-level statement), or
 * only the function `within` that holds a change, or only a node `around` a
 * change that no function holds (a string of a 700 KB dict literal, an
 * attribute of a long class body) with its ancestors. A rule judges a node
 * by its ancestors and its own subtree (a block by its statements, an
 * argument list by its arguments, an assignment by its targets), and only
 * two rules look sideways: `nonlocal` at the bindings of the enclosing
 * functions, and `return` with a value at the yields of its async function.
 * Outside every function neither reaches into the node from elsewhere, so
 * the verdicts that a change inside the node can alter are those of the
 * node's subtree and of its ancestors; the rest of the statement is not
 * walked.
 *
 * @module
 */

import type { LanguageId, Node } from "../parse/mod.ts";
import { childrenIn } from "../parse/children_in.ts";
import { namedNodesOfTypes, preorder } from "../parse/walk.ts";
import { type ContextCode, type ContextViolation, violation } from "./context_violation.ts";
import {
  evalScope,
  functionBindings,
  isAsyncDef,
  parameterName,
  parameterNames,
  type Scope,
} from "./python_scopes.ts";
import { isEsModule, scriptViolations } from "./script_context.ts";

export type { ContextCode, ContextViolation };

/** Options of `contextViolations`. */
export interface ContextOptions {
  /** Analyse only the top-level statements overlapping [start, end]. */
  range?: { start: number; end: number };
  /** Analyse only this node (a function holding the change: `innermostFunction`). */
  within?: Node;
  /**
   * Analyse only this node's subtree and its ancestors (a node holding the
   * change, with no function around it: see the module notes).
   */
  around?: Node;
  /** The file's path: `.mjs`/`.mts` files are modules (JavaScript `return`). */
  path?: string;
}

const PY_TYPES = new Set([
  "break_statement",
  "continue_statement",
  "return_statement",
  "yield",
  "await",
  "for_statement",
  "with_statement",
  "for_in_clause",
  "nonlocal_statement",
  "parameters",
  "lambda_parameters",
  "argument_list",
  "augmented_assignment",
  "assignment",
  "delete_statement",
  "as_pattern_target",
  "print_statement",
  "exec_statement",
  "block",
]);

/** Every statement-context violation of a tree (see the module notes). */
export function contextViolations(
  root: Node,
  language: LanguageId,
  options: ContextOptions = {},
): ContextViolation[] {
  const roots = options.within
    ? [options.within]
    : options.around
    ? [options.around]
    : options.range
    ? childrenIn(root, options.range.start, options.range.end)
    : [root];
  if (language === "python") return pythonViolations(roots, options.around ? ancestors(options.around) : []);
  if (language === "javascript" || language === "typescript" || language === "tsx") {
    const module = language !== "javascript" || /\.m[jt]s$/.test(options.path ?? "") || isEsModule(root);
    return scriptViolations(roots, module);
  }
  return [];
}

const FUNCTION_TYPES =
  /^(function_definition|function_declaration|function_expression|function|arrow_function|method_definition|generator_function|generator_function_declaration)$/;

/**
 * The innermost function holding [start, end] (its header included). Every
 * verdict on a node inside it is decided by the function and its ancestors,
 * and a change inside it (even to its header: `async`, parameters) decides
 * nothing outside it, so it can stand for the whole top-level statement
 * around a change, at a fraction of the cost in a long class.
 */
export function innermostFunction(root: Node, start: number, end: number): Node | undefined {
  for (
    let node: Node | null = root.descendantForIndex(start, Math.max(start, end - 1));
    node;
    node = node.parent
  ) {
    if (FUNCTION_TYPES.test(node.type) && node.startIndex <= start && node.endIndex >= end) return node;
  }
  return undefined;
}

/** Whether no function (of any language above) is among the ancestors of `node`. */
export function outsideFunctions(node: Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (FUNCTION_TYPES.test(current.type)) return false;
  }
  return true;
}

// ------------------------------------------------------------------ Python rules

/** The ancestors of `node` that a rule judges, outermost first. */
function ancestors(node: Node): Node[] {
  const out: Node[] = [];
  for (let current = node.parent; current; current = current.parent) {
    if (PY_TYPES.has(current.type)) out.unshift(current);
  }
  return out;
}

/** The violations of the nodes under `roots` and of `extra` (nodes judged alone, before them in the text). */
function pythonViolations(roots: Node[], extra: Node[] = []): ContextViolation[] {
  const found = [...extra, ...roots.flatMap((root) => namedNodesOfTypes(root, PY_TYPES))];
  const out: ContextViolation[] = [];
  const generators = new Set<number>();
  const yields = found.filter((node) => node.type === "yield");
  for (const node of yields) {
    const scope = evalScope(node);
    if (scope.kind === "def" || scope.kind === "async") generators.add(scope.node.id);
  }
  const bindings = new Map<number, Set<string>>();
  for (const node of found) {
    switch (node.type) {
      case "break_statement":
      case "continue_statement":
        if (!inLoop(node)) {
          const word = node.type === "break_statement" ? "break" : "continue";
          out.push(violation(`${word}-outside-loop`, `'${word}' outside loop`, node));
        }
        break;
      case "return_statement": {
        const scope = evalScope(node);
        if (scope.kind !== "def" && scope.kind !== "async") {
          out.push(violation("return-outside-function", "'return' outside function", node));
        } else if (scope.kind === "async" && node.namedChildCount > 0 && generators.has(scope.node.id)) {
          out.push(violation("return-outside-function", "'return' with value in async generator", node));
        }
        break;
      }
      case "yield":
        out.push(...yieldRule(node));
        break;
      case "block":
        // (not where the grammar recovered from an error: an empty block is then its by-product)
        if (
          !node.namedChildren.some((child) => child && child.type !== "comment") && node.parent &&
          !node.parent.hasError
        ) {
          out.push(violation("empty-block", "expected an indented block", node.parent));
        }
        break;
      case "await": {
        const detail = asyncRule(node, evalScope(node), false);
        if (detail) out.push(violation("await-outside-async", detail, node));
        break;
      }
      case "for_statement":
      case "with_statement":
        if (isAsyncDef(node) && evalScope(node).kind !== "async") {
          const what = node.type === "for_statement" ? "async for" : "async with";
          out.push(violation("await-outside-async", `'${what}' outside async function`, node));
        }
        break;
      case "for_in_clause":
        if (isAsyncDef(node) && node.parent) {
          const comprehension = node.parent;
          const own: Scope = {
            kind: comprehension.type === "generator_expression" ? "generator" : "comprehension",
            node: comprehension,
          };
          const detail = asyncRule(node, own, false);
          if (detail) out.push(violation("await-outside-async", detail, node));
        }
        break;
      case "nonlocal_statement":
        out.push(...nonlocalRule(node, bindings));
        break;
      case "parameters":
      case "lambda_parameters":
        out.push(...parameterRules(node));
        break;
      case "argument_list":
        out.push(...argumentRules(node));
        break;
      case "augmented_assignment": {
        const left = node.childForFieldName("left");
        if (left && !/^(identifier|attribute|subscript)$/.test(left.type)) {
          const what = /list/.test(left.type) ? "list" : /splat/.test(left.type) ? "starred" : "tuple";
          out.push(
            violation("invalid-target", `'${what}' is an illegal expression for augmented assignment`, left),
          );
        }
        break;
      }
      case "assignment": {
        const left = node.childForFieldName("left");
        if (left?.type === "list_splat_pattern") {
          out.push(violation("invalid-target", "starred assignment target must be in a list or tuple", left));
        }
        if (left) out.push(...starredRule(left));
        break;
      }
      case "delete_statement":
        for (const target of node.namedChildren) {
          if (target) out.push(...targetRule(target, "delete"));
        }
        break;
      case "as_pattern_target":
        if (node.parent?.parent?.type === "with_item") {
          for (const target of node.namedChildren) if (target) out.push(...targetRule(target, "assign to"));
        }
        break;
      case "print_statement":
      case "exec_statement": {
        const word = node.type === "print_statement" ? "print" : "exec";
        out.push(violation("python2-syntax", `Python 2 '${word}' statement`, node));
        break;
      }
    }
  }
  return out;
}

/** Whether a `break`/`continue` is inside a loop body of its own function. */
function inLoop(node: Node): boolean {
  let child = node;
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === "for_statement" || current.type === "while_statement") {
      if (current.childForFieldName("body")?.id === child.id) return true;
    }
    if (/^(function_definition|class_definition|lambda|module)$/.test(current.type)) return false;
    child = current;
  }
  return false;
}

function yieldRule(node: Node): ContextViolation[] {
  const scope = evalScope(node);
  switch (scope.kind) {
    case "module":
    case "class":
      return [violation("yield-outside-function", "'yield' outside function", node)];
    case "generator":
      return [violation("yield-outside-function", "'yield' inside generator expression", node)];
    case "comprehension":
      return [
        violation("yield-outside-function", `'yield' inside ${scope.node.type.replace("_", " ")}`, node),
      ];
    case "async":
      if (node.children.some((child) => child?.type === "from")) {
        return [violation("yield-outside-function", "'yield from' inside async function", node)];
      }
      return [];
    default:
      return [];
  }
}

/**
 * Why an `await` (or an async comprehension clause) evaluated in `scope` is
 * refused, or undefined when it is allowed.
 */
function asyncRule(node: Node, scope: Scope, inComprehension: boolean): string | undefined {
  for (let current = scope;;) {
    switch (current.kind) {
      case "async":
      case "generator":
        return undefined;
      case "comprehension":
        inComprehension = true;
        current = evalScope(current.node);
        continue;
      case "def":
      case "lambda":
        return inComprehension
          ? "asynchronous comprehension outside of an asynchronous function"
          : node.type === "for_in_clause"
          ? "asynchronous comprehension outside of an asynchronous function"
          : "'await' outside async function";
      default:
        return inComprehension || node.type === "for_in_clause"
          ? "asynchronous comprehension outside of an asynchronous function"
          : "'await' outside function";
    }
  }
}

function nonlocalRule(node: Node, memo: Map<number, Set<string>>): ContextViolation[] {
  const names = node.namedChildren.filter((c): c is Node => c?.type === "identifier");
  const scope = evalScope(node);
  if (scope.kind === "module") {
    return [violation("nonlocal-without-binding", "nonlocal declaration not allowed at module level", node)];
  }
  const out: ContextViolation[] = [];
  const own = scope.kind === "def" || scope.kind === "async" ? parameterNames(scope.node) : new Set<string>();
  for (const name of names) {
    if (own.has(name.text)) {
      out.push(violation("nonlocal-without-binding", `name '${name.text}' is parameter and nonlocal`, name));
      continue;
    }
    let found = false;
    for (let outer = evalScope(scope.node); outer.kind !== "module"; outer = evalScope(outer.node)) {
      if (outer.kind !== "def" && outer.kind !== "async") continue;
      let bound = memo.get(outer.node.id);
      if (!bound) memo.set(outer.node.id, bound = functionBindings(outer.node));
      if (bound.has(name.text)) {
        found = true;
        break;
      }
    }
    if (!found) {
      out.push(violation("nonlocal-without-binding", `no binding for nonlocal '${name.text}' found`, name));
    }
  }
  return out;
}

function parameterRules(params: Node): ContextViolation[] {
  const out: ContextViolation[] = [];
  const seen = new Set<string>();
  let defaulted = false;
  let starred = false;
  let bareStar: Node | undefined;
  for (const param of params.namedChildren) {
    if (!param) continue;
    if (param.type === "tuple_pattern") {
      out.push(violation("python2-syntax", "Python 2 tuple parameter", param));
      continue;
    }
    const name = parameterName(param);
    if (name) {
      if (seen.has(name.text)) {
        out.push(
          violation("duplicate-parameter", `duplicate argument '${name.text}' in function definition`, name),
        );
      }
      seen.add(name.text);
    }
    const splat = param.type === "list_splat_pattern" ||
      (param.type === "typed_parameter" && param.namedChild(0)?.type === "list_splat_pattern");
    const doubleSplat = param.type === "dictionary_splat_pattern" ||
      (param.type === "typed_parameter" && param.namedChild(0)?.type === "dictionary_splat_pattern");
    if (param.type === "keyword_separator") {
      starred = true;
      bareStar = param;
      continue;
    }
    if (splat) starred = true;
    if (bareStar && !doubleSplat) bareStar = undefined;
    if (doubleSplat || starred || param.type === "positional_separator") continue;
    if (param.type === "default_parameter" || param.type === "typed_default_parameter") defaulted = true;
    else if (defaulted && name) {
      out.push(violation("parameter-order", "non-default argument follows default argument", param));
    }
  }
  if (bareStar) out.push(violation("parameter-order", "named arguments must follow bare *", bareStar));
  return out;
}

function argumentRules(args: Node): ContextViolation[] {
  const out: ContextViolation[] = [];
  let keyword = false;
  let doubleSplat = false;
  const names = new Set<string>();
  for (const arg of args.namedChildren) {
    if (!arg || arg.type === "comment") continue;
    if (arg.type === "keyword_argument") {
      keyword = true;
      const name = arg.childForFieldName("name")?.text;
      if (name !== undefined) {
        if (names.has(name)) {
          out.push(violation("duplicate-keyword-argument", `keyword argument repeated: ${name}`, arg));
        }
        names.add(name);
      }
    } else if (arg.type === "dictionary_splat") {
      doubleSplat = true;
    } else if (arg.type === "list_splat") {
      if (doubleSplat) {
        out.push(
          violation("argument-order", "iterable argument unpacking follows keyword argument unpacking", arg),
        );
      }
    } else if (doubleSplat) {
      out.push(violation("argument-order", "positional argument follows keyword argument unpacking", arg));
    } else if (keyword) {
      out.push(violation("argument-order", "positional argument follows keyword argument", arg));
    }
  }
  return out;
}

/** At most one starred target per tuple or list of targets. */
function starredRule(left: Node): ContextViolation[] {
  const out: ContextViolation[] = [];
  preorder(left, (node) => {
    if (!/^(pattern_list|tuple_pattern|list_pattern)$/.test(node.type)) return node.id === left.id;
    const stars = node.namedChildren.filter((child) => child?.type === "list_splat_pattern");
    if (stars.length > 1) {
      out.push(violation("invalid-target", "multiple starred expressions in assignment", node));
    }
    return true;
  });
  return out;
}

const TARGET_CONTAINERS =
  /^(tuple|list|expression_list|parenthesized_expression|pattern_list|tuple_pattern|list_pattern)$/;

/** A `del` or `with ... as` target that is not a name, attribute, subscript or a tuple or list of them. */
function targetRule(target: Node, verb: "delete" | "assign to"): ContextViolation[] {
  if (/^(identifier|attribute|subscript)$/.test(target.type)) return [];
  if (TARGET_CONTAINERS.test(target.type)) {
    return target.namedChildren.flatMap((child) => (child ? targetRule(child, verb) : []));
  }
  if ((target.type === "list_splat" || target.type === "list_splat_pattern") && verb === "assign to") {
    const inner = target.namedChild(0);
    return inner ? targetRule(inner, verb) : [];
  }
  if (target.type === "comment") return [];
  const what = target.type === "call"
    ? "function call"
    : /^(integer|float|string|concatenated_string|true|false|none|ellipsis)$/.test(target.type)
    ? "literal"
    : "expression";
  return [violation("invalid-target", `cannot ${verb} ${what}`, target)];
}
