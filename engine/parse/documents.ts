/**
 * Parsed documents: a file's text with its live tree, kept between requests
 * and re-parsed incrementally when the engine changes the text.
 *
 * A `DocumentStore` reads through to the disk (re-reading a file whose bytes
 * changed), while `overlay()` gives a copy-on-write view in which edits live
 * only in memory: verification simulates a whole plan that way.
 *
 * @module
 */

import type { Edit, Point, Tree } from "web-tree-sitter";
import { decodeSource, dominantEol, fileTooLarge, type SourceFile, type Workspace } from "../workspace.ts";
import { fail, IssueError } from "../base/issue.ts";
import { limits } from "../base/limits.ts";
import { lineBreaks, pointFromBreaks } from "./line_index.ts";
import { type TreeMemo, treeMemo } from "./tree_memo.ts";
import { detectLanguage, parse, PLAIN_TEXT } from "./mod.ts";

/** A source file and its current parse tree. */
export interface Document {
  file: SourceFile;
  tree: Tree;
  /** Set by `reparse`: the document this one was re-parsed from, so analyses can update instead of redo. */
  origin?: DocumentOrigin;
}

/**
 * How a document came from an earlier one by one incremental re-parse. Only
 * what lies in `edit` or `changed` differs from the earlier tree (tree-sitter
 * reused the rest); analyses memoized on the earlier tree can be shifted
 * outside that span and recomputed inside it.
 */
export interface DocumentOrigin {
  /**
   * The earlier tree's memo (`treeMemo`), not the tree: a document keeps
   * neither its history nor the earlier tree (nor its WebAssembly memory)
   * alive, and a WeakRef would (V8 keeps each WeakRef's target until the
   * microtasks drain, which a plan's verification never lets them do).
   */
  memo: TreeMemo;
  /** The text edit, offsets of the earlier text (`startIndex`, `oldEndIndex`) and of the new one (`newEndIndex`). */
  edit: Edit;
  /** Spans of the new tree whose structure differs from the earlier tree's (`Tree.getChangedRanges`). */
  changed: { startIndex: number; endIndex: number }[];
}

export { type TreeMemo, treeMemo };

interface Entry {
  /** The document, or null: the file does not exist in this view (a plan step deleted it). */
  doc: Document | null;
  /** Disk fingerprint when the entry was read or written (undefined for overlay-only texts). */
  stamp?: string;
}

/** Documents of one repository, cached by repository-relative path. */
export class DocumentStore {
  readonly workspace: Workspace;
  private readonly entries = new Map<string, Entry>();
  private readonly parent?: DocumentStore;

  constructor(workspace: Workspace, parent?: DocumentStore) {
    this.workspace = workspace;
    this.parent = parent;
  }

  /**
   * A copy-on-write view: reads fall through to this store, `update()`s stay
   * in the overlay and never reach the disk.
   */
  overlay(): DocumentStore {
    return new DocumentStore(this.workspace, this);
  }

  /** Whether this store is an in-memory overlay. */
  get isOverlay(): boolean {
    return this.parent !== undefined;
  }

  /** The current document for `path` (a repository-relative path). */
  async get(path: string): Promise<Document> {
    const { rel } = this.workspace.resolve(path);
    const own = this.entries.get(rel);
    if (own && own.doc === null) {
      fail("file-not-found", `File "${rel}" does not exist: an earlier step deleted it`, { file: rel });
    }
    if (own && (this.parent || own.stamp === undefined || own.stamp === diskStamp(own.doc!.file.absPath))) {
      return own.doc!;
    }
    if (this.parent) return await this.parent.get(rel);
    return await this.load(rel, own?.doc ? own : undefined);
  }

  /**
   * Whether `path` names a regular file in this view: one an earlier step
   * created counts, one it deleted does not; else the disk decides.
   */
  exists(path: string): Promise<boolean> {
    const { rel, abs } = this.workspace.resolve(path);
    // Resolved once: the overlays below share the workspace.
    const own = this.ownEntry(rel);
    if (own) return Promise.resolve(own.doc !== null);
    try {
      return Promise.resolve(Deno.statSync(abs).isFile);
    } catch {
      return Promise.resolve(false);
    }
  }
  /** The nearest overlay's entry for `rel` (this store first, then its parents). */
  private ownEntry(rel: string): Entry | undefined {
    return this.entries.get(rel) ?? this.parent?.ownEntry(rel);
  }

