/**
 * `replace_all_matching`, a primitive: replace every node a locator matches.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { DEFAULT_FILE, NODES, param } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { CODE, FILE_PATH } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { PRIMITIVES } from "../edit/primitives.ts";

/** The `replace_all_matching` operator. */
export const REPLACE_ALL_MATCHING: Operator = {
  name: "replace_all_matching",
  kind: "primitive",
  tier: 0,
  summary: "Replace every node a locator matches",
  params: z.object({
    locator: LOCATOR_SCHEMA,
    replacement: CODE,
    filter: z.enum(["not_in_string_or_comment"]).optional(),
    file: FILE_PATH.optional(),
  }),
  catalog: {
    name: "replace_all_matching",
    group: "primitives",
    summary: "Replace every node a locator matches",
    params: [
      param("locator", "locator", true, NODES),
      param("replacement", "expression", true, "new text of every match"),
      param("filter", "string", false, '"not_in_string_or_comment"'),
      param("file", "string", false, DEFAULT_FILE),
    ],
    example: {
      op: "replace_all_matching",
      params: {
        locator: {
          file: "src/pkg/config.py",
          kind: "identifier",
          name: "DEFAULT_TIMEOUT",
        },
        replacement: "TIMEOUT_SECONDS",
        filter: "not_in_string_or_comment",
      },
    },
    languages: [...LANGUAGES],
  },
  run: PRIMITIVES.replace_all_matching,
};
