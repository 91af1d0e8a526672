/**
 * Names beyond Python: which identifiers of a file define a name, which are
 * certainly uses of one, and so which uses an edit left without their
 * definition (`lostDefinitions`). One rule table per language
 * (`javascript.ts`, `go.ts`, ...), read by one walk here.
 *
 * ## Three roles, and why the third keeps it safe
 *
 * Every name token of a tree gets one role:
 * - a **definition**: the name of a function, class, type, variable or
 *   parameter the rules know (`function f`, `let x`, `int x = 0`);
 * - a **use**: a token where only a use can stand, in the contexts the rules
 *   list (the callee of a call without a receiver, an argument, an operand,
 *   a returned value);
 * - anything else (a field or property name, a member call `o.f()`, a
 *   context the rules do not know) is an **other occurrence**, which may
 *   bind the name in a way the rules do not see.
 *
 * A name is lost when the edit removed its last definition from the file
 * while uses of it remain, and no other occurrence of it is left: a field
 * `f`, a string `"f"` where the language looks names up by string (Ruby,
 * PHP, JavaScript), a macro body that mentions `f` (C, C++) each keep the
 * name alive. So a rule the tables lack can hide a lost name, never invent
 * one. A member of an access on another object (`lexer->advance`,
 * `os.OpenFile`: `rules.memberAccess`) is no such occurrence: it cannot bind
 * the free name, so it keeps alive only what is called through receivers
 * (where it may be a field the rules do not see), never a name still used
 * bare; assigned to (`o.f = g`), it stays an other occurrence, since a
 * dynamic language may bind a global that way, unless `o` is the module's
 * own export object (`exports.f = f`, `module.exports.f = f` in JavaScript:
 * `rules.moduleObjects`), which is never the global one. Scope is the file, refined per function where cheap (`locals.ts`):
 * a local deleted from a function and still read there is lost although
 * another function binds the same name.
 *
 * ## Files the grammar fails on
 *
 * Uses inside an ERROR node are never counted: error recovery may have read
 * anything there as a call. A C or C++ file tree-sitter fails on is read
 * instead in one configuration (`analysis/one_configuration.ts`: the first
 * branch of each conditional, unknown macros blanked) when that parses with
 * fewer problems, both before and after the edit; the words the view hides
 * count as other occurrences, and the uses found are reported at the same
 * spans of the real tree.
 *
 * ## What a file may hide
 *
 * A language where a missing name is looked up at run time by a hook
 * (Ruby's `method_missing`, PHP's `__call`) or where methods come from a
 * superclass the file does not show: the rules say which definitions count
 * (`countsAsDefinition`): a method of a class with a superclass or mixins
 * does not, since deleting an override leaves the inherited one.
 *
 * @module
 */

import { type LanguageId, type Node, parse, syntaxProblems, type Tree } from "../../parse/mod.ts";
import { oneConfiguration } from "../one_configuration.ts";
import { C_RULES, CPP_RULES } from "./c.ts";
import { GO_RULES } from "./go.ts";
import { JAVA_RULES } from "./java.ts";
import { JAVASCRIPT_RULES, TYPESCRIPT_RULES } from "./javascript.ts";
import { PHP_RULES } from "./php.ts";
import { RUBY_RULES } from "./ruby.ts";
import { RUST_RULES } from "./rust.ts";
import { lostLocally } from "./locals.ts";
import { memberUses } from "./receivers.ts";
import type { NameRules, Receiver } from "./rules.ts";

export type { NameRules, Receiver } from "./rules.ts";

const RULES: Partial<Record<LanguageId, NameRules>> = {
  javascript: JAVASCRIPT_RULES,
  typescript: TYPESCRIPT_RULES,
  tsx: TYPESCRIPT_RULES,
  go: GO_RULES,
  rust: RUST_RULES,
  java: JAVA_RULES,
  ruby: RUBY_RULES,
  php: PHP_RULES,
  c: C_RULES,
  cpp: CPP_RULES,
};

/** The name rules of a language, or undefined where there are none (Python has its own scope model). */
export function nameRules(language: LanguageId): NameRules | undefined {
  return RULES[language];
}

