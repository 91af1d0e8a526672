/**
 * `replace_code`, a legacy operator (seed 002): replace a text pattern (exact, then
 * whitespace/indentation/fuzzy match).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { CODE, FILE_PATH } from "./schema_parts.ts";
import { LEGACY_OPS } from "../edit/legacy/mod.ts";
import { checkOperatorParams } from "./check.ts";

/** The `replace_code` operator. */
export const REPLACE_CODE: Operator = {
  name: "replace_code",
  kind: "legacy",
  tier: 0,
  summary: "Replace a text pattern (exact, then whitespace/indentation/fuzzy match)",
  params: z.object({
    file: FILE_PATH,
    pattern: CODE.min(1),
    replacement: CODE,
  }),
  catalog: {
    name: "replace_code",
    group: "legacy",
    summary: "Replace a text pattern (exact, then whitespace/indentation/fuzzy match)",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("pattern", "string", true, "text to find (exact, then whitespace-insensitive)"),
      param("replacement", "statements", true, "its replacement"),
    ],
    example: {
      op: "replace_code",
      params: {
        file: "src/pkg/config.py",
        pattern: "DEFAULT_TIMEOUT = 30",
        replacement: "DEFAULT_TIMEOUT = 60",
      },
    },
    languages: [...LANGUAGES],
  },
  run: (params, ctx) => LEGACY_OPS.replace_code(checkOperatorParams(REPLACE_CODE, params, ctx.step), ctx),
};
