/**
 * `reorder_children`, a tier-1 AST surgery: reorder the named children of a node.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param } from "./catalog_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { reorderChildren } from "../edit/surgery/reorder.ts";

/** The `reorder_children` operator. */
export const REORDER_CHILDREN: Operator = {
  name: "reorder_children",
  kind: "surgery",
  tier: 1,
  summary: "Reorder the named children of a node",
  params: z.object({
    target: LOCATOR_SCHEMA,
    order: z.array(z.union([z.string().min(1), z.number().int().min(0)])).min(1).meta({
      description: "The new order: the children's names, or their 0-based indexes among the named children",
    }),
  }),
  catalog: {
    name: "reorder_children",
    group: "surgery",
    summary: "Reorder a class's members, a block's statements, a call's arguments or decorators.",
    params: [
      param(
        "target",
        "locator",
        true,
        "A class/function/block (its members), a call or list (its elements), a decorated definition.",
      ),
      param(
        "order",
        "names",
        true,
        "Every child once, in the new order: names or 0-based indices (docstring excluded).",
      ),
    ],
    example: {
      op: "reorder_children",
      params: {
        target: {
          file: "requests/auth.py",
          kind: "class",
          name: "HTTPDigestAuth",
        },
        order: [
          "__init__",
          "__call__",
          "handle_401",
          "build_digest_header",
        ],
      },
    },
    languages: ["python", "javascript", "typescript", "tsx", "go", "rust", "java"],
  },
  run: reorderChildren,
};
