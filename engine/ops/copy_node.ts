/**
 * `copy_node`, a tier-1 AST surgery: copy a node next to or into another.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PLACEMENT, TARGET } from "./catalog_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { POSITION } from "./schema_parts.ts";
import { copyNode } from "../edit/surgery/move.ts";

/** The `copy_node` operator. */
export const COPY_NODE: Operator = {
  name: "copy_node",
  kind: "surgery",
  tier: 1,
  summary: "Copy a node next to or into another",
  params: z.object({
    target: LOCATOR_SCHEMA,
    destination: LOCATOR_SCHEMA,
    position: POSITION,
  }),
  catalog: {
    name: "copy_node",
    group: "surgery",
    summary: "Copy a node (with its decorators and comments) before/after another node or into a body.",
    params: [
      param("target", "locator", true, TARGET),
      param("destination", "locator", true, "Where the copy goes."),
      param(
        "position",
        "position",
        true,
        PLACEMENT,
      ),
    ],
    example: {
      op: "copy_node",
      params: {
        target: {
          file: "requests/auth.py",
          kind: "method",
          name: "__init__",
          parent: {
            kind: "class",
            name: "HTTPBasicAuth",
          },
        },
        destination: {
          file: "requests/auth.py",
          kind: "class",
          name: "HTTPProxyAuth",
        },
        position: "prepend_to_body",
      },
    },
    languages: ["python", "javascript", "typescript", "tsx", "go", "rust", "java"],
  },
  run: copyNode,
};
