/**
 * replace_code on the whole corpus: every hunk of every gold patch to a
 * Python file, applied as `replace_code(pattern = old side, replacement =
 * new side)`, must turn the `before` file into the `after` file exactly;
 * and so must the same hunks written the way models get them wrong
 * (trailing blanks: layer 2; copied without their indentation: layer 3; a
 * character missing: layer 4). A hunk whose old side occurs twice, or that
 * is equally close to two places, must be refused, never guessed.
 */

import assert from "node:assert/strict";
import { LEGACY_OPS } from "../../../engine/edit/legacy/mod.ts";
import { IssueError } from "../../../engine/base/issue.ts";
import { CORPUS_SKIP, loadCorpus } from "../../_support/corpus.ts";
import { makeRepo } from "./_legacy_support.ts";

interface Hunk {
  old: string[];
  new: string[];
}

/** The hunks of a unified diff, per file (files with "\ No newline" are left out). */
function hunksByFile(patch: string): Map<string, Hunk[]> {
  const out = new Map<string, Hunk[]>();
  let hunks: Hunk[] | undefined;
  let current: Hunk | undefined;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git")) {
      hunks = undefined;
      current = undefined;
    } else if (line.startsWith("+++ ")) {
      hunks = [];
      out.set(line.slice(4).replace(/^b\//, ""), hunks);
    } else if (line.startsWith("@@") && hunks) {
      current = { old: [], new: [] };
      hunks.push(current);
    } else if (current && line.startsWith("\\")) {
      for (const [path, list] of out) if (list === hunks) out.delete(path);
      hunks = undefined;
      current = undefined;
    } else if (current) {
      const body = line.slice(1);
      if (line.startsWith(" ")) {
        current.old.push(body);
        current.new.push(body);
      } else if (line.startsWith("-")) current.old.push(body);
      else if (line.startsWith("+")) current.new.push(body);
    }
  }
  return out;
}

function count(text: string, pattern: string): number {
  let n = 0;
  for (let i = text.indexOf(pattern); i !== -1; i = text.indexOf(pattern, i + 1)) n++;
  return n;
}

type Variant = "exact" | "trailing-blanks" | "dedented" | "typo";

function render(hunk: Hunk, variant: Variant): { pattern: string; replacement: string } {
  const join = (lines: string[]) => lines.join("\n") + "\n";
  if (variant === "trailing-blanks") {
    return { pattern: join(hunk.old.map((l) => (l.trim() ? `${l}  ` : l))), replacement: join(hunk.new) };
  }
  if (variant === "dedented") {
    // Cut the old side's common indentation from both sides, when every line has it (else the cut
    // cannot be undone: a new line at column 0 might belong there or one level deeper).
    const widths = [...hunk.old, ...hunk.new].filter((l) => l.trim()).map((l) =>
      l.length - l.trimStart().length
    );
    const indent = Math.min(...widths);
    const cut = (l: string) => l.slice(Math.min(indent, l.length - l.trimStart().length));
    return { pattern: join(hunk.old.map(cut)), replacement: join(hunk.new.map(cut)) };
  }
  if (variant === "typo" && hunk.old.filter((l) => l.trim().length > 20).length >= 3) {
    // One character dropped from the longest line: only the fuzzy layer can find it.
    const longest = hunk.old.reduce((best, l, i) => (l.length > hunk.old[best].length ? i : best), 0);
    const line = hunk.old[longest];
    const cut = Math.floor(line.length * 0.6);
    const old = hunk.old.map((l, i) => (i === longest ? line.slice(0, cut) + line.slice(cut + 1) : l));
    return { pattern: join(old), replacement: join(hunk.new) };
  }
  return { pattern: join(hunk.old), replacement: join(hunk.new) };
}

Deno.test({
  name: "replace_code reproduces every gold-patch hunk of the corpus, also through layers 2 and 3",
  ignore: !!CORPUS_SKIP,
  async fn() {
    const tally: Record<string, number> = {};
    const bump = (key: string) => (tally[key] = (tally[key] ?? 0) + 1);
    for (const instance of await loadCorpus()) {
      const hunks = hunksByFile(instance.patch);
      for (const file of instance.files) {
        const list = hunks.get(file.path);
        if (!file.path.endsWith(".py") || !list || list.length === 0) continue;
        for (const variant of ["exact", "trailing-blanks", "dedented", "typo"] as Variant[]) {
          const repo = await makeRepo({ [file.path]: file.before });
          try {
            const ctx = repo.ctx();
            let refused = false;
            for (const hunk of list) {
              const { pattern, replacement } = render(hunk, variant);
              const current = await repo.text(ctx, file.path);
              const exactOld = render(hunk, "exact").pattern;
              try {
                await LEGACY_OPS.replace_code({ file: file.path, pattern, replacement }, ctx);
              } catch (err) {
                if (!(err instanceof IssueError)) throw err;
                // Refusing is right only when the old side is not unique in the file.
                assert.equal(
                  err.issues[0].code,
                  "pattern-ambiguous",
                  `${instance.instance_id} ${file.path} ${variant}: ${err.message}`,
                );
                assert.ok(
                  count(current, exactOld) !== 1 || variant === "typo",
                  `${instance.instance_id} ${file.path} ${variant}: refused a unique hunk: ${err.message}`,
                );
                refused = true;
                break;
              }
            }
            if (refused) {
              bump(`${variant}: refused as ambiguous`);
              continue;
            }
            assert.equal(
              await repo.text(ctx, file.path),
              file.after,
              `${instance.instance_id} ${file.path} (${variant})`,
            );
            bump(`${variant}: reproduced`);
            for (const warning of ctx.warnings) bump(`${variant}: warning ${warning.code}`);
          } finally {
            await repo.cleanup();
          }
        }
      }
    }
    console.log(`replace_code over the corpus: ${JSON.stringify(tally)}`);
    assert.ok((tally["exact: reproduced"] ?? 0) >= 150, JSON.stringify(tally));
    assert.ok((tally["trailing-blanks: reproduced"] ?? 0) >= 150, JSON.stringify(tally));
    assert.ok((tally["dedented: reproduced"] ?? 0) >= 150, JSON.stringify(tally));
    assert.ok((tally["dedented: warning match-indentation"] ?? 0) > 100, JSON.stringify(tally));
    assert.ok((tally["trailing-blanks: warning match-whitespace"] ?? 0) > 100, JSON.stringify(tally));
    assert.ok((tally["typo: reproduced"] ?? 0) >= 150, JSON.stringify(tally));
    assert.ok((tally["typo: warning match-fuzzy"] ?? 0) > 100, JSON.stringify(tally));
    // Hunks copied from the file match exactly: no layer but the first is ever needed.
    assert.deepEqual(Object.keys(tally).filter((key) => key.startsWith("exact: warning")), []);
  },
});
