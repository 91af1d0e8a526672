/**
 * `locate`, a primitive: report the nodes a locator matches (read-only).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { FILE_PATH } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { PRIMITIVES } from "../edit/primitives.ts";

/** The `locate` operator. */
export const LOCATE: Operator = {
  name: "locate",
  kind: "primitive",
  tier: 0,
  summary: "Report the nodes a locator matches (read-only)",
  params: z.object({
    locator: LOCATOR_SCHEMA,
    file: FILE_PATH.optional(),
  }),
  catalog: {
    name: "locate",
    group: "primitives",
    summary: "Report the nodes a locator matches (read-only)",
    params: [
      {
        name: "locator",
        kind: "locator",
        required: true,
        description: "the node(s) to act on",
      },
      {
        name: "file",
        kind: "string",
        required: false,
        description: "default file for locators without one",
      },
    ],
    example: {
      op: "locate",
      params: {
        locator: {
          file: "src/pkg/config.py",
          kind: "class",
          name: "Config",
        },
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
  run: PRIMITIVES.locate,
};
