/**
 * The plan's names: the built-in `op` operators come from the registry
 * (`engine/ops/registry.ts`, one descriptor per operator: kind, summary,
 * zod parameters, catalog entry, code), re-exported here for the plan
 * schema and validation; so are the template names (from the template registry) and the fragment actions.
 *
 * @module
 */

export { FILE_OPS, OPERATORS, SURGERY_OPS } from "../ops/registry.ts";
export type { OperatorKind, OperatorSpec } from "../ops/operator.ts";
export {
  FILE_PATH,
  IDENTIFIER,
  MAX_CODE_LENGTH,
  pathProblem,
  requiredParams,
  SURGERY_POSITIONS,
} from "../ops/schema_parts.ts";
export { FRAGMENT_ACTIONS } from "../edit/fragments/mod.ts";
import { TEMPLATES } from "../edit/templates/mod.ts";

/** The seed's ten legacy operator names (three of them are the composed built-ins). */
export const LEGACY_OP_NAMES: readonly string[] = [
  "replace_code",
  "insert_code",
  "delete_lines",
  "add_method",
  "add_import",
  "modify_function_signature",
  "rename_symbol",
  "wrap_block",
  "add_class_attribute",
  "replace_function_body",
];

/**
 * The tier-2 template names, read from the template registry
 * (`engine/edit/templates/mod.ts`, one entry per template), in its order.
 */
export const TEMPLATE_NAMES: readonly string[] = Object.keys(TEMPLATES);
