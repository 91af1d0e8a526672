/**
 * `add_base_class`: one more base in a class's list of bases, last by
 * default or first (`first: true`, where it comes first in the method
 * resolution order). A class without a base list gets `(base)` after its
 * name. The other bases, keyword arguments (`metaclass=...`) and the list's
 * layout stay; a new last base goes before any keyword argument.
 *
 * Refused: a target that is not a class. A base already listed (same text)
 * is `already-present` (a no-op).
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { alreadyPresent, opName, refuse, str, type TemplateRun, unwrapDefinition } from "./common.ts";

/** `add_base_class`. */
export async function addBaseClass(run: TemplateRun): Promise<Record<string, unknown>> {
  const { doc } = run;
  const cls = unwrapDefinition(run.node);
  if (cls.type !== "class_definition") {
    refuse(run, `Target of "add_base_class" must be a class, got a "${cls.type}"`);
  }
  const base = str(run.params, "base")!.trim();
  const first = run.params.first === true;
  const list = cls.childForFieldName("superclasses");
  const items = list ? list.namedChildren.filter((c): c is Node => !!c && c.type !== "comment") : [];
  const positional = items.filter((item) => item.type !== "keyword_argument");
  if (positional.some((item) => item.text === base)) {
    return alreadyPresent(run, `"${base}" is already a base of the class`);
  }
  let edit: { start: number; end: number; replacement: string };
  if (!list) {
    const after = cls.childForFieldName("type_parameters") ?? cls.childForFieldName("name")!;
    edit = { start: after.endIndex, end: after.endIndex, replacement: `(${base})` };
  } else if (items.length === 0) {
    edit = { start: list.startIndex + 1, end: list.startIndex + 1, replacement: base };
  } else if (first) {
    edit = { start: items[0].startIndex, end: items[0].startIndex, replacement: `${base}, ` };
  } else if (positional.length < items.length) {
    const keyword = items[positional.length];
    edit = { start: keyword.startIndex, end: keyword.startIndex, replacement: `${base}, ` };
  } else {
    const last = items.at(-1)!;
    edit = { start: last.endIndex, end: last.endIndex, replacement: `, ${base}` };
  }
  await run.ctx.edit(doc.file.path, opName(run), [edit]);
  return { changed: true, base };
}
