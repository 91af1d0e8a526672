/**
 * L3 use before binding (Python): a plan that leaves a function reading a
 * local before any binding of it (`analysis/use_before_binding.ts`) fails,
 * with the read's line and the binding's line, since CPython raises
 * `UnboundLocalError` there.
 *
 * Like every name-level check it judges the files as the plan leaves them
 * (`settle.ts`): a step may add the read and a later one the binding above
 * it. It compares each Python file the plan changed before the plan and
 * after it, in the functions around the changed span, and reports a
 * finding only when the file before the plan did not have it (same
 * function, same name): code that was already wrong is not the plan's.
 * Each error names the last step that changed the file.
 *
 * @module
 */

import { usesBeforeBinding } from "../../analysis/use_before_binding.ts";
import { error, type Issue } from "../../base/issue.ts";
import { type Document, type DocumentStore, editBetween } from "../../parse/documents.ts";
import { clip } from "./quote.ts";

/** The uses before binding a plan brought into the files it changed (`originals`: before the plan). */
export async function finalUsesBeforeBinding(
  originals: ReadonlyMap<string, Document>,
  final: DocumentStore,
  lastStep: ReadonlyMap<string, number>,
): Promise<Issue[]> {
  const out: Issue[] = [];
  for (const [path, before] of originals) {
    if (before.file.language !== "python") continue;
    let after: Document;
    try {
      after = await final.get(path);
    } catch {
      continue;
    }
    const edit = editBetween(before, after);
    if (!edit) continue;
    const old = new Set(
      usesBeforeBinding(before, { from: edit.startIndex, to: edit.oldEndIndex }).map((found) =>
        `${found.functionName}\0${found.name}`
      ),
    );
    for (const found of usesBeforeBinding(after, { from: edit.startIndex, to: edit.newEndIndex })) {
      if (old.has(`${found.functionName}\0${found.name}`)) continue;
      const useLine = found.use.startPosition.row + 1;
      const name = clip(found.name);
      const step = lastStep.get(path);
      out.push(error(
        "use-before-binding",
        `Name "${name}" is read at line ${useLine} before "${
          clip(found.functionName)
        }" binds it at line ${found.binding.line}: the read raises UnboundLocalError`,
        {
          level: "L3",
          file: path,
          line: useLine,
          ...(step !== undefined ? { step } : {}),
          hint: `"${name}" is local to the whole function because line ${found.binding.line} binds it: ` +
            `bind it before line ${useLine}, or use another name for the outer one`,
        },
      ));
    }
  }
  return out;
}
