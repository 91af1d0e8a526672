/**
 * Shared helpers for the locator tests: the fixture repository and an
 * independent line oracle (a snippet's line, found by plain text search).
 *
 * @module
 */

import assert from "node:assert/strict";
import { type Locator, resolveLocator } from "../../../engine/locate/mod.ts";
import { DocumentStore } from "../../../engine/parse/documents.ts";
import { Workspace } from "../../../engine/workspace.ts";

/** The fixture repository of one realistic file per language. */
export const FIXTURES = new URL("../../fixtures/locate/", import.meta.url).pathname;

/** A fresh store over the fixture repository. */
export function fixtureStore(): DocumentStore {
  return new DocumentStore(Workspace.open(FIXTURES));
}

/** A store over a temporary repository holding `files`; returns it and the directory. */
export async function tempStore(
  files: Record<string, string>,
): Promise<{ store: DocumentStore; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-locate-" });
  for (const [path, text] of Object.entries(files)) {
    const target = `${dir}/${path}`;
    await Deno.mkdir(target.slice(0, target.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(target, text);
  }
  return { store: new DocumentStore(Workspace.open(dir)), dir };
}

/** The 1-based line of the one line of `text` containing (or matching) `snippet`; fails unless exactly one does. */
export function lineOf(text: string, snippet: string | RegExp): number {
  const lines = text.split("\n");
  const hits = lines.flatMap((line, i) =>
    (typeof snippet === "string" ? line.includes(snippet) : snippet.test(line)) ? [i + 1] : []
  );
  assert.equal(hits.length, 1, `snippet ${JSON.stringify(snippet)} occurs on ${hits.length} lines`);
  return hits[0];
}

/**
 * Assert that `locator` resolves to nodes starting exactly on the lines of
 * `snippets`, in order.
 */
export async function assertLines(
  store: DocumentStore,
  locator: Locator,
  snippets: (string | RegExp)[],
): Promise<void> {
  const { doc, nodes } = await resolveLocator(store, locator);
  const want = snippets.map((snippet) => lineOf(doc.file.text, snippet));
  const got = nodes.map((node) => node.startPosition.row + 1);
  assert.deepEqual(
    got,
    want,
    `${JSON.stringify(locator)}\n  got: ${nodes.map((n) => n.text.split("\n")[0]).join(" | ")}`,
  );
}
