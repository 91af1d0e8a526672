/**
 * `copy_node` and `move_node`: put a node's unit (see `units.ts`: with its
 * decorators, `export`, attached comments and trailing comment) at a
 * `position` of a `destination`, re-indented to it.
 *
 * - A statement, definition, class member or decorator goes on its own lines
 *   `before`/`after` the destination's unit, or first (after a Python
 *   docstring) / last in its body (`prepend_to_body`/`append_to_body`;
 *   class, function, block, or the file for a locator without kind/name).
 * - A list element (argument, parameter, list/dict element) goes with a
 *   comma before/after another element, or first/last in a list of the same
 *   type at or directly under the destination (a call's arguments, a
 *   function's parameters).
 *
 * A move is the copy plus the deletion of the source (with its separator,
 * `separators.ts`; a Python block left empty gets `pass`) in ONE
 * `ctx.edit` call of two non-overlapping edits when both are in one file.
 * When the insertion point falls inside the text the deletion removes (the
 * blank lines around the source), the two become one edit. Across files it
 * is two calls, the destination first. A destination inside the moved node
 * (or the node itself) is `move-into-itself`. A move that would leave the
 * text as it is changes nothing and reports `noop: true`.
 *
 * Applied twice, a move never duplicates: the second resolves its `target`
 * against the moved code, so it is rejected (`locator-not-found`) when the
 * locator names the old parent, and otherwise finds the node already at the
 * destination and moves it onto itself, which is a no-op or, at most, a
 * reordering within the destination.
 *
 * @module
 */

import { fail } from "../../base/issue.ts";
import type { OperatorFn, StepContext } from "../operator.ts";
import { lineIndent } from "../indent.ts";
import { deletionEdit } from "../separators.ts";
import { applyEdits, type TextEdit } from "../text_edit.ts";
import { locatedParam, positionParam, span } from "./params.ts";
import {
  blankLinesAfter,
  describe,
  isDefinition,
  placeInList,
  placeLines,
  removeLines,
  unitOf,
  unitText,
  withWrapper,
} from "./units.ts";

async function transfer(mode: "copy" | "move", params: Record<string, unknown>, ctx: StepContext) {
  const op = `${mode}_node`;
  const source = await locatedParam(ctx, params, { name: "target" });
  const position = positionParam(params);
  const dest = await locatedParam(ctx, params, { name: "destination", defaultFile: source.doc.file.path });
  const doc = source.doc;
  const unit = unitOf(doc, source.node);
  const sameFile = dest.doc.file.path === doc.file.path;
  const destination = withWrapper(dest.node);
  if (
    mode === "move" && sameFile && destination.startIndex >= unit.start && destination.endIndex <= unit.end
  ) {
    fail(
      "move-into-itself",
      destination.id === unit.node.id
        ? `Cannot move ${describe(unit.node)} relative to itself`
        : `Cannot move ${describe(unit.node)} to ${
          describe(destination)
        }: the destination is inside the moved node`,
      { file: doc.file.path, line: unit.node.startPosition.row + 1, path: ["params", "destination"] },
    );
  }
  if (dest.doc.file.language !== doc.file.language) {
    fail(
      "destination-incompatible",
      `Cannot ${mode} ${doc.file.language} code from "${doc.file.path}" into ${dest.doc.file.language} "${dest.doc.file.path}"`,
      { file: dest.doc.file.path, path: ["params", "destination"] },
    );
  }
  const text = unitText(doc, unit);
  let insertion: TextEdit;
  if (unit.listElement) {
    const listType = unit.node.parent!.type;
    insertion = await placeInList(dest.doc, text, { destination: dest.node, position, listType });
  } else if (unit.layout === "line") {
    const indent = lineIndent(doc.file.text, unit.node.startIndex);
    const blankAfter = blankLinesAfter(doc, unit);
    insertion = await placeLines(
      dest.doc,
      { text, definition: isDefinition(unit.node), indent, blankAfter },
      {
        destination: dest.node,
        position,
      },
    );
  } else {
    fail(
      "target-not-movable",
      `Cannot ${mode} ${describe(unit.node)}: it shares its line with other code and is not a list element`,
      {
        file: doc.file.path,
        line: unit.node.startPosition.row + 1,
        path: ["params", "target"],
        hint: "target the enclosing statement, or use replace_node",
      },
    );
  }
  const output = {
    ...span(doc, unit.start, unit.end),
    destination_file: dest.doc.file.path,
    kind: unit.node.type,
    position,
  };
  if (mode === "copy") {
    await ctx.edit(dest.doc.file.path, op, [insertion]);
    return { ...output, inserted_at_line: insertedLine(dest.doc.file.text, insertion) };
  }
  const removal = unit.listElement
    ? deletionEdit(doc.file.text, unit.node, doc.file.language)
    : removeLines(doc, unit);
  if (!sameFile) {
    await ctx.edit(dest.doc.file.path, op, [insertion]);
    await ctx.edit(doc.file.path, op, [removal]);
    return { ...output, noop: false };
  }
  const edits = combine(insertion, removal);
  if (applyEdits(doc.file.text, edits, doc.file.path) === doc.file.text) return { ...output, noop: true };
  await ctx.edit(doc.file.path, op, edits);
  // lines the removal above the insertion takes away
  const shift = removal.end <= insertion.start
    ? newlines(removal.replacement) - newlines(doc.file.text.slice(removal.start, removal.end))
    : 0;
  return { ...output, noop: false, inserted_at_line: insertedLine(doc.file.text, insertion) + shift };
}

/** The insertion and the deletion as non-overlapping edits (one edit when the insertion falls in the deletion). */
function combine(insertion: TextEdit, removal: TextEdit): TextEdit[] {
  const { start: a, end: b } = removal;
  const touches = (insertion.start >= a && insertion.start < b) || (insertion.end > a && insertion.end <= b);
  if (touches && insertion.start === insertion.end) {
    return [{ start: a, end: b, replacement: insertion.replacement }];
  }
  return [insertion, removal];
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function newlines(text: string): number {
  return text.split("\n").length - 1;
}

/** The 1-based line where the inserted code's first non-blank line lands. */
function insertedLine(text: string, insertion: TextEdit): number {
  return lineAt(text, insertion.start) + newlines(/^(\s*\n)?/.exec(insertion.replacement)![0]);
}

/** `copy_node`: duplicate a node's unit at a position of a destination. */
export const copyNode: OperatorFn = (params, ctx) => transfer("copy", params, ctx);

/** `move_node`: copy, then delete the source, in one edit call per file. */
export const moveNode: OperatorFn = (params, ctx) => transfer("move", params, ctx);
