/**
 * The meta-planner's phases and the gate's rejection types (seed 004).
 *
 * @module
 */

/** REPRODUCE → LOCALIZE → PATCH → VERIFY → EXPAND, or STUCK. */
export const PHASES = ["REPRODUCE", "LOCALIZE", "PATCH", "VERIFY", "EXPAND", "STUCK"] as const;
/** A planning phase. */
export type Phase = typeof PHASES[number];

/** Why the gate refused a proposal; each has its own recovery in the meta-planner. */
export const REJECTION_TYPES = [
  "SCHEMA_VIOLATION",
  "ORDERING_VIOLATION",
  "BOUNDS_VIOLATION",
  "INVARIANT_VIOLATION",
] as const;
/** A rejection type. */
export type RejectionType = typeof REJECTION_TYPES[number];
