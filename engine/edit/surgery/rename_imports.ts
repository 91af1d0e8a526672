/**
 * The other files of a repository rename (`rename_identifier` with
 * `"scope": "repository"`): where the renamed module-level name of `target`
 * is imported or read from the module, the edits that follow it, and the
 * collision checks of each importing file.
 *
 * For each file that uses the name (`analysis/importers.ts`):
 *
 * - `from m import old` becomes `from m import new`, and the file's own
 *   binding of `old` (its uses, and other assignments of that variable in
 *   the same scope) is renamed with it, checked like the file's own rename
 *   (`bindingCollisions`: an existing `new` in that scope or a use it would
 *   capture is an error; shadowing a builtin or an outer name a warning);
 * - `from m import old as alias` becomes `from m import new as alias`, and
 *   nothing else changes there;
 * - `m.old` becomes `m.new` where `m` is the module (`import pkg.m as m`,
 *   `from pkg import m`, `import pkg.m` then `pkg.m.old`);
 * - after `from m import *`, uses of `old` that only the star import can
 *   supply (unbound otherwise) become `new`.
 *
 * A file that binds the name at module level without an alias (through
 * `from m import old` or a star import) re-exports it: files importing it
 * from there (`from pkg import old` after `pkg/__init__.py` imported it from
 * `pkg.core`) are followed in turn.
 *
 * @module
 */

import { importersOf } from "../../analysis/importers.ts";
import { error, type Issue } from "../../base/issue.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import { bindingCollisions } from "../../analysis/rename_safety.ts";
import { bindingAt, occurrencesOf, referencesTo, resolveName } from "../../analysis/scope.ts";
import type { TextEdit } from "../text_edit.ts";

/** What a repository rename changes outside the renamed name's own file. */
export interface ImporterEdits {
  /** Edits by repository path, in offsets of the file's current text, sorted. */
  edits: Map<string, TextEdit[]>;
  /** Collision errors and shadowing warnings in the importing files. */
  issues: Issue[];
}

/** The edits renaming `oldName` to `newName` in every file that uses it from `target` (see the module notes). */
export async function importerEdits(
  store: DocumentStore,
  target: string,
  names: { oldName: string; newName: string },
): Promise<ImporterEdits> {
  const { oldName, newName } = names;
  const byFile = new Map<string, Map<number, TextEdit>>();
  const issues: Issue[] = [];
  const add = (path: string, node: Node) => {
    let edits = byFile.get(path);
    if (!edits) byFile.set(path, edits = new Map());
    edits.set(node.startIndex, { start: node.startIndex, end: node.endIndex, replacement: newName });
  };
  const visited = new Set([target]);
  const pending = [target];
  while (pending.length > 0) {
    const module = pending.shift()!;
    for (const importer of await importersOf(store, module, [oldName], { exclude: new Set([target]) })) {
      const { path, doc } = importer;
      let reexports = false;
      for (const use of importer.uses) {
        if (use.kind === "attribute") {
          add(path, use.node);
        } else if (use.kind === "import") {
          const id = use.node.namedChild(0);
          if (!id) continue;
          add(path, id);
          if (use.alias !== undefined) continue;
          const local = localBinding(doc, id, { oldName, newName });
          issues.push(...local.issues);
          for (const node of local.nodes) add(path, node);
          reexports ||= local.moduleLevel;
        } else {
          for (const node of starUses(doc, oldName)) add(path, node);
          reexports ||= use.node.parent?.type === "module";
        }
      }
      if (reexports && !visited.has(path)) {
        visited.add(path);
        pending.push(path);
      }
    }
  }
  const edits = new Map<string, TextEdit[]>();
  for (const [path, map] of byFile) edits.set(path, [...map.values()].sort((a, b) => a.start - b.start));
  return { edits, issues };
}

/**
 * Where other files use `name` of `target` (`file:line`, in path order):
 * its imports, `module.name` reads, and reads that only a star import of
 * the module can supply. What a file-only rename would break.
 */
export async function importingPlaces(store: DocumentStore, target: string, name: string): Promise<string[]> {
  const places: string[] = [];
  for (const importer of await importersOf(store, target, [name])) {
    for (const use of importer.uses) {
      if (use.kind !== "star") places.push(`${importer.path}:${use.line}`);
      else {
        for (const node of starUses(importer.doc, name)) {
          places.push(`${importer.path}:${node.startPosition.row + 1}`);
        }
      }
    }
  }
  return places;
}

/** The identifiers of the variable an unaliased `from m import old` binds, and whether it is module-level. */
function localBinding(
  doc: Document,
  id: Node,
  names: { oldName: string; newName: string },
): { nodes: Node[]; issues: Issue[]; moduleLevel: boolean } {
  const file = doc.file.path;
  const found = bindingAt(doc, id);
  if (!found) return { nodes: [], issues: [], moduleLevel: false };
  const issues: Issue[] = bindingCollisions(doc, id, names.newName).map((issue) => ({ ...issue, file }));
  const nodes: Node[] = [...referencesTo(doc, found.binding)];
  for (const other of found.scope.bindings.get(names.oldName) ?? []) {
    if (other.start === id.startIndex) continue;
    if (other.kind === "import") {
      issues.push(error(
        "not-supported",
        `Cannot rename "${names.oldName}" in "${file}": it is also bound by another import at line ${other.line}`,
        { file, line: other.line, hint: "rename that import first, or give one of them an alias" },
      ));
      continue;
    }
    const node = doc.tree.rootNode.descendantForIndex(other.start, other.end);
    if (node) nodes.push(node);
  }
  return { nodes, issues, moduleLevel: found.scope.kind === "module" };
}

/** Uses of `name` that resolve to nothing but a star import. */
function starUses(doc: Document, name: string): Node[] {
  return occurrencesOf(doc, name)
    .filter(({ node, role }) => role === "reference" && resolveName(doc, name, node).status === "unknown")
    .map(({ node }) => node);
}
