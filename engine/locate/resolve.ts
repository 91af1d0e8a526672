/**
 * Locator resolution against the live tree of a file.
 *
 * A locator is resolved in five stages, each narrowing the previous one's
 * nodes (document order is kept throughout):
 *
 * 1. **Match**: a structured locator collects the nodes of its kind (one
 *    `descendantsOfType` call for all the kind's node types) and keeps those
 *    whose name matches; an S-expression locator runs its query and keeps the
 *    nodes of its capture. No `kind` and no `name` means the file's root node;
 *    a `name` without `kind` searches the named definitions (`SYMBOL_KINDS`).
 * 2. **Parent**: the parent locator is resolved in the same file, and a match
 *    is kept when it lies strictly inside one of the parent's nodes. Members
 *    are stricter: a `method` or `field` must belong directly to a class-like
 *    parent (not to a class nested in it; a Go method to the type named by its
 *    receiver, a Rust `impl` member to the struct/enum/trait the `impl` is
 *    for), a `parameter` to a function parent, an `argument` to a call parent.
 * 3. **Field**: each match is replaced by its children in that field (a C
 *    declarator chain is followed for `parameters` and the like).
 * 4. **nth_child**: each node is replaced by its Nth named child, comments
 *    skipped; negative counts from the end.
 * 5. **Index**: one node of the list is kept; negative counts from the end.
 *
 * Stages that empty the list record why, with near-miss candidates, for
 * `resolveSome` and `resolveOne` to throw (`locator-not-found`). Locators that
 * cannot be meant for this file (unknown kind, field or capture, a bad query,
 * `name` on a nameless kind) throw `locator-invalid` at once.
 *
 * @module
 */

import { boundDeclaration, boundFunction } from "./bound_functions.ts";
import { type Candidate, error, type Issue, IssueError } from "../base/issue.ts";
import type { Document, DocumentStore } from "../parse/documents.ts";
import {
  compileQuery,
  detectLanguage,
  firstLine,
  type Language,
  type LanguageId,
  type Node,
  PLAIN_TEXT,
} from "../parse/mod.ts";
import {
  CLASS_LIKE,
  isComment,
  type KindMapping,
  kindMapping,
  kindOf,
  kindsOf,
  matchesKind,
  NAMELESS_KINDS,
  NORMALIZED_KINDS,
  ownerOf,
  SYMBOL_KINDS,
} from "./kinds.ts";
import {
  describeLocator,
  editDistance,
  type Locator,
  type SexpLocator,
  type StructuredLocator,
} from "./locator.ts";
import { goReceiverType, implTypeName, nameMatches, nodeName, nodeNames } from "./names.ts";
import { closestNames, didYouMean } from "../base/suggest.ts";
import { attachTopLevelPredicates } from "./predicates.ts";
import { prepareQuery, queryCaptures } from "./sexp_query.ts";

/** Options of the resolve functions. */
export interface ResolveOptions {
  /** The file of a locator without `file`. */
  defaultFile?: string;
  /** JSON path of the locator in its plan, put on every issue. */
  path?: (string | number)[];
}

/** A locator's document and matching nodes. */
export interface Resolution {
  doc: Document;
  nodes: Node[];
}

/** The most candidates an issue lists. */
const MAX_CANDIDATES = 50;
const MAX_NEAR_MISSES = 15;

interface Context {
  doc: Document;
  file: string;
  language: LanguageId;
  lang: Language;
  root: Node;
}

interface Selection {
  nodes: Node[];
  /** Why `nodes` is empty. */
  failure?: Issue;
}

/** Resolve a locator to all its matches (after `index`); an empty list means none. */
export async function resolveLocator(
  store: DocumentStore,
  locator: Locator,
  options: ResolveOptions = {},
): Promise<Resolution> {
  const { doc, nodes } = await resolveDetailed(store, locator, options);
  return { doc, nodes };
}

/** Resolve a locator to at least one node, else throw `locator-not-found`. */
export async function resolveSome(
  store: DocumentStore,
  locator: Locator,
  options: ResolveOptions = {},
): Promise<Resolution> {
  const { doc, nodes, failure } = await resolveDetailed(store, locator, options);
  if (nodes.length === 0) throw new IssueError(failure!);
  return { doc, nodes };
}

