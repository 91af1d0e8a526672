/**
 * Uses of a function's local before it is bound (Python). CPython decides
 * at compile time which names are local to a function: every name the
 * function binds anywhere (assignment, `for`, `with ... as`, `except ...
 * as`, `import`, `def`, `class`, walrus, `del`, a match capture), unless it
 * is declared `global` or `nonlocal`. A read of a local that runs before any
 * of its bindings raises `UnboundLocalError`, even when a module-level name
 * of the same spelling exists: the classic `x = x + 1`, or a new use of
 * `KroneckerDelta` added above the function's own `from sympy import
 * KroneckerDelta`.
 *
 * ## The rule
 *
 * Reporting must never refuse correct code, so a use is reported only when
 * it certainly runs before every binding, on every path. Within one
 * function scope, for a name it binds (the scope model, `scope.ts`):
 *
 * 1. Each binding takes effect where its statement has evaluated what it
 *    reads: an assignment at its end (`x = x + 1` reads `x` first), a `for`
 *    target after its iterable, a walrus after its value, a `with ... as`
 *    after its item; a parameter, `def`, `class`, import or capture where
 *    its name stands.
 * 2. The reads considered are those evaluated in the function itself or in
 *    a list, set or dict comprehension run on the spot (never a nested
 *    `def`, `lambda`, class or generator expression, which run later), plus the target of an augmented assignment
 *    (`x += 1` reads `x`). Reads inside annotations of assignments are left
 *    out: CPython does not evaluate them for locals.
 * 3. A read is early when it starts before the first binding takes effect
 *    in the text. Code runs in text order except for loops: a read inside a
 *    `for` or `while` that also contains a binding of the name is early only
 *    when the first iteration reaches it whenever it runs (not under an
 *    `if`, a `try`, an inner loop or a short-circuit inside the loop), since
 *    a later iteration may see the binding; `try`/`except`/`finally` run in
 *    text order, so they need no rule.
 * 4. A read inside a `try` whose handlers catch `NameError`,
 *    `UnboundLocalError`, `Exception`, `BaseException` (or everything) is
 *    code that expects the error; a name some nested function declares
 *    `nonlocal` may be bound by calling it. Neither is reported.
 *
 * 5. A read after a `return`, `raise`, `continue` or `break` of its block
 *    (or of an enclosing block) never runs: dead code left behind, as when
 *    a diff removes a `def` line and its body joins the function above.
 *
 * Conditional bindings count as bindings (`if c: x = 1` then `print(x)` is
 * not reported), as pyflakes does: the rule finds what is certain, not what
 * may happen. The first early read of each name in each function is
 * reported, with the line of the binding that makes the name local.
 *
 * Worked example: in `def f():\n    total = total + 1`, `total` is bound by
 * the assignment, which takes effect at the end of its statement; the read
 * on its right starts before that, outside any loop: one finding, use line
 * 2, binding line 2. `for i in r:\n    if i: print(y)\n    y = i` has none:
 * the read and the binding share the loop.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";
import type { Document } from "../parse/documents.ts";
import { type Binding, occurrencesOf, type Scope, scopeChainAt, scopeOfNode } from "./scope.ts";

/** A read of a local that runs before any binding of it. */
export interface EarlyUse {
  name: string;
  /** The identifier read. */
  use: Node;
  /** The binding that makes the name local (the first to take effect). */
  binding: Binding;
  /** The function, as `Class.method` or `outer.inner`. */
  functionName: string;
}

const LOOPS = new Set(["for_statement", "while_statement"]);
const EXPECTED_ERRORS = new Set(["NameError", "UnboundLocalError", "Exception", "BaseException"]);

/**
 * The early reads of the functions overlapping [from, to) of `doc` (the
 * whole file without a range). Nested functions count as functions of
 * their own.
 */
export function usesBeforeBinding(doc: Document, range?: { from: number; to: number }): EarlyUse[] {
  const out: EarlyUse[] = [];
  for (const fn of functionsOverlapping(doc.tree.rootNode, range)) {
    for (const found of earlyUsesIn(doc, fn)) out.push(found);
  }
  return out;
}

