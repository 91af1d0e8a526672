/**
 * Layer 6 (seed 002), cross-file impact: a step that renames, deletes or
 * changes the signature of a module-level symbol breaks the files that
 * import it, unless the plan edits them too.
 *
 * What a step changed is read from the simulation, not guessed from its
 * operator: the module-level definitions the changed span touched before
 * and after the step (a name gone from the file: renamed or deleted, e.g. by
 * `rename_symbol` or `delete_lines`), and the parameter lists of the top-level functions the
 * edit touched (changed: e.g. `modify_function_signature`). The importers
 * come from the code graph when one is given, else from a scan of the
 * repository's files of that language that mention the name
 * (`filesMentioning`), whose imports are then read from their graphs. An
 * import counts when its module resolves to the edited file: dotted Python
 * modules (absolute, matched as a path suffix, or relative `.x`/`..x`) and
 * relative JS/TS paths. For a removed Python name, only the files that
 * really import it or read it from the module (`analysis/importers.ts`)
 * are kept: after a repository-wide rename, a file that imports the module
 * and happens to spell the old name as a local is not an importer.
 *
 * `Step 1 (rename_symbol): 'helper_func' is imported by files not in this plan: "other.py", "test.py"`
 *
 * @module
 */

import { type Issue, warning } from "../../base/issue.ts";
import type { CodeGraph, GraphImport } from "../../graph/mod.ts";
import { type Document, type DocumentStore, editBetween } from "../../parse/documents.ts";
import type { LanguageId, Node, Tree } from "../../parse/mod.ts";
import type { NormalizedStep } from "../../plan/mod.ts";
import { definitionsIn } from "../levels/defs.ts";
import { filesMentioning } from "../../analysis/repo_files.ts";
import { graphOf, tryGet } from "./graphs.ts";
import { moduleIs, submodule } from "../../analysis/modules.ts";
import { importersOf } from "../../analysis/importers.ts";

/** One file a step changed. */
export interface ChangedFile {
  path: string;
  before: Document;
  after: Document;
  /** A file the step created (`before` is empty). */
  created?: boolean;
}

/** Finds the files outside a plan that import what its steps change. */
export class ImpactAnalyzer {
  private readonly cache = new Map<string, string[]>();

  /**
   * `store` is the simulation's (importers are read as they are at that
   * point); `planFiles` are the files the plan edits; `graph`, when given,
   * supplies the imports instead of a repository scan.
   */
  constructor(
    private readonly store: DocumentStore,
    private readonly planFiles: ReadonlySet<string>,
    private readonly graph?: CodeGraph,
  ) {}

  /** Layer 6 warnings for one simulated step. */
  async check(step: NormalizedStep, changes: readonly ChangedFile[]): Promise<Issue[]> {
    const issues: Issue[] = [];
    for (const change of changes) {
      // A new file changes no symbol another file could import yet.
      if (change.created) continue;
      const language = change.after.file.language;
      for (const [name, how] of changedSymbols(change)) {
        let importers = (await this.importers(change.path, name, language)).filter((file) =>
          !this.planFiles.has(file)
        );
        if (how === "removed" && language === "python" && importers.length > 0) {
          // keep the files that really import the name or read it from the module (a file that only
          // imports the module and spells the name elsewhere, e.g. a local, is not one)
          const users = new Set(
            (await importersOf(this.store, change.path, [name])).map((found) => found.path),
          );
          importers = importers.filter((file) => users.has(file));
        }
        if (importers.length === 0) continue;
        const list = importers.slice(0, 10).map((file) => `"${file}"`).join(", ");
        issues.push(warning(
          "cross-file-impact",
          `Step ${step.index} (${step.op}): '${name}' is imported by files not in this plan: ${list}${
            importers.length > 10 ? `, ... (${importers.length} files)` : ""
          }`,
          {
            step: step.index,
            layer: "6",
            file: change.path,
            path: step.path,
            hint: how === "removed"
              ? `the step renames or deletes '${name}' in "${change.path}": update those imports in the plan, or keep the old name as an alias`
              : `the step changes the parameters of '${name}' in "${change.path}": check its calls in those files`,
          },
        ));
      }
    }
    return issues;
  }

  /** Files (other than `file`) that import `name` from `file`. */
  private async importers(file: string, name: string, language: LanguageId): Promise<string[]> {
    const key = `${file}\u0000${name}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const out = new Set<string>();
    const consider = (imp: GraphImport) => {
      if (imp.file !== file && importsFrom(imp, file, name)) out.add(imp.file);
    };
    if (this.graph) {
      for (const imp of this.graph.imports) consider(imp);
    } else {
      for (const path of await filesMentioning(this.store, language, [name], file)) {
        const got = await tryGet(this.store, path);
        if (got.doc) { for (const imp of graphOf(got.doc).imports) consider(imp); }
      }
    }
    const list = [...out].sort();
    this.cache.set(key, list);
    return list;
  }
}

/** Module-level names a change removed, and top-level functions whose parameters changed. */
export function changedSymbols(change: ChangedFile): Map<string, "removed" | "changed"> {
  const out = new Map<string, "removed" | "changed">();
  const edit = editBetween(change.before, change.after);
  if (!edit) return out;
  // Only definitions the changed span touches can lose their name; look at the rest of the file
  // only for a name the span no longer has (it may be defined again elsewhere).
  const gone = topLevelNames(change.before.tree, edit.startIndex, edit.oldEndIndex);
  for (const name of topLevelNames(change.after.tree, edit.startIndex, edit.newEndIndex)) gone.delete(name);
  if (gone.size > 0) {
    for (const name of topLevelNames(change.after.tree, 0, change.after.file.text.length)) gone.delete(name);
  }
  for (const name of gone) out.set(name, "removed");
  const old = definitionsIn(change.before.tree, edit.startIndex, edit.oldEndIndex);
  const now = definitionsIn(change.after.tree, edit.startIndex, edit.newEndIndex);
  for (const [qualname, def] of old) {
    if (qualname.includes(".") || out.has(qualname)) continue;
    const next = now.get(qualname);
    if (!next) continue;
    const params = (node: typeof def.node) => node.childForFieldName("parameters")?.text ?? "";
    if (params(def.node) !== params(next.node)) out.set(qualname, "changed");
  }
  return out;
}

const DEFINITION = /class|function|method|interface|enum|struct|trait|type_alias|module|namespace/;

/** Names of the module-level definitions overlapping [start, end]. */
function topLevelNames(tree: Tree, start: number, end: number): Set<string> {
  const names = new Set<string>();
  let child = start > 0 ? tree.rootNode.firstChildForIndex(start - 1) : tree.rootNode.firstChild;
  for (; child && child.startIndex <= end; child = child.nextSibling) {
    if (child.endIndex < start) continue;
    let node: Node | null = child;
    if (node.type === "decorated_definition") node = node.childForFieldName("definition");
    else if (node.type === "export_statement") node = node.childForFieldName("declaration") ?? node;
    const name = node && DEFINITION.test(node.type) ? node.childForFieldName("name") : null;
    if (name) names.add(name.text);
  }
  return names;
}

/** Whether `imp` imports `name` from the file `target` (or the module itself, which mentions it). */
export function importsFrom(imp: GraphImport, target: string, name: string): boolean {
  if (imp.symbol === name || imp.symbol === "*") return moduleIs(imp.module, imp.file, target);
  if (imp.symbol === null) return moduleIs(imp.module, imp.file, target);
  // `from pkg import mod` then `mod.name`.
  return moduleIs(submodule(imp.module, imp.symbol), imp.file, target);
}