/** The names of one tree, by role (see the module notes). */
export interface FileNames {
  /** Definitions per name (the nodes that count as definitions). */
  definitions: Map<string, Node[]>;
  /** Certain uses per name. */
  uses: Map<string, Node[]>;
  /** Names that occur otherwise (fields, strings where names are looked up by string, macro bodies, ...). */
  others: Set<string>;
  /** Members of accesses on other objects (`o.f`, `pkg.F`): they keep alive only losses through receivers. */
  accessed: Set<string>;
  /** Whether the file may supply any name at run time (`method_missing`): nothing is lost then. */
  open: boolean;
  /** Every name a definition context declares, counted or not (what another file offers: `receivers.ts`). */
  declared: Set<string>;
  /** Methods called through a receiver or a path, per name (`receivers.ts` judges them). */
  members: Map<string, { node: Node; receiver: Receiver }[]>;
  /** Names of the types and modules the file defines (`rules.types`): a receiver naming one is the file's own. */
  types: Set<string>;
}

const cache = new WeakMap<Tree, FileNames>();

/** The names of `tree` under `rules` (cached per tree). */
export function fileNames(tree: Tree, rules: NameRules): FileNames {
  const known = cache.get(tree);
  if (known) return known;
  const names: FileNames = {
    definitions: new Map(),
    uses: new Map(),
    others: new Set(),
    accessed: new Set(),
    open: false,
    declared: new Set(),
    members: new Map(),
    types: new Set(),
  };
  const cursor = tree.rootNode.walk();
  try {
    for (;;) {
      const type = cursor.nodeType;
      if (rules.names.has(type)) classify(cursor.currentNode, cursor.currentFieldName, rules, names);
      else if (rules.words?.has(type)) {
        for (const word of cursor.currentNode.text.match(/[\p{L}\p{N}_$]+/gu) ?? []) names.others.add(word);
      }
      if (rules.opens?.(cursor.currentNode)) names.open = true;
      if (!rules.names.has(type) && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          cache.set(tree, names);
          return names;
        }
      }
    }
  } finally {
    cursor.delete();
  }
}

function classify(node: Node, field: string | null, rules: NameRules, names: FileNames): void {
  const text = node.text;
  if (text === "" || node.isMissing) return;
  const parent = node.parent;
  if (!parent) return;
  if (field === "name" && rules.types?.has(parent.type)) names.types.add(text);
  const definedBy = rules.definitions[parent.type];
  if (definedBy && (definedBy === "*" || definedBy.includes(field ?? ""))) {
    names.declared.add(text);
    if (rules.countsAsDefinition?.(node, parent) ?? true) push(names.definitions, text, node);
    else names.others.add(text);
    return;
  }
  const usedBy = rules.uses[parent.type];
  if (
    usedBy && (usedBy === "*" || usedBy.includes(field ?? "")) && (rules.isUse?.(node, parent, field) ?? true)
  ) {
    push(names.uses, text, node);
    return;
  }
  if (rules.isOtherUse?.(node, parent)) {
    push(names.uses, text, node);
    return;
  }
  const receiver = rules.receiver?.(node, parent, field);
  if (receiver) {
    const list = names.members.get(text);
    if (list) list.push({ node, receiver });
    else names.members.set(text, [{ node, receiver }]);
    return;
  }
  if (isMemberAccess(parent, field, rules)) names.accessed.add(text);
  else names.others.add(text);
}

/** Whether a token under `parent` and `field` is the member of an access on an object (`rules.memberAccess`) not assigned to. */
function isMemberAccess(parent: Node, field: string | null, rules: NameRules): boolean {
  const access = rules.memberAccess?.[parent.type];
  if (!access || field !== access[0]) return false;
  const object = parent.childForFieldName(access[1]);
  if (!object) return false;
  return parent.parent?.childForFieldName("left")?.id !== parent.id ||
    !!rules.moduleObjects?.has(object.text);
}

function push(map: Map<string, Node[]>, key: string, node: Node): void {
  const list = map.get(key);
  if (list) list.push(node);
  else map.set(key, [node]);
}

