/**
 * What a name in test code means, not how it is spelled: the dotted name an
 * expression stands for once aliases and imports are followed through the
 * engine's scope model (`engine/analysis/scope.ts`).
 *
 * - an imported name is its module and member: after
 *   `from unittest import skip as later`, `later` is `unittest.skip`; after
 *   `import numpy.testing as npt`, `npt.assert_equal` is
 *   `numpy.testing.assert_equal`;
 * - a name bound by one plain assignment is what its value means:
 *   `flaky = pytest.mark.skip` makes `@flaky` `pytest.mark.skip`, and
 *   `E = BaseException` makes `except E` catch `BaseException`;
 * - `getattr(obj, "sk" + "ip")` folds its constant name (`obj.skip`); a
 *   name that is not a constant is `obj.<dynamic>`, which the gate refuses
 *   conservatively where it could be a marker;
 * - a call means its callee (`pytest.mark.skip(reason=...)` is
 *   `pytest.mark.skip`), so decorators with and without arguments agree.
 *
 * Anything else (a parameter, a local, a subscript) means its own spelling.
 * Resolution follows at most a few assignments, so a cycle (`a = b; b = a`)
 * ends.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";
import type { Document } from "../parse/documents.ts";
import { resolveName } from "../analysis/scope.ts";

/** The member name standing for a `getattr` whose name is not a constant. */
export const DYNAMIC = "<dynamic>";

const MAX_DEPTH = 6;

/** The string a constant expression evaluates to (literals joined by `+`), undefined otherwise. */
export function constantString(node: Node | null): string | undefined {
  if (!node) return undefined;
  if (node.type === "parenthesized_expression") return constantString(node.namedChildren[0] ?? null);
  if (node.type === "string") {
    if (node.children.some((child) => child?.type === "interpolation")) return undefined;
    const content = node.namedChildren.filter((child) => child?.type === "string_content");
    return content.map((child) => child!.text).join("");
  }
  if (node.type === "concatenated_string") {
    const parts = node.namedChildren.map((child) => constantString(child));
    return parts.every((part) => part !== undefined) ? parts.join("") : undefined;
  }
  if (node.type === "binary_operator" && node.childForFieldName("operator")?.type === "+") {
    const left = constantString(node.childForFieldName("left"));
    const right = constantString(node.childForFieldName("right"));
    return left !== undefined && right !== undefined ? left + right : undefined;
  }
  return undefined;
}

/** The value node of the plain assignment `name = value` whose identifier starts at `start`. */
function assignedValue(doc: Document, start: number): Node | undefined {
  let node: Node | null = doc.tree.rootNode.descendantForIndex(start);
  while (node && node.type !== "assignment") {
    if (node.type === "expression_statement" || node.type === "block" || node.type === "module") {
      return undefined;
    }
    node = node.parent;
  }
  const left = node?.childForFieldName("left");
  if (!node || left?.type !== "identifier" || left.startIndex !== start) return undefined;
  return node.childForFieldName("right") ?? undefined;
}

function identifierMeaning(doc: Document, node: Node, depth: number): string {
  const name = node.text;
  const resolution = resolveName(doc, name, node);
  const binding = resolution.binding;
  if (resolution.status !== "bound" || !binding) return name;
  if (binding.kind === "import") {
    const module = binding.module ?? name;
    if (binding.imported !== undefined) {
      return module.endsWith(".") ? `${module}${binding.imported}` : `${module}.${binding.imported}`;
    }
    // `import os.path` binds `os`; `import numpy.testing as npt` binds the whole module.
    return module.startsWith(`${name}.`) ? name : module;
  }
  if (binding.kind === "assignment" && depth < MAX_DEPTH) {
    const value = assignedValue(doc, binding.start);
    if (value) {
      const meant = meaning(doc, value, depth + 1);
      if (meant) return meant;
    }
  }
  return name;
}

/**
 * The dotted name `node` stands for, aliases and imports followed; "" when
 * it is not a name (a literal, a subscript, an arithmetic expression).
 */
export function meaning(doc: Document, node: Node | null, depth = 0): string {
  if (!node) return "";
  switch (node.type) {
    case "identifier":
      return identifierMeaning(doc, node, depth);
    case "attribute": {
      const object = meaning(doc, node.childForFieldName("object"), depth);
      const attribute = node.childForFieldName("attribute")?.text ?? "";
      return object ? `${object}.${attribute}` : attribute;
    }
    case "parenthesized_expression":
      return meaning(doc, node.namedChildren[0] ?? null, depth);
    case "call": {
      const callee = node.childForFieldName("function");
      if (callee?.type === "identifier" && callee.text === "getattr") {
        const args = (node.childForFieldName("arguments")?.namedChildren ?? []).filter((n) => n !== null);
        if (args.length >= 2) {
          const object = meaning(doc, args[0]!, depth);
          const member = constantString(args[1]!);
          return `${object || "?"}.${member ?? DYNAMIC}`;
        }
      }
      return meaning(doc, callee, depth);
    }
    case "decorator":
      return meaning(doc, node.namedChildren[0] ?? null, depth);
    default:
      return "";
  }
}

/** The last segment of a dotted name. */
export function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf(".") + 1);
}

const ALIASES = new WeakMap<object, { aliases: Set<string>; functions: Set<string> }>();

/**
 * Names of the document that may stand for something else (bound by
 * `import ... as` or an assignment; `from m import x` binds `x` to what it
 * spells), and
 * the names of its functions: a name in neither means what it spells, so
 * the walks resolve only these (resolving every name of a 7,000-line test
 * module costs seconds).
 */
export function namesOf(doc: Document): { aliases: Set<string>; functions: Set<string> } {
  let found = ALIASES.get(doc.tree);
  if (found) return found;
  const text = doc.file.text;
  const aliases = new Set<string>();
  for (const match of text.matchAll(/\bas\s+([A-Za-z_]\w*)/g)) aliases.add(match[1]);
  // Module-level assignments, and anywhere one that names something else (`s = pytest.skip`, `getattr`).
  for (const match of text.matchAll(/^([A-Za-z_]\w*)\s*=[^=]/gm)) aliases.add(match[1]);
  for (const match of text.matchAll(/^[ \t]+([A-Za-z_]\w*)\s*=\s*(?:[A-Za-z_][\w.]*\s*$|getattr\b)/gm)) {
    aliases.add(match[1]);
  }
  const functions = new Set<string>();
  for (const match of text.matchAll(/\bdef\s+([A-Za-z_]\w*)/g)) functions.add(match[1]);
  found = { aliases, functions };
  ALIASES.set(doc.tree, found);
  return found;
}

/** The root identifier of a dotted spelling (`np` of `np.testing.x`). */
export function rootOf(spelled: string): string {
  return /^[A-Za-z_]\w*/.exec(spelled)?.[0] ?? "";
}

/** What `node` means, resolved only when its root name may be an alias (`namesOf`) or it calls `getattr`. */
export function quickMeaning(doc: Document, node: Node | null): string {
  if (!node) return "";
  const spelled = node.type === "call" ? node.childForFieldName("function")?.text ?? "" : node.text;
  const plain = /^[A-Za-z_][\w.]*$/.test(spelled);
  if (plain && !namesOf(doc).aliases.has(rootOf(spelled))) return spelled;
  return meaning(doc, node);
}
