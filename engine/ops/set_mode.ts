/**
 * `set_mode`, a whole-file step (tier 1): make a file executable ("100755") or not ("100644").
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param, PATH_TEXT } from "./catalog_parts.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { FILE_OPS } from "../edit/file_ops.ts";
import { FILE_PATH, GIT_MODE } from "./schema_parts.ts";

/** The `set_mode` operator. */
export const SET_MODE: Operator = {
  name: "set_mode",
  kind: "file",
  tier: 1,
  summary: 'Make a file executable ("100755") or not ("100644")',
  params: z.object({
    file: FILE_PATH,
    mode: GIT_MODE,
  }),
  catalog: {
    name: "set_mode",
    group: "files",
    summary: "Make a file executable or not (git's two modes).",
    params: [
      param("file", "string", true, PATH_TEXT),
      param("mode", "position", true, '"100644" | "100755"'),
    ],
    example: {
      op: "set_mode",
      params: {
        file: "scripts/release.sh",
        mode: "100755",
      },
    },
    languages: [...LANGUAGES],
  },
  run: FILE_OPS.set_mode,
};
