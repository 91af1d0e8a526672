/**
 * `set_blank_lines`, a tier-1 AST surgery: set the number of blank lines above or below a node.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param } from "./catalog_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { setBlankLines } from "../edit/surgery/blank_lines.ts";

/** The `set_blank_lines` operator. */
export const SET_BLANK_LINES: Operator = {
  name: "set_blank_lines",
  kind: "surgery",
  tier: 1,
  summary: "Set the number of blank lines above or below a node",
  params: z.object({
    target: LOCATOR_SCHEMA,
    before: z.number().int().min(0).max(20).optional().meta({
      description: "Blank lines wanted directly above the node (its first decorator)",
    }),
    after: z.number().int().min(0).max(20).optional().meta({
      description: "Blank lines wanted directly below the node",
    }),
  }),
  catalog: {
    name: "set_blank_lines",
    group: "surgery",
    summary: "Set how many blank lines separate a statement or definition from the code above or below it.",
    params: [
      param(
        "target",
        "locator",
        true,
        "The statement or definition (a decorated one is spaced from its decorators).",
      ),
      param("before", "count", false, "Blank lines wanted directly above it."),
      param("after", "count", false, "Blank lines wanted directly below it."),
    ],
    example: {
      op: "set_blank_lines",
      params: {
        target: {
          file: "requests/auth.py",
          kind: "class",
          name: "HTTPDigestAuth",
        },
        before: 1,
      },
    },
    languages: ["python", "javascript", "typescript", "tsx", "go", "rust", "java"],
  },
  run: setBlankLines,
};
