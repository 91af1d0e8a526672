/**
 * Real test code from the corpus: SWE-bench `test_patch`es add whole test
 * functions; the runs of added lines that form complete definitions
 * (dedented, parsed without error by tree-sitter) are the test modules the
 * gate tests weaken by hand. Each test patch's files are also given as
 * the text of their hunks before and after (`corpusTestPatchFiles`).
 *
 * @module
 */

import { type CorpusInstance, loadCorpus } from "../../_support/corpus.ts";
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

/** One file of a SWE-bench test patch, as the text its hunks show before and after. */
export interface TestPatchFile {
  instance: string;
  repo: string;
  path: string;
  /** The hunks' old sides joined (null: the patch creates the file). */
  before: string | null;
  /** The hunks' new sides joined (null: the patch deletes the file). */
  after: string | null;
}

/**
 * A hunk side that starts indented, made to parse: wrapped in a class and
 * methods down to its first line's indentation (both sides get the same
 * wrapper, so what the hunk shows of a test is compared like for like).
 */
function wrapped(lines: string[], index: number, first: string): string[] {
  const indent = first.length - first.trimStart().length;
  const header: string[] = [];
  for (let level = 0; level * 4 < indent; level++) {
    header.push(
      `${" ".repeat(level * 4)}${level === 0 ? `class _Hunk${index}:` : `def _hunk${level}(self):`}`,
    );
  }
  return [...header, ...lines];
}

/**
 * Every file of every corpus test patch, each side the text of its hunks
 * (the corpus has the test patches, not the whole test files).
 */
export async function corpusTestPatchFiles(): Promise<TestPatchFile[]> {
  const out: TestPatchFile[] = [];
  for (const row of await loadCorpus() as (CorpusInstance & { test_patch: string | null })[]) {
    if (!row.test_patch) continue;
    for (const part of row.test_patch.split(/^(?=diff --git )/m)) {
      const path = /^\+\+\+ b\/(.+)$/m.exec(part)?.[1] ?? /^--- a\/(.+)$/m.exec(part)?.[1];
      if (!path) continue;
      const hunks = part.split(/^@@ [^\n]*@@[^\n]*\n/m).slice(1);
      const sides = { before: [] as string[], after: [] as string[] };
      hunks.forEach((hunk, index) => {
        const lines = hunk.split("\n").filter((l) => l !== "" && !l.startsWith("\\"));
        const first = lines.map((l) => l.slice(1)).find((l) => l.trim() !== "") ?? "";
        const old = lines.filter((l) => l[0] === " " || l[0] === "-").map((l) => l.slice(1));
        const now = lines.filter((l) => l[0] === " " || l[0] === "+").map((l) => l.slice(1));
        if (old.length > 0) sides.before.push(wrapped(old, index, first).join("\n"));
        if (now.length > 0) sides.after.push(wrapped(now, index, first).join("\n"));
      });
      const created = /^new file mode/m.test(part);
      const deleted = /^deleted file mode/m.test(part);
      out.push({
        instance: row.instance_id,
        repo: row.repo,
        path,
        before: created ? null : sides.before.join("\n\n\n") + "\n",
        after: deleted ? null : sides.after.join("\n\n\n") + "\n",
      });
    }
  }
  return out;
}
