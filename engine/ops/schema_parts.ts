/**
 * The building blocks of operator parameter schemas, shared by every
 * descriptor: repository paths (refused when they would leave the
 * repository), code, names, identifiers, line numbers, git modes.
 *
 * @module
 */

import * as z from "zod";
import { GIT_MODES } from "../base/file_mode.ts";
import type { IssueCode } from "../base/issue_codes.ts";
import { SURGERY_POSITIONS } from "../edit/surgery/units.ts";
import type { OperatorSpec } from "./operator.ts";

export { SURGERY_POSITIONS };

/**
 * A file path relative to the repository root. Absolute paths and `..` are
 * refused here already, so a plan that tries to leave the repository fails
 * validation (symlinks are checked when the file is opened).
 */
export const FILE_PATH = z.string().superRefine((value, ctx) => {
  const problem = pathProblem(value);
  if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.code } });
}).meta({ description: 'Path relative to the repository root (no absolute paths, no "..")' });

/** Why `path` cannot name a file in the repository, or undefined. */
export function pathProblem(path: string): { code: IssueCode; message: string } | undefined {
  if (path.trim() === "") return { code: "path-invalid", message: "must not be empty" };
  if (path.includes("\0")) return { code: "path-invalid", message: "must not contain a NUL byte" };
  if (path.length > 4096) return { code: "path-invalid", message: "is longer than 4096 characters" };
  if (path.split(/[\\/]/).some((part) => part.length > 255)) {
    return { code: "path-invalid", message: "has a file or folder name longer than 255 characters" };
  }
  if (path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:/.test(path) || path.startsWith("~")) {
    return { code: "path-outside-repo", message: "must be relative to the repository root, not absolute" };
  }
  if (path.split(/[\\/]/).includes("..")) {
    return { code: "path-outside-repo", message: 'must not contain ".." (paths stay inside the repository)' };
  }
  return undefined;
}

/** A 1-based line number. */
export const LINE = z.number().int().min(1).meta({ description: "1-based line number" });

/**
 * Most characters of code in one parameter. A step that writes a megabyte
 * of code is not an edit an author meant; refusing it early also keeps
 * multi-megabyte texts away from the parser's fixed-size memory.
 */
export const MAX_CODE_LENGTH = 1_000_000;

/** Source text. */
export const CODE = z.string().max(MAX_CODE_LENGTH);

/** A non-empty name. */
export const NAME = z.string().min(1).max(1_000);

/** An identifier (letters, digits, `_`, `$`; not starting with a digit). */
export const IDENTIFIER = z.string().max(1_000).superRefine((value, ctx) => {
  if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(value)) {
    ctx.addIssue({
      code: "custom",
      message: "must be an identifier",
      params: { code: "invalid-identifier" },
    });
  }
}).meta({ description: "An identifier" });

/** A git file mode: `"100644"` (regular) or `"100755"` (executable). */
export const GIT_MODE = z.enum(GIT_MODES).meta({
  description: 'Git file mode: "100644" (regular) or "100755" (executable)',
});

/** Where `copy_node`/`move_node` put the node relative to `destination`. */
export const POSITION = z.enum(SURGERY_POSITIONS);

/** The required parameter names of an operator, in declaration order. */
export function requiredParams(spec: OperatorSpec): string[] {
  return Object.entries(spec.params.shape)
    .filter(([, schema]) => !(schema as z.ZodType).safeParse(undefined).success)
    .map(([name]) => name);
}
