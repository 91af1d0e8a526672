/**
 * `move_node`, a tier-1 AST surgery: move a node next to or into another.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PLACEMENT, TARGET } from "./catalog_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { POSITION } from "./schema_parts.ts";
import { moveNode } from "../edit/surgery/move.ts";

/** The `move_node` operator. */
export const MOVE_NODE: Operator = {
  name: "move_node",
  kind: "surgery",
  tier: 1,
  summary: "Move a node next to or into another",
  params: z.object({
    target: LOCATOR_SCHEMA,
    destination: LOCATOR_SCHEMA,
    position: POSITION,
  }),
  catalog: {
    name: "move_node",
    group: "surgery",
    summary: "Move a node (with its decorators and comments) before/after another node or into a body.",
    params: [
      param("target", "locator", true, TARGET),
      param("destination", "locator", true, "Where the node goes."),
      param(
        "position",
        "position",
        true,
        PLACEMENT,
      ),
    ],
    example: {
      op: "move_node",
      params: {
        target: {
          file: "requests/auth.py",
          kind: "method",
          name: "handle_401",
          parent: {
            kind: "class",
            name: "HTTPDigestAuth",
          },
        },
        destination: {
          file: "requests/auth.py",
          kind: "method",
          name: "__call__",
          parent: {
            kind: "class",
            name: "HTTPDigestAuth",
          },
        },
        position: "after",
      },
    },
    languages: ["python", "javascript", "typescript", "tsx", "go", "rust", "java"],
  },
  run: moveNode,
};
