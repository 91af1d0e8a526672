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
 * removed that binding); functions are matched before and after by their
 * kind and name, so a function the edit renamed or moved is not judged.
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

/** A function's key: its kind, name and the names of the functions around it (anonymous ones have none). */
function keyOf(fn: Node): string | undefined {
  const parts: string[] = [];
  for (let at: Node | null = fn; at; at = enclosing(at)) {
    const name = at.childForFieldName("name") ?? at.childForFieldName("declarator");
    if (!name) return undefined;
    parts.push(`${at.type}:${name.text}`);
  }
  return parts.join("/");
}

/**
 * The uses in `after` of a name that `after` still defines elsewhere but no
 * longer in scope of the use, where the use's function defined it before.
 */
export function lostLocally(beforeDefinitions: Node[], afterDefinitions: Node[], uses: Node[]): Node[] {
  if (afterDefinitions.some((definition) => scopeOf(definition) === null)) return [];
  const boundBefore = new Set(
    beforeDefinitions.map(scopeOf).filter((fn) => fn !== null).map(keyOf),
  );
  return uses.filter((use) => {
    const around = functionsAround(use);
    if (around.length === 0) return false;
    const ids = new Set(around.map((fn) => fn.id));
    if (afterDefinitions.some((definition) => ids.has(scopeOf(definition)?.id ?? -1))) return false;
    const key = keyOf(around[0]);
    return key !== undefined && boundBefore.has(key);
  });
}
