/**
 * Plan-level verification (seed 002, phase 3): layers 0, 0b and 1–6 over a
 * whole plan simulated in memory, with the edit levels L0–L6 on every
 * simulated step. Entry point: `verifyPlan`.
 *
 * | layer | checks | severity |
 * |---|---|---|
 * | 0 | schema, files exist, symbols in the graph, line bounds (`structure.ts`) | error |
 * | 0b | every locator resolves, after the earlier steps (the simulation) | error |
 * | 1 | content exists, fuzzy near misses, duplicates (`content.ts`) | error; near miss / duplicate: warning |
 * | 2 | line drift across steps (`drift.ts`) | warning |
 * | 3 | `replace_code` match inside a string or comment (`context.ts`) | warning |
 * | 4 | occurrences of a renamed name in strings and comments (`occurrences.ts`) | warning |
 * | 5 | the simulated step's new syntax errors | error |
 * | 6 | changed symbols imported by files outside the plan (`impact.ts`) | warning |
 *
 * @module
 */

export { type VerifyOptions, verifyPlan, type VerifyResult } from "./simulate.ts";
export { classifyOccurrences, type Occurrences } from "./occurrences.ts";
export { changedSymbols, importsFrom } from "./impact.ts";
export { verifySteps } from "./steps.ts";