/** Every `function_definition` overlapping the range, outer ones first (one cursor walk). */
function functionsOverlapping(root: Node, range?: { from: number; to: number }): Node[] {
  const out: Node[] = [];
  const cursor = root.walk();
  const outside = () => !!range && (cursor.endIndex < range.from || cursor.startIndex > range.to);
  const leaf = (type: string) => type === "identifier" || type === "string" || type === "comment";
  let descend = true;
  for (;;) {
    if (descend && cursor.gotoFirstChild()) {
      // entered the first child
    } else {
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          cursor.delete();
          return out;
        }
      }
    }
    descend = cursor.nodeIsNamed && !outside() && !leaf(cursor.nodeType);
    if (descend && cursor.nodeType === "function_definition") out.push(cursor.currentNode);
  }
}

function earlyUsesIn(doc: Document, fn: Node): EarlyUse[] {
  const body = fn.childForFieldName("body");
  if (!body) return [];
  const scope = scopeOfNode(doc, fn);
  const out: EarlyUse[] = [];
  const nonlocals = nonlocalNames(doc.file.text.slice(body.startIndex, body.endIndex));
  for (const [name, bindings] of scope.bindings) {
    if (bindings.length === 0 || scope.globals.has(name) || scope.nonlocals.has(name)) continue;
    if (nonlocals.has(name)) continue;
    let first: { binding: Binding; at: number } | undefined;
    for (const binding of bindings) {
      const at = effectiveAt(doc, binding);
      if (!first || at < first.at) first = { binding, at };
    }
    if (!first || first.at <= body.startIndex) continue;
    for (const { node, role } of occurrencesOf(doc, name, { from: body.startIndex, to: first.at })) {
      if (node.startIndex >= first.at) break;
      const read = role === "reference" || (role === "binding" && isAugmentedTarget(node));
      if (!read || !evaluatedIn(doc, node, scope, name)) continue;
      if (
        inAnnotation(node, body) || inSharedLoop(node, body, bindings) || inGuardedTry(node, body) ||
        unreachable(node, body)
      ) {
        continue;
      }
      out.push({ name, use: node, binding: first.binding, functionName: qualifiedName(fn) });
      break;
    }
  }
  return out.sort((a, b) => a.use.startIndex - b.use.startIndex);
}