/** Resolve a locator to exactly one node, else throw `locator-not-found` or `locator-ambiguous`. */
export async function resolveOne(
  store: DocumentStore,
  locator: Locator,
  options: ResolveOptions = {},
): Promise<{ doc: Document; node: Node }> {
  const { doc, nodes } = await resolveSome(store, locator, options);
  if (nodes.length > 1) {
    const file = doc.file.path;
    const what = describeLocator(locator);
    throw new IssueError(
      error(
        "locator-ambiguous",
        `Cannot resolve locator: ${nodes.length} nodes match ${what} in "${file}", add "index"`,
        {
          file,
          path: options.path,
          hint: `add "index": 0 to ${
            nodes.length - 1
          } (-1 for the last), or narrow it with "parent" or "name"`,
          candidates: candidates(nodes, file),
        },
      ),
    );
  }
  return { doc, node: nodes[0] };
}

/** Resolve, keeping the reason for an empty result. */
export async function resolveDetailed(
  store: DocumentStore,
  locator: Locator,
  options: ResolveOptions = {},
): Promise<Resolution & { failure?: Issue }> {
  const path = options.path ?? [];
  const file = locator.file ?? options.defaultFile;
  if (file === undefined) {
    throw new IssueError(
      error("locator-invalid", 'Locator is missing "file"', {
        path: [...path, "file"],
        hint: "give the file path relative to the repository root",
      }),
    );
  }
  const doc = await store.get(file);
  if (doc.file.language === PLAIN_TEXT) {
    throw new IssueError(
      error(
        "locator-plain-text",
        `Cannot resolve a locator in "${doc.file.path}": it is plain text, not code`,
        {
          file: doc.file.path,
          path: [...path, "file"],
          hint: "edit text files with the text operators: replace_code, insert_code, delete_lines",
        },
      ),
    );
  }
  const ctx: Context = {
    doc,
    file: doc.file.path,
    language: doc.file.language,
    lang: doc.tree.language,
    root: doc.tree.rootNode,
  };
  const selection = await select(ctx, locator, path);
  return { doc, ...selection };
}

