/**
 * `add_import`, a built-in composed operator: add an import after the last module-level import; a
 * Python from-import joins the statement already importing from its module (warns when already
 * imported).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { CODE, FILE_PATH } from "./schema_parts.ts";
import { COMPOSED_OPS } from "../edit/composed_ops.ts";

/** The `add_import` operator. */
export const ADD_IMPORT: Operator = {
  name: "add_import",
  kind: "composed",
  tier: 0,
  summary:
    "Add an import after the last module-level import; a Python from-import joins the statement already importing from its module (warns when already imported)",
  params: z.object({
    file: FILE_PATH,
    import_statement: CODE.min(1).optional(),
    import: CODE.min(1).optional(),
    statement: CODE.min(1).optional(),
    code: CODE.min(1).optional(),
  }),
  oneOf: [["import_statement", "import", "statement", "code"]],
  catalog: {
    name: "add_import",
    group: "composed",
    summary:
      "Add an import after the last module-level import; a Python from-import joins the statement already importing from its module (warns when already imported)",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("import_statement", "import_statement", true, "one import statement"),
    ],
    example: {
      op: "add_import",
      params: {
        file: "src/pkg/config.py",
        import_statement: "from pathlib import Path",
      },
    },
    languages: ["python", "javascript", "typescript", "tsx", "java", "go", "rust", "c", "cpp", "php"],
  },
  run: COMPOSED_OPS.add_import,
};
