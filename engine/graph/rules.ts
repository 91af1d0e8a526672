/**
 * Per-language graph rules: which node types are symbols (and of what kind),
 * imports and line kinds, and which subtrees the walk may skip.
 *
 * A language's rules are written with node type *names*; `compileRules`
 * turns them into tables indexed by the numeric type id the tree cursor
 * reports, so the walk in `extract.ts` decides what to do with a node by one
 * array lookup instead of a string comparison.
 *
 * @module
 */

import type { Language, Node } from "../parse/mod.ts";
import type { LineKind, SymbolKind } from "./mod.ts";

/** Where a candidate node sits: the type of its parent. */
export interface RuleContext {
  /** Type name of the node's parent (`""` at the root). */
  parentType: string;
}

/** How one node type becomes a symbol. */
export interface SymbolRule {
  /** The kind, or a function choosing it; `undefined` means "not a symbol after all". */
  kind: SymbolKind | ((node: Node, ctx: RuleContext) => SymbolKind | undefined);
  /** The symbol's name; default the text of the `name` field. `undefined` skips the node. */
  name?: (node: Node, ctx: RuleContext) => string | undefined;
  /** A function that is a `method` when it sits directly in the body of a `members` symbol. */
  method?: boolean;
  /** Functions directly in this symbol's body are methods (classes, traits, impls, ...). */
  members?: boolean;
  /** Whether symbols inside it get it as their parent (default true; a C typedef does not). */
  encloses?: boolean;
  /** A parent that is not the enclosing symbol (a Go method's receiver type). */
  parent?: (node: Node) => string | undefined;
}

/** One imported name, before the file and line are added. */
export interface ImportSpec {
  module: string;
  symbol: string | null;
  alias?: string;
}

/** A line kind, fixed or decided per node (a Ruby `call` is a raise only when it calls `raise`). */
export type LineKindRule = LineKind | ((node: Node) => LineKind | undefined);

/** A filter on a node's first child (see `LanguageRules.guards`). */
export interface Guard {
  /** Node types the first child may have. */
  first: string[];
  /** What its text must be. */
  words: string[];
}

/** A guard compiled to type ids. */
export interface CompiledGuard {
  first: ReadonlySet<number>;
  words: ReadonlySet<string>;
}

/** Everything the graph walk needs to know about one language. */
export interface LanguageRules {
  symbols: Record<string, SymbolRule>;
  imports: Record<string, (node: Node) => ImportSpec[]>;
  lineKinds: Record<string, LineKindRule>;
  /**
   * Node types between a class-like symbol and its methods (bodies, decorator
   * wrappers, template declarations).
   */
  transparent?: string[];
  /** Leading children excluded from a symbol's span (decorators, annotations). */
  decorators?: string[];
  /** Children that hold modifiers and annotations together (Java `modifiers`). */
  modifierLists?: string[];
  /**
   * When given, the walk enters only these node types (and ERROR nodes):
   * for a language whose statements never sit inside expressions (Python).
   */
  descendOnly?: string[];
  /** Named node types whose subtrees never hold a symbol, an import or a line kind. */
  skip?: string[];
  /**
   * Node types whose symbol, import and line-kind rules apply only when the
   * node's first child has one of the `first` types and reads as one of the
   * `words`: a cheap filter the walk applies on its way into the node, before
   * making a `Node` (`call_expression` → `require(...)`, `import(...)`).
   * A guarded type must be one the walk enters (not in `skip`).
   */
  guards?: Record<string, Guard>;
  /**
   * Node types whose last child, when it has the given type, is the only
   * child worth entering (a Python `def`'s body after `def name(...) :`):
   * the walk jumps to it instead of stepping over the keywords, the name and
   * the parameters. When the last child has another type (a comment), the
   * walk enters the node from its first child as usual. Not for guarded
   * types.
   */
  bodyLast?: Record<string, string>;
}

/** The walk enters the node's children. */
export const DESCEND = 1;
/** The node type has a symbol rule. */
export const SYMBOL = 2;
/** The node type has an import rule. */
export const IMPORT = 4;
/** The node type has a line-kind rule. */
export const LINE = 8;
/** The node type sits between a class-like symbol and its methods. */
export const TRANSPARENT = 16;
/** Enter the node at its last child when that child has the type in `bodyLast` (see `LanguageRules.bodyLast`). */
export const BODY_LAST = 32;

/** Rules turned into tables indexed by node type id. */
export interface CompiledRules {
  /** Bit set of DESCEND, SYMBOL, IMPORT, LINE, TRANSPARENT, BODY_LAST per type id (65536 entries). */
  flags: Uint8Array;
  /** Type name per id (for rule contexts). */
  typeNames: string[];
  symbols: (SymbolRule | undefined)[];
  imports: (((node: Node) => ImportSpec[]) | undefined)[];
  lineKinds: (LineKindRule | undefined)[];
  decorators: ReadonlySet<string>;
  modifierLists: ReadonlySet<string>;
  /** Per type id, the filter on its first child (see `LanguageRules.guards`). */
  guards: (CompiledGuard | undefined)[];
  /** Per BODY_LAST type id, the type ids its last child may have to be entered directly. */
  bodyLast: (ReadonlySet<number> | undefined)[];
}

