/**
 * A class's own name read while its body runs (Python). `class C:` binds
 * `C` only after the body has run, so a read of `C` that the body evaluates
 * right away is a `NameError`, although the module binds `C` and scope
 * resolution (`analysis/scope.ts`, which ignores order) finds it:
 *
 * ```python
 * class TagTracerSub:
 *     def get(self, name: str) -> TagTracerSub:   # evaluated when `def` runs
 * ```
 *
 * (pluggy's `_tracing.py`; pyflakes reports it as an undefined name). Read
 * right away means: the innermost scope at the read is the class body (or a
 * class nested in it, whose body also runs at once), which is where a
 * `def`'s annotations, defaults and decorators and a class statement's own
 * statements are evaluated; function bodies and lambdas run later and are
 * not concerned. `from __future__ import annotations` postpones annotations
 * (a `type` node), not defaults or statements. A name bound before the class
 * (an earlier definition, an import), or bound in the class body itself, is
 * not concerned either.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import type { Document } from "../../parse/documents.ts";
import { resolveName, scopeChainAt } from "../../analysis/scope.ts";

const FUTURE_ANNOTATIONS = /^from[ \t]+__future__[ \t]+import[ \t(][^\n]*\bannotations\b/m;

/** Whether the read of `name` at `node` names a class whose body is still running there. */
export function earlyClassName(doc: Document, name: string, node: Node): boolean {
  const resolution = resolveName(doc, name, node);
  if (resolution.status !== "bound" || resolution.binding?.kind !== "class") return false;
  const binding = resolution.binding;
  for (const scope of scopeChainAt(doc, node)) {
    if (scope.kind !== "class") return false; // a function, lambda or comprehension runs later
    if (scope.bindings.has(name)) return false; // the body binds it itself
    const own = scope.node.childForFieldName("name");
    if (own?.text !== name || own.startIndex !== binding.start) continue;
    if (FUTURE_ANNOTATIONS.test(doc.file.text) && inAnnotation(node, scope.node)) return false;
    return true;
  }
  return false;
}

/** Whether `node` is inside a type annotation below `top`. */
function inAnnotation(node: Node, top: Node): boolean {
  for (let current: Node | null = node; current && current.id !== top.id; current = current.parent) {
    if (current.type === "type") return true;
  }
  return false;
}
