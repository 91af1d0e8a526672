/**
 * `reorder_children`: permute the children of a node.
 *
 * Which children: a decorated definition's decorators; a list's elements
 * (a call's arguments, a function's `parameters` via `field`, list, tuple,
 * dict, set, array, object, imported names); otherwise the members of the
 * node's body (a class's methods and attributes, a function's or block's
 * statements, a file's top-level statements). Comments are not children:
 * attached ones travel with their member (see `units.ts`), others stay.
 *
 * `order` names every child exactly once, by name (a definition's name, a
 * keyword argument's or assignment's name, a decorator's expression, or the
 * child's whole text) or by 0-based index, mixed as convenient. Anything
 * else is `reorder-invalid`, listing the children.
 *
 * The algorithm keeps *slots*: each child's unit span is a slot, and
 * everything between slots (blank lines, commas, non-attached comments)
 * stays where it is, so the gap after position i stays after position i.
 * Slot i receives unit `order[i]`, re-indented if the slot's indentation
 * differs. In a list laid out one element per line, a trailing comment
 * after an element's comma travels with the element. The whole container
 * is replaced in one edit, with its node type as `replacedKinds` (L1 sees a
 * block replaced by a block).
 *
 * Python arguments are checked: a positional argument may not end up after
 * a keyword argument or `**kwargs` (`reorder-invalid`).
 *
 * @module
 */

import { type Candidate, fail } from "../../base/issue.ts";
import { nodeName } from "../../locate/mod.ts";
import type { Document } from "../../parse/documents.ts";
import type { LanguageId, Node } from "../../parse/mod.ts";
import { lineEnd, lineIndent, lineStart, reindent } from "../indent.ts";
import type { OperatorFn } from "../operator.ts";
import { applyEdits, type TextEdit } from "../text_edit.ts";
import { locatedParam, span } from "./params.ts";
import { bodyOf, describe, isDocstring, members, styleOf, type Unit, unitOf, unwrap } from "./units.ts";

const LIST =
  /^(argument_list|arguments|parameters|formal_parameters|lambda_parameters|list|tuple|set|dictionary|array|object|named_imports|expression_list|pattern_list|type_parameters|type_arguments)$/;
const CALL = /^(call|call_expression|new_expression)$/;

/** The node whose children are reordered, and those children. */
function childrenOf(node: Node, language: LanguageId): { container: Node; children: Node[] } | undefined {
  if (node.type === "decorated_definition") {
    return {
      container: node,
      children: node.namedChildren.filter((child): child is Node => child?.type === "decorator"),
    };
  }
  if (LIST.test(node.type)) return { container: node, children: members(node) };
  if (CALL.test(node.type)) {
    const args = node.childForFieldName("arguments");
    if (args && LIST.test(args.type)) return { container: args, children: members(args) };
  }
  const body = bodyOf(node);
  if (body) {
    return { container: body, children: members(body).filter((child) => !isDocstring(child, language)) };
  }
  return undefined;
}

/** The label a child can be named by in `order`. */
function labelOf(child: Node, language: LanguageId): string | undefined {
  const inner = unwrap(child);
  if (child.type === "decorator") return child.text.replace(/^@\s*/, "");
  if (inner.type === "keyword_argument" || inner.type === "pair") {
    return (inner.childForFieldName("name") ?? inner.childForFieldName("key"))?.text;
  }
  if (inner.type === "expression_statement" && inner.namedChild(0)?.type === "assignment") {
    return inner.namedChild(0)!.childForFieldName("left")?.text;
  }
  try {
    return nodeName(inner, language) ?? undefined;
  } catch {
    return undefined;
  }
}

function childList(children: Node[], language: LanguageId, file: string): Candidate[] {
  return children.map((child, index) => ({
    file,
    line: child.startPosition.row + 1,
    kind: child.type,
    text: `${index}: ${labelOf(child, language) ?? firstLine(child.text)}`,
  }));
}

function firstLine(text: string): string {
  const line = text.split("\n")[0].trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}

