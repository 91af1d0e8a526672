/**
 * `create_file`, a whole-file step (tier 1): create a new file with the given content (it must not
 * exist).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { CODE, FILE_PATH, GIT_MODE } from "./schema_parts.ts";
import { FILE_OPS } from "../edit/file_ops.ts";

/** The `create_file` operator. */
export const CREATE_FILE: Operator = {
  name: "create_file",
  kind: "file",
  tier: 1,
  summary: "Create a new file with the given content (it must not exist)",
  params: z.object({
    file: FILE_PATH,
    content: CODE,
    mode: GIT_MODE.optional(),
  }),
  catalog: {
    name: "create_file",
    group: "files",
    summary: "Create a new file (refused when it exists); its content is checked like any edit.",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("content", "string", true, "The whole text of the new file."),
      param("mode", "position", false, '"100644" (default) | "100755"'),
    ],
    example: {
      op: "create_file",
      params: {
        file: "src/pkg/defaults.py",
        content: "DEFAULT_TIMEOUT = 30\n",
      },
    },
    languages: [...LANGUAGES],
  },
  run: FILE_OPS.create_file,
};