async function select(ctx: Context, locator: Locator, path: (string | number)[]): Promise<Selection> {
  if (locator.parent?.file !== undefined && normalizePath(locator.parent.file) !== ctx.file) {
    invalid(
      ctx,
      [...path, "parent", "file"],
      `A parent locator must be in its locator's file: "${locator.parent.file}" is not "${ctx.file}"`,
      'drop the parent\'s "file" (it inherits the file)',
    );
  }
  // a locator that cannot be meant for this file throws before its parent is looked at
  let nodes = locator.type === "sexp"
    ? await sexpNodes(ctx, locator, path)
    : checkMatchable(ctx, locator, path);
  let parents: Node[] | undefined;
  if (locator.parent) {
    const parent = await select(ctx, locator.parent, [...path, "parent"]);
    if (parent.nodes.length === 0) {
      const cause = parent.failure!;
      return {
        nodes: [],
        failure: {
          ...cause,
          message: cause.message.replace(
            /^Cannot resolve locator: /,
            "Cannot resolve locator: its parent matches nothing: ",
          ),
        },
      };
    }
    const kind = locator.type === "sexp" ? undefined : locator.kind;
    // matched in the parents' subtrees, not the whole file, where that keeps the same nodes
    nodes ??= locator.type === "sexp"
      ? undefined
      : nodesWithin(ctx, locator, path, parent.nodes) ?? structuredNodes(ctx, locator, path);
    nodes = nodes!.filter((node) => parent.nodes.some((p) => inside(ctx, node, p, kind)));
    parents = parent.nodes;
  }
  nodes ??= structuredNodes(ctx, locator as StructuredLocator, path);
  if (nodes.length === 0) return { nodes, failure: notFound(ctx, locator, path, parents) };

  if (locator.field !== undefined) {
    const field = locator.field;
    if (ctx.lang.fieldIdForName(field) === null) {
      invalid(
        ctx,
        [...path, "field"],
        `Unknown field "${field}" for ${ctx.language}: ${what(ctx, nodes[0])} has ${fieldList(nodes[0])}`,
        "fields are tree-sitter field names such as body, name, parameters, condition",
      );
    }
    const out = nodes.flatMap((node) => fieldChildren(node, field));
    if (out.length === 0) {
      return {
        nodes: [],
        failure: issue(
          ctx,
          path,
          `Cannot resolve locator: ${what(ctx, nodes[0])} has no field "${field}" in "${ctx.file}": it has ${
            fieldList(nodes[0])
          }`,
          `use one of the fields it has`,
          candidates(nodes, ctx.file),
        ),
      };
    }
    nodes = out;
  }

  if (locator.nth_child !== undefined) {
    const nth = locator.nth_child;
    const out: Node[] = [];
    for (const node of nodes) {
      const kids = namedChildren(node);
      const child = kids[nth < 0 ? kids.length + nth : nth];
      if (child) out.push(child);
    }
    if (out.length === 0) {
      const kids = namedChildren(nodes[0]);
      return {
        nodes: [],
        failure: issue(
          ctx,
          path,
          `Cannot resolve locator: nth_child ${nth} is out of range: ${
            what(ctx, nodes[0])
          } in "${ctx.file}" has ${kids.length} named ${kids.length === 1 ? "child" : "children"}`,
          kids.length > 0
            ? `use 0 to ${kids.length - 1}, or -1 for the last`
            : "this node has no named children",
          candidates(kids, ctx.file),
        ),
      };
    }
    nodes = out;
  }

  if (locator.index !== undefined) {
    const index = locator.index;
    const node = nodes[index < 0 ? nodes.length + index : index];
    if (!node) {
      return {
        nodes: [],
        failure: issue(
          ctx,
          path,
          `Cannot resolve locator: index ${index} is out of range: ${nodes.length} ${
            nodes.length === 1 ? "node matches" : "nodes match"
          } ${describeLocator({ ...locator, index: undefined })} in "${ctx.file}"`,
          `use 0 to ${nodes.length - 1}, or -1 for the last`,
          candidates(nodes, ctx.file),
        ),
      };
    }
    nodes = [node];
  }
  return { nodes };
}

// ---------------------------------------------------------------------------
// Stage 1: matching.

/**
 * Throw what matching `locator` in the whole file would throw (an unknown
 * kind, a name on a kind without names) without walking the file; returns
 * undefined, or the whole file's matches when telling needed them.
 */
function checkMatchable(
  ctx: Context,
  locator: StructuredLocator,
  path: (string | number)[],
): Node[] | undefined {
  const { kind, name } = locator;
  if (kind === undefined) return undefined;
  const mapping = kindMapping(kind, ctx.language);
  if (!mapping && !isNodeType(ctx.lang, kind)) unknownKind(ctx, kind, [...path, "kind"]);
  if (name === undefined) return undefined;
  if (mapping && NAMELESS_KINDS.has(kind)) nameDoesNotApply(ctx, kind, path);
  // a raw node type with a name: whether its nodes have names at all is a question about the whole file
  return mapping ? undefined : structuredNodes(ctx, locator, path);
}

/**
 * The matches of a structured `locator` in the subtrees of `parents`
 * (each parent included), in document order, or undefined where a match
 * inside a parent may lie outside its subtree (a Go method belongs to its
 * receiver's type by name, a Rust `impl` member to the struct it is for).
 * Every other match the parent stage keeps lies in a parent's subtree, and
 * matching is a test of each node alone, so
 * these are the whole-file matches the parent stage would keep, found
 * without walking the whole file (a lift resolves such locators after
 * every candidate step, each time on a new tree).
 */
function nodesWithin(
  ctx: Context,
  locator: StructuredLocator,
  path: (string | number)[],
  parents: readonly Node[],
): Node[] | undefined {
  if (locator.kind !== undefined && MEMBER_KINDS.has(locator.kind) && /^(go|rust)$/.test(ctx.language)) {
    return undefined;
  }
  const seen = new Set<number>();
  const out: Node[] = [];
  for (const parent of parents) {
    for (const node of structuredNodes({ ...ctx, root: parent }, locator, path, false)) {
      if (seen.has(node.id)) continue;
      seen.add(node.id);
      out.push(node);
    }
  }
  return parents.length > 1
    ? out.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex)
    : out;
}