/** Map `order` to child indices, collecting every problem. */
function permutation(order: unknown, children: Node[], doc: Document): number[] {
  const language = doc.file.language;
  const file = doc.file.path;
  const listing = children.map((child, index) =>
    `${index} "${labelOf(child, language) ?? firstLine(child.text)}"`
  )
    .join(", ");
  const problems: string[] = [];
  if (!Array.isArray(order)) {
    fail("param-invalid", `Parameter "order" must be an array of names or 0-based indices`, {
      path: ["params", "order"],
      hint: `children: ${listing}`,
      candidates: childList(children, language, file),
    });
  }
  const labels = children.map((child) => labelOf(child, language));
  const texts = children.map((child) => child.text.trim());
  const out: number[] = [];
  order.forEach((entry, position) => {
    let index: number | undefined;
    if (typeof entry === "number" && Number.isInteger(entry)) {
      if (entry >= 0 && entry < children.length) index = entry;
      else problems.push(`index ${entry} is out of range`);
    } else if (typeof entry === "string") {
      let matches = labels.flatMap((label, i) => (label === entry ? [i] : []));
      if (matches.length === 0) matches = texts.flatMap((text, i) => (text === entry.trim() ? [i] : []));
      if (matches.length === 1) index = matches[0];
      else if (matches.length > 1) {
        problems.push(`"${entry}" names ${matches.length} children (${matches.join(", ")}): use indices`);
      } else problems.push(`"${entry}" names no child`);
    } else {
      problems.push(`entry ${position} (${JSON.stringify(entry)}) is neither a name nor an index`);
    }
    if (index === undefined) return;
    if (out.includes(index)) problems.push(`child ${index} is listed twice`);
    out.push(index);
  });
  const missing = children.map((_, i) => i).filter((i) => !out.includes(i));
  if (missing.length > 0) {
    problems.push(`missing ${missing.map((i) => `${i} "${labels[i] ?? firstLine(texts[i])}"`).join(", ")}`);
  }
  if (order.length !== children.length && missing.length === 0) {
    problems.push(`${order.length} entries for ${children.length} children`);
  }
  if (problems.length > 0) {
    fail(
      "reorder-invalid",
      `Parameter "order" must list each of the ${children.length} children exactly once: ${
        problems.join("; ")
      }`,
      {
        file,
        path: ["params", "order"],
        hint: `children: ${listing}`,
        candidates: childList(children, language, file),
      },
    );
  }
  return out;
}

/** A trailing comment after a list element (and its comma) on the element's last line. */
function trailingComment(child: Node): Node | undefined {
  let next = child.nextSibling;
  if (next?.type === ",") next = next.nextSibling;
  if (next && /comment/.test(next.type) && next.startPosition.row === child.endPosition.row) return next;
  return undefined;
}

function checkPythonArguments(container: Node, ordered: Node[], file: string): void {
  if (container.type !== "argument_list") return;
  let keyword: Node | undefined;
  for (const child of ordered) {
    if (child.type === "keyword_argument" || child.type === "dictionary_splat") keyword ??= child;
    else if (keyword && child.type !== "list_splat") {
      fail(
        "reorder-invalid",
        `The new order puts positional argument "${child.text}" after keyword argument "${keyword.text}"`,
        { file, path: ["params", "order"], line: child.startPosition.row + 1 },
      );
    }
  }
}

/** `reorder_children`. */
export const reorderChildren: OperatorFn = async (params, ctx) => {
  const { doc, node } = await locatedParam(ctx, params, { name: "target" });
  const file = doc.file.path;
  const found = childrenOf(node, doc.file.language);
  if (!found || found.children.length === 0) {
    fail("reorder-no-children", `Cannot reorder the children of ${describe(node)}: it has none`, {
      file,
      line: node.startPosition.row + 1,
      path: ["params", "target"],
      hint: "target a class, function, block, call, list or decorated definition",
    });
  }
  const { container, children } = found;
  const order = permutation(params.order, children, doc);
  if (doc.file.language === "python") checkPythonArguments(container, order.map((i) => children[i]), file);
  const result = { ...span(doc, container.startIndex, container.endIndex), order };
  if (order.every((index, position) => index === position)) return { ...result, changed: false };
  const text = doc.file.text;
  // comments above the container (above a first decorator) belong to the container, not to a child
  const floor = lineStart(doc.file.text, container.startIndex);
  const units: Unit[] = children.map((child) => {
    const unit = unitOf(doc, child);
    return unit.start < floor ? { ...unit, start: lineStart(doc.file.text, unit.node.startIndex) } : unit;
  });
  const comments = units.map((unit) => (unit.listElement ? trailingComment(unit.node) : undefined));
  const from = Math.min(container.startIndex, units[0].start);
  const to = comments.reduce(
    (end, c) => Math.max(end, c?.endIndex ?? 0),
    Math.max(container.endIndex, units[units.length - 1].end),
  );
  const style = styleOf(doc);
  const edits: TextEdit[] = [];
  for (let slot = 0; slot < units.length; slot++) {
    const into = units[slot];
    const moved = units[order[slot]];
    let code = text.slice(moved.start, moved.end);
    const slotIndent = lineIndent(text, into.node.startIndex);
    if (lineIndent(text, moved.node.startIndex) !== slotIndent && code.includes("\n")) {
      code = await reindent(code, { ...style, indent: slotIndent, inlineFirst: into.layout === "inline" });
    }
    edits.push({ start: into.start - from, end: into.end - from, replacement: code });
    const here = comments[slot];
    const incoming = comments[order[slot]];
    if (here) {
      const before = text.slice(0, here.startIndex).match(/[ \t]*$/)![0].length;
      edits.push(
        incoming
          ? { start: here.startIndex - from, end: here.endIndex - from, replacement: incoming.text }
          : { start: here.startIndex - before - from, end: here.endIndex - from, replacement: "" },
      );
    } else if (incoming) {
      const at = lineEnd(text, into.end);
      const content = text.slice(0, at).trimEnd().length;
      edits.push({ start: content - from, end: content - from, replacement: `  ${incoming.text}` });
    }
  }
  const replacement = applyEdits(text.slice(from, to), edits, file);
  await ctx.edit(file, "reorder_children", [{ start: from, end: to, replacement }], [container.type]);
  return { ...result, changed: true };
};
