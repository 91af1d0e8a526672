/**
 * SWE-bench-shaped rows for the batch tests, and a parquet file of them
 * written with hyparquet-writer (the reader under test is hyparquet).
 *
 * @module
 */

import { parquetWriteBuffer } from "hyparquet-writer";
import type { TaskRow } from "../../../agent/swebench/mod.ts";

/** `n` rows whose ids look like SWE-bench's (`owner__repo-NUMBER`). */
export function sweRows(n: number): TaskRow[] {
  const repos = ["astropy/astropy", "django/django", "sympy/sympy", "psf/requests"];
  return Array.from({ length: n }, (_, i) => {
    const repo = repos[i % repos.length];
    return {
      instance_id: `${repo.replace("/", "__")}-${1000 + i}`,
      repo,
      base_commit: (i * 7919).toString(16).padStart(40, "0"),
      problem_statement: `Issue ${i}: something in ${repo} breaks.\nSteps: ... "quoted" ü`,
      version: `${1 + (i % 3)}.${i % 5}`,
      FAIL_TO_PASS: JSON.stringify([`tests/test_${i}.py::test_a`]),
    };
  });
}

/** The bytes of a parquet file holding `rows` (string columns). */
export function parquetBytes(rows: TaskRow[]): Uint8Array {
  const columns = Object.keys(rows[0]);
  const buffer = parquetWriteBuffer({
    columnData: columns.map((name) => ({ name, data: rows.map((row) => String(row[name])), type: "STRING" })),
  });
  return new Uint8Array(buffer);
}
