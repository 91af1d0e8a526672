/**
 * Lift's candidate for a `from ... import` (or a plain `import a, b`) whose
 * list of names was edited anywhere, not only at its end: names dropped (an import no longer used)
 * and names added between others (a list kept in alphabetical order grows
 * in the middle), in any mix.
 *
 * The names of both statements are matched by their text, in order (the
 * longest common subsequence); the statement's module and everything but
 * the names must be alike for the match to mean anything, which the replay
 * judges. Then:
 *
 * - each name the target lacks is a `delete_node` (tier 1), the last first,
 *   so the offsets of the earlier ones stay valid; the separator code of the
 *   primitive takes its comma (and its line, in a one-per-line list) along;
 * - each new name is an `add_import_name` (tier 2) after the name that
 *   precedes it in the target (`after`), on a line of its own when the
 *   target writes it so (`own_line`), in the target's order, so every
 *   anchor is already there when its step runs.
 *
 * A name added first has no name before it: it is written with `first`
 * before the list's first name (on its own line too when the target puts it
 * there). A list put in parentheses as well gets `parenthesize_import` after
 * the deletions and before the additions (one name per line when the target
 * starts its names on the line after the parenthesis); names only appended
 * are `importNameCandidates`' in `shapes.ts`, and the same names put in
 * parentheses are `parenthesize_import` alone.
 *
 * @module
 */

import { lcs } from "../analysis/tree_diff.ts";
import { firstOnLine } from "../edit/indent.ts";
import type { Node } from "../parse/mod.ts";
import type { StepBuilder } from "./replay.ts";
import type { Candidate, Pair } from "./shape_types.ts";

/** How shapes place a step: on the node's span now, or on the node of its type starting where it starts. */
export interface Placement {
  at(node: Node, make: (target: Record<string, unknown>) => Record<string, unknown>): StepBuilder;
  atStart(node: Node, make: (target: Record<string, unknown>) => Record<string, unknown>): StepBuilder;
}

const names = (node: Node): Node[] => node.childrenForFieldName("name").filter((c): c is Node => !!c);
const parenthesized = (node: Node) => node.children.some((child) => child?.type === "(");

/** The `delete_node` and `add_import_name` steps turning one from-import's names into another's. */
export function importListCandidates(pair: Pair, place: Placement): Candidate[] {
  const { before, after } = pair;
  if (!/^(import_from_statement|import_statement)$/.test(before.type) || after.type !== before.type) {
    return [];
  }
  if (before.childForFieldName("module_name")?.text !== after.childForFieldName("module_name")?.text) {
    return [];
  }
  // A list put in parentheses as well is `parenthesize_import` first (one name per line when the target
  // starts its names on the line after the parenthesis); parentheses dropped are another shape.
  if (parenthesized(before) && !parenthesized(after)) return [];
  const layout: StepBuilder[] = [];
  if (!parenthesized(before) && parenthesized(after)) {
    const open = after.children.find((child) => child?.type === "(")!;
    const first = names(after)[0];
    const vertical = !!first &&
      after.text.slice(open.endIndex - after.startIndex, first.startIndex - after.startIndex)
        .includes("\n");
    layout.push(
      place.atStart(before, (target) => ({
        template: "parenthesize_import",
        params: { target, ...(vertical ? { one_per_line: true } : {}) },
      })),
    );
  }
  const left = names(before);
  const right = names(after);
  if (left.length === 0 || right.length === 0) return [];
  const kept = lcs(left, right, (x, y) => x.text === y.text);
  if (kept.length === 0) return [];
  const keptLeft = new Set(kept.map(([i]) => i));
  const keptRight = new Set(kept.map(([, j]) => j));
  const removed = left.filter((_, i) => !keptLeft.has(i));
  const added = right.map((node, j) => ({ node, j })).filter(({ j }) => !keptRight.has(j));
  // Only appended names, nothing removed: `add_import_name`'s own shape (shapes.ts) says it without anchors,
  // unless the list is put in parentheses too (black's vertical re-layout of a list that outgrew its line).
  if (removed.length === 0 && added.every(({ j }) => j >= left.length) && layout.length === 0) return [];
  if (removed.length === 0 && added.length === 0) {
    return [{ tier: 2, kind: "parenthesize_import", builders: layout }];
  }
  // Deletions go first, on the spans they have now; the re-layout then finds the statement by its start.
  const builders: StepBuilder[] = removed.reverse().map((node) =>
    place.at(node, (target) => ({ op: "delete_node", params: { target } }))
  );
  builders.push(...layout);
  for (const { node, j } of added) {
    const params = {
      ...(node.type === "aliased_import"
        ? { name: node.childForFieldName("name")?.text, alias: node.childForFieldName("alias")?.text }
        : { name: node.text }),
      ...(j === 0 ? { first: true } : { after: right[j - 1].text }),
      ...(firstOnLine(node.tree.rootNode.text, node.startIndex) ? { own_line: true } : {}),
    };
    if (!params.name || params.name.includes(".")) return [];
    builders.push(
      place.atStart(before, (target) => ({ template: "add_import_name", params: { target, ...params } })),
    );
  }
  const kind = added.length ? "add_import_name" : "delete_node";
  return [{ tier: added.length ? 2 : 1, kind, builders }];
}
