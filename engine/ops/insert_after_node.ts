/**
 * `insert_after_node`, a primitive: insert code after a node.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { CODE, FILE_PATH } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { PRIMITIVES } from "../edit/primitives.ts";

/** The `insert_after_node` operator. */
export const INSERT_AFTER_NODE: Operator = {
  name: "insert_after_node",
  kind: "primitive",
  tier: 0,
  summary: "Insert code after a node",
  params: z.object({
    locator: LOCATOR_SCHEMA,
    code: CODE,
    separator: CODE.optional(),
    file: FILE_PATH.optional(),
  }),
  catalog: {
    name: "insert_after_node",
    group: "primitives",
    summary: "Insert code after a node",
    params: [
      {
        name: "locator",
        kind: "locator",
        required: true,
        description: "the node(s) to act on",
      },
      {
        name: "code",
        kind: "statements",
        required: true,
        description: "code inserted after the node",
      },
      {
        name: "separator",
        kind: "string",
        required: false,
        description: 'between node and code: "\\n\\n" = one blank line, ", " inline',
      },
      {
        name: "file",
        kind: "string",
        required: false,
        description: "default file for locators without one",
      },
    ],
    example: {
      op: "insert_after_node",
      params: {
        locator: {
          file: "src/pkg/config.py",
          kind: "import",
          name: "os",
        },
        code: "import sys",
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
  run: PRIMITIVES.insert_after_node,
};
