/**
 * Names a change left dangling (Python): uses that still read a name after
 * the change removed its last binding in the scope they resolved to.
 *
 * The question is asked of two versions of a file, before and after an
 * edit (one step, or a whole plan). Only names with a binding inside the
 * changed text are candidates: an edit can only unbind what it touched.
 * For each candidate, every reference in both versions is resolved with the
 * scope model (`verify/scope.ts`: LEGB, class bodies invisible from their
 * methods, `global`/`nonlocal`, a star import making misses "unknown") and
 * keyed by the named scopes around it (`Parser.parse` for a use in a method,
 * `` for the module; lambdas and comprehensions count as the scope they sit
 * in). A use is dangling when it resolves to nothing after the change while
 * the same name in the same scope resolved to a binding before it, or when
 * the name was bound at module level before and is not any more.
 *
 * What is deliberately not dangling: a use that a remaining binding still
 * catches (the other arm of `try: import x / except ImportError: x = None`,
 * an assignment elsewhere in the scope, a function's `global x; x = ...`),
 * a use that now finds an outer binding or a builtin, a use in a file with a
 * star import (it may supply the name), and words in strings or comments.
 *
 * `removedModuleNames` are the module-level names whose every binding is
 * gone: other files may import them (see `importers.ts`).
 *
 * @module
 */

import { diffEdit, type Document } from "../parse/documents.ts";
import type { Node } from "../parse/mod.ts";
import {
  bindingAt,
  moduleScope,
  occurrencesOf,
  type Resolution,
  resolveName,
  scopeChainAt,
} from "../verify/scope.ts";

/** A name whose uses lost their binding. */
export interface DanglingName {
  name: string;
  /** The uses in the new version, in order. */
  uses: Node[];
}

/** What a change unbound. */
export interface LostNames {
  dangling: DanglingName[];
  /** Module-level names bound before and nowhere at module level after. */
  removedModuleNames: string[];
}

const IDENTIFIER = /[\p{L}_][\p{L}\p{N}_]*/gu;
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** The names `after` left dangling compared with `before` (two versions of one Python file). */
export function lostNames(before: Document, after: Document): LostNames {
  const out: LostNames = { dangling: [], removedModuleNames: [] };
  const edit = diffEdit(before.file.text, after.file.text);
  if (!edit) return out;
  const beforeModule = moduleScope(before);
  const afterModule = moduleScope(after);
  for (const name of candidates(before, edit.startIndex, edit.oldEndIndex)) {
    const wasModuleLevel = beforeModule.bindings.has(name) || !!beforeModule.declaredGlobal?.has(name);
    const isModuleLevel = afterModule.bindings.has(name) || !!afterModule.declaredGlobal?.has(name);
    if (wasModuleLevel && !isModuleLevel) out.removedModuleNames.push(name);
    const bound = new Set<string>();
    for (const use of references(before, name)) {
      if (use.resolution.status === "bound") bound.add(use.key);
    }
    const uses: Node[] = [];
    for (const use of references(after, name)) {
      if (use.resolution.status !== "missing") continue;
      if (bound.has(use.key) || (wasModuleLevel && !isModuleLevel)) uses.push(use.node);
    }
    if (uses.length > 0) out.dangling.push({ name, uses });
  }
  return out;
}

/** Names with a binding (a definition, assignment target, parameter, import) inside [from, to). */
function candidates(doc: Document, from: number, to: number): string[] {
  const out: string[] = [];
  // whole words: a rename may change only part of one (`get_netrc_auth` -> `netrc_auth`)
  const text = doc.file.text;
  while (from > 0 && WORD_CHAR.test(text[from - 1])) from--;
  while (to < text.length && WORD_CHAR.test(text[to])) to++;
  const words = new Set(doc.file.text.slice(from, to).match(IDENTIFIER) ?? []);
  for (const word of words) {
    const binds = occurrencesOf(doc, word, { from, to }).some(({ node, role }) =>
      (role === "binding" || role === "none") && bindingAt(doc, node)?.binding !== undefined
    );
    if (binds) out.push(word);
  }
  return out;
}

interface Reference {
  node: Node;
  key: string;
  resolution: Resolution;
}

/** Every read of `name` in `doc`, with the named scopes around it and its resolution. */
function references(doc: Document, name: string): Reference[] {
  const out: Reference[] = [];
  for (const { node, role } of occurrencesOf(doc, name)) {
    if (role !== "reference") continue;
    const chain = scopeChainAt(doc, node);
    const key = chain
      .map((scope) =>
        scope.kind === "function" || scope.kind === "class"
          ? scope.node.childForFieldName("name")?.text ?? "?"
          : ""
      )
      .filter((part) => part !== "")
      .reverse()
      .join(".");
    out.push({ node, key, resolution: resolveName(doc, name, node) });
  }
  return out;
}