/**
 * A name an edit left without its definition, and its remaining uses: `via`
 * says how the weakest-judged of them reach it (`bare`: called or read by
 * name, certain; `self`: through the file's own object or type; `other`:
 * through a receiver of unknown type), so the caller can look for another
 * definition where one could answer (`receivers.ts`).
 */
export interface LostDefinition {
  name: string;
  uses: Node[];
  via: "bare" | "self" | "other";
  /** Whether a definition it lost stood in an owner that takes methods from other files (`rules.inherits`). */
  inherits: boolean;
}

/**
 * The names whose last definition in the file is gone from `after` while
 * certain uses of them remain and nothing else in the file mentions them
 * (see the module notes), bare uses and calls through receivers
 * (`receivers.ts`). Empty for a language without rules.
 */
export async function lostDefinitions(
  language: LanguageId,
  before: Tree,
  after: Tree,
): Promise<LostDefinition[]> {
  const rules = nameRules(language);
  if (!rules) return [];
  const view = await configurationView(language, before, after);
  if (!view) return losses(rules, before, after, new Set());
  try {
    // the view's nodes go with its trees: the same spans of the real tree stand for them
    const real = (node: Node) => after.rootNode.descendantForIndex(node.startIndex, node.endIndex) ?? node;
    return losses(rules, view.before, view.after, view.hidden).map((loss) => ({
      ...loss,
      uses: loss.uses.map(real),
    }));
  } finally {
    view.before.delete();
    view.after.delete();
  }
}

/** Both trees of a broken C/C++ file in one configuration, when that parses with fewer problems (module notes). */
async function configurationView(
  language: LanguageId,
  before: Tree,
  after: Tree,
): Promise<{ before: Tree; after: Tree; hidden: Set<string> } | undefined> {
  if ((language !== "c" && language !== "cpp") || !before.rootNode.hasError) return undefined;
  const was = oneConfiguration(before.rootNode.text);
  if (!was) return undefined;
  const viewBefore = await parse(language, was.text);
  if (syntaxProblems(viewBefore).length >= syntaxProblems(before).length) {
    viewBefore.delete();
    return undefined;
  }
  const now = oneConfiguration(after.rootNode.text) ??
    { text: after.rootNode.text, hidden: new Set<string>() };
  return { before: viewBefore, after: await parse(language, now.text), hidden: now.hidden };
}

function losses(rules: NameRules, before: Tree, after: Tree, hidden: Set<string>): LostDefinition[] {
  const was = fileNames(before, rules);
  const now = fileNames(after, rules);
  // a file the edit broke is L0's; a use inside an ERROR node may be anything
  if (now.open || (after.rootNode.hasError && !before.rootNode.hasError)) return [];
  const out: LostDefinition[] = [];
  for (const [name, definitions] of was.definitions) {
    if (definitions.length === 0 || now.others.has(name) || hidden.has(name) || rules.builtins?.has(name)) {
      continue;
    }
    const remaining = now.definitions.get(name);
    if (remaining) {
      const uses = lostLocally(definitions, remaining, now.uses.get(name) ?? [], was.uses.get(name) ?? [])
        .filter((use) => !insideError(use));
      if (uses.length > 0) out.push({ name, uses, via: "bare", inherits: false });
      continue;
    }
    const uses = now.uses.get(name)?.filter((use) => !insideError(use)) ?? [];
    // `util.f()` cannot have reached a removed `const { f } = ...`: only a removed method answers a member call
    const answered = rules.answersMembers
      ? definitions.some((node) => rules.answersMembers!(node, node.parent!))
      : true;
    const members = answered ? memberUses(rules, now, name).filter((use) => !insideError(use.node)) : [];
    const inherits = definitions.some((node) => rules.inherits?.(node, node.parent!) ?? false);
    if (uses.length > 0) {
      out.push({ name, uses: [...uses, ...members.map((use) => use.node)], via: "bare", inherits });
    } else if (members.length > 0 && !now.accessed.has(name)) {
      const via = members.some((use) => use.via === "self") ? "self" : "other";
      out.push({ name, uses: members.map((use) => use.node), via, inherits });
    }
  }
  return out;
}

function insideError(node: Node): boolean {
  for (let at = node.parent; at; at = at.parent) if (at.isError) return true;
  return false;
}
