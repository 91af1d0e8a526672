/**
 * The repository import graph seen from one Python module: which other
 * files use which of its module-level names, and how.
 *
 * A file uses the name `name` of the module file `target` by
 *
 * - importing it: `from pkg.m import name`, `from .m import name as alias`
 *   (module level or inside a function);
 * - reading it as an attribute of the module: `m.name`, where `m` is bound
 *   to the module by `import pkg.m as m`, `from pkg import m` or
 *   `import m`, or `pkg.m.name` after `import pkg.m`; the module's name must
 *   resolve to that import where it is used (a local `m` is something else);
 * - a star import, `from pkg.m import *`, which may use any of its names
 *   (the analysis cannot tell which).
 *
 * Candidate files are the workspace's Python files whose current text (the
 * store's, so simulated edits count; texts read from disk are kept while
 * their size and mtime stay the same) contains one of the names; each is
 * parsed and its import statements matched against `target` with
 * `moduleIs`. A bare absolute module (`import core`) matches only a file of
 * that name at the root, under `src/` or `lib/`, or beside the importer:
 * `utils` in an unrelated package is another module.
 *
 * @module
 */

import type { Document, DocumentStore } from "../parse/documents.ts";
import type { Node } from "../parse/mod.ts";
import { repoFiles } from "./repo_files.ts";
import { resolveName, wordOccurrences } from "./scope.ts";
import { moduleIs, submodule } from "./modules.ts";

/** One use of a module's name in another file. */
export interface NameUse {
  /** The name of the module that is used. */
  name: string;
  /** `import`: `from m import name`; `attribute`: `m.name`; `star`: `from m import *`. */
  kind: "import" | "attribute" | "star";
  /**
   * `import`: the imported name's identifier in the statement; `attribute`:
   * the attribute identifier; `star`: the import statement.
   */
  node: Node;
  /** 1-based line of `node`. */
  line: number;
  /** `import` only: the local name (`as alias`), when there is one. */
  alias?: string;
  /**
   * `import` only: the import sits in a `try` whose handler catches its
   * failure (`except ImportError`, `except Exception`, bare `except`).
   */
  guarded?: boolean;
}

/** The uses of a module's names in one file. */
export interface Importer {
  path: string;
  doc: Document;
  uses: NameUse[];
}

/** Options of `importersOf`. */
export interface ImportersOptions {
  /** Files to leave out besides `target` itself. */
  exclude?: ReadonlySet<string>;
  /** Include star imports (default true). */
  star?: boolean;
}

/**
 * Files other than `target` that use any of `names` of the Python module
 * `target` (a repository path), with each use, ordered by path.
 */
export async function importersOf(
  store: DocumentStore,
  target: string,
  names: readonly string[],
  options: ImportersOptions = {},
): Promise<Importer[]> {
  const out: Importer[] = [];
  if (names.length === 0) return out;
  const changed = new Set(store.ownPaths());
  const root = store.workspace.root;
  for (const path of repoFiles(root, "python")) {
    if (path === target || options.exclude?.has(path)) continue;
    let text: string | undefined;
    try {
      text = changed.has(path) ? (await store.get(path)).file.text : diskText(`${root}/${path}`);
    } catch {
      continue;
    }
    if (text === undefined) continue;
    if (!names.some((name) => text.includes(name))) continue;
    let doc: Document;
    try {
      doc = await store.get(path);
    } catch {
      continue;
    }
    const uses = usesIn(doc, target, names, options.star ?? true);
    if (uses.length > 0) out.push({ path, doc, uses });
  }
  return out;
}

/** File texts read from disk, by absolute path, with the size and mtime they were read at. */
const texts = new Map<string, { stamp: string; text: string }>();
const MAX_CACHED = 4000;

/** The text of a file on disk, read again only when its size or mtime changed; undefined when unreadable. */
function diskText(abs: string): string | undefined {
  let stamp: string;
  try {
    const info = Deno.statSync(abs);
    stamp = `${info.size}:${info.mtime?.getTime()}`;
  } catch {
    return undefined;
  }
  const known = texts.get(abs);
  if (known?.stamp === stamp) return known.text;
  const text = Deno.readTextFileSync(abs);
  if (texts.size >= MAX_CACHED) texts.delete(texts.keys().next().value!);
  texts.set(abs, { stamp, text });
  return text;
}

