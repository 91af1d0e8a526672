/**
 * The contract between operators and the executor.
 *
 * An operator (primitive, legacy, composed, template, fragment, surgery) is a
 * function of its params and a `StepContext`. It reads documents through
 * `ctx.store` and changes them only through `ctx.edit()`, which applies text
 * edits to an in-memory overlay and re-parses incrementally, so the next
 * primitive of a composed operator sees the previous one's result. Nothing
 * touches the disk here: after the step the executor post-checks the changed
 * documents and writes them as one transaction (or, when verifying, throws
 * them away).
 *
 * @module
 */

import { checkBudget } from "../base/budget.ts";
import { fail, type Issue } from "../base/issue.ts";
import { type GitMode, gitModeOf, newFileMode, withGitMode } from "../base/file_mode.ts";
import { decodeSource } from "../workspace.ts";
import { type Document, type DocumentStore, type EditWindow, treeMemo } from "../parse/documents.ts";
import type { Tree } from "../parse/mod.ts";
import { applyEdits, type TextEdit } from "./text_edit.ts";

/** What one `ctx.edit()` call changed, kept for the post-checks (L1, L2, L6). */
export interface EditRecord {
  file: string;
  /** The operator (primitive) that made the edit. */
  op: string;
  /** Edits in offsets of the text *before* this call. */
  edits: TextEdit[];
  /** The document before and after this call. */
  before: Document;
  after: Document;
  /**
   * Node types the edit replaced, when it replaced whole nodes (for L1 kind
   * preservation), in the order of `edits`.
   */
  replacedKinds?: (string | undefined)[];
}

/** The world an operator runs in: one plan step. */
export class StepContext {
  /** A copy-on-write view of the repository's documents for this step. */
  readonly store: DocumentStore;
  /** 0-based plan step, for issues. */
  readonly step: number;
  /** Non-fatal problems found while computing the step. */
  readonly warnings: Issue[] = [];
  /** Every edit made in this step, in order. */
  readonly records: EditRecord[] = [];
  /**
   * Documents as they were when the step began, by path; a file that did
   * not exist then has an empty stand-in (`store.detached`) and is in `absentBefore`.
   */
  private readonly originals = new Map<string, Document>();
  private readonly absentBefore = new Set<string>();
  /** Trees of intermediate documents nothing reads after the step (see `supersede`). */
  private superseded: Tree[] = [];

  /** `base` is the store the step starts from; the step edits an overlay of it. */
  constructor(base: DocumentStore, step: number) {
    this.store = base.overlay();
    this.step = step;
  }

  /**
   * Apply `edits` (offsets into the current text of `file`) in memory and
   * re-parse. Overlapping edits are an error. Returns the new document.
   * `parsed`: the result already re-parsed from the current document (an
   * operator's trial parse of the same text, `store.reparse`), used instead
   * of parsing the text again.
   */
  async edit(
    file: string,
    op: string,
    edits: TextEdit[],
    replacedKinds?: (string | undefined)[],
    parsed?: Document,
  ): Promise<Document> {
    checkBudget();
    const before = await this.store.get(file);
    if (!this.originals.has(before.file.path)) this.originals.set(before.file.path, before);
    const text = applyEdits(before.file.text, edits, before.file.path);
    const reuse = parsed?.origin?.memo === treeMemo(before.tree) && parsed.file.text === text;
    const after = reuse ? parsed! : await this.store.reparse(before, text, editWindow(edits));
    this.store.set(after);
    this.records.push({ file: before.file.path, op, edits, before, after, replacedKinds });
    this.supersede(before, op);
    return after;
  }

  /**
   * Note the tree of `superseded`, an intermediate document of this step
   * that the edit just replaced, for `releaseSuperseded`, unless something
   * still reads it after the step: the document the step began with, the
   * result of an edit with `replacedKinds` (L1 reads it) or the document a
   * `replace_code` edit was made in (layer 3 reads it); the post-checks read
   * only the texts of the others.
   */
  private supersede(superseded: Document, op: string): void {
    if (op === "replace_code" || this.originals.get(superseded.file.path) === superseded) return;
    const made = this.records.findLast((record) => record.after === superseded);
    if (made && !made.replacedKinds) this.superseded.push(superseded.tree);
  }

