/**
 * The code graph as JSON text, assembled from per-file pieces.
 *
 * `graphplan graph --json` over a large repository spends a noticeable part
 * of its time turning the merged graph into text on one thread (~25 ms for
 * 5 MB) after the workers have finished, and moving each file's graph
 * between threads as objects (structured clone) costs about as much again.
 * Here each file's symbols, imports and line kinds are serialized where the
 * file was graphed (in a worker), cross the thread boundary as strings, and
 * are spliced into the document in input order.
 *
 * The `text` of `graphJsonText(files.map(fileGraphText))` is exactly
 * `JSON.stringify(mergeFileGraphs(files))` and its `errors` are the merged
 * graph's: the same keys in the same order, and the same rule for a file
 * reached twice.
 *
 * @module
 */

import type { Issue } from "../base/issue.ts";
import type { FileGraph } from "./mod.ts";

/** One file's graph as pieces of JSON text (plain data: it crosses a worker boundary). */
export interface FileGraphText {
  /** Repository-relative path, as in `FileGraph.file`. */
  file: string;
  /** Whether the file was parsed (`FileGraph.language !== null`). */
  parsed: boolean;
  /** The symbols' JSON objects joined by commas, without brackets; "" when there are none. */
  symbols: string;
  /** The imports' JSON objects joined by commas, without brackets; "" when there are none. */
  imports: string;
  /** The JSON object of the file's line kinds. */
  line_kinds: string;
  /** The file's problems, as objects: there are few, and callers read them. */
  errors: Issue[];
}

/** Serialize one file's graph into the pieces `graphJsonText` splices. */
export function fileGraphText(graph: FileGraph): FileGraphText {
  return {
    file: graph.file,
    parsed: graph.language !== null,
    symbols: JSON.stringify(graph.symbols).slice(1, -1),
    imports: JSON.stringify(graph.imports).slice(1, -1),
    line_kinds: JSON.stringify(graph.line_kinds),
    errors: graph.errors,
  };
}

/**
 * The compact JSON document of the merged graph of `files` (in order; a
 * parsed file whose path was already merged is skipped, as `mergeFileGraphs`
 * does), and the merged graph's problems.
 */
export function graphJsonText(files: FileGraphText[]): { text: string; errors: Issue[] } {
  const { pieces, errors } = graphJsonPieces(files);
  return { text: pieces.join(""), errors };
}

/**
 * `graphJsonText` as the pieces of its text, in order, for a writer that
 * streams them: the document is never one string, nor one buffer of bytes
 * (for a large repository, each would be as large as the output).
 */
export function graphJsonPieces(files: FileGraphText[]): { pieces: string[]; errors: Issue[] } {
  const symbols: string[] = [];
  const imports: string[] = [];
  const lineKinds: string[] = [];
  const errors: Issue[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    if (file.parsed) {
      if (seen.has(file.file)) continue;
      seen.add(file.file);
      lineKinds.push(`${JSON.stringify(file.file)}:${file.line_kinds}`);
    }
    if (file.symbols) symbols.push(file.symbols);
    if (file.imports) imports.push(file.imports);
    for (const issue of file.errors) errors.push(issue);
  }
  const pieces = [
    '{"symbols":[',
    ...commaSeparated(symbols),
    '],"imports":[',
    ...commaSeparated(imports),
    '],"line_kinds":{',
    ...commaSeparated(lineKinds),
    `},"errors":${JSON.stringify(errors)}}`,
  ];
  return { pieces, errors };
}

/** `items` with a "," between each two. */
function commaSeparated(items: string[]): string[] {
  return items.flatMap((item, i) => i === 0 ? [item] : [",", item]);
}
