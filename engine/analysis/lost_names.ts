/**
 * Names a change left dangling (Python): uses that still read a name after
 * the change removed its last binding in the scope they resolved to.
 *
 * The question is asked of two versions of a file, before and after an
 * edit (one step, or a whole plan). Only names with a binding inside the
 * changed text are candidates: an edit can only unbind what it touched.
 * For each candidate, every reference in both versions is resolved with the
 * scope model (`scope.ts`: LEGB, class bodies invisible from their
 * methods, `global`/`nonlocal`, a star import making misses "unknown") and
 * keyed by the named scopes around it (`Parser.parse` for a use in a method,
 * `` for the module; lambdas and comprehensions count as the scope they sit
 * in). A use is dangling when it resolves to nothing after the change while
 * the same name in the same scope resolved to a binding before it, or when
 * the name was bound at module level before and is not any more.
 *
 * A star import the change removed (`from m import *`) may have supplied
 * any name: the uses it alone could have bound (unknown before, unbound
 * now) are dangling too.
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

import { type Document, editBetween } from "../parse/documents.ts";
import { lineEndAt, lineStartAt } from "../parse/line_index.ts";
import type { Node } from "../parse/mod.ts";
import {
  classifyName,
  cursorField,
  moduleScope,
  occurrencesOf,
  type Resolution,
  resolveName,
  roleOf,
  type Scope,
  SCOPE_TYPES,
  scopeChainAt,
  typeParameterList,
} from "./scope.ts";

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

/** One changed span: `before[beforeStart, beforeEnd)` became `after[afterStart, afterEnd)`. */
export interface ChangedSpan {
  beforeStart: number;
  beforeEnd: number;
  afterStart: number;
  afterEnd: number;
}

/**
 * The names `after` left dangling compared with `before` (two versions of
 * one Python file). `spans` are the changed spans when the caller knows
 * them (an edit's own text edits, in document order); else the one span
 * between the first and the last differing character.
 */
export function lostNames(before: Document, after: Document, spans?: readonly ChangedSpan[]): LostNames {
  const out: LostNames = { dangling: [], removedModuleNames: [] };
  if (!spans) {
    const edit = editBetween(before, after);
    if (!edit) return out;
    spans = [{
      beforeStart: edit.startIndex,
      beforeEnd: edit.oldEndIndex,
      afterStart: edit.startIndex,
      afterEnd: edit.newEndIndex,
    }];
  }
  if (spans.length === 0) return out;
  // module scopes only when needed: building the new version's costs a walk of the module
  const modules = () => ({ before: moduleScope(before), after: moduleScope(after) });
  const mapped = rangeMapper(spans);
  const seen = new Set<string>();
  for (const span of spans) {
    for (const { name, ranges } of candidates(before, after, span)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const { before: beforeModule, after: afterModule } = modules();
      const wasModuleLevel = beforeModule.bindings.has(name) || !!beforeModule.declaredGlobal?.has(name);
      const isModuleLevel = afterModule.bindings.has(name) || !!afterModule.declaredGlobal?.has(name);
      const gone = wasModuleLevel && !isModuleLevel;
      if (gone) out.removedModuleNames.push(name);
      // uses that resolve to nothing now (usually none: then the old version need not be read)
      const missing = references(after, name, ranges?.map(mapped)).filter((use) =>
        use.resolution.status === "missing"
      );
      if (missing.length === 0) continue;
      const bound = new Set<string>();
      for (const use of references(before, name, ranges)) {
        if (use.resolution.status === "bound") bound.add(use.key);
      }
      const uses = missing.filter((use) => gone || bound.has(use.key)).map((use) => use.node);
      if (uses.length > 0) out.dangling.push({ name, uses });
    }
  }
  // a removed star import (fewer `from m import *` lines than before)
  if (fewerStarImports(before, after)) {
    const { before: beforeModule, after: afterModule } = modules();
    if (beforeModule.starImport && !afterModule.starImport) out.dangling.push(...starSupplied(before, after));
  }
  return out;
}

/**
 * Whether `after` has fewer `from m import *` lines than `before`. Only the
 * lines around the changed span are counted: a match lies within one line,
 * and the lines outside the span are the same in both texts.
 */
export function fewerStarImports(before: Document, after: Document): boolean {
  const edit = editBetween(before, after);
  if (!edit) return false;
  const stars = (text: string, start: number, end: number) =>
    text.slice(lineStartAt(text, start), lineEndAt(text, end))
      .match(/^[ \t]*from[ \t]+\S+[ \t]+import[ \t]*\*/gm)?.length ?? 0;
  return stars(after.file.text, edit.startIndex, edit.newEndIndex) <
    stars(before.file.text, edit.startIndex, edit.oldEndIndex);
}