function structuredNodes(
  ctx: Context,
  locator: StructuredLocator,
  path: (string | number)[],
  whole = true,
): Node[] {
  const nodes = matchedNodes(ctx, locator, path, whole);
  if (locator.kind !== undefined && locator.kind !== "function") return nodes;
  // A function bound by `const f = ...` is the declaration (`bound_functions.ts`).
  const seen = new Set<number>();
  return nodes.map((node) => boundDeclaration(node) ?? node).filter((node) => {
    if (seen.has(node.id)) return false;
    seen.add(node.id);
    return true;
  });
}

/**
 * `whole`: `ctx.root` is the file's root (a part of it cannot tell that a
 * name never applies). Kept per tree like `typeNodes`: testing the name of
 * every node of a kind costs a read of each node's name, and a lift
 * resolves the same locators (a method in its class) many times on one
 * tree, once per candidate built and run on it.
 */
function matchedNodes(
  ctx: Context,
  locator: StructuredLocator,
  path: (string | number)[],
  whole: boolean,
): Node[] {
  let cache = MATCHED_NODES.get(ctx.root.tree);
  if (!cache) MATCHED_NODES.set(ctx.root.tree, cache = new Map());
  const key = JSON.stringify([ctx.root.id, locator.kind, locator.name, whole]);
  let nodes = cache.get(key);
  if (!nodes) cache.set(key, nodes = matchNodes(ctx, locator, path, whole));
  return [...nodes];
}

const MATCHED_NODES = new WeakMap<object, Map<string, Node[]>>();

/** The nodes of `locator`'s kind and name under `ctx.root` (see `matchedNodes`). */
function matchNodes(
  ctx: Context,
  locator: StructuredLocator,
  path: (string | number)[],
  whole: boolean,
): Node[] {
  const { kind, name } = locator;
  if (kind === undefined) {
    if (name === undefined) return [ctx.root];
    const kinds = SYMBOL_KINDS.filter((k) => kindMapping(k, ctx.language));
    return symbolNodes(ctx, kinds).filter((node) => nameMatches(node, name, ctx.language));
  }
  const mapping = kindMapping(kind, ctx.language);
  if (!mapping && !isNodeType(ctx.lang, kind)) unknownKind(ctx, kind, [...path, "kind"]);
  const nodes = mapping ? mappedNodes(ctx, mapping) : typeNodes(ctx, [kind]);
  if (name === undefined) return nodes;
  if (mapping && NAMELESS_KINDS.has(kind)) nameDoesNotApply(ctx, kind, path);
  const nameKind = (node: Node) =>
    mapping || Object.hasOwn(NORMALIZED_KINDS, kind) ? kind : kindOf(node, ctx.language);
  if (
    whole && !mapping && nodes.length > 0 &&
    nodes.every((node) => nodeNames(node, ctx.language, nameKind(node)).length === 0)
  ) {
    nameDoesNotApply(ctx, kind, path);
  }
  return nodes.filter((node) => nameMatches(node, name, ctx.language, nameKind(node)));
}

/** The nodes of one kind mapping, in document order. */
function mappedNodes(ctx: Context, mapping: KindMapping): Node[] {
  let nodes: Node[];
  if (mapping.childOf) {
    nodes = [];
    for (const container of typeNodes(ctx, mapping.childOf)) {
      for (const child of namedChildren(container)) nodes.push(child);
    }
    nodes.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  } else {
    nodes = typeNodes(ctx, mapping.types);
  }
  return mapping.where ? nodes.filter(mapping.where) : nodes;
}

/**
 * Named nodes of these types under the context's root (the root included),
 * in document order. Trees are never changed in place (an edit re-parses
 * into a new tree), so the lists are kept per tree: resolving many locators
 * against one tree (verification, lift's candidates) walks it once per set
 * of types instead of once per locator.
 */
