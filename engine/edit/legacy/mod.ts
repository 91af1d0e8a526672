/**
 * The seven legacy operators of seed 002 that are not also composed
 * operators (`add_method`, `add_import` and `add_class_attribute` are the
 * composed implementations in `../composed.ts`, which accept the legacy
 * parameter spellings).
 *
 * Each trusts its params (its descriptor, `engine/ops/replace_code.ts` and
 * so on, checks them against the op's schema before it runs), reads the file through `ctx.store` (paths outside the repository are
 * refused there) and changes it only through `ctx.edit()`.
 *
 * @module
 */

import type { OperatorFn } from "../operator.ts";
import { modifyFunctionSignature, replaceFunctionBody } from "./functions.ts";
import { deleteLines, insertCode, wrapBlock } from "./lines.ts";
import { renameSymbol } from "./rename_symbol.ts";
import { replaceCode } from "./replace_code.ts";

/** The legacy operators by name. */
export const LEGACY_OPS: Readonly<Record<string, OperatorFn>> = Object.freeze({
  replace_code: replaceCode,
  insert_code: insertCode,
  delete_lines: deleteLines,
  modify_function_signature: modifyFunctionSignature,
  rename_symbol: renameSymbol,
  wrap_block: wrapBlock,
  replace_function_body: replaceFunctionBody,
});

export { findFunctions } from "./functions.ts";
