/**
 * `insert_before_node`, a primitive: insert code before a node.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { CODE, FILE_PATH } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { PRIMITIVES } from "../edit/primitives.ts";

/** The `insert_before_node` operator. */
export const INSERT_BEFORE_NODE: Operator = {
  name: "insert_before_node",
  kind: "primitive",
  tier: 0,
  summary: "Insert code before a node",
  params: z.object({
    locator: LOCATOR_SCHEMA,
    code: CODE,
    separator: CODE.optional(),
    file: FILE_PATH.optional(),
  }),
  catalog: {
    name: "insert_before_node",
    group: "primitives",
    summary: "Insert code before a node",
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
        description: "code inserted before the node",
      },
      {
        name: "separator",
        kind: "string",
        required: false,
        description: 'between code and node: "\\n\\n" = one blank line, ", " inline',
      },
      {
        name: "file",
        kind: "string",
        required: false,
        description: "default file for locators without one",
      },
    ],
    example: {
      op: "insert_before_node",
      params: {
        locator: {
          file: "src/pkg/config.py",
          kind: "function",
          name: "load_config",
        },
        code:
          'def parse_line(line):\n    key, _, value = line.partition("=")\n    return key.strip(), value.strip()',
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
  run: PRIMITIVES.insert_before_node,
};
