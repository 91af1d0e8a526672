/**
 * `add_class_attribute`, a built-in composed operator: add a class attribute before the first
 * statement of a class body (after its docstring).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { CODE, FILE_PATH, NAME } from "./schema_parts.ts";
import { COMPOSED_OPS } from "../edit/composed_ops.ts";

/** The `add_class_attribute` operator. */
export const ADD_CLASS_ATTRIBUTE: Operator = {
  name: "add_class_attribute",
  kind: "composed",
  tier: 0,
  summary: "Add a class attribute before the first statement of a class body (after its docstring)",
  params: z.object({
    file: FILE_PATH,
    class_name: NAME.optional(),
    class: NAME.optional(),
    attribute: CODE.optional(),
    code: CODE.optional(),
    attribute_code: CODE.optional(),
  }),
  oneOf: [["class_name", "class"], ["attribute", "code", "attribute_code"]],
  catalog: {
    name: "add_class_attribute",
    group: "composed",
    summary: "Add a class attribute before the first statement of a class body (after its docstring)",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("class_name", "identifier", true, "the class"),
      param("attribute", "statements", true, "the attribute statement"),
    ],
    example: {
      op: "add_class_attribute",
      params: {
        file: "src/pkg/config.py",
        class_name: "Config",
        attribute: 'separator = "="',
      },
    },
    languages: ["python", "javascript", "typescript", "tsx", "java"],
  },
  run: COMPOSED_OPS.add_class_attribute,
};
