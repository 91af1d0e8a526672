/**
 * What a diff does to whole files, as lift plans it: every file patch of
 * the input becomes a `FileWork` saying which whole-file steps it needs
 * (`create_file`, `delete_file`, `rename_file`, `set_mode`), which text
 * changes are left for the structural lift (`applied`, the regions of an
 * existing or renamed file), and what the file must look like after the
 * plan (`expect`, for the byte-exact replay check).
 *
 * `git apply`'s rules decide what applies: a created file must not exist
 * and its content is its hunks' added lines; a deleted file's removed lines
 * must be the whole file (a deletion without hunks, as `apply_patch` writes
 * it, deletes whatever is there); a copy is a new file holding the source's
 * text with the hunks applied. Binary changes and symlinks (mode `120000`)
 * are refused with `diff-unsupported`, naming the file.
 *
 * @module
 */

import { error, type Issue } from "../base/issue.ts";
import type { DocumentStore } from "../parse/documents.ts";
import { type GitMode, gitModeOf } from "../base/file_mode.ts";
import { decodeSource, encodeSource } from "../workspace.ts";
import { type Applied, applyHunks } from "./apply.ts";
import type { FilePatch } from "./unified_diff.ts";

/** One file's share of the plan. */
export interface FileWork {
  /** The file's path after the diff (its path before for a deletion). */
  path: string;
  /** The path it is renamed from, for a rename. */
  from?: string;
  /** Hunk indexes of the input that belong to this file. */
  hunkIndices: number[];
  /** Text changes of an existing (or renamed) file, for the structural lift. */
  applied?: Applied;
  /** Whole-file steps, in the order they run (before the text steps: create, rename; after: set_mode, delete). */
  before: Record<string, unknown>[];
  after: Record<string, unknown>[];
  /** The file after the plan: its text (null: deleted) and git mode when the diff names it. */
  expect: { text: string | null; mode?: GitMode };
}

/** Plan one file patch; issues for what cannot be planned (the patch is then left out). */
export async function planFile(
  store: DocumentStore,
  patch: FilePatch,
): Promise<{ work?: FileWork; issues: Issue[] }> {
  const refusal = unsupported(patch);
  if (refusal) return { issues: [refusal] };
  const hunkIndices = patch.hunks.map((hunk) => hunk.index);
  const newMode = gitMode(patch.newMode);
  switch (patch.status) {
    case "added":
    case "copied": {
      const path = patch.newPath!;
      if (await exists(store, path)) {
        return { issues: [notApplicable(path, `The diff creates "${path}", which already exists`)] };
      }
      let base = "";
      if (patch.status === "copied") {
        const source = await read(store, patch.oldPath!);
        if (source.issues) return { issues: source.issues };
        base = source.text;
      }
      const applied = applyHunks(base, patch.hunks, { file: path });
      if (applied.issues.length) return { issues: applied.issues };
      const content = applied.after;
      const mode = newMode;
      const step = {
        op: "create_file",
        params: { file: path, content, ...(mode === "100755" ? { mode } : {}) },
      };
      return {
        work: {
          path,
          hunkIndices,
          before: [step],
          after: [],
          expect: { text: asRead(content), mode: mode ?? "100644" },
        },
        issues: [],
      };
    }
    case "deleted": {
      const path = patch.oldPath!;
      const doc = await read(store, path);
      if (doc.issues) return { issues: doc.issues };
      if (patch.hunks.length > 0) {
        const applied = applyHunks(doc.text, patch.hunks, { file: path });
        if (applied.issues.length) return { issues: applied.issues };
        if (applied.after !== "") {
          return {
            issues: [
              notApplicable(path, `The diff deletes "${path}", but its removed lines are not the whole file`),
            ],
          };
        }
      }
      return {
        work: {
          path,
          hunkIndices,
          before: [],
          after: [{ op: "delete_file", params: { file: path } }],
          expect: { text: null },
        },
        issues: [],
      };
    }
    default: {
      const from = patch.oldPath!;
      const path = patch.newPath!;
      const doc = await read(store, from);
      if (doc.issues) return { issues: doc.issues };
      const renamed = patch.status === "renamed";
      if (renamed && await exists(store, path)) {
        return {
          issues: [notApplicable(path, `The diff renames "${from}" to "${path}", which already exists`)],
        };
      }
      const applied = applyHunks(doc.text, patch.hunks, { file: path, eol: doc.eol });
      const oldMode = gitMode(patch.oldMode) ?? doc.mode;
      const modeChange = newMode && newMode !== oldMode;
      return {
        work: {
          path,
          ...(renamed ? { from } : {}),
          hunkIndices,
          applied,
          before: renamed ? [{ op: "rename_file", params: { from, to: path } }] : [],
          after: modeChange ? [{ op: "set_mode", params: { file: path, mode: newMode } }] : [],
          expect: { text: applied.after, ...(modeChange ? { mode: newMode } : {}) },
        },
        issues: [],
      };
    }
  }
}

/** The text a created file reads as (a BOM and lone-CR line endings as the store reads them). */
function asRead(content: string): string {
  try {
    const bytes = encodeSource(content, false);
    return decodeSource(bytes, "x").text;
  } catch {
    return content;
  }
}

/** Why a file patch cannot become steps (binary content, a symlink), or undefined. */
function unsupported(patch: FilePatch): Issue | undefined {
  const path = patch.path;
  if (patch.binary) {
    return error(
      "diff-unsupported",
      `The diff changes the binary file "${path}": binary hunks are not lifted`,
      {
        file: path,
        hint: "leave the binary file out of the diff and change it separately",
      },
    );
  }
  if (patch.oldMode === "120000" || patch.newMode === "120000") {
    return error("diff-unsupported", `The diff changes the symbolic link "${path}": links are not lifted`, {
      file: path,
      hint: "create or change the link outside the plan",
    });
  }
  return undefined;
}

function gitMode(mode: string | null): GitMode | undefined {
  return mode === "100644" || mode === "100755" ? mode : undefined;
}

function notApplicable(path: string, message: string): Issue {
  return error("hunk-not-applicable", message, { file: path, hint: "the diff was made against other files" });
}

async function exists(store: DocumentStore, path: string): Promise<boolean> {
  try {
    return await store.exists(path);
  } catch {
    return false;
  }
}

/** A file's text, dominant line ending and git mode, or the issues saying why it cannot be read. */
async function read(
  store: DocumentStore,
  path: string,
): Promise<
  { text: string; eol: string; mode: GitMode | undefined; issues?: undefined } | {
    issues: Issue[];
    text?: undefined;
  }
> {
  try {
    const { file } = await store.get(path);
    return { text: file.text, eol: file.eol, mode: gitModeOf(file.mode) ?? undefined };
  } catch (err) {
    const caught = err as { issues?: Issue[] };
    if (!caught.issues) throw err;
    return { issues: caught.issues.map((issue) => ({ ...issue, file: issue.file ?? path })) };
  }
}
