/**
 * Lift's candidate for a run of statements replaced by another run in one
 * body: a comment that becomes an assignment, an import swapped for another,
 * a `try` around an import dropped, a constant replaced by two functions, a
 * helper function and its pattern replaced by two new patterns.
 *
 * The statements of both sides are aligned (`alignNodes`); the candidate
 * applies when exactly one stretch between unchanged statements differs and
 * has statements on both sides (pure insertions and deletions have their own
 * shapes). Each new statement becomes a fragment, completed as insertions
 * are (`insertionPlan` in `shapes.ts`: a new function is its header, then
 * its body as written), and the old statements are deleted:
 *
 * - one statement for one: a fragment `replace` of it;
 * - otherwise the new run is inserted after the last old statement (its
 *   offsets and those of the old run stay valid), then the old statements
 *   are deleted, the last first; or, when a statement follows the run,
 *   inserted before that one;
 * - when comments surround the run on both sides (a commented-out setting
 *   that becomes real ones), where fragments cannot go, the new run's text
 *   is an `insert_sibling` (tier 2) after the last old comment.
 *
 * The blank lines around the new run are left to the spacing steps that the
 * replay adds. The stretch may pair statements of the same type (a comment
 * reworded among new assignments), which the split of `lift_file.ts` tries
 * first, more finely; this candidate is its later resort, so that a body
 * change the split cannot express is still said in fragments (tier 3) and
 * deletions (tier 1) rather than as a replaced block (tier 0).
 *
 * @module
 */

import { alignNodes } from "../analysis/tree_diff.ts";
import { firstOnLine, lineStart } from "../edit/indent.ts";
import type { Node } from "../parse/mod.ts";
import type { StepBuilder } from "./replay.ts";
import type { Candidate, Pair } from "./shape_types.ts";

/** How one new statement is inserted: its fragment, and the steps that complete it. */
export interface InsertionPlan {
  fragment: unknown;
  then: StepBuilder[];
}

/** What the candidate needs from `shapes.ts`: locating steps, and new statements as fragments. */
export interface ReplaceContext {
  at(node: Node, make: (target: Record<string, unknown>) => Record<string, unknown>): StepBuilder;
  /** The same for a node that earlier steps moved by inserting text before it. */
  atFromEnd(node: Node, make: (target: Record<string, unknown>) => Record<string, unknown>): StepBuilder;
  plan(node: Node): InsertionPlan | undefined;
}

const named = (node: Node): Node[] => node.namedChildren.filter((child): child is Node => !!child);

/** The one differing stretch of two statement lists, with the statement after it, or undefined. */
export function replacedRun(
  left: Node[],
  right: Node[],
): { old: Node[]; news: Node[]; next?: Node } | undefined {
  const { same } = alignNodes(left, right);
  const anchors: [number, number][] = [[-1, -1], ...same, [left.length, right.length]];
  let found: { old: Node[]; news: Node[]; next?: Node } | undefined;
  for (let k = 0; k + 1 < anchors.length; k++) {
    const [i0, j0] = anchors[k];
    const [i1, j1] = anchors[k + 1];
    if (i1 - i0 === 1 && j1 - j0 === 1) continue;
    if (found) return undefined;
    found = { old: left.slice(i0 + 1, i1), news: right.slice(j0 + 1, j1), next: left[i1] };
  }
  return found && found.old.length > 0 && found.news.length > 0 ? found : undefined;
}

/** The candidates replacing the one changed run of statements in a body pair, or none. */
export function replacementCandidates(pair: Pair, ctx: ReplaceContext): Candidate[] {
  const run = replacedRun(named(pair.before), named(pair.after));
  if (!run) return [];
  const { old, next } = run;
  // A comment ending a new statement's line is no statement: the replay adds it back (`set_line_comment`).
  const news = run.news.filter((node) =>
    node.type !== "comment" || firstOnLine(node.tree.rootNode.text, node.startIndex)
  );
  if (news.length === 0) return [];
  // Comments reworded into other comments are `rewrite_comment`'s (shapes.ts), which says so.
  if ([...old, ...news].every((node) => node.type === "comment")) return [];
  const plans = news.map((node) => ctx.plan(node));
  if (plans.some((plan) => plan === undefined)) return [];
  const ready = plans as InsertionPlan[];
  const deletions = old.slice().reverse().map((node) =>
    ctx.at(node, (target) => ({ op: "delete_node", params: { target } }))
  );
  const out: Candidate[] = [];
  if (old.length === 1 && news.length === 1 && old[0].type !== "comment") {
    out.push({
      tier: 3,
      kind: "fragment",
      builders: [
        ctx.at(old[0], (target) => ({ fragment: ready[0].fragment, action: "replace", target })),
        ...ready[0].then,
      ],
    });
  }
  const inserted = (anchor: Node, action: "insert_after" | "insert_before") =>
    (action === "insert_after" ? [...ready].reverse() : ready).flatMap((plan) => [
      (action === "insert_after" ? ctx.at : ctx.atFromEnd)(
        anchor,
        (target) => ({ fragment: plan.fragment, action, target }),
      ),
      ...plan.then,
    ]);
  const last = old.at(-1)!;
  if (last.type !== "comment") {
    out.push({ tier: 3, kind: "fragment", builders: [...inserted(last, "insert_after"), ...deletions] });
  }
  if (next && next.type !== "comment") {
    out.push({ tier: 3, kind: "fragment", builders: [...inserted(next, "insert_before"), ...deletions] });
  }
  if (last.type === "comment" && (!next || next.type === "comment")) {
    // Fragments go only next to statements: beside comments, the new run's text as `insert_sibling`.
    const source = news[0].tree.rootNode.text;
    const code = source.slice(lineStart(source, news[0].startIndex), news.at(-1)!.endIndex);
    out.push({
      tier: 2,
      kind: "insert_sibling",
      builders: [
        ctx.at(
          last,
          (target) => ({ template: "insert_sibling", params: { target, position: "after", code } }),
        ),
        ...deletions,
      ],
    });
  }
  return out;
}
