/**
 * L3 dangling references (Python): a use left without a binding by an edit
 * that removed the binding (`delete_node`, `replace_node`, `rename_*`,
 * `move_node`, any step). Two codes:
 *
 * - `dangling-reference`: in the edited file, uses of a name whose last
 *   binding in their scope is gone (`MSYS2 = ...` deleted, used two lines
 *   below; `import re` deleted while `re.compile` is used);
 * - `dangling-import`: another file of the repository imports the removed
 *   module-level name (`from m import name`) or reads it from the module
 *   (`m.name`), found through the import graph (`analysis/importers.ts`);
 *   an import guarded by `try: ... except ImportError:` is a fallback the
 *   file already has, not a break, and a module that still has a star
 *   import or a module-level `__getattr__` may supply the name anyway.
 *
 * Both are errors, judged on the plan as a whole: a step reports them as
 * warnings (a later step may restore the binding or update the uses), and
 * `finalDangling` recomputes them between the files before the plan and
 * after it; what still dangles then is an error that fails the plan, with
 * the step that removed the binding. Which uses count as dangling (and
 * which do not: other bindings, outer or builtin names, star imports,
 * strings) is `analysis/lost_names.ts`.
 *
 * A removed name still listed in the module's `__all__` is a warning
 * (`export-removed`): `from m import *` would fail, but nothing reads it
 * by name.
 *
 * @module
 */

import { importersOf } from "../../analysis/importers.ts";
import { lostNames } from "../../analysis/lost_names.ts";
import { error, type Issue, warning } from "../../base/issue.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { clip } from "./quote.ts";
import { finalNameIssues, hasNameRules } from "./l3_names.ts";
import { editSpans, type Span } from "./region.ts";
import { bindingAt, moduleScope, referencesTo } from "../../analysis/scope.ts";

/** The codes whose final verdict `finalDangling` gives. */
export const DANGLING_CODES: ReadonlySet<string> = new Set(["dangling-reference", "dangling-import"]);

const MAX_LISTED = 10;

/** Step-level findings: dangling uses after one edit, as warnings until the plan is judged as a whole. */
export async function checkDangling(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  if (change.after.file.language !== "python") return [];
  const spans = editSpans(change.before, change.after, change.records);
  const issues = await danglingIssues(
    change.path,
    { before: change.before, after: change.after, spans },
    env.store,
  );
  return issues.map((issue) => ({ ...issue, severity: "warning" as const, level: "L3", step: env.step }));
}

/**
 * The dangling uses left by a whole plan: for each Python file the plan
 * changed (`originals`: path → document before the plan), compared with
 * its document in `final`. Each is an error, given the step of the matching
 * step-level warning in `stepWarnings` (the step that removed the binding).
 */
export async function finalDangling(
  originals: ReadonlyMap<string, Document>,
  final: DocumentStore,
  stepWarnings: readonly Issue[],
): Promise<Issue[]> {
  const out: Issue[] = [];
  for (const [path, before] of originals) {
    if (before.file.language !== "python" && !hasNameRules(before)) continue;
    let after: Document;
    try {
      after = await final.get(path);
    } catch {
      continue;
    }
    const found = before.file.language === "python"
      ? await danglingIssues(path, { before, after }, final)
      : await finalNameIssues(path, before, after, final);
    for (const issue of found) {
      if (!DANGLING_CODES.has(issue.code)) continue;
      const name = subject(issue);
      const origin = stepWarnings.find((found) =>
        found.code === issue.code && found.file === issue.file && subject(found) === name
      );
      const step = origin?.step ?? stepWarnings.find((found) => found.file === path)?.step;
      out.push({ ...issue, level: "L3", ...(step !== undefined ? { step } : {}) });
    }
  }
  return out;
}

/**
 * A plan's warnings judged as a whole: step-level dangling warnings are
 * replaced by `finalDangling`'s errors (none when later steps repaired
 * them); other warnings are kept. Files beyond Python are judged at the end
 * state even when no step warned (see the note inside).
 */