/** tree-sitter's id for ERROR nodes (`ts_builtin_sym_error` as an unsigned 16-bit value). */
const ERROR_ID = 65535;

const compiled = new WeakMap<Language, WeakMap<LanguageRules, CompiledRules>>();

/**
 * The tables for `rules` on `language`, built once per pair. Only named node
 * types get rules: an anonymous token spelled like a named node (`class` the
 * keyword, `if` in Ruby) never matches.
 */
export function compileRules(language: Language, rules: LanguageRules): CompiledRules {
  let perLanguage = compiled.get(language);
  if (!perLanguage) {
    perLanguage = new WeakMap();
    compiled.set(language, perLanguage);
  }
  const existing = perLanguage.get(rules);
  if (existing) return existing;

  const flags = new Uint8Array(ERROR_ID + 1);
  const typeNames: string[] = [];
  const symbols: (SymbolRule | undefined)[] = [];
  const imports: (((node: Node) => ImportSpec[]) | undefined)[] = [];
  const lineKinds: (LineKindRule | undefined)[] = [];
  const guards: (CompiledGuard | undefined)[] = [];
  const bodyLast: Set<number>[] = [];
  const bodyTypes = new Map<string, Set<number>[]>(); // body type name → the sets to fill
  const firstTypes = new Map<string, Set<number>[]>(); // type name → the guards' id sets to fill
  const descendOnly = rules.descendOnly ? new Set(rules.descendOnly) : undefined;
  const skip = new Set(rules.skip ?? []);
  const transparent = new Set(rules.transparent ?? []);
  const count = language.nodeTypeCount;
  for (let id = 0; id < count; id++) {
    const name = language.types[id] ?? "";
    typeNames[id] = name;
    if (!language.nodeTypeIsNamed(id)) continue; // tokens: leaves, never rules
    let bits = 0;
    if (descendOnly ? descendOnly.has(name) : !skip.has(name)) bits |= DESCEND;
    if (Object.hasOwn(rules.symbols, name)) {
      bits |= SYMBOL;
      symbols[id] = rules.symbols[name];
    }
    if (Object.hasOwn(rules.imports, name)) {
      bits |= IMPORT;
      imports[id] = rules.imports[name];
    }
    if (Object.hasOwn(rules.lineKinds, name)) {
      bits |= LINE;
      lineKinds[id] = rules.lineKinds[name];
    }
    if (transparent.has(name)) bits |= TRANSPARENT;
    if (rules.guards && Object.hasOwn(rules.guards, name)) {
      const { first, words } = rules.guards[name];
      const ids = new Set<number>();
      for (const type of first) firstTypes.set(type, [...firstTypes.get(type) ?? [], ids]);
      guards[id] = { first: ids, words: new Set(words) };
    }
    if (rules.bodyLast && Object.hasOwn(rules.bodyLast, name) && bits & DESCEND) {
      if (guards[id]) throw new Error(`Graph rules: "${name}" cannot be both guarded and bodyLast`);
      const ids = new Set<number>();
      bodyTypes.set(rules.bodyLast[name], [...bodyTypes.get(rules.bodyLast[name]) ?? [], ids]);
      bodyLast[id] = ids;
      bits |= BODY_LAST;
    }
    flags[id] = bits;
  }
  for (let id = 0; id < count; id++) {
    if (!language.nodeTypeIsNamed(id)) continue;
    for (const ids of firstTypes.get(typeNames[id]) ?? []) ids.add(id);
    for (const ids of bodyTypes.get(typeNames[id]) ?? []) ids.add(id);
  }
  flags[ERROR_ID] = DESCEND; // symbols inside a broken region are still found
  typeNames[ERROR_ID] = "ERROR";
  const table: CompiledRules = {
    flags,
    typeNames,
    symbols,
    imports,
    lineKinds,
    decorators: new Set(rules.decorators ?? []),
    modifierLists: new Set(rules.modifierLists ?? []),
    guards,
    bodyLast,
  };
  perLanguage.set(rules, table);
  return table;
}

// Small helpers the language tables share.

/** The contents of a string literal node: its text without the surrounding quotes. */
export function unquote(text: string): string {
  const first = text[0];
  if (text.length >= 2 && (first === '"' || first === "'" || first === "`") && text.at(-1) === first) {
    return text.slice(1, -1);
  }
  if (text.length >= 2 && first === "<" && text.at(-1) === ">") return text.slice(1, -1);
  return text;
}

/** Text with every run of whitespace removed (dotted names split over lines). */
export function squeeze(text: string): string {
  return text.replace(/\s+/g, "");
}
