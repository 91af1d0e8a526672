/**
 * `insert_code`, a legacy operator (seed 002): insert code before or after a 1-based line.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { LINE_TEXT, param, PATH_TEXT } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { CODE, FILE_PATH, LINE } from "./schema_parts.ts";
import { LEGACY_OPS } from "../edit/legacy/mod.ts";
import { checkOperatorParams } from "./check.ts";

/** The `insert_code` operator. */
export const INSERT_CODE: Operator = {
  name: "insert_code",
  kind: "legacy",
  tier: 0,
  summary: "Insert code before or after a 1-based line",
  params: z.object({
    file: FILE_PATH,
    anchor_line: LINE,
    position: z.enum(["before", "after"]),
    code: CODE,
  }),
  catalog: {
    name: "insert_code",
    group: "legacy",
    summary: "Insert code before or after a 1-based line",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("anchor_line", "position", true, LINE_TEXT),
      param("position", "position", true, '"before" or "after"'),
      param("code", "statements", true, "code inserted"),
    ],
    example: {
      op: "insert_code",
      params: {
        file: "src/pkg/config.py",
        anchor_line: 2,
        position: "after",
        code: "import sys",
      },
    },
    languages: [...LANGUAGES],
  },
  run: (params, ctx) => LEGACY_OPS.insert_code(checkOperatorParams(INSERT_CODE, params, ctx.step), ctx),
};
