/**
 * Layer 3 (seed 002), the AST context of a `replace_code` match: when the
 * text the pattern matched lies inside a string literal or a comment, it may
 * not be the code the author meant. The smallest node spanning the match is
 * found in the tree before the step and its ancestors are walked; a string
 * or comment among them (an interpolation inside a string counts as code)
 * is a warning. A match that is exactly a whole string literal is code (the
 * literal itself) and passes.
 *
 * `Step 0 (replace_code): Pattern match in "src/foo.py" at line 12 is inside a string (may not be actual code)`
 *
 * @module
 */

import type { EditRecord } from "../../edit/operator.ts";
import { type Issue, warning } from "../../issue.ts";
import type { Node } from "../../parse/mod.ts";
import type { NormalizedStep } from "../../plan/mod.ts";

const CODE_INSIDE_STRING =
  /^(interpolation|template_substitution|string_interpolation|escape_interpolation)$/;
const COMMENT = /comment/;
const STRING = /string|template_string|heredoc|char_literal|rune_literal|regex/;

/** Layer 3 for the `replace_code` edits of a simulated step. */
export function patternContext(step: NormalizedStep, records: readonly EditRecord[]): Issue[] {
  if (step.op !== "replace_code") return [];
  const issues: Issue[] = [];
  for (const record of records) {
    if (record.op !== "replace_code") continue;
    for (const edit of record.edits) {
      const root = record.before.tree.rootNode;
      const end = Math.max(edit.start, edit.end - 1);
      const node = root.descendantForIndex(edit.start, end);
      if (!node) continue;
      const context = nonCodeContext(node, edit.start, edit.end);
      if (!context) continue;
      const line = record.before.file.text.slice(0, edit.start).split("\n").length;
      issues.push(warning(
        "pattern-in-string",
        `Step ${step.index} (replace_code): Pattern match in "${record.file}" at line ${line} is inside a ${context} (may not be actual code)`,
        {
          step: step.index,
          layer: "3",
          file: record.file,
          line,
          path: [...step.path, "params", "pattern"],
          hint:
            `if you meant code, include enough surrounding code in the pattern to match outside the ${context}`,
        },
      ));
    }
  }
  return issues;
}

/** Where the text [start, end) of a parsed file sits: inside a string, a comment, or in code. */
export function textContext(root: Node, start: number, end: number): "string" | "comment" | "code" {
  const node = root.descendantForIndex(start, Math.max(start, end - 1));
  return (node && nonCodeContext(node, start, end)) ?? "code";
}

/** "string" or "comment" when the match [start, end) lies inside one (see the module notes). */
function nonCodeContext(node: Node, start: number, end: number): "string" | "comment" | undefined {
  for (let current: Node | null = node; current; current = current.parent) {
    if (CODE_INSIDE_STRING.test(current.type)) return undefined;
    if (COMMENT.test(current.type)) return "comment";
    if (STRING.test(current.type)) {
      const literal = outermostString(current);
      if (literal.startIndex === start && literal.endIndex === end) return undefined;
      return "string";
    }
  }
  return undefined;
}

/** The whole literal a string-ish node belongs to (`string_content` → `string`). */
function outermostString(node: Node): Node {
  let top = node;
  for (
    let up = node.parent;
    up && STRING.test(up.type) && !CODE_INSIDE_STRING.test(up.type);
    up = up.parent
  ) {
    top = up;
  }
  return top;
}
