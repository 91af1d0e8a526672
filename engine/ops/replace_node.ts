/**
 * `replace_node`, a primitive: replace the text of the node a locator matches.
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
      param("locator", "locator", true, NODES),
      param("replacement", "statements", true, "the node's new text"),
      param("file", "string", false, DEFAULT_FILE),
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
    languages: [...LANGUAGES],
  },
  run: PRIMITIVES.replace_node,
};
