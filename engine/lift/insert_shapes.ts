/**
 * Lift's candidate for new code between existing siblings:
 * when a node of the target text has the named children of its counterpart
 * plus one run of new ones (statements of a block, members of a class body,
 * definitions of a file), the `insert_sibling` template (tier 2) puts the
 * run after the last unchanged child before it, or before the first one
 * after it. The code is the run's text from its first line's indentation;
 * blank lines around it are left to the spacing steps replay adds. In
 * Python it is the last formal candidate (`lift_file.ts` asks for it after
 * the fragments, the splits and the copies failed): it takes what the
 * fragments cannot say (a `del`, `global` or `nonlocal` statement, a
 * comment inside a multi-line expression).
 *
 * @module
 */

import { lineIndent } from "../edit/indent.ts";
import type { Node } from "../parse/mod.ts";
import type { StepBuilder } from "./replay.ts";
import type { Candidate, Pair } from "./shape_types.ts";

const named = (node: Node): Node[] => node.namedChildren.filter((child): child is Node => !!child);

/** The children of `after` that `before` lacks, as one run, with the unchanged ones around it. */
function newRun(before: Node, after: Node): { run: Node[]; previous?: Node; next?: Node } | undefined {
  const old = named(before);
  const now = named(after);
  if (now.length <= old.length) return undefined;
  let lead = 0;
  while (lead < old.length && old[lead].text === now[lead].text) lead++;
  let trail = 0;
  while (trail < old.length - lead && old[old.length - 1 - trail].text === now[now.length - 1 - trail].text) {
    trail++;
  }
  if (lead + trail !== old.length) return undefined;
  return {
    run: now.slice(lead, now.length - trail),
    previous: lead > 0 ? old[lead - 1] : undefined,
    next: trail > 0 ? old[lead] : undefined,
  };
}

/**
 * The `insert_sibling` candidates for `pair`, or none: after the previous
 * unchanged sibling first, then before the next. `at` makes the step builder
 * that targets a node (shapes' own helper, so the locator rules stay in one place).
 * Python gets them only `late`: after every other formal candidate failed.
 */
export function insertCandidates(
  pair: Pair,
  language: string,
  at: (node: Node, make: (target: Record<string, unknown>) => Record<string, unknown>) => StepBuilder,
  late = false,
): Candidate[] {
  if (language === "python" && !late) return [];
  const found = newRun(pair.before, pair.after);
  if (!found) return [];
  const { run, previous, next } = found;
  const source = pair.after.tree.rootNode.text;
  const first = run[0];
  const code = lineIndent(source, first.startIndex) +
    source.slice(first.startIndex, run[run.length - 1].endIndex);
  const out: Candidate[] = [];
  for (const [anchor, position] of [[previous, "after"], [next, "before"]] as const) {
    if (!anchor) continue;
    out.push({
      tier: 2,
      kind: "insert_sibling",
      builders: [
        at(anchor, (target) => ({ template: "insert_sibling", params: { target, position, code } })),
      ],
    });
  }
  return out;
}
