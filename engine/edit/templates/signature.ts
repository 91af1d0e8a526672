/**
 * `change_signature`: a function's parameter list (what is between its
 * parentheses, written as given: line breaks, trailing comma and alignment
 * included) and, optionally, its return annotation are replaced; its name,
 * decorators and body stay.
 *
 * `add_parameter` covers one new parameter; real fixes also rename, retype,
 * reorder or re-lay several parameters at once (a list spread over lines
 * with a `*` marker added), and change the return type with them. Without
 * this template such a change is a `replace_node` of the whole function.
 *
 * Call sites are not updated (the step reports nothing about them: use the
 * verification's reference checks).
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { alreadyPresent, opName, refuse, str, type TemplateRun, unwrapDefinition } from "./common.ts";

/** `change_signature`. */
export async function changeSignature(run: TemplateRun): Promise<Record<string, unknown>> {
  const { doc, table } = run;
  const fn = unwrapDefinition(run.node);
  const list: Node | undefined = table.functionTypes.has(fn.type) ? table.parameterList(fn) : undefined;
  if (!list) {
    refuse(run, `Target of "change_signature" must be a function with a parameter list, got a "${fn.type}"`);
  }
  const parameters = str(run.params, "parameters")!;
  const returnType = str(run.params, "return_type")?.trim();
  const text = doc.file.text;
  const edits: { start: number; end: number; replacement: string }[] = [];
  if (text.slice(list.startIndex + 1, list.endIndex - 1) !== parameters) {
    edits.push({ start: list.startIndex + 1, end: list.endIndex - 1, replacement: parameters });
  }
  if (returnType !== undefined) {
    const current = fn.childForFieldName("return_type");
    if (current && current.text !== returnType) {
      edits.push({ start: current.startIndex, end: current.endIndex, replacement: returnType });
    } else if (!current && run.language !== "python") {
      refuse(run, `Cannot add a return type to "${table.functionName(fn)}" in ${run.language}`, {
        hint: "replace the function's header with replace_node",
      });
    } else if (!current) {
      edits.push({ start: list.endIndex, end: list.endIndex, replacement: ` -> ${returnType}` });
    }
  }
  if (edits.length === 0) {
    return alreadyPresent(run, `The signature of "${table.functionName(fn)}" is already as given`);
  }
  await run.ctx.edit(doc.file.path, opName(run), edits);
  return { changed: true, function: table.functionName(fn) };
}
