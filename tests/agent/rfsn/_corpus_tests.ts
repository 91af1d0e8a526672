/**
 * Real test code from the corpus: SWE-bench `test_patch`es add whole test
 * functions; the runs of added lines that form complete definitions
 * (dedented, parsed without error by tree-sitter) are the test modules the
 * gate tests weaken by hand.
 *
 * @module
 */

import { loadCorpus } from "../../_support/corpus.ts";
import { withTree } from "../../../engine/parse/mod.ts";

function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => l.length - l.trimStart().length);
  const cut = Math.min(...indents);
  return lines.map((l) => l.slice(Math.min(cut, l.length - l.trimStart().length)));
}

/**
 * The complete test definitions that `instance`'s test patch adds to `path`,
 * joined into one module (two blank lines between them).
 */
export async function corpusTestModule(instance: string, path: string): Promise<string> {
  const row = (await loadCorpus()).find((r) => r.instance_id === instance) as
    | { test_patch: string | null }
    | undefined;
  if (!row?.test_patch) throw new Error(`No test patch for "${instance}"`);
  const blocks: string[][] = [];
  let file = "";
  let run: string[] = [];
  const close = () => {
    if (run.length > 0 && file === path) blocks.push(run);
    run = [];
  };
  for (const line of row.test_patch.split("\n")) {
    if (line.startsWith("+++ ")) {
      close();
      file = line.slice(4).replace(/^b\//, "");
    } else if (line.startsWith("+")) run.push(line.slice(1));
    else close();
  }
  close();
  const kept: string[] = [];
  for (const block of blocks) {
    const text = dedent(block).join("\n").trim();
    if (!/\bdef test/.test(text)) continue;
    if (await withTree("python", text + "\n", (tree) => !tree.rootNode.hasError)) kept.push(text);
  }
  if (kept.length === 0) throw new Error(`No complete test definitions for "${path}" in "${instance}"`);
  return kept.join("\n\n\n") + "\n";
}
