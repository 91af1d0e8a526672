/**
 * `wrap_block`, a legacy operator (seed 002): wrap a range of lines between two code blocks, indenting
 * it.
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

/** The `wrap_block` operator. */
export const WRAP_BLOCK: Operator = {
  name: "wrap_block",
  kind: "legacy",
  tier: 0,
  summary: "Wrap a range of lines between two code blocks, indenting it",
  params: z.object({
    file: FILE_PATH,
    start_line: LINE,
    end_line: LINE,
    before_code: CODE,
    after_code: CODE,
  }),
  catalog: {
    name: "wrap_block",
    group: "legacy",
    summary: "Wrap a range of lines between two code blocks, indenting it",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("start_line", "position", true, LINE_TEXT),
      param("end_line", "position", true, LINE_TEXT),
      param("before_code", "statements", true, "code before the lines"),
      param("after_code", "statements", true, "code after the lines"),
    ],
    example: {
      op: "wrap_block",
      params: {
        file: "src/pkg/config.py",
        start_line: 23,
        end_line: 24,
        before_code: "try:",
        after_code: "except OSError:\n    return Config({})",
      },
    },
    languages: [...LANGUAGES],
  },
  run: (params, ctx) => LEGACY_OPS.wrap_block(checkOperatorParams(WRAP_BLOCK, params, ctx.step), ctx),
};