  /** Mark `path` as not existing in this overlay (a deleted file; the disk is never touched). */
  remove(path: string): void {
    const { rel } = this.workspace.resolve(path);
    this.entries.set(rel, { doc: null });
  }

  /**
   * A document for `path` holding `text` that no file backs yet (a file a
   * step creates, or the empty stand-in for a file that does not exist), in
   * the language its name gives (plain text when none); not stored.
   */
  async detached(
    path: string,
    source: { text: string; bom?: boolean; cr?: boolean; mode?: number | null },
  ): Promise<Document> {
    const { rel, abs } = this.workspace.resolve(path);
    const language = detectLanguage(rel) ?? PLAIN_TEXT;
    const max = limits().max_file_bytes;
    if (source.text.length > max) throw new IssueError(fileTooLarge(rel, source.text.length, max));
    const file: SourceFile = {
      path: rel,
      absPath: abs,
      language,
      text: source.text,
      bom: source.bom ?? false,
      eol: dominantEol(source.text),
      ...(source.cr ? { cr: true } : {}),
      mode: source.mode ?? null,
    };
    return { file, tree: await parse(language, source.text) };
  }

  /** Paths this store (not its parent) changed or loaded; files it deleted are `removedPaths`. */
  ownPaths(): string[] {
    return [...this.entries].filter(([, entry]) => entry.doc !== null).map(([path]) => path);
  }

  /** Paths this overlay deleted (see `remove`). */
  removedPaths(): string[] {
    return [...this.entries].filter(([, entry]) => entry.doc === null).map(([path]) => path);
  }

  /**
   * Parse `text` as the new content of `path` without storing it, reusing the
   * current tree for an incremental parse. `window` (see `diffEdit`) spares
   * comparing the texts outside the span an edit is known to lie in.
   */
  async reparse(doc: Document, text: string, window?: EditWindow): Promise<Document> {
    const edit = diffEdit(doc.file.text, text, { window, breaks: lineBreaks(doc) });
    if (!edit) return doc;
    // UTF-16 length bounds the UTF-8 size from below: a text this long is over the limit as bytes too.
    const max = limits().max_file_bytes;
    if (text.length > max) throw new IssueError(fileTooLarge(doc.file.path, text.length, max));
    if (doc.file.language === PLAIN_TEXT) {
      return { file: { ...doc.file, text }, tree: await parse(PLAIN_TEXT, text) };
    }
    const old = doc.tree.copy();
    old.edit(edit);
    const tree = await parse(doc.file.language, text, old);
    const changed = old.getChangedRanges(tree).map((range) => ({
      startIndex: range.startIndex,
      endIndex: range.endIndex,
    }));
    old.delete();
    const origin: DocumentOrigin = { memo: treeMemo(doc.tree), edit, changed };
    return { file: { ...doc.file, text, eol: doc.file.eol }, tree, origin };
  }

  /**
   * Make `doc` the current document of its path. `written` says the text is
   * now on disk (so later disk changes are detected); overlays never write.
   */
  set(doc: Document, written = false): void {
    const stamp = written && !this.parent ? diskStamp(doc.file.absPath) : undefined;
    this.entries.set(doc.file.path, { doc, stamp });
  }

  /** Forget `path` (e.g. after a rollback rewrote it). */
  invalidate(path: string): void {
    this.entries.delete(path);
  }

  private async load(rel: string, previous?: Entry): Promise<Document> {
    const file = this.workspace.read(rel, { plainText: true });
    let tree: Tree;
    if (previous?.doc && previous.doc.file.language === file.language) {
      const reparsed = await this.reparse(previous.doc, file.text);
      tree = reparsed.tree;
    } else {
      tree = await parse(file.language, file.text);
    }
    const doc = { file, tree };
    this.entries.set(rel, { doc, stamp: diskStamp(file.absPath) });
    return doc;
  }
}

