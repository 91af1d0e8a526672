/**
 * What an edit changes, read from its unified diff: the files, the lines
 * added and removed. The scoring engine and the gate's bounds both judge an
 * edit by these (a plan's diff comes from the helper's dry run).
 *
 * @module
 */

import { parseUnifiedDiff } from "./gate/unified_diff.ts";

/** The size and content of a change. */
export interface DiffFacts {
  files: string[];
  added: string[];
  removed: string[];
  /** Added plus removed lines. */
  lines_changed: number;
}

/** The facts of `diff` (an unreadable diff has no files). */
export function diffFacts(diff: string): DiffFacts {
  const files: string[] = [];
  const added: string[] = [];
  const removed: string[] = [];
  for (const patch of parseUnifiedDiff(diff).files) {
    const file = patch.newPath ?? patch.oldPath;
    if (file && !files.includes(file)) files.push(file);
    for (const hunk of patch.hunks) {
      // Lines only on one side of a hunk are its changes (context is on both, in order).
      const common = commonLines(hunk.oldLines, hunk.newLines);
      added.push(...without(hunk.newLines, common.newKept));
      removed.push(...without(hunk.oldLines, common.oldKept));
    }
  }
  return { files, added, removed, lines_changed: added.length + removed.length };
}

function without(lines: string[], kept: Set<number>): string[] {
  return lines.filter((_, i) => !kept.has(i));
}

/** Indices of a longest common subsequence of two short line lists (hunks are small). */
function commonLines(a: string[], b: string[]): { oldKept: Set<number>; newKept: Set<number> } {
  const table: number[][] = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const oldKept = new Set<number>();
  const newKept = new Set<number>();
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) {
      oldKept.add(i++);
      newKept.add(j++);
    } else if (table[i + 1][j] >= table[i][j + 1]) i++;
    else j++;
  }
  return { oldKept, newKept };
}