export async function judgeDangling(
  warnings: readonly Issue[],
  originals: ReadonlyMap<string, Document>,
  final: DocumentStore,
): Promise<{ errors: Issue[]; warnings: Issue[] }> {
  const stepLevel = warnings.filter((issue) => DANGLING_CODES.has(issue.code));
  const kept = warnings.filter((issue) => !DANGLING_CODES.has(issue.code));
  // In Python the step that removes a name's last binding always warns. Beyond Python a loss is excused
  // while another occurrence may bind the name (`require("debug")` keeps `debug` alive in JavaScript),
  // and a later step may remove that occurrence without touching a definition: no step warns, so the
  // plan's end state is judged whatever the steps said.
  const judged = stepLevel.length > 0
    ? originals
    : new Map([...originals].filter(([, doc]) => doc.file.language !== "python"));
  if (judged.size === 0) return { errors: [], warnings: kept };
  return { errors: await finalDangling(judged, final, stepLevel), warnings: kept };
}

/** The first quoted value of a message (the name every dangling issue starts with). */
function subject(issue: Issue): string | undefined {
  return /"([^"]+)"/.exec(issue.message)?.[1];
}

async function danglingIssues(
  path: string,
  change: { before: Document; after: Document; spans?: readonly Span[] },
  store: DocumentStore,
): Promise<Issue[]> {
  const issues: Issue[] = [];
  const after = change.after;
  const lost = lostNames(change.before, after, change.spans);
  for (const { name, uses } of lost.dangling) {
    issues.push(error(
      "dangling-reference",
      `Name "${clip(name)}" is still used after its last binding was removed: ${places(path, uses)}`,
      {
        file: path,
        line: uses[0].startPosition.row + 1,
        hint: `update or remove the uses of "${clip(name)}", or keep a binding of it`,
      },
    ));
  }
  if (lost.removedModuleNames.length === 0) return issues;
  issues.push(...exportsRemoved(path, after, lost.removedModuleNames));
  // a star import or a module `__getattr__` (PEP 562) may still supply the name to importers
  const module = moduleScope(after);
  if (module.starImport || module.bindings.has("__getattr__")) return issues;
  for (const importer of await importersOf(store, path, lost.removedModuleNames, { star: false })) {
    const byName = new Map<string, Node[]>();
    for (const use of importer.uses) {
      if (use.guarded) continue;
      const nodes = [use.node, ...(use.kind === "import" ? localUses(importer.doc, use.node) : [])];
      const list = byName.get(use.name);
      if (list) list.push(...nodes);
      else byName.set(use.name, nodes);
    }
    for (const [name, uses] of byName) {
      issues.push(error(
        "dangling-import",
        `Name "${clip(name)}" was removed from "${path}" but "${importer.path}" still uses it: ${
          places(importer.path, uses)
        }`,
        {
          file: importer.path,
          line: uses[0].startPosition.row + 1,
          hint: `update the imports and uses of "${clip(name)}" in "${importer.path}" in the plan, or keep "${
            clip(name)
          }" in "${path}" (to rename across files, use rename_identifier with "scope": "repository")`,
        },
      ));
    }
  }
  return issues;
}

/** The reads of the name an import binds (`name` in `from m import name`, or its alias). */
function localUses(doc: Document, imported: Node): Node[] {
  const aliased = imported.parent?.type === "aliased_import"
    ? imported.parent.childForFieldName("alias")
    : null;
  const id = aliased ?? imported.namedChild(0);
  const found = id ? bindingAt(doc, id) : undefined;
  return found ? referencesTo(doc, found.binding) : [];
}

/** Warnings for removed names that the module's `__all__` still lists. */
function exportsRemoved(path: string, after: Document, names: readonly string[]): Issue[] {
  const text = after.file.text;
  const start = text.search(/^__all__\s*[+]?=/m);
  if (start === -1) return [];
  const end = text.indexOf("]", start) === -1 ? text.length : text.indexOf("]", start) + 1;
  const list = text.slice(start, end);
  const out: Issue[] = [];
  for (const name of names) {
    if (!list.includes(`"${name}"`) && !list.includes(`'${name}'`)) continue;
    out.push(warning("export-removed", `Name "${clip(name)}" was removed but "__all__" still lists it`, {
      file: path,
      line: text.slice(0, start).split("\n").length,
      hint: `remove "${clip(name)}" from "__all__" or keep its definition`,
    }));
  }
  return out;
}

/** `"file:line"` of each distinct line of `nodes`, at most `MAX_LISTED` and a count of the rest. */
export function places(path: string, nodes: readonly Node[]): string {
  const lines = [...new Set(nodes.map((node) => node.startPosition.row + 1))];
  const listed = lines.slice(0, MAX_LISTED).map((line) => `"${path}:${line}"`).join(", ");
  return lines.length > MAX_LISTED ? `${listed} and ${lines.length - MAX_LISTED} more` : listed;
}
