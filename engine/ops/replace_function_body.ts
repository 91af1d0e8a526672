/**
 * `replace_function_body`, a legacy operator (seed 002): replace the body block of a named function.
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

/** The `replace_function_body` operator. */
export const REPLACE_FUNCTION_BODY: Operator = {
  name: "replace_function_body",
  kind: "legacy",
  tier: 0,
  summary: "Replace the body block of a named function",
  params: z.object({
    file: FILE_PATH,
    func_name: NAME,
    new_body: CODE,
  }),
  catalog: {
    name: "replace_function_body",
    group: "legacy",
    summary: "Replace the body block of a named function",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("func_name", "identifier", true, "the function"),
      param("new_body", "statements", true, "the new body"),
    ],
    example: {
      op: "replace_function_body",
      params: {
        file: "src/pkg/config.py",
        func_name: "load_config",
        new_body: "with open(path) as handle:\n    return Config(parse_line(line) for line in handle)",
      },
    },
    languages: [...LANGUAGES],
  },
  run: (params, ctx) =>
    LEGACY_OPS.replace_function_body(checkOperatorParams(REPLACE_FUNCTION_BODY, params, ctx.step), ctx),
};