/** Maps a range of `before` to `after` through the spans (a part inside a span shrinks to its new text). */
function rangeMapper(spans: readonly ChangedSpan[]): (range: Range) => Range {
  const at = (offset: number, end: boolean): number => {
    let shift = 0;
    for (const span of spans) {
      if (offset <= span.beforeStart) break;
      if (offset < span.beforeEnd) return end ? span.afterEnd : span.afterStart;
      shift = span.afterEnd - span.beforeEnd;
    }
    return offset + shift;
  };
  return ({ from, to }) => ({ from: at(from, false), to: at(to, true) });
}

/**
 * After a removed star import: the names that only it could have supplied
 * (unknown before, unbound now), with their uses.
 */
function starSupplied(before: Document, after: Document): DanglingName[] {
  const byName = new Map<string, Node[]>();
  for (const node of after.tree.rootNode.descendantsOfType("identifier")) {
    if (!node || roleOf(node) !== "reference") continue;
    if (resolveName(after, node.text, node).status !== "missing") continue;
    const list = byName.get(node.text);
    if (list) list.push(node);
    else byName.set(node.text, [node]);
  }
  const out: DanglingName[] = [];
  for (const [name, uses] of byName) {
    const was = references(before, name);
    if (was.length > 0 && was.every((use) => use.resolution.status === "unknown")) out.push({ name, uses });
  }
  return out;
}

/** A range of offsets, end excluded. */
interface Range {
  from: number;
  to: number;
}

/**
 * Names with a binding (a definition, assignment target, parameter, import)
 * on a changed line of the span's old text that its new lines do not keep
 * in the same scope,
 * each with the ranges its uses can be in: the bodies of the function and
 * class scopes that bind it, or undefined (the whole file) when one of its
 * bindings is module-level.
 */
function candidates(
  before: Document,
  after: Document,
  span: ChangedSpan,
): { name: string; ranges?: Range[] }[] {
  const { removed, added } = changedLines(before.file.text, after.file.text, span);
  if (removed.length === 0) return [];
  const lost = new Map<string, Map<string, Range | undefined>>();
  for (const found of bindingsIn(before, removed)) {
    let scopes = lost.get(found.name);
    if (!scopes) lost.set(found.name, scopes = new Map());
    scopes.set(found.key, found.range);
  }
  if (lost.size === 0) return [];
  for (const found of bindingsIn(after, added)) lost.get(found.name)?.delete(found.key);
  const out: { name: string; ranges?: Range[] }[] = [];
  for (const [name, scopes] of lost) {
    if (scopes.size === 0) continue;
    const ranges = [...scopes.values()];
    out.push({ name, ranges: ranges.includes(undefined) ? undefined : ranges as Range[] });
  }
  return out;
}

/**
 * The lines of a span that changed: its old lines that its new text does
 * not have verbatim (`removed`, offsets of the old text) and the reverse
 * (`added`), the span grown to whole lines. A binding can only be lost on a
 * removed line; a line that stayed the same kept its bindings.
 */
function changedLines(
  beforeText: string,
  afterText: string,
  span: ChangedSpan,
): { removed: Range[]; added: Range[] } {
  const old = linesOf(beforeText, span.beforeStart, span.beforeEnd);
  const now = linesOf(afterText, span.afterStart, span.afterEnd);
  const unmatched = (lines: Range[], text: string, other: Range[], otherText: string): Range[] => {
    const counts = new Map<string, number>();
    for (const line of other) {
      const key = otherText.slice(line.from, line.to);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return lines.filter((line) => {
      const key = text.slice(line.from, line.to);
      const left = counts.get(key) ?? 0;
      if (left === 0) return true;
      counts.set(key, left - 1);
      return false;
    });
  };
  return {
    removed: unmatched(old, beforeText, now, afterText),
    added: unmatched(now, afterText, old, beforeText),
  };
}

/** The lines (without their line break) that [from, to) touches. */
function linesOf(text: string, from: number, to: number): Range[] {
  const lines: Range[] = [];
  let start = text.lastIndexOf("\n", from - 1) + 1;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    lines.push({ from: start, to: end });
    if (end >= to || end === text.length) break;
    start = end + 1;
  }
  return lines;
}

/**
 * The bindings on the lines `ranges` (document order): each binding
 * identifier's name, the key of the scope it binds in and that scope's
 * range (undefined: the module). One cursor walk over the overlapping
 * nodes, roles read from the ancestors on the way down.
 */
