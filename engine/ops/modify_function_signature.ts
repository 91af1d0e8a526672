/**
 * `modify_function_signature`, a legacy operator (seed 002): replace the signature text of a named
 * function.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { CODE, FILE_PATH, NAME } from "./schema_parts.ts";
import { LEGACY_OPS } from "../edit/legacy/mod.ts";
import { checkOperatorParams } from "./check.ts";

/** The `modify_function_signature` operator. */
export const MODIFY_FUNCTION_SIGNATURE: Operator = {
  name: "modify_function_signature",
  kind: "legacy",
  tier: 0,
  summary: "Replace the signature text of a named function",
  params: z.object({
    file: FILE_PATH,
    func_name: NAME,
    old_signature: CODE.min(1),
    new_signature: CODE.min(1),
  }),
  catalog: {
    name: "modify_function_signature",
    group: "legacy",
    summary: "Replace the signature text of a named function",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("func_name", "identifier", true, "the function"),
      param("old_signature", "string", true, "current signature text"),
      param("new_signature", "string", true, "new signature text"),
    ],
    example: {
      op: "modify_function_signature",
      params: {
        file: "src/pkg/config.py",
        func_name: "load_config",
        old_signature: "def load_config(path):",
        new_signature: 'def load_config(path, encoding="utf-8"):',
      },
    },
    languages: [...LANGUAGES],
  },
  run: (params, ctx) =>
    LEGACY_OPS.modify_function_signature(
      checkOperatorParams(MODIFY_FUNCTION_SIGNATURE, params, ctx.step),
      ctx,
    ),
};
