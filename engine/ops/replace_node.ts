/**
 * `replace_node`, a primitive: replace the text of the node a locator matches.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { CODE, FILE_PATH } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { PRIMITIVES } from "../edit/primitives.ts";

/** The `replace_node` operator. */
export const REPLACE_NODE: Operator = {
  name: "replace_node",
  kind: "primitive",
  tier: 0,
  summary: "Replace the text of the node a locator matches",
  params: z.object({
    locator: LOCATOR_SCHEMA,
    replacement: CODE,
    file: FILE_PATH.optional(),
  }),
  catalog: {
    name: "replace_node",
    group: "primitives",
    summary: "Replace the text of the node a locator matches",
    params: [
      {
        name: "locator",
        kind: "locator",
        required: true,
        description: "the node(s) to act on",
      },
      {
        name: "replacement",
        kind: "statements",
        required: true,
        description: "the node's new text",
      },
      {
        name: "file",
        kind: "string",
        required: false,
        description: "default file for locators without one",
      },
    ],
    example: {
      op: "replace_node",
      params: {
        locator: {
          file: "src/pkg/config.py",
          kind: "method",
          name: "get_option",
          parent: {
            kind: "class",
            name: "Config",
          },
        },
        replacement: "def get_option(self, name, default=None):\n    return self.values.get(name, default)",
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
  run: PRIMITIVES.replace_node,
};
