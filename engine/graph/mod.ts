/**
 * The code graph: the symbols, imports and control-flow lines of a set of
 * files, in the JSON shape of ARCHITECTURE.md ("Code graph (JSON)").
 *
 * `buildGraph` reads, parses and extracts each file independently
 * (`extractFileGraph` in `extract.ts` is pure and returns plain JSON, so it
 * can run in worker threads) and merges the per-file results in the order
 * the paths were given. A file that cannot be read yields an error issue and
 * nothing else; a file with syntax errors still yields its graph plus a
 * `syntax-error` warning. One bad file never hides the others.
 *
 * @module
 */

import { type Issue, IssueError } from "../base/issue.ts";
import { type LanguageId, withTree } from "../parse/mod.ts";
import type { Workspace } from "../workspace.ts";
import { extractFileGraph } from "./extract.ts";
import { expandSourcePaths } from "./files.ts";
import { type FileGraphText, fileGraphText, graphJsonPieces } from "./json.ts";

export { extractFileGraph } from "./extract.ts";
export { renderGraphView, type ViewOptions } from "./view.ts";
export { type FileGraphText, fileGraphText, graphJsonPieces, graphJsonText } from "./json.ts";
export { expandSourcePaths, SKIPPED_DIRECTORIES } from "./files.ts";

/** The kinds a symbol can have, the same for every language. */
export const SYMBOL_KINDS = [
  "class",
  "function",
  "method",
  "interface",
  "enum",
  "struct",
  "trait",
  "impl",
  "module",
  "namespace",
  "typedef",
  "type_alias",
] as const;

/** A symbol kind. */
export type SymbolKind = typeof SYMBOL_KINDS[number];

/** The structural markers recorded per line. */
export const LINE_KINDS = [
  "if_statement",
  "for_statement",
  "while_statement",
  "return_statement",
  "raise_statement",
  "try_statement",
] as const;

/** A line kind. */
export type LineKind = typeof LINE_KINDS[number];

/** A definition: class, function, method, struct, ... */
export interface GraphSymbol {
  name: string;
  kind: SymbolKind;
  /** Repository-relative path. */
  file: string;
  /** 1-based line of the definition keyword (decorators and annotations excluded). */
  start_line: number;
  /** 1-based last line of the definition's block, as tree-sitter ends it. */
  end_line: number;
  /** Name of the enclosing symbol (for a Go method: its receiver type). */
  parent?: string;
}

/** One imported name. */
export interface GraphImport {
  /** Repository-relative path of the importing file. */
  file: string;
  /** The module as written: `a.b`, `.x`, `node:fs`, `std::io`, `stdio.h`. */
  module: string;
  /** The imported name, `*` for a star import, null when the module itself is imported. */
  symbol: string | null;
  /** The local name, when the import renames. */
  alias?: string;
  /** 1-based line of the import statement. */
  line: number;
}

/** The code graph of several files. */
export interface CodeGraph {
  symbols: GraphSymbol[];
  imports: GraphImport[];
  /** Per file, per 1-based line (as a string key), the outermost control-flow node starting there. */
  line_kinds: Record<string, Record<string, LineKind>>;
  errors: Issue[];
}

/** The graph of one file: plain JSON, so it can cross a worker boundary. */
export interface FileGraph {
  /** Repository-relative path (as given, when it could not be resolved). */
  file: string;
  /** The language it was parsed as, null when it was not parsed (unreadable, unknown). */
  language: LanguageId | null;
  symbols: GraphSymbol[];
  imports: GraphImport[];
  line_kinds: Record<string, LineKind>;
  errors: Issue[];
}

/** Options of `buildGraph`. */
export interface BuildGraphOptions {
  /**
   * Turns paths into per-file graphs, in the same order. Default: each file
   * read, parsed and extracted in turn, in this process (`graphFiles`).
   * A worker pool plugs in here.
   */
  mapFiles?: (paths: string[]) => Promise<FileGraph[]>;
}

/**
 * The code graph of `paths` (repository-relative) in `workspace`. A
 * directory stands for the source files below it (`expandSourcePaths`;
 * `.` is the whole repository). Files keep the order given; a path given
 * twice is graphed once. Problems with single files become issues in
 * `errors`; only a bug throws.
 */
