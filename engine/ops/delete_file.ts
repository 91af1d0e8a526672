/**
 * `delete_file`, a whole-file step (tier 1): delete an existing file.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { FILE_OPS } from "../edit/file_ops.ts";
import { FILE_PATH } from "./schema_parts.ts";

/** The `delete_file` operator. */
export const DELETE_FILE: Operator = {
  name: "delete_file",
  kind: "file",
  tier: 1,
  summary: "Delete an existing file",
  params: z.object({ file: FILE_PATH }),
  catalog: {
    name: "delete_file",
    group: "files",
    summary: "Delete a file; a Python module still imported by the remaining files is refused.",
    params: [
      param("file", "string", true, PATH_TEXT),
    ],
    example: {
      op: "delete_file",
      params: {
        file: "reproduce.py",
      },
    },
    languages: [...LANGUAGES],
  },
  run: FILE_OPS.delete_file,
};
