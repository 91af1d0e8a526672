/**
 * The two types every shape module shares: a pair of matched nodes before
 * and after a change, and a candidate way to reproduce it. They live apart
 * from `shapes.ts` so the modules it gathers candidates from
 * (`comment_shapes.ts`, `insert_shapes.ts`) need not import it back.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";
import type { StepBuilder } from "./replay.ts";

/** A node of the current text and the node at its place in the target text. */
export interface Pair {
  before: Node;
  after: Node;
}

/** A way to reproduce a change: steps built one after the other on the scratch state. */
export interface Candidate {
  tier: 0 | 1 | 2 | 3;
  /** What the candidate does (a step kind), for reports. */
  kind: string;
  builders: StepBuilder[];
}
