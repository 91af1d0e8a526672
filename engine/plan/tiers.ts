/**
 * Tier detection (seed 001, task 1a): which of the formal-transform tiers a
 * step belongs to.
 *
 * - 1: AST surgery, an `op` in the surgery set (`delete_node` included, also
 *   when it is written as a primitive with `locator`), and the whole-file
 *   steps (`create_file`, `delete_file`, `rename_file`, `set_mode`): exact
 *   operations on the file tree, never a text fallback;
 * - 2: a `template` step;
 * - 3: a `fragment` step;
 * - 0: everything else (primitives, composed and legacy operators).
 *
 * @module
 */

import { FILE_OPS, SURGERY_OPS } from "./operators.ts";

/** A formal-transform tier. */
export type Tier = 0 | 1 | 2 | 3;

/** The tier of a raw step, by the seed's rule. */
export function detectTier(step: unknown): Tier {
  if (!step || typeof step !== "object" || Array.isArray(step)) return 0;
  const record = step as Record<string, unknown>;
  if (
    Object.hasOwn(record, "op") && typeof record.op === "string" &&
    (SURGERY_OPS.has(record.op) || FILE_OPS.has(record.op))
  ) {
    return 1;
  }
  if (Object.hasOwn(record, "template")) return 2;
  if (Object.hasOwn(record, "fragment")) return 3;
  return 0;
}
