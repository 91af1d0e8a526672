/**
 * The code graph of a document, computed once per parsed version (the
 * simulation asks for the same document at several layers).
 *
 * @module
 */

import { extractFileGraph, type FileGraph } from "../../graph/mod.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import { IssueError } from "../../base/issue.ts";

const graphs = new WeakMap<Document, FileGraph>();

/** The graph (symbols, imports) of `doc`. */
export function graphOf(doc: Document): FileGraph {
  let graph = graphs.get(doc);
  if (!graph) {
    graph = extractFileGraph(doc.file, doc.tree);
    graphs.set(doc, graph);
  }
  return graph;
}

/** The current document of `path`, or the issues that say why there is none. */
export async function tryGet(
  store: DocumentStore,
  path: string,
): Promise<{ doc: Document; issues?: undefined } | { doc?: undefined; issues: IssueError["issues"] }> {
  try {
    return { doc: await store.get(path) };
  } catch (err) {
    if (err instanceof IssueError) return { issues: err.issues };
    throw err;
  }
}
