/**
 * `insert_before_node`, a primitive: insert code before a node.
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
      param("locator", "locator", true, NODES),
      param("code", "statements", true, "code inserted before the node"),
      param("separator", "string", false, 'between code and node: "\\n\\n" = one blank line, ", " inline'),
      param("file", "string", false, DEFAULT_FILE),
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
    languages: [...LANGUAGES],
  },
  run: PRIMITIVES.insert_before_node,
};
