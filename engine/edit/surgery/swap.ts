/**
 * `swap_nodes`: exchange two non-overlapping nodes (their units, see
 * `units.ts`: decorators, attached comments and trailing comments go
 * along). Each takes the other's place and indentation; the text between
 * them, blank lines and separators included, stays.
 *
 * Compatible kinds: statement↔statement (imports included),
 * definition↔definition (functions, classes, methods, JS fields), argument↔
 * argument, parameter↔parameter, elements of the same kind of list,
 * expression↔expression, decorator↔decorator, else nodes of one type. A
 * line unit (alone on its lines) only swaps with a line unit. Two nodes in
 * different files are swapped with one edit call per file.
 *
 * L1: each edit says what it replaced when the incoming node's kind is
 * compatible with it (and neither is a TypeScript member with decorators,
 * which the grammar keeps as separate siblings) (`analysis/kind_compatibility.ts`); a function↔class swap is
 * allowed but not kind-checked, since it changes the kind at both places by
 * design.
 *
 * @module
 */

import { fail } from "../../base/issue.ts";
import type { LanguageId } from "../../parse/mod.ts";
import { compatibleKinds, kindCategory } from "../../analysis/kind_compatibility.ts";
import { lineIndent } from "../indent.ts";
import type { OperatorFn } from "../operator.ts";
import { locatedParam, span } from "./params.ts";
import { describe, fit, styleOf, type Unit, unitOf, unitText, unwrap } from "./units.ts";

/** The swap category of a unit: two units swap when their categories are equal. */
export function swapCategory(unit: Unit, language: LanguageId): string {
  const node = unit.node;
  if (unit.listElement) {
    const list = node.parent!.type;
    if (/argument/.test(list)) return "argument";
    if (/parameter/.test(list)) return "parameter";
    return `element of a ${list}`;
  }
  if (node.type === "decorator") return "decorator";
  const category = kindCategory(language, unwrap(node).type);
  if (category === "function" || category === "class" || category === "declaration") return "definition";
  if (category === "statement" || category === "import") return "statement";
  if (category === "expression") return "expression";
  return node.type;
}

/** `swap_nodes`. */
export const swapNodes: OperatorFn = async (params, ctx) => {
  const a = await locatedParam(ctx, params, { name: "target" });
  const b = await locatedParam(ctx, params, { name: "other", defaultFile: a.doc.file.path });
  const ua = unitOf(a.doc, a.node);
  const ub = unitOf(b.doc, b.node);
  const sameFile = a.doc.file.path === b.doc.file.path;
  const file = a.doc.file.path;
  if (sameFile && ua.start < ub.end && ub.start < ua.end) {
    fail(
      "swap-overlap",
      `Cannot swap ${describe(ua.node)} with ${describe(ub.node)}: ${
        ua.node.id === ub.node.id ? "they are the same node" : "one contains the other"
      }`,
      { file, line: ua.node.startPosition.row + 1, path: ["params", "other"] },
    );
  }
  const language = a.doc.file.language;
  const ca = swapCategory(ua, language);
  const cb = swapCategory(ub, b.doc.file.language);
  if (ca !== cb || ua.layout !== ub.layout) {
    fail(
      "swap-incompatible",
      `Cannot swap ${describe(ua.node)} (${ca}${ua.layout === "line" ? ", own lines" : ""}) with ${
        describe(ub.node)
      } (${cb}${ub.layout === "line" ? ", own lines" : ""}): their kinds are not compatible`,
      {
        file,
        line: ua.node.startPosition.row + 1,
        path: ["params", "other"],
        hint: "swap statement with statement, definition with definition, argument with argument; " +
          "use move_node to put a node elsewhere",
      },
    );
  }
  const inline = ua.layout === "inline";
  const place = async (from: Unit, fromDoc: typeof a.doc, into: Unit, doc: typeof a.doc) =>
    await fit(unitText(fromDoc, from), lineIndent(fromDoc.file.text, from.node.startIndex), {
      ...styleOf(doc),
      indent: lineIndent(doc.file.text, into.node.startIndex),
      inlineFirst: inline,
    });
  const intoA = await place(ub, b.doc, ua, a.doc);
  const intoB = await place(ua, a.doc, ub, b.doc);
  // L1 reads a member with TS sibling decorators as several nodes: it cannot judge those edits
  const checkable = !ua.siblingDecorators && !ub.siblingDecorators &&
    compatibleKinds(language, unwrap(ua.node).type, unwrap(ub.node).type);
  const kindA = checkable ? ua.node.type : undefined;
  const kindB = kindA === undefined ? undefined : ub.node.type;
  const editA = { start: ua.start, end: ua.end, replacement: intoA };
  const editB = { start: ub.start, end: ub.end, replacement: intoB };
  if (sameFile) {
    await ctx.edit(file, "swap_nodes", [editA, editB], [kindA, kindB]);
  } else {
    await ctx.edit(file, "swap_nodes", [editA], [kindA]);
    await ctx.edit(b.doc.file.path, "swap_nodes", [editB], [kindB]);
  }
  return {
    target: span(a.doc, ua.start, ua.end),
    other: span(b.doc, ub.start, ub.end),
    category: ca,
  };
};
