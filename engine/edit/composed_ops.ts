/**
 * The built-in composed operators (`composed.ts`'s programs) as operators,
 * each running its program through the DSL interpreter. Kept apart from the
 * programs so the interpreter can read them without a circular import.
 *
 * @module
 */

import { BUILTIN_DEFINITIONS } from "./composed.ts";
import { runComposed } from "./dsl.ts";
import type { OperatorFn } from "./operator.ts";

/** The built-in composed operators as operators (both parameter spellings). */
export const COMPOSED_OPS: Record<string, OperatorFn> = Object.fromEntries(
  BUILTIN_DEFINITIONS.map((def) => [def.define, (params, ctx) => runComposed(def.define, params, ctx)]),
);
