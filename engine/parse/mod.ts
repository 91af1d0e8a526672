/**
 * Parsing: language detection, lazily loaded grammars, one parser per
 * language, and the syntax-error census every post-check relies on.
 *
 * Positions from web-tree-sitter are UTF-16 code unit offsets into the
 * JavaScript string that was parsed, so edits are computed on strings and
 * encoded to UTF-8 only when a file is written.
 *
 * @module
 */

import { Language, type Node, Parser, Query, type Tree } from "web-tree-sitter";
import {
  EXTENSIONS,
  grammarBytes,
  type LanguageId,
  LANGUAGES,
  PLAIN_TEXT,
  runtimeBytes,
} from "../../grammars/mod.ts";
import { preorder } from "./walk.ts";

export type { Node, Tree } from "web-tree-sitter";
export { Language, Query } from "web-tree-sitter";
export { EXTENSIONS, type LanguageId, LANGUAGES, PLAIN_TEXT };
export { detectLanguage } from "../base/languages.ts";

let runtimeReady: Promise<void> | undefined;
const languages = new Map<LanguageId, Promise<Language>>();
const parsers = new Map<LanguageId, Parser>();

/** Initialise the web-tree-sitter runtime once per process (once per pool worker). */
export function initRuntime(): Promise<void> {
  runtimeReady ??= runtimeBytes().then((wasmBinary) =>
    withoutProcessGlobal(() => Parser.init({ wasmBinary }))
  );
  return runtimeReady;
}

/**
 * `start()`, with the global `process` hidden while it runs (synchronously).
 *
 * web-tree-sitter's Emscripten glue decides whether it runs under Node by
 * reading `process` as its module factory starts, synchronously inside
 * `Parser.init`. In Deno that read starts the Node compatibility layer
 * (7–30 ms, in the main thread and again in every pool worker) and sends the
 * glue down its Node path (`createRequire`, `fs`, `path`), none of which it
 * needs when it is handed the wasm bytes. Hidden, the glue takes its plain
 * JavaScript (or web worker) path.
 */
export function withoutProcessGlobal<T>(start: () => T): T {
  const saved = Object.getOwnPropertyDescriptor(globalThis, "process");
  if (!saved?.configurable) return start();
  Object.defineProperty(globalThis, "process", { value: undefined, configurable: true, writable: true });
  try {
    return start();
  } finally {
    Object.defineProperty(globalThis, "process", saved);
  }
}

/** The loaded tree-sitter language for `id`, decoding its grammar on first use. */
export function loadLanguage(id: LanguageId): Promise<Language> {
  let pending = languages.get(id);
  if (!pending) {
    // The grammar is inflated while the runtime compiles.
    pending = Promise.all([grammarBytes(id), initRuntime()]).then(([bytes]) => Language.load(bytes));
    languages.set(id, pending);
  }
  return pending;
}

/** A parser for `id`, shared within the process (parsing is synchronous). */
export async function parserFor(id: LanguageId): Promise<Parser> {
  // Plain text has no grammar: its trees are empty (see `parse`), made by any parser.
  if (id === PLAIN_TEXT) return await parserFor("python");
  const existing = parsers.get(id);
  if (existing) return existing;
  const language = await loadLanguage(id);
  const parser = new Parser();
  parser.setLanguage(language);
  parsers.set(id, parser);
  return parser;
}

/**
 * Trees live in the WebAssembly heap, which JavaScript's garbage collector
 * neither sees nor frees: a tree nobody deletes leaks its memory until the
 * heap (2 GB at most) is exhausted and every later parse aborts. A 1.5 MB
 * Python file's tree takes ~100 MB there.
 *
 * So each tree from `parse()` is registered with a FinalizationRegistry and
 * deleted once unreachable from JavaScript (a `Node` keeps its tree
 * reachable). Two details make that work in practice:
 * - a zero-filled ArrayBuffer hangs off each tree (an eighth of the tree's
 *   estimated WebAssembly size: enough to make the collector run as trees
 *   pile up, small enough that zeroing it costs little; at the full size it
 *   took 4% of a 9 MB graph build);
 * - finalizers run only from the event loop, never between microtasks, so
 *   while the estimated live tree memory is above a budget `parse()` yields
 *   one macrotask first, letting pending finalizers run.
 * Code that knows a tree is dead may still call `tree.delete()` early.
 */
/** Estimated WebAssembly bytes of a tree per source character (Python measures ~60–70). */
const BYTES_PER_CHAR = 64;
/** Bytes of collector-visible pressure per source character. */
const PRESSURE_PER_CHAR = 8;
const LIVE_BUDGET = 512 * 1024 * 1024;
let liveEstimate = 0;
let TreeClass: { prototype: Tree } | undefined;
const PRESSURE = Symbol("gcPressure");