function typeNodes(ctx: Context, types: readonly string[]): Node[] {
  let cache = TYPE_NODES.get(ctx.root.tree);
  if (!cache) TYPE_NODES.set(ctx.root.tree, cache = new Map());
  const key = `${ctx.root.id}:${types.join(",")}`;
  const cached = cache.get(key);
  if (cached) return [...cached];
  const out: Node[] = [];
  for (const node of ctx.root.descendantsOfType(types as string[])) {
    if (node && node.isNamed) out.push(node);
  }
  cache.set(key, out);
  return [...out];
}

const TYPE_NODES = new WeakMap<object, Map<string, Node[]>>();

/** Nodes of any of these normalized kinds (each once), in document order. */
function symbolNodes(ctx: Context, kinds: readonly string[]): Node[] {
  const types = new Set<string>();
  for (const kind of kinds) for (const type of kindMapping(kind, ctx.language)?.types ?? []) types.add(type);
  return typeNodes(ctx, [...types]).filter((node) => kinds.some((k) => matchesKind(node, k, ctx.language)));
}

async function sexpNodes(ctx: Context, locator: SexpLocator, path: (string | number)[]): Promise<Node[]> {
  const prepared = prepareQuery(attachTopLevelPredicates(locator.query));
  if ("problem" in prepared) {
    if (prepared.costly) {
      throw new IssueError(
        error("query-too-costly", `The S-expression query is too costly: ${prepared.problem}`, {
          file: ctx.file,
          path: [...path, "query"],
          hint: "write a shorter query: anchor it on a named node and add a predicate on its name",
        }),
      );
    }
    invalid(ctx, [...path, "query"], `Invalid S-expression query: ${prepared.problem}`);
  }
  let query;
  try {
    query = await compileQuery(ctx.language, prepared.text);
  } catch (err) {
    invalid(
      ctx,
      [...path, "query"],
      `Invalid S-expression query for ${ctx.language}: ${(err as Error).message}`,
      'node names are the language\'s node types, e.g. "(function_definition name: (identifier) @name)"',
    );
  }
  const names = query.captureNames;
  const capture = locator.capture?.replace(/^@/, "") ?? (names.includes("target") ? "target" : names[0]);
  if (capture === undefined) {
    invalid(
      ctx,
      [...path, "query"],
      "The query captures nothing",
      'add a capture after the node to return, e.g. "(identifier) @id"',
    );
  }
  if (!names.includes(capture)) {
    invalid(
      ctx,
      [...path, "capture"],
      `Unknown capture "@${capture}": the query captures ${names.map((n) => `"@${n}"`).join(", ")}`,
    );
  }
  // Like `typeNodes`, the captures are kept per tree: a lift's candidates address their targets by query and
  // index (`exactLocator` of the fragments), all against the one tree of the state they start from.
  let cache = SEXP_NODES.get(ctx.root.tree);
  if (!cache) SEXP_NODES.set(ctx.root.tree, cache = new Map());
  const key = `${ctx.root.id}:${capture}:${prepared.text}`;
  let nodes = cache.get(key);
  if (!nodes) {
    nodes = queryCaptures(query, ctx.root, capture, { file: ctx.file, path: [...path, "query"] });
    cache.set(key, nodes);
  }
  return [...nodes];
}

const SEXP_NODES = new WeakMap<object, Map<string, Node[]>>();

// ---------------------------------------------------------------------------
// Stage 2: parents.

/** Kinds whose nodes belong directly to an owner (see the module doc). */
const MEMBER_KINDS = new Set(["method", "field"]);

function inside(ctx: Context, node: Node, parent: Node, kind: string | undefined): boolean {
  const { language } = ctx;
  if (
    kind && MEMBER_KINDS.has(kind) && kindMapping(kind, language) && CLASS_LIKE[language].has(parent.type)
  ) {
    const owner = ownerOf(node, language);
    if (owner?.id === parent.id) return true;
    // Go methods and Rust impl members belong to their type by name.
    const typeName = language === "go" && node.type === "method_declaration"
      ? goReceiverType(node)
      : owner?.type === "impl_item" && parent.type !== "impl_item" && parent.type !== "trait_item"
      ? implTypeName(owner)
      : undefined;
    return typeName !== undefined && typeName === nodeName(parent, language);
  }
  if (kind === "parameter" && kindMapping(kind, language) && isFunctionLike(parent, language)) {
    // The list's owner; C/C++ lists sit in the function's declarator.
    let owner = node.parent?.parent ?? null;
    while (owner && owner.type.endsWith("declarator")) owner = owner.parent;
    return owner?.id === parent.id;
  }
  if (kind === "argument" && kindMapping(kind, language) && matchesKind(parent, "call", language)) {
    return node.parent?.parent?.id === parent.id;
  }
  return isDescendant(node, parent);
}

