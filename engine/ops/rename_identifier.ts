/**
 * `rename_identifier`, a tier-1 AST surgery: rename an identifier and its references.
 *
 * @module
 */

import * as z from "zod";
import type { Operator } from "./operator.ts";
import { param } from "./catalog_parts.ts";
import { BRACED_RENAME_LANGUAGES } from "../edit/surgery/rename_braced.ts";
import { IDENTIFIER } from "./schema_parts.ts";
import { LOCATOR_SCHEMA } from "../locate/schema.ts";
import { renameIdentifier } from "../edit/surgery/rename.ts";

/** The `rename_identifier` operator. */
export const RENAME_IDENTIFIER: Operator = {
  name: "rename_identifier",
  kind: "surgery",
  tier: 1,
  summary: "Rename an identifier and its references",
  params: z.object({
    target: LOCATOR_SCHEMA,
    new_name: IDENTIFIER,
    include_strings: z.boolean().optional().meta({
      description: "Also rename the name inside string literals",
    }),
    include_comments: z.boolean().optional().meta({ description: "Also rename the name inside comments" }),
    scope: z.enum(["file", "repository"]).optional().meta({
      description:
        'Where to rename a module-level name: "file" (default; an error when other files import it) or "repository" (also its imports and module.attribute uses in every importing file, in one step)',
    }),
  }),
  catalog: {
    name: "rename_identifier",
    group: "surgery",
    summary:
      'Rename a binding and exactly its uses (scope-aware; strings, comments untouched); "scope": "repository" also renames it in the files that import it.',
    params: [
      param(
        "target",
        "locator",
        true,
        "The binding (def, class, parameter, assignment, import) or any use of it.",
      ),
      param("new_name", "identifier", true, "The new name."),
      param(
        "include_strings",
        "boolean",
        false,
        "Also rename whole-word occurrences in string literals of the scope.",
      ),
      param(
        "include_comments",
        "boolean",
        false,
        "Also rename whole-word occurrences in comments of the scope.",
      ),
      param(
        "scope",
        "position",
        false,
        'file | repository: "repository" also renames a module-level name where other files import it (`from m import old`, `m.old`), all files in one step; with "file" (default) such a name is refused.',
      ),
    ],
    example: {
      op: "rename_identifier",
      params: {
        target: {
          file: "requests/auth.py",
          kind: "function",
          name: "_basic_auth_str",
        },
        new_name: "_basic_auth_header",
      },
    },
    languages: ["python", ...BRACED_RENAME_LANGUAGES],
  },
  run: renameIdentifier,
};
