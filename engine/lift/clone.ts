/**
 * A new definition lifted as a copy of its neighbour, then adapted.
 *
 * Code is often added by copying the definition next to it and changing
 * what differs: one more `@dispatch(...)` overload, one more test. When the
 * new definition carries what fragments cannot (a comment at the end of its
 * decorator or `def` line, such as `# noqa` or `# type: ignore`), the
 * fragment route fails, but the neighbour already has those comments:
 *
 * ```text
 * @dispatch(Rationals, Range)  # type: ignore # noqa:F811      (existing)
 * def is_subset_sets(a, b): # noqa:F811
 *     return False
 *
 * @dispatch(ProductSet, FiniteSet)  # type: ignore # noqa:F811 (new)
 * def is_subset_sets(a_ps, b_fs): # noqa:F811
 *     return fuzzy_and(b_fs.contains(x) for x in a_ps)
 * ```
 *
 * becomes `copy_node` of the existing definition after itself (tier 1),
 * then the lines where the copy and the new definition differ, each lifted
 * as an ordinary change of existing code (here `replace_expression`,
 * `change_signature`, `change_return_value`, and `set_blank_lines` for the
 * spacing). The copy is kept only when every difference lifts at tier 1–3
 * and the file then reads exactly the target; otherwise nothing stays.
 *
 * @module
 */

import { lcs } from "../analysis/tree_diff.ts";
import type { Node } from "../parse/mod.ts";
import type { Region } from "./apply.ts";
import { locatorFor } from "./locators.ts";
import type { Simulation } from "./replay.ts";

/** Steps a lifted part became (the shape `liftRegion` returns). */
export interface PartResult {
  tiers: number[];
  kinds: string[];
}

const DEFINITIONS = new Set(["decorated_definition", "function_definition", "class_definition"]);

const named = (node: Node): Node[] => node.namedChildren.filter((child): child is Node => !!child);

/** The node's type with what makes two definitions alike: the decorators' count. */
function shapeOf(node: Node): string {
  const decorators = named(node).filter((child) => child.type === "decorator").length;
  const definition = node.type === "decorated_definition" ? node.childForFieldName("definition") : node;
  return `${node.type}/${decorators}/${definition?.type}`;
}

/**
 * Lift the insertion of one definition at `start` (the current text) as a
 * copy of its neighbour plus adaptations; `liftPart` lifts one difference
 * formally or not at all. Undefined (and nothing kept) when that fails.
 */
export async function liftAsCopy(
  sim: Simulation,
  file: string,
  change: { start: number; inserted: string; expected: string; target: Node },
  liftPart: (region: Omit<Region, "hunk">) => Promise<PartResult | undefined>,
): Promise<PartResult | undefined> {
  const { start, inserted, expected, target } = change;
  const doc = await sim.doc(file);
  const end = start + inserted.length;
  const fresh = newDefinition(target, start, end);
  if (!fresh) return undefined;
  // The neighbour: the same kind of definition right before (or after) it, unchanged in the current text.
  const siblings = named(fresh.parent!).filter((node) => node.type !== "comment");
  const at = siblings.findIndex((node) => node.id === fresh.id);
  const neighbours = [siblings[at - 1], siblings[at + 1]].filter((node): node is Node =>
    !!node && shapeOf(node) === shapeOf(fresh)
  );
  for (const neighbour of neighbours) {
    const before = neighbour.startIndex < start;
    const span = before
      ? { from: neighbour.startIndex, to: neighbour.endIndex }
      : { from: neighbour.startIndex - inserted.length, to: neighbour.endIndex - inserted.length };
    const source = findBySpan(doc.tree.rootNode, span.from, span.to, neighbour.type);
    if (!source || source.text !== neighbour.text) continue;
    const mark = await sim.mark([file]);
    const copied = await sim.apply(async (state) => {
      const current = await state.get(file);
      const node = findBySpan(current.tree.rootNode, span.from, span.to, neighbour.type);
      // The definition itself is named (a locator by kind and name); its unit brings the decorators along.
      const definition = node?.type === "decorated_definition" ? node.childForFieldName("definition") : node;
      const locator = definition && await locatorFor(state, current, definition);
      return locator
        ? {
          op: "copy_node",
          params: { target: locator, destination: locator, position: before ? "after" : "before" },
        }
        : undefined;
    });
    if (copied) {
      const done = await adapt(sim, file, expected, liftPart);
      if (done) return { tiers: [1, ...done.tiers], kinds: ["copy_node", ...done.kinds] };
    }
    sim.rollback(mark);
  }
  return undefined;
}

