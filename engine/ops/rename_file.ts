/**
 * `rename_file`, a whole-file step (tier 1): rename (move) a file, content and mode unchanged (the
 * target must not exist).
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { FILE_OPS } from "../edit/file_ops.ts";
import { FILE_PATH } from "./schema_parts.ts";

/** The `rename_file` operator. */
export const RENAME_FILE: Operator = {
  name: "rename_file",
  kind: "file",
  tier: 1,
  summary: "Rename (move) a file, content and mode unchanged (the target must not exist)",
  params: z.object({
    from: FILE_PATH,
    to: FILE_PATH,
  }),
  catalog: {
    name: "rename_file",
    group: "files",
    summary: "Move a file, bytes and mode unchanged (refused when the target exists).",
    params: [
      param("from", "string", true, "the file's path now"),
      param("to", "string", true, "its new path"),
    ],
    example: {
      op: "rename_file",
      params: {
        from: "src/pkg/config.py",
        to: "src/pkg/settings.py",
      },
    },
    languages: [...LANGUAGES],
  },
  run: FILE_OPS.rename_file,
};
