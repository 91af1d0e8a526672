/**
 * `swap_nodes`, a tier-1 AST surgery: swap two nodes.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, TARGET } from "./catalog_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { swapNodes } from "../edit/surgery/swap.ts";

/** The `swap_nodes` operator. */
export const SWAP_NODES: Operator = {
  name: "swap_nodes",
  kind: "surgery",
  tier: 1,
  summary: "Swap two nodes",
  params: z.object({
    target: LOCATOR_SCHEMA,
    other: LOCATOR_SCHEMA,
  }),
  catalog: {
    name: "swap_nodes",
    group: "surgery",
    summary: "Swap two statements, definitions or arguments; each takes the other's place and indentation.",
    params: [
      param("target", "locator", true, TARGET),
      param("other", "locator", true, "The node to swap with (same kind)."),
    ],
    example: {
      op: "swap_nodes",
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
        other: {
          file: "requests/auth.py",
          kind: "method",
          name: "__call__",
          parent: {
            kind: "class",
            name: "HTTPBasicAuth",
          },
        },
      },
    },
    languages: ["python", "javascript", "typescript", "tsx", "go", "rust", "java"],
  },
  run: swapNodes,
};
