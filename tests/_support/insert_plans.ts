/**
 * Plans that insert into one file many times (`insert_code` steps), for the
 * verify-scale bench and the test that the per-step caches change no issue.
 *
 * Every step adds a top-level statement after a line of the original file,
 * so the file grows by a few lines a step. With `mixed`, the inserts carry
 * what the levels report: names not bound (L3), helpers defined by a later
 * step (dropped when the plan settles), unused imports (L4), `pass` bodies
 * (L6), a `global` declaration, a star import, anchors that earlier steps
 * moved (layer 2 line drift) and now and then a step with a syntax error
 * (its later steps on the file carry the "may follow" hint).
 *
 * @module
 */

import { loadCorpus } from "./corpus.ts";

/** A corpus Python file to insert into: the first of 800-1,500 lines (seaborn's `_core/scales.py`). */
export async function insertTarget(): Promise<{ path: string; text: string; files: Record<string, string> }> {
  for (const instance of await loadCorpus()) {
    for (const file of instance.files) {
      const lines = file.before.split("\n").length;
      if (file.path.endsWith(".py") && lines > 800 && lines < 1500) {
        const files = Object.fromEntries(instance.files.map((each) => [each.path, each.before]));
        return { path: file.path, text: file.before, files };
      }
    }
  }
  throw new Error("no Python file of 800-1,500 lines in the corpus");
}

/**
 * `count` insert steps into `path` (whose text is `text`): after its last
 * line, and with `mixed` the imports after its first import line.
 */
export function insertPlan(path: string, text: string, count: number, options: { mixed?: boolean } = {}) {
  const steps: unknown[] = [];
  const all = text.split("\n");
  const lines = all.length - (text.endsWith("\n") ? 1 : 0);
  const importLine = all.findIndex((line) => /^(import|from) /.test(line)) + 1 || lines;
  for (let i = 0; i < count; i++) {
    const insert = (code: string, anchor = lines) => ({
      op: "insert_code",
      params: { file: path, anchor_line: anchor, position: "after", code },
    });
    if (!options.mixed) {
      steps.push(insert(`\n\ndef gp_added_${i}(value):\n    return value + ${i}\n`));
      continue;
    }
    switch (i % 9) {
      case 0:
        steps.push(insert(`\n\ndef gp_added_${i}(value):\n    return gp_missing_${i}(value)\n`));
        break;
      case 1:
        steps.push(insert(`\n\ndef gp_added_${i}(value):\n    return gp_added_${i + 3}(value)\n`));
        break;
      case 2:
        steps.push(insert(`import json as gp_json_${i}\n`, importLine));
        break;
      case 3:
        steps.push(insert(`\n\ndef gp_added_${i}(value):\n    pass\n`));
        break;
      case 4:
        steps.push(insert(`\n\ndef gp_added_${i}(value):\n    global gp_counter\n    gp_counter = value\n`));
        break;
      case 5:
        steps.push(insert(`\n\ndef gp_added_${i}(value):\n    return gp_counter + value\n`));
        break;
      case 6:
        steps.push(insert(i % 4 === 2 ? `\nfrom os.path import *\n` : `\nGP_CONSTANT_${i} = ${i}\n`, lines));
        break;
      case 7:
        // a step whose code does not parse
        steps.push(insert(i % 2 === 1 ? `\n\ndef gp_broken_${i}(:\n    return\n` : `\nGP_OK_${i} = 1\n`));
        break;
      default:
        steps.push(insert(`\n\nclass GpAdded${i}:\n    def method(self):\n        return undefined_${i}\n`));
    }
  }
  return steps;
}
