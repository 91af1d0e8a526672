/**
 * `wrap_node`, a primitive: wrap a node (or consecutive sibling matches) between `before` and `after`.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { CODE, FILE_PATH } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { PRIMITIVES } from "../edit/primitives.ts";

/** The `wrap_node` operator. */
export const WRAP_NODE: Operator = {
  name: "wrap_node",
  kind: "primitive",
  tier: 0,
  summary: "Wrap a node (or consecutive sibling matches) between `before` and `after`",
  params: z.object({
    locator: LOCATOR_SCHEMA,
    before: CODE,
    after: CODE.optional(),
    indent_body: z.union([z.boolean(), z.number().int().min(0), z.string()]).optional().meta({
      description:
        "Indentation added to the wrapped lines: true (default) one indentation unit of the file, false none, a number of spaces or a string",
    }),
    file: FILE_PATH.optional(),
  }),
  catalog: {
    name: "wrap_node",
    group: "primitives",
    summary: "Wrap a node (or consecutive sibling matches) between `before` and `after`",
    params: [
      {
        name: "locator",
        kind: "locator",
        required: true,
        description: "the node(s) to act on",
      },
      {
        name: "before",
        kind: "statements",
        required: true,
        description: "code before the node (e.g. a block header)",
      },
      {
        name: "after",
        kind: "statements",
        required: false,
        description: "code after the node",
      },
      {
        name: "indent_body",
        kind: "string",
        required: false,
        description:
          "indentation added to the wrapped lines: true (default) one unit of the file, false none, spaces or text",
      },
      {
        name: "file",
        kind: "string",
        required: false,
        description: "default file for locators without one",
      },
    ],
    example: {
      op: "wrap_node",
      params: {
        locator: {
          file: "src/pkg/config.py",
          kind: "with",
          parent: {
            kind: "function",
            name: "load_config",
          },
        },
        before: "try:",
        after: "except OSError:\n    return Config({})",
      },
    },
    "languages": [
      "python",
      "javascript",
      "typescript",
      "tsx",
      "java",
      "go",
      "rust",
      "ruby",
      "php",
      "c",
      "cpp",
    ],
  },
  run: PRIMITIVES.wrap_node,
};