const treeFinalizer = new FinalizationRegistry<{ address: number; bytes: number }>((held) => {
  liveEstimate -= held.bytes;
  // `Tree.prototype.delete` only reads `this[0]`, the tree's address.
  if (held.address && TreeClass) {
    (TreeClass.prototype.delete as (this: { 0: number }) => void).call({ 0: held.address });
  }
});

function track(tree: Tree, textLength: number): Tree {
  TreeClass ??= Object.getPrototypeOf(tree).constructor;
  const bytes = Math.max(4096, textLength * BYTES_PER_CHAR);
  liveEstimate += bytes;
  Object.defineProperty(tree, PRESSURE, {
    value: new ArrayBuffer(Math.min(textLength * PRESSURE_PER_CHAR + 1024, 2 ** 30)),
    writable: true,
  });
  const held = { address: (tree as unknown as { 0: number })[0], bytes };
  treeFinalizer.register(tree, held, tree);
  const original = tree.delete;
  tree.delete = function (this: Tree) {
    if (treeFinalizer.unregister(this)) liveEstimate -= bytes;
    if ((this as unknown as { 0: number })[0]) original.call(this);
    // the pressure is for the collector to find this tree; deleted, it has no more use
    (this as unknown as Record<symbol, unknown>)[PRESSURE] = null;
  };
  return tree;
}

/** Let pending tree finalizers run when the live estimate is over budget. */
async function relieveTreeMemory(): Promise<void> {
  for (let round = 0; round < 3 && liveEstimate > LIVE_BUDGET; round++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/**
 * Parse `text` as `language`. Pass `oldTree` (already `edit()`ed to match
 * the change) for an incremental re-parse.
 */
export async function parse(
  language: LanguageId,
  text: string,
  oldTree?: Tree,
): Promise<Tree> {
  const parser = await parserFor(language);
  if (liveEstimate > LIVE_BUDGET) await relieveTreeMemory();
  // a plain text file's tree is empty: no node, no syntax problem, whatever the text
  const tree = language === PLAIN_TEXT ? parser.parse("") : parser.parse(text, oldTree ?? null);
  if (!tree) throw new Error(`Parser for "${language}" returned no tree`);
  return track(tree, text.length);
}

/**
 * Parse `text`, hand the tree to `inspect`, and free the tree when `inspect`
 * returns (or throws). The tree lives only for the call, so it skips the
 * collector bookkeeping of `parse()`: use it for trees that are read once
 * (a file's graph, a snippet's check). Nodes must not escape `inspect`.
 */
export async function withTree<T>(
  language: LanguageId,
  text: string,
  inspect: (tree: Tree) => T,
): Promise<T> {
  const parser = await parserFor(language);
  const tree = parser.parse(language === PLAIN_TEXT ? "" : text);
  if (!tree) throw new Error(`Parser for "${language}" returned no tree`);
  try {
    return inspect(tree);
  } finally {
    tree.delete();
  }
}

const queryCache = new Map<string, Query>();

/** A compiled query, cached per language and source (compiling costs ~ms). */
export async function compileQuery(language: LanguageId, source: string): Promise<Query> {
  const key = `${language}\u0000${source}`;
  let query = queryCache.get(key);
  if (!query) {
    query = new Query(await loadLanguage(language), source);
    queryCache.set(key, query);
  }
  return query;
}

/** A syntax problem found in a tree: an ERROR node or a MISSING token. */
export interface SyntaxProblem {
  kind: "error" | "missing";
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units. */
  column: number;
  /** What was missing (`)` etc.), or the first line of the unparsable text. */
  text: string;
  startIndex: number;
  endIndex: number;
}

/**
 * Every ERROR node and MISSING token of a tree, in document order, found by
 * a cursor walk that skips subtrees without errors.
 */
export function syntaxProblems(tree: Tree, limit = Infinity): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  if (!tree.rootNode.hasError) return problems;
  preorder(tree.rootNode, (node) => {
    if (problems.length >= limit) return false;
    if (node.isError || node.isMissing) {
      problems.push({
        kind: node.isMissing ? "missing" : "error",
        line: node.startPosition.row + 1,
        column: node.startPosition.column + 1,
        text: node.isMissing ? node.type : firstLine(node.text),
        startIndex: node.startIndex,
        endIndex: node.endIndex,
      });
    }
    return node.hasError && !node.isMissing;
  });
  return problems.slice(0, limit);
}

/** The first line of `text`, trimmed and cut to 80 characters. */
export function firstLine(text: string): string {
  const nl = text.indexOf("\n");
  const line = (nl === -1 ? text : text.slice(0, nl)).trim();
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}

/** 1-based line of a node's first character. */
export function startLine(node: Node): number {
  return node.startPosition.row + 1;
}

/** 1-based line of a node's last character (a node ending at column 0 ends on the line before). */
export function endLine(node: Node): number {
  const end = node.endPosition;
  return end.column === 0 && end.row > node.startPosition.row ? end.row : end.row + 1;
}
