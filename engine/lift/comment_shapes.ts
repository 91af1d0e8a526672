/**
 * Lift's candidate for a rewritten comment outside Python: when the changed
 * node is (or lies in) a comment and its counterpart in the target is one
 * too, the `replace_comment` template (tier 2) with the target comment's
 * text. Python keeps its fragments (tier 3), whose results the gold-patch
 * figures are measured on.
 *
 * @module
 */

import { commentAround } from "../edit/templates/comment_text.ts";
import type { Candidate, Pair } from "./shape_types.ts";
import type { StepBuilder } from "./replay.ts";

/**
 * The `replace_comment` candidate for `pair`, or none. `at` makes the
 * step builder that targets a node (shapes' own helper, passed in so the
 * locator rules stay in one place).
 */
export function commentCandidates(
  pair: Pair,
  language: string,
  at: (
    node: Pair["before"],
    make: (target: Record<string, unknown>) => Record<string, unknown>,
  ) => StepBuilder,
): Candidate[] {
  if (language === "python") return [];
  const before = commentAround(pair.before);
  const after = commentAround(pair.after);
  if (!before || !after || before.text === after.text) return [];
  const text = after.text;
  return [{
    tier: 2,
    kind: "replace_comment",
    builders: [at(before, (target) => ({ template: "replace_comment", params: { target, text } }))],
  }];
}