/** Whether the module `module`, written in `importer`, is the file `target`. */
export function importNames(module: string, importer: string, target: string): boolean {
  if (!moduleIs(module, importer, target)) return false;
  if (module.startsWith(".") || module.includes(".")) return true;
  // a bare absolute module: a top-level one, or (Python 2 style) one beside the importer
  const stem = target.replace(/\.py$/, "").replace(/\/__init__$/, "");
  const dir = (path: string) => path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  return stem === module || stem === `src/${module}` || stem === `lib/${module}` ||
    dir(importer) === dir(stem) && stem.slice(stem.lastIndexOf("/") + 1) === module;
}

/** The uses of `names` of `target` in `doc` (see the module notes). */
export function usesIn(doc: Document, target: string, names: readonly string[], star = true): NameUse[] {
  const file = doc.file.path;
  const uses: NameUse[] = [];
  /** Local spellings of the module: `m`, `pkg.m`. */
  const prefixes = new Set<string>();
  const wanted = new Set(names);
  for (
    const statement of doc.tree.rootNode.descendantsOfType(["import_statement", "import_from_statement"])
  ) {
    if (!statement) continue;
    const isFrom = statement.type === "import_from_statement";
    const moduleNode = isFrom ? statement.childForFieldName("module_name") : null;
    const module = moduleNode ? compact(moduleNode.text) : "";
    for (const child of statement.namedChildren) {
      if (!child || (moduleNode && child.id === moduleNode.id)) continue;
      if (child.type === "wildcard_import") {
        if (star && importNames(module, file, target)) {
          uses.push({ name: "*", kind: "star", node: statement, line: statement.startPosition.row + 1 });
        }
        continue;
      }
      const nameNode = child.type === "aliased_import" ? child.childForFieldName("name") : child;
      if (!nameNode || nameNode.type !== "dotted_name") continue;
      const alias = child.type === "aliased_import" ? child.childForFieldName("alias")?.text : undefined;
      const imported = compact(nameNode.text);
      if (isFrom) {
        if (wanted.has(imported) && importNames(module, file, target)) {
          uses.push({
            name: imported,
            kind: "import",
            node: nameNode,
            line: nameNode.startPosition.row + 1,
            alias,
            guarded: guarded(statement),
          });
        } else if (importNames(submodule(module, imported), file, target)) {
          prefixes.add(alias ?? imported);
        }
      } else if (importNames(imported, file, target)) {
        prefixes.add(alias ?? imported);
      }
    }
  }
  if (prefixes.size > 0) uses.push(...attributeUses(doc, prefixes, names));
  return uses.sort((a, b) => a.node.startIndex - b.node.startIndex);
}

/** `prefix.name` attribute reads in `doc` whose prefix resolves to an import. */
function attributeUses(doc: Document, prefixes: ReadonlySet<string>, names: readonly string[]): NameUse[] {
  const out: NameUse[] = [];
  const root = doc.tree.rootNode;
  for (const name of new Set(names)) {
    for (const offset of wordOccurrences(doc.file.text, name)) {
      const node = root.descendantForIndex(offset, offset + name.length);
      if (!node || node.type !== "identifier" || node.startIndex !== offset) continue;
      const parent = node.parent;
      if (parent?.type !== "attribute" || parent.childForFieldName("attribute")?.id !== node.id) continue;
      const object = parent.childForFieldName("object");
      if (!object || !prefixes.has(compact(object.text))) continue;
      let first: Node = object;
      while (first.type === "attribute") first = first.childForFieldName("object")!;
      if (first.type !== "identifier") continue;
      const resolution = resolveName(doc, first.text, first);
      if (resolution.status !== "bound" || resolution.binding?.kind !== "import") continue;
      out.push({ name, kind: "attribute", node, line: node.startPosition.row + 1 });
    }
  }
  return out;
}

const CATCHES_IMPORT =
  /^except\s*(?:[:(]|\(?\s*(?:\w+\s*,\s*)*(?:ImportError|ModuleNotFoundError|Exception|BaseException)\b)/;

/** Whether `statement` is in the body of a `try` with a handler that catches a failed import. */
function guarded(statement: Node): boolean {
  for (let child = statement, up = statement.parent; up; child = up, up = up.parent) {
    if (up.type === "function_definition" || up.type === "class_definition") return false;
    if (up.type !== "try_statement" || up.childForFieldName("body")?.id !== child.id) continue;
    if (
      up.namedChildren.some((clause) => clause?.type === "except_clause" && CATCHES_IMPORT.test(clause.text))
    ) {
      return true;
    }
  }
  return false;
}

function compact(text: string): string {
  return text.replace(/\s+/g, "");
}
