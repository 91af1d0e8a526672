/**
 * `replace_function_body`, a legacy operator (seed 002): replace the body block of a named function.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
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
      {
        name: "file",
        kind: "string",
        required: true,
        description: "file path relative to the repository root",
      },
      {
        name: "func_name",
        kind: "identifier",
        required: true,
        description: "the function",
      },
      {
        name: "new_body",
        kind: "statements",
        required: true,
        description: "the new body",
      },
    ],
    example: {
      op: "replace_function_body",
      params: {
        file: "src/pkg/config.py",
        func_name: "load_config",
        new_body: "with open(path) as handle:\n    return Config(parse_line(line) for line in handle)",
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
  run: (params, ctx) =>
    LEGACY_OPS.replace_function_body(checkOperatorParams(REPLACE_FUNCTION_BODY, params, ctx.step), ctx),
};
