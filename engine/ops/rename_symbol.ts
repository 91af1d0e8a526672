/**
 * `rename_symbol`, a legacy operator (seed 002): rename an identifier in one file (code only, not
 * strings or comments).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { FILE_PATH, IDENTIFIER } from "./schema_parts.ts";
import { LEGACY_OPS } from "../edit/legacy/mod.ts";
import { checkOperatorParams } from "./check.ts";

/** The `rename_symbol` operator. */
export const RENAME_SYMBOL: Operator = {
  name: "rename_symbol",
  kind: "legacy",
  tier: 0,
  summary: "Rename an identifier in one file (code only, not strings or comments)",
  params: z.object({
    file: FILE_PATH,
    old_name: IDENTIFIER,
    new_name: IDENTIFIER,
  }),
  catalog: {
    name: "rename_symbol",
    group: "legacy",
    summary: "Rename an identifier in one file (code only, not strings or comments)",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("old_name", "identifier", true, "current name"),
      param("new_name", "identifier", true, "new name"),
    ],
    example: {
      op: "rename_symbol",
      params: {
        file: "src/pkg/config.py",
        old_name: "DEFAULT_TIMEOUT",
        new_name: "TIMEOUT_SECONDS",
      },
    },
    languages: [...LANGUAGES],
  },
  run: (params, ctx) => LEGACY_OPS.rename_symbol(checkOperatorParams(RENAME_SYMBOL, params, ctx.step), ctx),
};