/** The one definition the insertion [start, end) of the target text consists of, or undefined. */
function newDefinition(target: Node, start: number, end: number): Node | undefined {
  let body: Node | null = target.descendantForIndex(start, Math.max(start, end - 1));
  while (body && !["module", "block"].includes(body.type)) body = body.parent;
  if (!body) return undefined;
  const inside = named(body).filter((node) => node.startIndex >= start && node.endIndex <= end);
  if (inside.length !== 1 || !DEFINITIONS.has(inside[0].type)) return undefined;
  const [node] = inside;
  // Nothing but whitespace around it inside the insertion.
  const text = target.text;
  if (text.slice(start, node.startIndex).trim() !== "" || text.slice(node.endIndex, end).trim() !== "") {
    return undefined;
  }
  return node;
}

function findBySpan(root: Node, from: number, to: number, type: string): Node | undefined {
  let node: Node | null = root.descendantForIndex(from, Math.max(from, to - 1));
  while (node && !(node.startIndex === from && node.endIndex === to && node.type === type)) {
    if (node.startIndex < from || node.endIndex > to) return undefined;
    node = node.parent;
  }
  return node ?? undefined;
}

/** Lift the line-level differences between the file (with the copy) and `expected`, last first. */
async function adapt(
  sim: Simulation,
  file: string,
  expected: string,
  liftPart: (region: Omit<Region, "hunk">) => Promise<PartResult | undefined>,
): Promise<PartResult | undefined> {
  const text = (await sim.doc(file)).file.text;
  const parts = lineDifferences(text, expected);
  if (!parts) return undefined;
  const tiers: number[] = [];
  const kinds: string[] = [];
  for (const part of parts.reverse()) {
    const result = await liftPart(part);
    if (!result || result.tiers.some((tier) => tier === 0)) return undefined;
    tiers.unshift(...result.tiers);
    kinds.unshift(...result.kinds);
  }
  return (await sim.doc(file)).file.text === expected ? { tiers, kinds } : undefined;
}

/**
 * The differing lines between `a` and `b` as regions of `a`: a line replaced
 * by one line is a region of its own, other runs are one region each;
 * undefined when too many lines differ to compare.
 */
export function lineDifferences(a: string, b: string): Omit<Region, "hunk">[] | undefined {
  const split = (text: string) => text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const left = split(a);
  const right = split(b);
  let head = 0;
  while (head < left.length && head < right.length && left[head] === right[head]) head++;
  let tail = 0;
  while (
    tail < left.length - head && tail < right.length - head &&
    left[left.length - 1 - tail] === right[right.length - 1 - tail]
  ) tail++;
  const middle = [left.slice(head, left.length - tail), right.slice(head, right.length - tail)];
  if (middle[0].length * middle[1].length > 250_000) return undefined;
  const kept = lcs(middle[0], middle[1], (x, y) => x === y);
  const offsets = (lines: string[]) => {
    const out = [0];
    for (const line of lines) out.push(out.at(-1)! + line.length);
    return out;
  };
  const leftAt = offsets(left);
  const out: Omit<Region, "hunk">[] = [];
  /** Left lines [i, ki) become right lines [j, kj) (indices into the middles). */
  const run = (i: number, ki: number, j: number, kj: number) => {
    const blank = (line: string) => line.trim() === "";
    if (ki - i === kj - j) {
      // Lines replaced one for one: each line its own region (each usually one small step).
      for (let k = 0; k < ki - i; k++) {
        out.push({
          start: leftAt[head + i + k],
          end: leftAt[head + i + k + 1],
          replacement: middle[1][j + k],
        });
      }
      return;
    }
    // Blank lines added or dropped at either end (the copy's spacing) are their own regions.
    let [li, lk, rj, rk] = [i, ki, j, kj];
    while (li < lk && blank(middle[0][li])) li++;
    while (rj < rk && blank(middle[1][rj])) rj++;
    while (lk > li && blank(middle[0][lk - 1])) lk--;
    while (rk > rj && blank(middle[1][rk - 1])) rk--;
    if (lk > li && lk - li === rk - rj) {
      run(i, li, j, rj);
      run(li, lk, rj, rk);
      run(lk, ki, rk, kj);
      return;
    }
    out.push({
      start: leftAt[head + i],
      end: leftAt[head + ki],
      replacement: middle[1].slice(j, kj).join(""),
    });
  };
  let i = 0;
  let j = 0;
  for (const [ki, kj] of [...kept, [middle[0].length, middle[1].length]]) {
    if (ki > i || kj > j) run(i, ki, j, kj);
    i = ki + 1;
    j = kj + 1;
  }
  return out;
}
