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
 * `FILE_OPS` is the registry: catalog data and the operator together.
 *
 * @module
 */

import type { CatalogEntry } from "./catalog_types.ts";
import type { OperatorFn } from "./operator.ts";
import { type GitMode, gitModeOf } from "../file_mode.ts";
import { LANGUAGES } from "../../grammars/mod.ts";
import { encodeSource } from "../workspace.ts";

/** A whole-file operator: its catalog entry and its code. */
export interface FileOp extends CatalogEntry {
  run: OperatorFn;
}

const EXAMPLE = "src/pkg/config.py";
const path = (name: string, description: string) => ({
  name,
  kind: "string" as const,
  required: true,
  description,
});

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

const FILE_PATH_DESCRIPTION = "file path relative to the repository root";

/** The whole-file operators by name. */
export const FILE_OPS: Record<string, FileOp> = {
  create_file: {
    name: "create_file",
    group: "files",
    summary: "Create a new file (refused when it exists); its content is checked like any edit.",
    params: [
      path("file", FILE_PATH_DESCRIPTION),
      { name: "content", kind: "string", required: true, description: "The whole text of the new file." },
      { name: "mode", kind: "position", required: false, description: '"100644" (default) | "100755"' },
    ],
    example: {
      op: "create_file",
      params: { file: "src/pkg/defaults.py", content: "DEFAULT_TIMEOUT = 30\n" },
    },
    languages: [...LANGUAGES],
    run: createFile,
  },
  delete_file: {
    name: "delete_file",
    group: "files",
    summary: "Delete a file; a Python module still imported by the remaining files is refused.",
    params: [path("file", FILE_PATH_DESCRIPTION)],
    example: { op: "delete_file", params: { file: "reproduce.py" } },
    languages: [...LANGUAGES],
    run: deleteFile,
  },
  rename_file: {
    name: "rename_file",
    group: "files",
    summary: "Move a file, bytes and mode unchanged (refused when the target exists).",
    params: [
      path("from", "the file's path now"),
      path("to", "its new path"),
    ],
    example: { op: "rename_file", params: { from: EXAMPLE, to: "src/pkg/settings.py" } },
    languages: [...LANGUAGES],
    run: renameFile,
  },
  set_mode: {
    name: "set_mode",
    group: "files",
    summary: "Make a file executable or not (git's two modes).",
    params: [
      path("file", FILE_PATH_DESCRIPTION),
      { name: "mode", kind: "position", required: true, description: '"100644" | "100755"' },
    ],
    example: { op: "set_mode", params: { file: "scripts/release.sh", mode: "100755" } },
    languages: [...LANGUAGES],
    run: setMode,
  },
};
