/**
 * `replace_comment`: a comment's whole text (its markers included) becomes a
 * new text. Comments are nodes in every grammar the project reads (`comment`,
 * Rust's `line_comment` / `block_comment`, Java's `line_comment` /
 * `block_comment`), so one template covers all ten languages with no table
 * entry: the target must be a comment node (a node inside one stands for the
 * comment around it), and the new text must
 * parse back as exactly one comment at the same place. A line comment that
 * gains a line break, or a text without the comment markers, is refused
 * (`template-precondition`) and nothing changes.
 *
 * Real fixes rewrite doc comments with the code they describe; without this
 * step such an edit falls to `replace_node` (tier 0) outside Python.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { alreadyPresent, opName, refuse, str, type TemplateRun } from "./common.ts";

/** Whether `node` is a comment node of its grammar. */
export function isComment(node: Node): boolean {
  return /(^|_)comment$/.test(node.type);
}

/** The outermost comment node at or around `node`, or undefined when `node` is in no comment. */
export function commentAround(node: Node): Node | undefined {
  let found: Node | undefined;
  for (let up: Node | null = node; up; up = up.parent) if (isComment(up)) found = up;
  return found;
}

async function replaceComment(run: TemplateRun): Promise<Record<string, unknown>> {
  const comment = commentAround(run.node);
  if (!comment) {
    refuse(run, `Target of "replace_comment" must be a comment, got a "${run.node.type}"`, {
      hint: 'point the locator at the comment: kind "comment", or a sexp query such as "(comment) @c"',
    });
  }
  const text = str(run.params, "text")!;
  if (comment.text === text) return alreadyPresent(run, "The comment already reads as given");
  const source = run.doc.file.text;
  const trial = await run.ctx.store.reparse(
    run.doc,
    source.slice(0, comment.startIndex) + text + source.slice(comment.endIndex),
  );
  const end = comment.startIndex + text.length;
  const made = trial.tree.rootNode.descendantForIndex(
    comment.startIndex,
    Math.max(comment.startIndex, end - 1),
  );
  const whole = made && commentAround(made);
  const one = !!whole && whole.startIndex === comment.startIndex && whole.endIndex === end;
  if (trial !== run.doc) trial.tree.delete();
  if (!one) {
    refuse(
      run,
      `The new text does not parse as one ${comment.type} in ${run.language}: "${text.split("\n")[0]}"`,
      {
        node: comment,
        hint:
          "give the whole comment with its markers (// ..., /* ... */, # ...), one line for a line comment",
      },
    );
  }
  await run.ctx.edit(run.doc.file.path, opName(run), [{
    start: comment.startIndex,
    end: comment.endIndex,
    replacement: text,
  }]);
  return { changed: true, replaced: comment.type, line: comment.startPosition.row + 1 };
}

/** The comment template's implementation by name. */
export const COMMENT_IMPLS: Record<string, (run: TemplateRun) => Promise<Record<string, unknown>>> = {
  replace_comment: replaceComment,
};
