/**
 * What an edit changes, read from its unified diff: the files, the lines
 * added and removed. The scoring engine and the gate's bounds both judge an
 * edit by these (a plan's diff comes from the helper's dry run).
 *
 * @module
 */

import { parseUnifiedDiff } from "../../engine/lift/unified_diff.ts";

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
      for (const line of hunk.lines) {
        if (line.op === "+") added.push(line.text);
        else if (line.op === "-") removed.push(line.text);
      }
    }
  }
  return { files, added, removed, lines_changed: added.length + removed.length };
}
