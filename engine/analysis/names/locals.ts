/**
 * Per-function scopes where they are cheap: a local deleted from one
 * function and still read there is lost even when another function of the
 * file binds the same name (`i`, `err`, `buf`), which the file-wide view of
 * `mod.ts` cannot see.
 *
 * A use stays bound when a definition of its name remains in its function
 * or in any function around it (closures see their parents' locals), or
 * anywhere outside every function (a global, a field, a constant). Only a
 * use whose function bound the name before the edit is judged (the edit
 * removed that binding), and not where the function already read the name
 * unbound before (an inherited field `in` beside a parameter `in`);
 * functions are matched before and after by their kind and name and the
 * names of the types around them, so a function the edit renamed or moved
 * is not judged.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";

/** Node types that open a function scope. */
const FUNCTIONS = new Set([
  "function_declaration",
  "function_definition",
  "function_item",
  "function_expression",
  "function",
  "generator_function_declaration",
  "method_declaration",
  "method_definition",
  "constructor_declaration",
  "method",
  "singleton_method",
  "arrow_function",
  "func_literal",
  "closure_expression",
  "lambda_expression",
  "anonymous_function_creation_expression",
]);

function enclosing(node: Node): Node | null {
  for (let at = node.parent; at; at = at.parent) if (FUNCTIONS.has(at.type)) return at;
  return null;
}

/** The function a definition binds in: a function's own name binds around the function, not in it. */
function scopeOf(definition: Node): Node | null {
  const fn = enclosing(definition);
  if (!fn) return null;
  const name = fn.childForFieldName("name") ??
    fn.childForFieldName("declarator")?.childForFieldName("declarator");
  return name?.id === definition.id ? enclosing(fn) : fn;
}

function functionsAround(node: Node): Node[] {
  const out: Node[] = [];
  for (let at = enclosing(node); at; at = enclosing(at)) out.push(at);
  return out;
}

/** Types of the nodes that own methods (classes, modules, impls), which tell same-named methods apart. */
const OWNER =
  /(^|_)(class|struct|interface|enum|trait|impl|module|object|record)(_declaration|_definition|_item|_specifier)?$|^(class|module)$/;

/**
 * A function's key: its kind, name and the names of the functions and types
 * around it (anonymous functions have none), so `read` of a nested class is
 * not its outer class's `read`.
 */
function keyOf(fn: Node): string | undefined {
  const parts: string[] = [];
  for (let at: Node | null = fn; at; at = enclosing(at)) {
    const name = at.childForFieldName("name") ?? at.childForFieldName("declarator");
    if (!name) return undefined;
    parts.push(`${at.type}:${name.text}`);
    for (let up = at.parent; up && !FUNCTIONS.has(up.type); up = up.parent) {
      if (OWNER.test(up.type)) parts.push(`${up.type}:${up.childForFieldName("name")?.text ?? ""}`);
    }
  }
  return parts.join("/");
}

/** Whether a definition of `use`'s name stands in a function around `use`. */
function boundAround(use: Node, definitions: Node[]): boolean {
  const ids = new Set(functionsAround(use).map((fn) => fn.id));
  return definitions.some((definition) => ids.has(scopeOf(definition)?.id ?? -1));
}

/**
 * The uses in `after` of a name that `after` still defines elsewhere but no
 * longer in scope of the use, where the use's function defined it before.
 */
export function lostLocally(
  beforeDefinitions: Node[],
  afterDefinitions: Node[],
  uses: Node[],
  beforeUses: Node[],
): Node[] {
  if (afterDefinitions.some((definition) => scopeOf(definition) === null)) return [];
  const boundBefore = new Set(
    beforeDefinitions.map(scopeOf).filter((fn) => fn !== null).map(keyOf),
  );
  // a function that already read the name unbound before (an inherited field) lost nothing
  const unboundBefore = new Set(
    beforeUses.filter((use) => !boundAround(use, beforeDefinitions)).map((use) => enclosing(use))
      .filter((fn) => fn !== null).map(keyOf),
  );
  return uses.filter((use) => {
    const around = functionsAround(use);
    if (around.length === 0 || boundAround(use, afterDefinitions)) return false;
    const key = keyOf(around[0]);
    return key !== undefined && boundBefore.has(key) && !unboundBefore.has(key);
  });
}