  /**
   * Delete the trees of the intermediate documents superseded so far. Called
   * between the primitives of a composed operator, when no operator code
   * holds their nodes any more: one that expands to thousands of primitives
   * on one file otherwise holds thousands of trees until the step ends (each
   * with the file's list of top-level nodes: a quarter of a gigabyte of
   * WebAssembly heap, which never shrinks, for a 7,776-primitive step).
   */
  releaseSuperseded(): void {
    for (const tree of this.superseded) tree.delete();
    this.superseded = [];
  }

  /**
   * Create `path` holding `content` (bytes as a string: a BOM and lone-CR
   * line endings are kept, as when a file is read) with git mode `mode`.
   * The file must not exist: a plan never overwrites a file by creating it.
   */
  async createFile(path: string, content: string, mode?: GitMode): Promise<Document> {
    checkBudget();
    if (await this.store.exists(path)) {
      const { rel } = this.store.workspace.resolve(path);
      fail("file-exists", `File "${rel}" already exists: create_file makes new files only`, {
        file: rel,
        hint: "edit the existing file with a structural step, or delete it first with delete_file",
      });
    }
    const { rel } = this.store.workspace.resolve(path);
    const source = decodeSource(new TextEncoder().encode(content), rel);
    const doc = await this.store.detached(rel, { ...source, mode: newFileMode(mode) });
    if (!this.originals.has(rel)) {
      this.originals.set(rel, await this.store.detached(rel, { text: "" }));
      this.absentBefore.add(rel);
    }
    this.store.set(doc);
    return doc;
  }

  /** Delete the file `path` (it must exist); returns its document as it was. */
  async deleteFile(path: string): Promise<Document> {
    checkBudget();
    const before = await this.store.get(path);
    if (!this.originals.has(before.file.path)) this.originals.set(before.file.path, before);
    this.store.remove(before.file.path);
    return before;
  }

  /** Give `path` git mode `mode`, keeping its other permission bits (`file_mode.ts`). */
  async setMode(path: string, mode: GitMode): Promise<Document> {
    checkBudget();
    const before = await this.store.get(path);
    if (!this.originals.has(before.file.path)) this.originals.set(before.file.path, before);
    const after = { ...before, file: { ...before.file, mode: withGitMode(before.file.mode, mode) } };
    this.store.set(after);
    return after;
  }

  /**
   * Files this step changed, with their documents before the step and now:
   * a changed text or mode, a created file (`created`, `before` an empty
   * stand-in) or a deleted one (`deleted`, `after` an empty stand-in).
   */
  async changedFiles(): Promise<FileChangeOf[]> {
    const out: FileChangeOf[] = [];
    for (const [path, before] of this.originals) {
      const existed = !this.absentBefore.has(path);
      if (!(await this.store.exists(path))) {
        if (existed) {
          out.push({ path, before, after: await this.store.detached(path, { text: "" }), deleted: true });
        }
        continue;
      }
      const after = await this.store.get(path);
      if (!existed) out.push({ path, before, after, created: true });
      else if (
        after.file.text !== before.file.text || gitModeOf(after.file.mode) !== gitModeOf(before.file.mode)
      ) {
        out.push({ path, before, after });
      }
    }
    return out;
  }
}

/**
 * One file a step changed. `created`: the file did not exist before the
 * step (`before` is an empty stand-in); `deleted`: it does not exist after
 * it (`after` is an empty stand-in). Otherwise its text or its mode changed.
 */
export interface FileChangeOf {
  path: string;
  before: Document;
  after: Document;
  created?: boolean;
  deleted?: boolean;
}

/** An operator: computes and applies its edits through `ctx`, returns its output (read-only ops). */
export type OperatorFn = (params: Record<string, unknown>, ctx: StepContext) => Promise<unknown>;

/** The span `edits` (applied, so valid) change: outside it the texts before and after are the same. */
function editWindow(edits: readonly TextEdit[]): EditWindow | undefined {
  if (edits.length === 0) return undefined;
  let start = Infinity;
  let oldEnd = 0;
  let delta = 0;
  for (const edit of edits) {
    start = Math.min(start, edit.start);
    oldEnd = Math.max(oldEnd, edit.end);
    delta += edit.replacement.length - (edit.end - edit.start);
  }
  return { start, oldEnd, newEnd: oldEnd + delta };
}
