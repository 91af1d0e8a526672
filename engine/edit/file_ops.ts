/**
 * Whole-file steps: creating, deleting and renaming a file and changing its
 * mode, each an explicit plan step (seed 002's File Existence Invariant: a
 * plan never creates a file silently). They run through the `StepContext`
 * like any edit, so the executor journals them (a created file is removed
 * and a deleted one restored byte for byte on rollback) and the post-checks
 * judge them: a created file against an empty one (it must parse, with
 * nothing newer than the declared Python), a deleted one as all its code
 * removed; what still imports a deleted module is judged after the plan
 * (`engine/verify/plan/deleted_modules.ts`).
 *
 * | op | params | does |
 * | --- | --- | --- |
 * | `create_file` | `file`, `content`, `mode?` | a new file (refused when `file` exists) |
 * | `delete_file` | `file` | removes an existing file |
 * | `rename_file` | `from`, `to` | moves a file, bytes and mode unchanged (refused when `to` exists) |
 * | `set_mode` | `file`, `mode` | `"100755"` executable, `"100644"` not |
 *
 * `FILE_OPS` holds the code; each operator's schema and catalog entry are
 * in its descriptor (`engine/ops/create_file.ts`, ...).
 *
 * @module
 */

import type { OperatorFn } from "./operator.ts";
import { type GitMode, gitModeOf } from "../base/file_mode.ts";
import { encodeSource } from "../workspace.ts";

const createFile: OperatorFn = async (params, ctx) => {
  await ctx.createFile(String(params.file), String(params.content), params.mode as GitMode | undefined);
  return null;
};

const deleteFile: OperatorFn = async (params, ctx) => {
  await ctx.deleteFile(String(params.file));
  return null;
};

const renameFile: OperatorFn = async (params, ctx) => {
  const before = await ctx.store.get(String(params.from));
  const bytes = encodeSource(before.file.text, before.file.bom, before.file.cr);
  const mode = gitModeOf(before.file.mode) ?? undefined;
  await ctx.deleteFile(before.file.path);
  const created = await ctx.createFile(String(params.to), new TextDecoder().decode(bytes), mode);
  // The same permission bits as before, not only the same git mode.
  if (before.file.mode !== null) {
    ctx.store.set({ ...created, file: { ...created.file, mode: before.file.mode } });
  }
  return null;
};

const setMode: OperatorFn = async (params, ctx) => {
  await ctx.setMode(String(params.file), params.mode as GitMode);
  return null;
};

/** The whole-file operators by name. */
export const FILE_OPS: Readonly<Record<string, OperatorFn>> = Object.freeze({
  create_file: createFile,
  delete_file: deleteFile,
  rename_file: renameFile,
  set_mode: setMode,
});
