/**
 * Names inside quoted type annotations (Python). A forward reference
 * `-> "Tag"` or `cast("AppleVersion", value)` is a string to CPython but a
 * name to every type checker and to pyflakes, which reports it undefined
 * when nothing binds it (pip's vendored packaging `tags.py` renamed
 * `MacVersion` to `AppleVersion` in one hunk and kept the old type alias).
 * Read here: a string that is a whole annotation (a `type` node: parameter,
 * return, annotated assignment) or the first argument of `typing.cast`,
 * when it is one dotted name (`"Tag"`, `"np.ndarray"`: the head `np` is the
 * name). Other strings (`"Optional[Tag]"`, literals, f-strings) are left
 * alone: no expression parser runs on string contents here.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import type { Document } from "../../parse/documents.ts";
import { resolveName } from "../../analysis/scope.ts";

/** The head name of a quoted type and where it is. */
export interface QuotedName {
  name: string;
  /** Offsets of the name inside the string. */
  start: number;
  end: number;
  /** The string node (resolution starts there). */
  node: Node;
}

const DOTTED = /^[rRuU]?(["'])([A-Za-z_][A-Za-z0-9_]*)(?:\.[A-Za-z_][A-Za-z0-9_]*)*\1$/;

/** The quoted type's head name if `node` (a `string`) is a quoted annotation or cast type, else undefined. */
export function quotedTypeName(doc: Document, node: Node): QuotedName | undefined {
  if (node.type !== "string" || !inTypePosition(doc, node)) return undefined;
  const match = DOTTED.exec(node.text);
  if (!match) return undefined;
  const start = node.startIndex + match[0].indexOf(match[1]) + 1;
  return { name: match[2], start, end: start + match[2].length, node };
}

/** Every quoted type name of the document that is `name`. */
export function quotedTypeUses(doc: Document, name: string): QuotedName[] {
  const out: QuotedName[] = [];
  const text = doc.file.text;
  for (const quote of [`"${name}`, `'${name}`]) {
    for (let at = text.indexOf(quote); at !== -1; at = text.indexOf(quote, at + 1)) {
      const node = doc.tree.rootNode.descendantForIndex(at, at + 1);
      const string = node?.type === "string_start" ? node.parent : node;
      const found = string && quotedTypeName(doc, string);
      if (found && found.name === name) out.push(found);
    }
  }
  return out;
}

function inTypePosition(doc: Document, node: Node): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === "type") return parent.namedChildCount === 1;
  if (parent.type !== "argument_list" || parent.namedChildren[0]?.id !== node.id) return false;
  const call = parent.parent;
  const callee = call?.type === "call" ? call.childForFieldName("function") : null;
  return !!callee && isTypingCast(doc, callee);
}

/** `cast` imported from `typing` (or `typing_extensions`), or `typing.cast` through an imported module. */
function isTypingCast(doc: Document, callee: Node): boolean {
  const typingModule = (module?: string) => module === "typing" || module === "typing_extensions";
  if (callee.type === "identifier" && callee.text === "cast") {
    const binding = resolveName(doc, "cast", callee).binding;
    return binding?.kind === "import" && typingModule(binding.module) && binding.imported === "cast";
  }
  if (callee.type !== "attribute" || callee.childForFieldName("attribute")?.text !== "cast") return false;
  const object = callee.childForFieldName("object");
  if (object?.type !== "identifier") return false;
  const binding = resolveName(doc, object.text, object).binding;
  return binding?.kind === "import" && binding.imported === undefined && typingModule(binding.module);
}
