/**
 * `relayout_node`, a tier-1 AST surgery: re-lay a node's whole lines with the
 * same tokens and tree and other spaces and line breaks (what a formatter
 * does); anything more is refused as `relayout-not-layout`.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param } from "./catalog_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { relayoutNode } from "../edit/surgery/relayout.ts";

/** The `relayout_node` operator. */
export const RELAYOUT_NODE: Operator = {
  name: "relayout_node",
  kind: "surgery",
  tier: 1,
  summary: "Re-lay a node's lines: the same tokens with other whitespace",
  params: z.object({
    target: LOCATOR_SCHEMA,
    text: z.string().meta({
      description: "The new text of the node's whole lines (same tokens, other spaces and line breaks)",
    }),
  }),
  catalog: {
    name: "relayout_node",
    group: "surgery",
    summary: "Re-lay a node's whole lines: the same tokens and tree with other spaces and line breaks.",
    params: [
      param(
        "target",
        "locator",
        true,
        "The node whose lines are re-laid (a trailing comment on its last line included).",
      ),
      param(
        "text",
        "string",
        true,
        "The new text of those lines, from the first line's start to the last line's end.",
      ),
    ],
    example: {
      op: "relayout_node",
      params: {
        target: {
          file: "requests/auth.py",
          kind: "return",
          parent: { kind: "function", name: "_basic_auth_str" },
        },
        text:
          "    return 'Basic ' + b64encode(\n        ('%s:%s' % (username, password)).encode('latin1')\n    ).strip().decode('latin1')",
      },
    },
    languages: ["python"],
  },
  run: relayoutNode,
};