function bindingsIn(doc: Document, ranges: readonly Range[]): { name: string; key: string; range?: Range }[] {
  const out: { name: string; key: string; range?: Range }[] = [];
  if (ranges.length === 0) return out;
  const overlaps = (from: number, to: number) => ranges.some((range) => to > range.from && from < range.to);
  const cursor = doc.tree.walk();
  const levels: { type: string; field: string | null }[] = [];
  const visit = (): boolean => {
    if (!overlaps(cursor.startIndex, cursor.endIndex)) return false;
    const type = cursor.nodeType;
    if (type === "string" || type === "comment") return false;
    if (type !== "identifier") return true;
    const chain = levels.slice().reverse();
    const role = classifyName(chain);
    const inImport = chain.some((level) => IMPORTS.has(level.type));
    if (role !== "binding" && !(role === "none" && inImport)) return false;
    const node = cursor.currentNode;
    out.push({ name: node.text, ...bindingScope(node) });
    return false;
  };
  for (;;) {
    if (levels.length > 0) {
      levels[levels.length - 1].field = cursorField(cursor, levels[levels.length - 1].type);
    }
    const type = cursor.nodeType;
    if (visit() && cursor.gotoFirstChild()) {
      levels.push({ type, field: null });
      continue;
    }
    let moved = cursor.gotoNextSibling();
    while (!moved) {
      if (!cursor.gotoParent()) {
        cursor.delete();
        return out;
      }
      levels.pop();
      moved = cursor.gotoNextSibling();
    }
  }
}

/**
 * The scope a binding identifier binds in, read from its ancestors alone
 * (no scope analysis, which would cost a walk of the new version's module):
 * its key (the names of the enclosing functions and classes) and range
 * (undefined: the module). A function's or class's own name binds outside
 * it; a name the function declares `global` binds in the module.
 */
function bindingScope(id: Node): { key: string; range?: Range } {
  let scope: Node | undefined;
  for (let child: Node = id, up = id.parent; up; child = up, up = up.parent) {
    // a type parameter binds in the annotation scope of its def, class or `type` statement
    const list = up.type === "type_alias_statement" ? typeParameterList(up) : undefined;
    if (list && id.startIndex >= list.startIndex && id.endIndex <= list.endIndex) {
      scope = up;
      break;
    }
    if (!SCOPE_TYPES.has(up.type)) continue;
    const named = up.type === "function_definition" || up.type === "class_definition";
    if (named && up.childForFieldName("name")?.id === child.id) continue;
    scope = up;
    break;
  }
  if (!scope) return { key: "" };
  if (
    scope.type === "function_definition" &&
    new RegExp(`\\b(?:global|nonlocal)\\s[^\\n]*\\b${id.text}\\b`).test(scope.text)
  ) {
    return { key: "" };
  }
  const names: string[] = [];
  for (let up: Node | null = scope; up; up = up.parent) {
    if (up.type === "function_definition" || up.type === "class_definition") {
      names.push(up.childForFieldName("name")?.text ?? "?");
    }
  }
  return { key: names.reverse().join("."), range: { from: scope.startIndex, to: scope.endIndex } };
}

const IMPORTS = new Set(["import_statement", "import_from_statement"]);

interface Reference {
  node: Node;
  key: string;
  resolution: Resolution;
}

/** The named scopes around `scope` and itself, outermost first (`Parser.parse`; lambdas and comprehensions unnamed). */
function scopeKey(outer: readonly Scope[], scope?: Scope): string {
  const chain = scope ? [scope, ...outer] : [...outer];
  return chain
    .map((s) =>
      s.kind === "function" || s.kind === "class" ? s.node.childForFieldName("name")?.text ?? "?" : ""
    )
    .filter((part) => part !== "")
    .reverse()
    .join(".");
}

/** Every read of `name` in `doc` (within `ranges`, when given), with the named scopes around it and its resolution. */
function references(doc: Document, name: string, ranges?: readonly Range[]): Reference[] {
  const out: Reference[] = [];
  const occurrences = ranges
    ? ranges.flatMap((range) => occurrencesOf(doc, name, range))
      .filter((found, i, all) =>
        all.findIndex((other) => other.node.startIndex === found.node.startIndex) === i
      )
    : occurrencesOf(doc, name);
  for (const { node, role } of occurrences) {
    if (role !== "reference") continue;
    const key = scopeKey(scopeChainAt(doc, node));
    out.push({ node, key, resolution: resolveName(doc, name, node) });
  }
  return out;
}
