/**
 * Layer 3 (seed 002), the AST context of a `replace_code` match: when the
 * text the pattern matched lies inside a string literal or a comment, it may
 * not be the code the author meant. Where the match sits is read from the
 * tree before the step (`analysis/text_context.ts`: an interpolation inside
 * a string counts as code, a match that is exactly a whole string literal is
 * the literal itself); a string or a comment is a warning.
 *
 * `Step 0 (replace_code): Pattern match in "src/foo.py" at line 12 is inside a string (may not be actual code)`
 *
 * @module
 */

import type { EditRecord } from "../../edit/operator.ts";
import { type Issue, warning } from "../../base/issue.ts";
import { textContext } from "../../analysis/text_context.ts";
import type { NormalizedStep } from "../../plan/mod.ts";

/** Layer 3 for the `replace_code` edits of a simulated step. */
export function patternContext(step: NormalizedStep, records: readonly EditRecord[]): Issue[] {
  if (step.op !== "replace_code") return [];
  const issues: Issue[] = [];
  for (const record of records) {
    if (record.op !== "replace_code") continue;
    for (const edit of record.edits) {
      const context = textContext(record.before.tree.rootNode, edit.start, edit.end);
      if (context === "code") continue;
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
