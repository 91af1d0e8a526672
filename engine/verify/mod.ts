/**
 * Verification: plan-level layers 0–6 (`plan/`, seed 002) and the per-edit
 * levels L0–L6 (`levels/`, seed 001). `verifyPlan(store, planJson, options)`
 * simulates a plan in memory and returns `{passed, errors, warnings}`.
 *
 * @module
 */

export { type VerifyOptions, verifyPlan, type VerifyResult } from "./plan/mod.ts";
export { EDIT_CHECKS, runEditChecks } from "./levels/mod.ts";