export async function buildGraph(
  workspace: Workspace,
  paths: string[],
  options: BuildGraphOptions = {},
): Promise<CodeGraph> {
  const { files, notes } = request(workspace, paths);
  const mapFiles = options.mapFiles ?? ((list: string[]) => graphFiles(workspace, list));
  return mergeFileGraphs([...notes, ...await mapFiles(files)]);
}

/**
 * The distinct files `paths` name (directories expanded), and the problems
 * of the request itself as graphs of their own, to merge first.
 */
function request(workspace: Workspace, paths: string[]): { files: string[]; notes: FileGraph[] } {
  const { files, warnings } = expandSourcePaths(workspace, paths);
  return {
    files: [...new Set(files)],
    notes: warnings.map((issue) => emptyFileGraph(issue.file ?? ".", [issue])),
  };
}

/** Options of `buildGraphText`. */
export interface BuildGraphTextOptions {
  /** As `BuildGraphOptions.mapFiles`, with each file's graph as JSON text (`graphTextMapper` of the pool). */
  mapFiles?: (paths: string[]) => Promise<FileGraphText[]>;
}

/**
 * `buildGraph`, straight to its compact JSON document, in pieces: joined,
 * `pieces` equal `JSON.stringify(await buildGraph(workspace, paths))`, and
 * `errors` is its `errors`. Each file is serialized where it was graphed (in
 * a worker for large inputs), so no merged graph object is ever built, and a
 * writer can stream the pieces without building the document either.
 */
export async function buildGraphText(
  workspace: Workspace,
  paths: string[],
  options: BuildGraphTextOptions = {},
): Promise<{ pieces: string[]; errors: Issue[] }> {
  const { files, notes } = request(workspace, paths);
  const mapFiles = options.mapFiles ??
    (async (list: string[]) => (await graphFiles(workspace, list)).map(fileGraphText));
  return graphJsonPieces([...notes.map(fileGraphText), ...await mapFiles(files)]);
}

/** Read, parse and extract each path in turn (the default `mapFiles`). */
export async function graphFiles(workspace: Workspace, paths: string[]): Promise<FileGraph[]> {
  const out: FileGraph[] = [];
  for (const path of paths) out.push(await graphFile(workspace, path));
  return out;
}

/**
 * The graph of one file: read, parse, extract. A file that cannot be read
 * (unknown extension, missing, binary, not UTF-8, outside the repository)
 * gives a graph with only its error.
 */
export async function graphFile(workspace: Workspace, path: string): Promise<FileGraph> {
  let file;
  try {
    file = workspace.read(path);
  } catch (err) {
    if (!(err instanceof IssueError)) throw err;
    const issues = err.issues.map((issue) => ({ ...issue, file: issue.file ?? path }));
    return emptyFileGraph(issues[0]?.file ?? path, issues);
  }
  return await withTree(file.language, file.text, (tree) => extractFileGraph(file, tree));
}

/** A graph with no content and the given problems (for a file that could not be read). */
export function emptyFileGraph(file: string, errors: Issue[]): FileGraph {
  return { file, language: null, symbols: [], imports: [], line_kinds: {}, errors };
}

/**
 * Merge per-file graphs into one, in order. A file already merged (the same
 * path reached twice) is skipped; `line_kinds` has an entry for every file
 * that was parsed, empty or not.
 */
export function mergeFileGraphs(files: FileGraph[]): CodeGraph {
  const graph: CodeGraph = { symbols: [], imports: [], line_kinds: {}, errors: [] };
  const seen = new Set<string>();
  for (const file of files) {
    if (file.language !== null) {
      if (seen.has(file.file)) continue;
      seen.add(file.file);
      graph.line_kinds[file.file] = file.line_kinds;
    }
    for (const symbol of file.symbols) graph.symbols.push(symbol);
    for (const record of file.imports) graph.imports.push(record);
    for (const issue of file.errors) graph.errors.push(issue);
  }
  return graph;
}

/** Whether any problem of the graph is an error (a file could not be read). */
export function graphHasErrors(graph: CodeGraph): boolean {
  return graph.errors.some((issue) => issue.severity === "error");
}
