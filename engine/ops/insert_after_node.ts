/**
 * `insert_after_node`, a primitive: insert code after a node.
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
      param("locator", "locator", true, NODES),
      param("code", "statements", true, "code inserted after the node"),
      param("separator", "string", false, 'between node and code: "\\n\\n" = one blank line, ", " inline'),
      param("file", "string", false, DEFAULT_FILE),
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
    languages: [...LANGUAGES],
  },
  run: PRIMITIVES.insert_after_node,
};
