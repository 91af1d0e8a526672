/**
 * `delete_lines`, a legacy operator (seed 002): delete a range of 1-based lines (inclusive).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { LINE_TEXT, param, PATH_TEXT } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { FILE_PATH, LINE } from "./schema_parts.ts";
import { LEGACY_OPS } from "../edit/legacy/mod.ts";
import { checkOperatorParams } from "./check.ts";

/** The `delete_lines` operator. */
export const DELETE_LINES: Operator = {
  name: "delete_lines",
  kind: "legacy",
  tier: 0,
  summary: "Delete a range of 1-based lines (inclusive)",
  params: z.object({
    file: FILE_PATH,
    start_line: LINE,
    end_line: LINE,
  }),
  catalog: {
    name: "delete_lines",
    group: "legacy",
    summary: "Delete a range of 1-based lines (inclusive)",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("start_line", "position", true, LINE_TEXT),
      param("end_line", "position", true, LINE_TEXT),
    ],
    example: {
      op: "delete_lines",
      params: {
        file: "src/pkg/config.py",
        start_line: 4,
        end_line: 4,
      },
    },
    languages: [...LANGUAGES],
  },
  run: (params, ctx) => LEGACY_OPS.delete_lines(checkOperatorParams(DELETE_LINES, params, ctx.step), ctx),
};
