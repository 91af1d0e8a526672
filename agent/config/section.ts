/**
 * A section of the configuration a strategy owns (`rfsn:` for the rfsn
 * strategy): its top-level key, its zod schema and its defaults. Sections
 * live in this folder, below both `agent/config.ts` (which builds its
 * schema from them) and the strategies (which read the resulting `Config`),
 * so neither imports the other's folder.
 *
 * @module
 */

import type * as z from "zod";

/** A section of the configuration a strategy owns (`rfsn:` for the rfsn strategy). */
export interface StrategySection<S extends z.ZodType = z.ZodType, K extends string = string> {
  /** The top-level key. */
  key: K;
  /** Its schema (the section is optional in every config; the strategy checks it is there). */
  schema: S;
  /** YAML merged over the base defaults when the strategy is chosen (its own section and any others it sets). */
  defaults: string;
  /** The name errors in `defaults` are reported under. */
  file: string;
}
