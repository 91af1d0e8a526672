/**
 * Layer 2 (seed 002), line drift across steps: the line-number operators
 * (`insert_code`, `delete_lines`, `wrap_block`) count lines in the file as
 * it is when they run, but an author usually writes the numbers from the
 * file before the plan. Every simulated edit is recorded as (line, lines
 * added or removed); a later line-number step's line is mapped forward
 * through the edits of earlier steps on the same file, and a non-zero shift
 * is a warning:
 *
 * `Step 3 (delete_lines): line numbers may be off by +3 lines due to earlier edits on "src/schema.py"`
 *
 * Example: step 0 inserts 3 lines before line 50 of a file; step 1 is
 * `delete_lines(52, 55)`. Line 52 of the original is now line 55, so step 1
 * gets the warning with +3. An edit below the step's line, or one that keeps
 * the number of lines, does not move it.
 *
 * @module
 */

import type { EditRecord } from "../../edit/operator.ts";
import { type Issue, warning } from "../../base/issue.ts";
import { lineBreaks, lowerBound } from "../../parse/line_index.ts";
import type { NormalizedStep } from "../../plan/mod.ts";
import { numberParam, param } from "./steps.ts";

/** Operators whose parameters are line numbers, and the parameter that locates them. */
const LINE_OPS: Record<string, string> = {
  insert_code: "anchor_line",
  delete_lines: "start_line",
  wrap_block: "start_line",
};

interface Shift {
  step: number;
  /** 1-based line where the edit starts, in the file as it was when the edit was made. */
  line: number;
  /** Lines added (negative: removed). */
  delta: number;
}

/** Line shifts of the simulated steps, per file. */
export class DriftTracker {
  private readonly shifts = new Map<string, Shift[]>();

  /** Record the edits of a step that passed. */
  record(step: number, records: readonly EditRecord[]): void {
    for (const record of records) {
      const text = record.before.file.text;
      const edits = [...record.edits].sort((a, b) => a.start - b.start);
      // (the line breaks before an edit from the document's line index, not a scan from the file's start)
      const breaks = lineBreaks(record.before);
      let moved = 0;
      for (const edit of edits) {
        const row = lowerBound(breaks, edit.start) + 1;
        const delta = newlines(edit.replacement, 0, edit.replacement.length) -
          newlines(text, edit.start, edit.end);
        if (delta !== 0) this.list(record.file).push({ step, line: row + moved, delta });
        moved += delta;
      }
    }
  }

  /** The layer 2 warning for a line-number step, if earlier steps moved its line. */
  check(step: NormalizedStep, file: string): Issue[] {
    const name = LINE_OPS[step.op];
    const line = name ? numberParam(step, name) : undefined;
    const shifts = this.shifts.get(file);
    if (line === undefined || !shifts) return [];
    let current = line;
    const steps = new Set<number>();
    for (const shift of shifts) {
      if (shift.line <= current) {
        current = Math.max(1, current + shift.delta);
        steps.add(shift.step);
      }
    }
    const drift = current - line;
    if (drift === 0) return [];
    const signed = drift > 0 ? `+${drift}` : `${drift}`;
    const plural = Math.abs(drift) === 1 ? "line" : "lines";
    return [
      warning(
        "line-drift",
        `Step ${step.index} (${step.op}): line numbers may be off by ${signed} ${plural} due to earlier edits on "${file}"`,
        {
          step: step.index,
          layer: "2",
          file,
          line,
          path: [...step.path, "params", name],
          hint: `step${steps.size > 1 ? "s" : ""} ${
            [...steps].join(", ")
          } moved line ${line} of the original file to line ${current}; line numbers count lines as the file is when the step runs (a locator or replace_code does not drift)`,
        },
      ),
    ];
  }

  private list(file: string): Shift[] {
    let list = this.shifts.get(file);
    if (!list) this.shifts.set(file, list = []);
    return list;
  }
}

/** The file a line-number step edits, when the step is one. */
export function lineStepFile(step: NormalizedStep): string | undefined {
  return LINE_OPS[step.op] ? param(step, "file") : undefined;
}

function newlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
