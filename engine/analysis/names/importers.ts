/**
 * Names removed from one file that other files still use, where the
 * language says who uses what:
 * - **Go**: the files of a package share its top-level names, so a file of
 *   the same directory and `package` clause that uses a removed name
 *   without defining it loses it;
 * - **JavaScript and TypeScript**: a file that imports the name from the
 *   changed module by a relative path (`import { f } from "./m"`) loses it.
 *
 * Only top-level definitions count as removable from other files (a local
 * deleted in a function is no other file's business), and, as in the same
 * file (`mod.ts`), a name the changed file still mentions otherwise (a
 * re-export, a string) is not removed. Other languages resolve names across
 * files through a build (include paths, classpaths, load paths) this does
 * not see: for them the compilers (`verify/compile/native.ts`) judge.
 *
 * @module
 */

import type { DocumentStore } from "../../parse/documents.ts";
import type { LanguageId, Node, Tree } from "../../parse/mod.ts";
import { filesMentioning } from "../repo_files.ts";
import { fileNames, type NameRules, nameRules } from "./mod.ts";

/** Uses of a removed name in another file. */
export interface ForeignLoss {
  path: string;
  name: string;
  /** The import naming it (JavaScript, TypeScript) and its uses there. */
  uses: Node[];
}

/** Node types that hold a scope below the top level: a definition under one is not top-level. */
const INNER = new Set([
  "statement_block",
  "block",
  "compound_statement",
  "class_body",
  "formal_parameters",
  "parameter_list",
  "parameters",
  "arrow_function",
  "function_expression",
  "func_literal",
  "object_pattern",
  "array_pattern",
]);

const JS_FAMILY: Partial<Record<LanguageId, LanguageId[]>> = {
  javascript: ["javascript", "typescript", "tsx"],
  typescript: ["typescript", "tsx"],
  tsx: ["typescript", "tsx"],
};

/** Top-level names defined in `before` and neither defined nor mentioned in `after`. */
export function removedTopLevel(language: LanguageId, before: Tree, after: Tree): string[] {
  const rules = nameRules(language);
  if (!rules) return [];
  const was = fileNames(before, rules);
  const now = fileNames(after, rules);
  const out: string[] = [];
  for (const [name, definitions] of was.definitions) {
    if (now.definitions.has(name) || now.others.has(name) || now.uses.has(name)) continue;
    if (definitions.some(topLevel)) out.push(name);
  }
  return out;
}

function topLevel(node: Node): boolean {
  for (let at = node.parent; at && at.parent; at = at.parent) if (INNER.has(at.type)) return false;
  return true;
}

/** The other files that still use names `path` no longer defines (see the module notes). */
export async function foreignLosses(
  store: DocumentStore,
  path: string,
  language: LanguageId,
  before: Tree,
  after: Tree,
): Promise<ForeignLoss[]> {
  const removed = removedTopLevel(language, before, after);
  if (removed.length === 0) return [];
  if (language === "go") return await goLosses(store, path, after, removed);
  if (JS_FAMILY[language]) return await moduleLosses(store, path, language, removed);
  return [];
}

function packageOf(tree: Tree): string | undefined {
  const clause = tree.rootNode.namedChildren.find((node) => node?.type === "package_clause");
  return clause?.namedChildren[0]?.text;
}

async function goLosses(
  store: DocumentStore,
  path: string,
  after: Tree,
  removed: string[],
): Promise<ForeignLoss[]> {
  const rules = nameRules("go")!;
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  const pkg = packageOf(after);
  const out: ForeignLoss[] = [];
  for (const other of await filesMentioning(store, "go", removed, path)) {
    if (!other.startsWith(dir) || other.slice(dir.length).includes("/")) continue;
    const doc = await store.get(other);
    if (packageOf(doc.tree) !== pkg) continue;
    const names = fileNames(doc.tree, rules);
    for (const name of removed) {
      const uses = names.uses.get(name);
      if (!uses || names.definitions.has(name) || names.others.has(name)) continue;
      out.push({ path: other, name, uses });
    }
  }
  return out;
}

async function moduleLosses(
  store: DocumentStore,
  path: string,
  language: LanguageId,
  removed: string[],
): Promise<ForeignLoss[]> {
  const out: ForeignLoss[] = [];
  const wanted = new Set(removed);
  for (const family of JS_FAMILY[language]!) {
    for (const other of await filesMentioning(store, family, removed, path)) {
      const doc = await store.get(other);
      const rules = nameRules(doc.file.language)!;
      const names = fileNames(doc.tree, rules);
      for (const statement of doc.tree.rootNode.namedChildren) {
        if (statement?.type !== "import_statement") continue;
        const source = statement.childForFieldName("source");
        if (!source || !importsFile(other, source.text.slice(1, -1), path)) continue;
        for (const specifier of statement.descendantsOfType("import_specifier")) {
          const name = specifier?.childForFieldName("name")?.text;
          if (!specifier || !name || !wanted.has(name)) continue;
          const local = specifier.childForFieldName("alias")?.text ?? name;
          out.push({ path: other, name, uses: [specifier, ...(names.uses.get(local) ?? [])] });
        }
      }
    }
  }
  return out;
}

const SUFFIXES = ["", ".js", ".ts", ".tsx", ".jsx", ".mjs", ".cjs", ".mts", ".cts", "/index.js", "/index.ts"];

/** Whether the specifier `spec`, imported by `from`, names the file `target` (relative specifiers only). */
export function importsFile(from: string, spec: string, target: string): boolean {
  if (!spec.startsWith("./") && !spec.startsWith("../")) return false;
  const parts = from.split("/").slice(0, -1);
  for (const part of spec.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== ".") parts.push(part);
  }
  const base = parts.join("/");
  // TypeScript imports "./m.js" for the source "./m.ts"
  const bases = /\.[cm]?js$/.test(base) ? [base, base.replace(/\.([cm]?)js$/, ".$1ts")] : [base];
  return bases.some((b) => SUFFIXES.some((suffix) => b + suffix === target));
}

/** At most this many mentioning files are read: a name in more is taken as declared somewhere among them. */
const MAX_FILES = 40;

const FAMILY: Partial<Record<LanguageId, LanguageId[]>> = {
  c: ["c", "cpp"],
  cpp: ["cpp", "c"],
  javascript: ["javascript", "typescript", "tsx"],
  typescript: ["typescript", "tsx", "javascript"],
  tsx: ["tsx", "typescript", "javascript"],
};

/**
 * Whether a file of the workspace other than `path`, in the language or its
 * family, declares `name` (a function, a method of any type, a trait item):
 * a call through a receiver may reach it (`receivers.ts`). A name mentioned
 * in more than `MAX_FILES` files counts as declared.
 */
export async function declaredElsewhere(
  store: DocumentStore,
  path: string,
  language: LanguageId,
  name: string,
): Promise<boolean> {
  for (const family of FAMILY[language] ?? [language]) {
    const files = await filesMentioning(store, family, [name], path);
    if (files.length >= MAX_FILES) return true;
    for (const file of files) {
      const doc = await store.get(file);
      const rules = nameRules(doc.file.language);
      if (rules && declares(doc.tree, rules, name)) return true;
    }
  }
  return false;
}

/** Whether a tree declares `name` in any definition context of its rules (counted or not). */
export function declares(tree: Tree, rules: NameRules, name: string): boolean {
  return fileNames(tree, rules).declared.has(name);
}
