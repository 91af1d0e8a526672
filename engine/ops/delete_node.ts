/**
 * `delete_node`, a primitive and tier-1 AST surgery: delete a node with its separator; `locator` or
 * `target` names it.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { FILE_PATH } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { PRIMITIVES } from "../edit/primitives.ts";

/** The `delete_node` operator. */
export const DELETE_NODE: Operator = {
  name: "delete_node",
  kind: "primitive",
  tier: 1,
  summary: "Delete a node with its separator (also a tier-1 surgery op: give `locator` or `target`)",
  params: z.object({
    locator: LOCATOR_SCHEMA.optional(),
    target: LOCATOR_SCHEMA.optional(),
    all: z.boolean().optional().meta({ description: "Delete every match instead of exactly one" }),
    file: FILE_PATH.optional(),
  }),
  oneOf: [["locator", "target"]],
  catalog: {
    name: "delete_node",
    group: "surgery",
    summary: "Delete a node with its separator (a list element's comma, a statement's line).",
    params: [
      param("target", "locator", true, "The node to delete (the primitive's `locator` is accepted too)."),
      param("all", "boolean", false, "Delete every match of the locator."),
    ],
    example: {
      op: "delete_node",
      params: {
        target: {
          file: "requests/auth.py",
          kind: "method",
          name: "__call__",
          parent: {
            kind: "class",
            name: "HTTPProxyAuth",
          },
        },
      },
    },
    languages: [...LANGUAGES],
  },
  run: PRIMITIVES.delete_node,
};