function isFunctionLike(node: Node, language: LanguageId): boolean {
  return ["function", "method", "lambda"].some((kind) => matchesKind(node, kind, language));
}

/** Whether `node` lies strictly inside `ancestor`. */
export function isDescendant(node: Node, ancestor: Node): boolean {
  if (node.startIndex < ancestor.startIndex || node.endIndex > ancestor.endIndex) return false;
  for (let up = node.parent; up; up = up.parent) {
    if (up.id === ancestor.id) return true;
    if (up.startIndex < ancestor.startIndex || up.endIndex > ancestor.endIndex) return false;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Stages 3 and 4: fields and children.

function fieldChildren(node: Node, field: string): Node[] {
  const direct = node.childrenForFieldName(field).filter((child): child is Node => child !== null);
  if (direct.length > 0) return direct;
  const bound = boundFunction(node);
  if (bound) return fieldChildren(bound, field);
  // C/C++: `parameters` and `declarator`s live down the declarator chain.
  for (let d = node.childForFieldName("declarator"); d; d = d.childForFieldName("declarator")) {
    const found = d.childrenForFieldName(field).filter((child): child is Node => child !== null);
    if (found.length > 0) return found;
  }
  return [];
}

/** The fields a node has, for messages: `fields "name", "body"`, or `no fields`. */
function fieldList(node: Node): string {
  const fields = new Set<string>();
  for (let i = 0; i < node.childCount; i++) {
    const name = node.fieldNameForChild(i);
    if (name) fields.add(name);
  }
  return fields.size > 0 ? `fields ${[...fields].map((f) => `"${f}"`).join(", ")}` : "no fields";
}

/** Named children that can be targets: comments are skipped. */
function namedChildren(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null && !isComment(child));
}

// ---------------------------------------------------------------------------
// Problems.

function notFound(ctx: Context, locator: Locator, path: (string | number)[], parents?: Node[]): Issue {
  const base = { ...locator, field: undefined, nth_child: undefined, index: undefined };
  const message = `Cannot resolve locator: no ${describeLocator(base)} in "${ctx.file}"`;
  if (locator.type === "sexp") {
    return issue(
      ctx,
      path,
      message,
      "the query matched nothing in this file; check node types and predicates",
      [],
    );
  }
  const near = nearMisses(ctx, locator, parents);
  const positional = locator.kind === "argument" && locator.name !== undefined &&
    positionalArguments(near, locator.name, ctx.language).length > 0;
  const hint = positional
    ? `a positional argument has no name: drop "name" and choose it with "index" (0-based) among the arguments of the call given as "parent"`
    : near.length > 0
    ? 'near misses are listed: fix "name", "kind" or "parent"'
    : locator.kind !== undefined
    ? `this file has no ${locator.kind} ${locator.name !== undefined ? "with that name" : "there"}`
    : "this file defines nothing with that name";
  return issue(ctx, path, message, hint, candidates(near, ctx.file).slice(0, MAX_NEAR_MISSES));
}

/**
 * Nodes a failed structured locator may have meant: for an argument, the
 * positional ones written as the name inside the parent's matches
 * (`parents`); the same kind and name outside its parent; the same name with
 * another kind; the same kind with the most similar other names.
 */
function nearMisses(ctx: Context, locator: StructuredLocator, parents?: Node[]): Node[] {
  const { kind, name } = locator;
  const language = ctx.language;
  const seen = new Set<number>();
  const out: Node[] = [];
  const add = (nodes: Node[]) => {
    for (const node of nodes) {
      if (!seen.has(node.id)) {
        seen.add(node.id);
        out.push(node);
      }
    }
  };
  const mapping = kind !== undefined ? kindMapping(kind, language) : undefined;
  const ofKind = kind === undefined
    ? symbolNodes(ctx, SYMBOL_KINDS.filter((k) => kindMapping(k, language)))
    : mapping
    ? mappedNodes(ctx, mapping)
    : typeNodes(ctx, [kind]);
  const nameKind = (node: Node) => mapping ? kind! : kindOf(node, language);
  if (name !== undefined) {
    if (kind === "argument") {
      // a positional argument written as `name` inside the parent: first, it is what was meant
      const within = parents
        ? ofKind.filter((node) => parents.some((p) => inside(ctx, node, p, kind)))
        : ofKind;
      add(positionalArguments(within, name, language).slice(0, 5));
    }
    if (locator.parent) add(ofKind.filter((node) => nameMatches(node, name, language, nameKind(node))));
    const others = symbolNodes(
      ctx,
      [...SYMBOL_KINDS, "import", "field", "variable", "assignment"].filter((k) => kindMapping(k, language)),
    );
    add(others.filter((node) => nameMatches(node, name, language)).slice(0, 5));
    const scored = ofKind
      .map((node) => ({ node, score: similarity(name, nodeName(node, language)) }))
      .filter((entry) => entry.score !== undefined)
      .sort((a, b) => a.score! - b.score! || a.node.startIndex - b.node.startIndex);
    // at most two of each name: five uses of one identifier would crowd out the next-best name
    const perName = new Map<string, number>();
    const varied = scored.filter((entry) => {
      const key = nodeName(entry.node, language)!;
      perName.set(key, (perName.get(key) ?? 0) + 1);
      return perName.get(key)! <= 2;
    });
    add(varied.slice(0, 8).map((entry) => entry.node));
  } else if (locator.parent) {
    add(ofKind.slice(0, 8));
  }
  return out;
}

/** The positional arguments (nameless: only keyword arguments have one) among `nodes` written as `text`. */
function positionalArguments(nodes: Node[], text: string, language: LanguageId): Node[] {
  return nodes.filter((node) => node.text === text && nodeName(node, language) === undefined);
}

function similarity(wanted: string, name: string | undefined): number | undefined {
  if (name === undefined) return undefined;
  const a = wanted.toLowerCase();
  const b = name.toLowerCase();
  if (a === b) return 0;
  // one name inside the other ranks with a one-letter typo, unless it is too short to mean anything
  // (`m` inside `cotm` must not outrank `cothm`)
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3 && long.includes(short)) return 1;
  return editDistance(a, b);
}

