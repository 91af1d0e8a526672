/**
 * A deleted module must not be imported by what remains. After a plan (its
 * simulation in `verifyPlan`, its run in `executePlan`), every Python file
 * the plan deleted is looked up in the imports of the files that still
 * exist: `import pkg.mod`, `from pkg import mod`, `from pkg.mod import x`
 * and the relative forms (`analysis/modules.ts` decides what an import
 * names). Each importer is an error naming the import's line, so a plan that
 * deletes `helpers.py` also has to drop or replace `from helpers import x`.
 * The candidates are the repository's Python files that mention the
 * module's name (`filesMentioning`) and the files the plan created.
 *
 * `Deleting "pkg/helpers.py" leaves it imported: "pkg/app.py:3" imports "pkg.helpers"`
 *
 * @module
 */

import { filesMentioning } from "../../analysis/repo_files.ts";
import { moduleIs, submodule } from "../../analysis/modules.ts";
import { error, type Issue } from "../../base/issue.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import { graphOf } from "./graphs.ts";

/**
 * The imports of deleted Python modules left in `state` (the files after
 * the plan). `originals` maps every file the plan touched to its document
 * before the plan; `created` are the files it created (not deleted ones).
 */
export async function deletedModuleImports(
  originals: ReadonlyMap<string, Document>,
  created: ReadonlySet<string>,
  state: DocumentStore,
  steps: ReadonlyMap<string, number> = new Map(),
): Promise<Issue[]> {
  const deleted: string[] = [];
  for (const [path, before] of originals) {
    if (before.file.language !== "python" || created.has(path)) continue;
    if (!(await state.exists(path))) deleted.push(path);
  }
  const issues: Issue[] = [];
  for (const path of deleted) {
    const stem = path.replace(/\.py$/, "").split("/");
    const name = stem.at(-1) === "__init__" ? stem.at(-2) : stem.at(-1);
    if (!name) continue;
    const candidates = new Set(await filesMentioning(state, "python", [name], path));
    for (const other of originals.keys()) if (other.endsWith(".py") && other !== path) candidates.add(other);
    for (const importer of [...candidates].sort()) {
      if (!(await state.exists(importer))) continue;
      for (const imp of graphOf(await state.get(importer)).imports) {
        const fromIt = moduleIs(imp.module, importer, path);
        const named = imp.symbol !== null && imp.symbol !== "*" &&
          moduleIs(submodule(imp.module, imp.symbol), importer, path);
        if (!fromIt && !named) continue;
        const what = fromIt && imp.symbol !== null
          ? `"${imp.symbol}" from "${imp.module}"`
          : `"${named ? submodule(imp.module, imp.symbol!) : imp.module}"`;
        issues.push(error(
          "deleted-module-imported",
          `Deleting "${path}" leaves it imported: "${importer}:${imp.line}" imports ${what}`,
          {
            file: importer,
            line: imp.line,
            ...(steps.has(path) ? { step: steps.get(path) } : {}),
            hint: `remove or replace that import in the plan, or keep "${path}"`,
          },
        ));
      }
    }
  }
  return issues;
}
