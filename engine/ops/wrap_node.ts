/**
 * `wrap_node`, a primitive: wrap a node (or consecutive sibling matches) between `before` and `after`.
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
      param("locator", "locator", true, NODES),
      param("before", "statements", true, "code before the node (e.g. a block header)"),
      param("after", "statements", false, "code after the node"),
      param(
        "indent_body",
        "string",
        false,
        "indentation added to the wrapped lines: true (default) one unit of the file, false none, spaces or text",
      ),
      param("file", "string", false, DEFAULT_FILE),
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
    languages: [...LANGUAGES],
  },
  run: PRIMITIVES.wrap_node,
};
