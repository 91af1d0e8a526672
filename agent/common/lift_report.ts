/**
 * The helper's `lift` request and its result, as far as the agents read
 * them (the engine's own type is `LiftResult`, `engine/lift/mod.ts`): the
 * graphplan strategy lifts a diff the model wrote in PLAN, rfsn every diff
 * edit it proposes.
 *
 * @module
 */

/** What the helper's `lift` method takes. */
export type LiftInput = { diff: string } | { search_replace: string } | { apply_patch: string };

/** The helper's `lift` result, as far as the agent reads it. */
export interface LiftReport {
  success: boolean;
  plan: unknown[];
  hunks: {
    file: string;
    index: number;
    steps: number[];
    lifted: boolean;
    tiers: number[];
    kinds?: string[];
  }[];
  exact: boolean;
  errors: { code: string; message: string }[];
  warnings: { code: string; message: string }[];
}
