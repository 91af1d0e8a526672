/**
 * SWE-bench task rows from a JSONL file (optionally gzip-compressed):
 * `{instance_id, problem_statement, repo, base_commit, ...}` per line.
 *
 * @module
 */

import { readFailure } from "../engine/base/read_failure.ts";
import { INSTANCE_ID_RULE, instanceIdProblem, quoteId } from "./instance_id.ts";

/** One task row (the fields the agent uses; the rest is kept). */
export interface TaskRow {
  instance_id: string;
  problem_statement: string;
  repo?: string;
  base_commit?: string;
  [key: string]: unknown;
}

/** A dataset that cannot be read, or lacks the instance asked for. */
export class DatasetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DatasetError";
  }
}

/** The text of `path`, gunzipped when it starts with the gzip magic bytes. */
async function readMaybeGzip(path: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (err) {
    throw new DatasetError(`Cannot read dataset "${path}": ${readFailure(err)}`);
  }
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream("gzip"));
    return await new Response(stream).text();
  }
  return new TextDecoder().decode(bytes);
}

/** Every row of a JSONL dataset; a line that is not a JSON object with an `instance_id` is an error. */
export async function readDataset(path: string): Promise<TaskRow[]> {
  const text = await readMaybeGzip(path);
  const rows: TaskRow[] = [];
  text.split("\n").forEach((line, index) => {
    if (line.trim() === "") return;
    let row: unknown;
    try {
      row = JSON.parse(line);
    } catch (err) {
      throw new DatasetError(`Line ${index + 1} of "${path}" is not JSON: ${(err as Error).message}`);
    }
    rows.push(checkTaskRow(row, `Line ${index + 1} of "${path}"`));
  });
  return rows;
}

/**
 * `row` as a task row, or a {@linkcode DatasetError} naming `where` (`Row 3
 * of "FILE"`) when it is not an object with an `instance_id` that obeys the
 * id rule (see instance_id.ts): the id becomes folder and file names.
 */
export function checkTaskRow(row: unknown, where: string): TaskRow {
  if (!row || typeof row !== "object" || Array.isArray(row) || !("instance_id" in row)) {
    throw new DatasetError(`${where} has no "instance_id"`);
  }
  const id = (row as TaskRow).instance_id;
  const problem = instanceIdProblem(id);
  if (problem) {
    throw new DatasetError(
      `${where} has an unusable "instance_id" ${quoteId(id)}: ${problem}; ${INSTANCE_ID_RULE}`,
    );
  }
  return row as TaskRow;
}

/** The row of `instanceId` in the dataset at `path`. */
export async function findInstance(path: string, instanceId: string): Promise<TaskRow> {
  const rows = await readDataset(path);
  const row = rows.find((candidate) => candidate.instance_id === instanceId);
  if (!row) {
    const sample = rows.slice(0, 3).map((r) => `"${r.instance_id}"`).join(", ");
    throw new DatasetError(
      `No instance "${instanceId}" in "${path}" (${rows.length} rows${sample ? `, e.g. ${sample}` : ""})`,
    );
  }
  if (typeof row.problem_statement !== "string" || row.problem_statement.trim() === "") {
    throw new DatasetError(`Instance "${instanceId}" in "${path}" has no "problem_statement"`);
  }
  return row;
}

/** The SWE-bench image name's form of an instance id: lowercase, `__` written `_1776_`. */
export function dockerInstanceId(instanceId: string): string {
  return instanceId.replaceAll("__", "_1776_").toLowerCase();
}
