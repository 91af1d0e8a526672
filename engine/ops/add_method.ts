/**
 * `add_method`, a built-in composed operator: add a method after the last member of a class body (it
 * fills an empty {} body, and takes the place of a lone pass).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { CODE, FILE_PATH, NAME } from "./schema_parts.ts";
import { COMPOSED_OPS } from "../edit/composed_ops.ts";

/** The `add_method` operator. */
export const ADD_METHOD: Operator = {
  name: "add_method",
  kind: "composed",
  tier: 0,
  summary:
    "Add a method after the last member of a class body (it fills an empty {} body, and takes the place of a lone pass)",
  params: z.object({
    file: FILE_PATH,
    class_name: NAME.optional(),
    class: NAME.optional(),
    method_code: CODE.optional(),
    code: CODE.optional(),
  }),
  oneOf: [["class_name", "class"], ["method_code", "code"]],
  catalog: {
    name: "add_method",
    group: "composed",
    summary:
      "Add a method after the last member of a class body (it fills an empty {} body, and takes the place of a lone pass)",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("class_name", "identifier", true, "the class"),
      param("method_code", "statements", true, "the whole method"),
    ],
    example: {
      op: "add_method",
      params: {
        file: "src/pkg/config.py",
        class_name: "Config",
        method_code: "def has_option(self, name):\n    return name in self.values",
      },
    },
    languages: ["python", "javascript", "typescript", "tsx", "java"],
  },
  run: COMPOSED_OPS.add_method,
};
