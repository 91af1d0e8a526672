/**
 * The `rfsn` section of the configuration (`config/rfsn.yaml`): budgets,
 * bounds, candidate models, the test command and the PATCH prompt. The rfsn
 * strategy (`agent/rfsn/`) reads it as `config.rfsn`; it lives here, with
 * the other sections, so that `agent/config.ts` builds its schema without
 * importing the strategy that reads the result.
 *
 * @module
 */

import * as z from "zod";
import rfsnText from "../../config/rfsn.yaml" with { type: "text" };
import type { StrategySection } from "./section.ts";

const count = z.number().int().min(0);

/** The schema of the `rfsn` section. */
export const RfsnConfigSchema = z.strictObject({
  risk_budget: count,
  iteration_budget: z.number().int().positive(),
  stuck_threshold: z.number().int().positive(),
  max_phase_attempts: z.number().int().positive(),
  bounds: z.strictObject({ max_files: z.number().int().positive(), max_lines: z.number().int().positive() }),
  candidate_models: z.array(z.record(z.string(), z.unknown())),
  tests: z.array(z.string().min(1)),
  test_command: z.string().min(1),
  read_limit: z.number().int().positive(),
  templates: z.strictObject({ patch: z.string() }),
});

/** The `rfsn` section. */
export type RfsnConfig = z.infer<typeof RfsnConfigSchema>;

/** The `rfsn` section as `strategy_sections.ts` lists it: its schema and config/rfsn.yaml (embedded). */
export const RFSN_SECTION: StrategySection<typeof RfsnConfigSchema, "rfsn"> = {
  key: "rfsn",
  schema: RfsnConfigSchema,
  defaults: rfsnText,
  file: "rfsn.yaml",
};
