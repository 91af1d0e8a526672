/**
 * `delete_lines`, a legacy operator (seed 002): delete a range of 1-based lines (inclusive).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
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
      {
        name: "file",
        kind: "string",
        required: true,
        description: "file path relative to the repository root",
      },
      {
        name: "start_line",
        kind: "position",
        required: true,
        description: "1-based line number",
      },
      {
        name: "end_line",
        kind: "position",
        required: true,
        description: "1-based line number",
      },
    ],
    example: {
      op: "delete_lines",
      params: {
        file: "src/pkg/config.py",
        start_line: 4,
        end_line: 4,
      },
    },
    "languages": [
      "python",
      "javascript",
      "typescript",
      "tsx",
      "java",
      "go",
      "rust",
      "ruby",
      "php",
      "c",
      "cpp",
    ],
  },
  run: (params, ctx) => LEGACY_OPS.delete_lines(checkOperatorParams(DELETE_LINES, params, ctx.step), ctx),
};
