/**
 * The quick tier (`deno task test:quick`, `tools/test.ts --quick`): with
 * `GRAPHPLAN_QUICK=1` the tests that sweep the corpus or drive Chromium
 * skip, each file saying so once through the skip registry, so the unit
 * tests run in about a minute.
 *
 * @module
 */

/** Whether this run is the quick tier. */
export const QUICK = Deno.env.get("GRAPHPLAN_QUICK") === "1";

/** The skip reason for `what` in the quick tier, or undefined in a full run. */
export function quickSkip(what: string): string | undefined {
  return QUICK ? `quick tier (GRAPHPLAN_QUICK=1): ${what} not run; "deno task test" runs them` : undefined;
}