/**
 * Words other tools and languages use for a kind this one calls otherwise
 * (the first that exists in the file's language is suggested).
 */
const KIND_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  index: ["subscript", "subscript_expression", "index_expression", "element_reference"],
  subscription: ["subscript", "subscript_expression"],
  func: ["function"],
  def: ["function"],
  fn: ["function"],
  property: ["attribute", "member_expression", "field"],
  member: ["attribute", "member_expression"],
  variable: ["assignment"],
  var: ["assignment"],
  assign: ["assignment"],
  elif: ["elif_clause"],
  else: ["else_clause"],
  except: ["except_clause"],
  catch: ["except_clause", "catch_clause"],
  loop: ["for", "while"],
  ternary: ["conditional_expression", "ternary_expression"],
  dict: ["dictionary", "object"],
  array: ["list", "array"],
  arg: ["argument"],
  kwarg: ["keyword_argument"],
  param: ["parameter"],
  literal: ["string", "integer"],
  number: ["integer", "number"],
  expression: ["call", "attribute", "identifier"],
};

function unknownKind(ctx: Context, kind: string, path: (string | number)[]): never {
  const kinds = kindsOf(ctx.language);
  const known = Object.hasOwn(NORMALIZED_KINDS, kind);
  const exists = (name: string) =>
    kindMapping(name, ctx.language) !== undefined || isNodeType(ctx.lang, name);
  const synonyms = (Object.hasOwn(KIND_SYNONYMS, kind.toLowerCase()) ? KIND_SYNONYMS[kind.toLowerCase()] : [])
    .filter(exists);
  const meant = [...new Set([...synonyms, ...closestNames(kind, kinds, 2)])].slice(0, 3);
  const near = nodeTypes(ctx.lang)
    .map((type) => ({ type, d: type.includes(kind) ? 0 : editDistance(type, kind) }))
    .filter((entry) => entry.d <= Math.max(2, Math.floor(kind.length / 3)) && !meant.includes(entry.type))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((entry) => `"${entry.type}"`);
  const message = known
    ? `Kind "${kind}" does not exist in ${ctx.language} ("${ctx.file}"): valid kinds are ${kinds.join(", ")}`
    : `Unknown kind "${kind}" for ${ctx.language} ("${ctx.file}"): valid kinds are ${kinds.join(", ")}`;
  const others = `any ${ctx.language} node type${
    near.length > 0 ? `, e.g. ${near.join(", ")}` : ' such as "if_statement"'
  }`;
  const suggestion = didYouMean(meant);
  invalid(ctx, path, message, suggestion ? `${suggestion} Or ${others}` : `or ${others}`);
}

