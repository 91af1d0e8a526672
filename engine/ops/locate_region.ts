/**
 * `locate_region`, a primitive: report the span and text of one node (read-only).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { DEFAULT_FILE, NODES, param } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { FILE_PATH } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { PRIMITIVES } from "../edit/primitives.ts";

/** The `locate_region` operator. */
export const LOCATE_REGION: Operator = {
  name: "locate_region",
  kind: "primitive",
  tier: 0,
  summary: "Report the span and text of one node (read-only)",
  params: z.object({
    locator: LOCATOR_SCHEMA,
    file: FILE_PATH.optional(),
  }),
  catalog: {
    name: "locate_region",
    group: "primitives",
    summary: "Report the span and text of one node (read-only)",
    params: [
      param("locator", "locator", true, NODES),
      param("file", "string", false, DEFAULT_FILE),
    ],
    example: {
      op: "locate_region",
      params: {
        locator: {
          file: "src/pkg/config.py",
          kind: "method",
          name: "__init__",
          parent: {
            kind: "class",
            name: "Config",
          },
        },
      },
    },
    languages: [...LANGUAGES],
  },
  run: PRIMITIVES.locate_region,
};
