/**
 * The plan's names: the built-in `op` operators come from the registry
 * (`engine/ops/registry.ts`, one descriptor per operator: kind, summary,
 * zod parameters, catalog entry, code), re-exported here for the plan
 * schema and validation; the template and fragment names are listed here.
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
 * The tier-2 templates: the 15 of seed 001, then those added since
 * (`add_import_name`, `change_signature`, `add_base_class`, `parenthesize_import`,
 * `rewrite_comment`, `replace_comment`, `insert_sibling`, `set_line_comment`).
 */
export const TEMPLATE_NAMES: readonly string[] = [
  "guard_clause",
  "wrap_try_except",
  "add_parameter",
  "replace_expression",
  "extract_variable",
  "add_import_and_use",
  "add_method",
  "modify_condition",
  "add_conditional_branch",
  "replace_function_body",
  "wrap_context_manager",
  "add_decorator",
  "inline_variable",
  "change_return_value",
  "add_class_attribute",
  "add_import_name",
  "change_signature",
  "add_base_class",
  "parenthesize_import",
  "rewrite_comment",
  "replace_comment",
  "insert_sibling",
  "set_line_comment",
];