function nameDoesNotApply(ctx: Context, kind: string, path: (string | number)[]): never {
  invalid(
    ctx,
    [...path, "name"],
    `Locator field "name" does not apply to kind "${kind}": its nodes have no name`,
    'drop "name" and use "parent" and "index", or a named kind such as "function", "call" or "identifier"',
  );
}

function invalid(ctx: Context, path: (string | number)[], message: string, hint?: string): never {
  throw new IssueError(
    error("locator-invalid", message, { file: ctx.file, path, ...(hint ? { hint } : {}) }),
  );
}

function issue(
  ctx: Context,
  path: (string | number)[],
  message: string,
  hint: string,
  list: Candidate[],
): Issue {
  return error("locator-not-found", message, {
    file: ctx.file,
    ...(path.length > 0 ? { path } : {}),
    hint,
    candidates: list,
  });
}

/** How a node reads in a message: `function "load" (line 11)`. */
function what(ctx: Context, node: Node): string {
  const name = nodeNames(node, ctx.language).length > 0 ? nodeName(node, ctx.language) : undefined;
  return `${kindOf(node, ctx.language)}${name ? ` "${name}"` : ""} (line ${node.startPosition.row + 1})`;
}

/** Candidates for an issue, at most `MAX_CANDIDATES`. */
function candidates(nodes: Node[], file: string): Candidate[] {
  return nodes.slice(0, MAX_CANDIDATES).map((node) => describeNode(node, file));
}

/** A node as an issue candidate: `{file, line, kind, text}` (kind normalized where one applies). */
export function describeNode(node: Node, file: string): Candidate {
  const language = detectLanguage(file);
  const parent = language ? enclosingDefinition(node, language) : undefined;
  return {
    file,
    line: node.startPosition.row + 1,
    kind: kindOf(node, language),
    text: firstLine(node.text),
    ...(parent ? { parent } : {}),
  };
}

/** `class HTTPBasicAuth`: the innermost named definition strictly around `node`, for telling same-named matches apart. */
function enclosingDefinition(node: Node, language: LanguageId): string | undefined {
  for (let up = node.parent; up; up = up.parent) {
    const kind = kindOf(up, language);
    if (!SYMBOL_KINDS.includes(kind)) continue;
    const name = nodeName(up, language);
    if (name) return `${kind} ${name}`;
  }
  return undefined;
}

function isNodeType(lang: Language, type: string): boolean {
  if (type.startsWith("_")) return false;
  const id = lang.idForNodeType(type, true);
  return id !== null && lang.nodeTypeIsVisible(id);
}

const typeLists = new WeakMap<Language, string[]>();

/** The named, visible node types of a language. */
function nodeTypes(lang: Language): string[] {
  let list = typeLists.get(lang);
  if (!list) {
    const set = new Set<string>();
    for (let id = 0; id < lang.nodeTypeCount; id++) {
      if (lang.nodeTypeIsNamed(id) && lang.nodeTypeIsVisible(id)) set.add(lang.nodeTypeForId(id)!);
    }
    list = [...set];
    typeLists.set(lang, list);
  }
  return list;
}

function normalizePath(path: string): string {
  return path.replace(/\\/g, "/").split("/").filter((part) => part !== "" && part !== ".").join("/");
}