/** The names some `nonlocal` statement in `text` declares. */
function nonlocalNames(text: string): Set<string> {
  const out = new Set<string>();
  if (!text.includes("nonlocal")) return out;
  for (const match of text.matchAll(/\bnonlocal\b([^\n;#]*)/g)) {
    for (const name of match[1].split(",")) out.add(name.trim());
  }
  return out;
}

/** Where a binding takes effect (rule 1). */
function effectiveAt(doc: Document, binding: Binding): number {
  const node = doc.tree.rootNode.descendantForIndex(binding.start, binding.end);
  if (!node) return binding.end;
  let statement: Node | undefined;
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === "assignment" || current.type === "augmented_assignment") {
      statement = current; // the outermost of a chain `a = b = c`
      continue;
    }
    if (statement) break;
    if (current.type === "named_expression" || current.type === "with_item") return current.endIndex;
    if (current.type === "for_statement") {
      return current.childForFieldName("right")?.endIndex ?? binding.end;
    }
    if (current.type === "block" || current.type === "module" || current.type.endsWith("_statement")) break;
  }
  return statement ? statement.endIndex : binding.end;
}

function isAugmentedTarget(node: Node): boolean {
  return node.parent?.type === "augmented_assignment" &&
    node.parent.childForFieldName("left")?.id === node.id;
}

/**
 * Whether `node` is evaluated by `scope` itself or by list, set and dict
 * comprehensions inside it that do not bind `name` (a generator runs later).
 */
function evaluatedIn(doc: Document, node: Node, scope: Scope, name: string): boolean {
  for (const inner of scopeChainAt(doc, node)) {
    if (inner === scope) return true;
    const onTheSpot = inner.kind === "comprehension" && inner.node.type !== "generator_expression";
    if (!onTheSpot || inner.bindings.has(name)) return false;
  }
  return false;
}

/** Inside the annotation of an assignment (`x: T = ...`), which CPython does not evaluate in a function. */
function inAnnotation(node: Node, body: Node): boolean {
  let child = node;
  for (let current = node.parent; current && current.id !== body.id; current = current.parent) {
    if (current.type === "assignment" && current.childForFieldName("type")?.id === child.id) return true;
    child = current;
  }
  return false;
}

/**
 * Inside a loop of the function that also holds a binding of the name,
 * where the first iteration may skip the read (rule 3). A read the first
 * iteration always reaches runs before the loop's bindings (they all come
 * after it in the text) and raises there; a read under an `if`, a `try`,
 * an inner loop or a short-circuit may wait for an iteration that follows
 * a binding. A `for`'s iterable runs once, so it is not inside its loop.
 */
function inSharedLoop(node: Node, body: Node, bindings: readonly Binding[]): boolean {
  let child = node;
  let conditional = false;
  for (let current = node.parent; current && current.id !== body.id; current = current.parent) {
    const repeated = LOOPS.has(current.type) &&
      !(current.type === "for_statement" && current.childForFieldName("right")?.id === child.id);
    if (repeated) {
      const loop = current;
      const bound = bindings.some((binding) =>
        binding.start >= loop.startIndex && binding.end <= loop.endIndex
      );
      // a loop's `else` runs after its iterations, which may have bound the name
      if (bound && (conditional || child.type === "else_clause")) return true;
    }
    if (skips(current, child)) conditional = true;
    child = current;
  }
  return false;
}

/** Whether `child` of `node` may not run when `node` runs. */
function skips(node: Node, child: Node): boolean {
  switch (node.type) {
    case "if_statement":
    case "while_statement":
      return node.childForFieldName("condition")?.id !== child.id;
    case "for_statement":
      return node.childForFieldName("right")?.id !== child.id;
    case "boolean_operator":
      return node.childForFieldName("right")?.id === child.id;
    case "try_statement":
    case "with_statement":
    case "conditional_expression":
    case "match_statement":
    case "list_comprehension":
    case "set_comprehension":
    case "dictionary_comprehension":
      return true;
    default:
      return false;
  }
}

const JUMPS = new Set(["return_statement", "raise_statement", "continue_statement", "break_statement"]);

/** After a `return`, `raise`, `continue` or `break` of an enclosing block: the read never runs (rule 5). */
function unreachable(node: Node, body: Node): boolean {
  for (let current: Node | null = node; current && current.id !== body.parent?.id; current = current.parent) {
    const block = current.parent;
    if (block?.type !== "block") continue;
    for (const sibling of block.namedChildren) {
      if (!sibling || sibling.startIndex >= current.startIndex) break;
      if (JUMPS.has(sibling.type)) return true;
    }
  }
  return false;
}

/** Inside the body of a `try` whose handlers catch the error the read would raise (rule 4). */
function inGuardedTry(node: Node, body: Node): boolean {
  let child = node;
  for (let current = node.parent; current && current.id !== body.id; current = current.parent) {
    if (current.type === "try_statement" && current.childForFieldName("body")?.id === child.id) {
      for (const handler of current.namedChildren) {
        if (handler?.type !== "except_clause") continue;
        const caught = handler.namedChildren[0];
        if (!caught || caught.type === "block") return true;
        const names = caught.text.match(/[A-Za-z_][A-Za-z_0-9]*/g) ?? [];
        if (names.some((name) => EXPECTED_ERRORS.has(name))) return true;
      }
    }
    child = current;
  }
  return false;
}

/** `Class.method`, `outer.inner`. */
function qualifiedName(fn: Node): string {
  const parts: string[] = [];
  for (let current: Node | null = fn; current; current = current.parent) {
    if (current.type === "function_definition" || current.type === "class_definition") {
      parts.unshift(current.childForFieldName("name")?.text ?? "?");
    }
  }
  return parts.join(".");
}
