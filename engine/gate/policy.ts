/**
 * The gate's policy: what it does with a test-weakening change. `refuse`
 * (the default) refuses the patch; `report` lets it through and records the
 * violations as warnings. Codes listed in `allow` are never violations (a
 * task that is about the tests themselves may allow `test-deleted`).
 *
 * A policy file is YAML (JSON is YAML): `{mode: refuse, allow: [test-xfailed]}`.
 *
 * @module
 */

import { parse } from "yaml";
import * as z from "zod";
import { fail } from "../base/issue.ts";

/** The stable codes of the no-test-weakening invariant. */
export const WEAKENING_CODES = [
  "test-skipped",
  "test-xfailed",
  "assertion-removed",
  "assertion-loosened",
  "test-deleted",
  "failure-swallowed",
  "test-config-changed",
  "test-data-changed",
  "collection-changed",
  "marker-dynamic",
] as const;

/** The schema of a gate policy. */
export const GatePolicySchema = z.strictObject({
  mode: z.enum(["refuse", "report"]).default("refuse"),
  allow: z.array(z.enum(WEAKENING_CODES)).default([]),
});

/** A gate policy. */
export type GatePolicy = z.infer<typeof GatePolicySchema>;

/** The policy when none is given: refuse every violation. */
export const DEFAULT_POLICY: GatePolicy = Object.freeze({ mode: "refuse", allow: [] }) as GatePolicy;

/** Read a policy from YAML or JSON text; a malformed policy throws an issue naming `source`. */
export function parsePolicy(text: string, source: string): GatePolicy {
  let value: unknown;
  try {
    value = parse(text) ?? {};
  } catch (err) {
    fail(
      "policy-invalid",
      `Cannot read the gate policy "${source}": ${(err as Error).message.split("\n")[0]}`,
    );
  }
  const result = GatePolicySchema.safeParse(value);
  if (!result.success) {
    const first = result.error.issues[0];
    const where = first.path.length > 0 ? `"${first.path.join(".")}": ` : "";
    fail("policy-invalid", `Invalid gate policy "${source}": ${where}${first.message}`, {
      hint: `expected {mode: refuse|report, allow: [${WEAKENING_CODES.join(", ")}]}`,
    });
  }
  return result.data;
}