/** A cheap fingerprint of a file on disk: size, mtime and inode. */
function diskStamp(absPath: string): string | undefined {
  try {
    const info = Deno.statSync(absPath);
    return `${info.size}:${info.mtime?.getTime()}:${info.ino}:${info.ctime?.getTime?.()}`;
  } catch {
    return undefined;
  }
}

/** Characters compared at once by `diffEdit` before it compares one by one. */
const DIFF_CHUNK = 256;

/**
 * Where two texts may differ: `before[start, oldEnd)` became
 * `after[start, newEnd)`, the texts are the same outside (an edit's span).
 */
export interface EditWindow {
  start: number;
  oldEnd: number;
  newEnd: number;
}

/** Options of `diffEdit`: facts known beforehand that spare scanning the whole texts. */
export interface DiffOptions {
  /** The span the texts may differ in (the result is the same as without it). */
  window?: EditWindow;
  /** The offsets of the line breaks of `before` (`lineBreaks`), for the edit's start point. */
  breaks?: Int32Array;
}

/**
 * The tree-sitter edit that turns `before` into `after` (one changed span:
 * the common prefix and suffix trimmed), or null when equal.
 */
export function diffEdit(before: string, after: string, options: DiffOptions = {}): Edit | null {
  if (before === after) return null;
  return computeEdit(before, after, options);
}

/**
 * `diffEdit` between two documents' texts. When `after` was re-parsed from
 * `before` (its `origin` is `before`'s tree), the edit that re-parse found is
 * the answer and no text is compared: a step's checks ask for it several times.
 */
export function editBetween(before: Document, after: Document): Edit | null {
  if (before.file.text === after.file.text) return null;
  const origin = after.origin;
  if (origin && origin.memo === treeMemo(before.tree)) {
    const edit = origin.edit;
    return {
      ...edit,
      startPosition: { ...edit.startPosition },
      oldEndPosition: { ...edit.oldEndPosition },
      newEndPosition: { ...edit.newEndPosition },
    } as Edit;
  }
  return diffEdit(before.file.text, after.file.text);
}

function computeEdit(before: string, after: string, options: DiffOptions): Edit {
  const { window, breaks } = options;
  const min = Math.min(before.length, after.length);
  // the texts agree before the window and after it: start the comparisons at its edges
  let start = window ? Math.min(window.start, min) : 0;
  // whole chunks first (a native comparison), then character by character
  while (
    start + DIFF_CHUNK <= min &&
    before.slice(start, start + DIFF_CHUNK) === after.slice(start, start + DIFF_CHUNK)
  ) {
    start += DIFF_CHUNK;
  }
  while (start < min && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  const known = window
    ? Math.min(before.length - window.oldEnd, before.length - start, after.length - start)
    : 0;
  let endBefore = before.length - known;
  let endAfter = after.length - known;
  while (
    endBefore - DIFF_CHUNK >= start && endAfter - DIFF_CHUNK >= start &&
    before.slice(endBefore - DIFF_CHUNK, endBefore) === after.slice(endAfter - DIFF_CHUNK, endAfter)
  ) {
    endBefore -= DIFF_CHUNK;
    endAfter -= DIFF_CHUNK;
  }
  while (
    endBefore > start && endAfter > start &&
    before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)
  ) {
    endBefore--;
    endAfter--;
  }
  const startPosition = breaks ? pointFromBreaks(breaks, start) : pointAt(before, start);
  return {
    startIndex: start,
    oldEndIndex: endBefore,
    newEndIndex: endAfter,
    startPosition,
    oldEndPosition: advancePoint(startPosition, before, start, endBefore),
    newEndPosition: advancePoint(startPosition, after, start, endAfter),
  } as Edit;
}

/** The point of `text[to]`, given `point`, that of `text[from]` (only the text between is read). */
function advancePoint(point: Point, text: string, from: number, to: number): Point {
  let row = point.row;
  let lineStart = -1;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return lineStart === -1 ? { row, column: point.column + (to - from) } : { row, column: to - lineStart };
}

/** Row and column (UTF-16 units) of `index` in `text`. */
export function pointAt(text: string, index: number): Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

/** Re-decode bytes as a document's file would be (exported for rollback and tests). */
export { decodeSource };
