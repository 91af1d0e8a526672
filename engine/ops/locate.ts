/**
 * `locate`, a primitive: report the nodes a locator matches (read-only).
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

/** The `locate` operator. */
export const LOCATE: Operator = {
  name: "locate",
  kind: "primitive",
  tier: 0,
  summary: "Report the nodes a locator matches (read-only)",
  params: z.object({
    locator: LOCATOR_SCHEMA,
    file: FILE_PATH.optional(),
  }),
  catalog: {
    name: "locate",
    group: "primitives",
    summary: "Report the nodes a locator matches (read-only)",
    params: [
      param("locator", "locator", true, NODES),
      param("file", "string", false, DEFAULT_FILE),
    ],
    example: {
      op: "locate",
      params: {
        locator: {
          file: "src/pkg/config.py",
          kind: "class",
          name: "Config",
        },
      },
    },
    languages: [...LANGUAGES],
  },
  run: PRIMITIVES.locate,
};
