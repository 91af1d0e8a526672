import assert from "node:assert/strict";
import { PRIMITIVES } from "../../../engine/edit/primitives.ts";
import { IssueError } from "../../../engine/base/issue.ts";
import { corpusBeforeFiles } from "../../_support/corpus.ts";
import { PYTHON_SKIP, pythonSyntaxErrors } from "../../_support/python.ts";
import { contextWith, CORPUS_SKIP, textOf } from "./_edit_support.ts";

/** Distinct corpus files the sweep edits (kept small: the machine is shared). */
const FILES = 40;

/** List-element kinds to delete one of, and the code to insert next to another. */
const PROBES: { query: string; insert: string; before?: boolean }[] = [
  { query: "(argument_list (keyword_argument) @e)", insert: "probe_kw=None" },
  { query: "(dictionary (pair) @e)", insert: "'probe': 1" },
  { query: "(import_from_statement name: (dotted_name) @e)", insert: "probe_name" },
  // A parameter without default goes before the first plain parameter (never after a default).
  { query: "(parameters (identifier) @e)", insert: "probe_param", before: true },
  { query: "(list (_) @e)", insert: "'probe'" },
];

Deno.test({
  name: "corpus sweep: deleting and inserting list elements never leaves a stray comma (CPython)",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  fn: async () => {
    const seen = new Set<string>();
    const files = (await corpusBeforeFiles(".py")).filter((file) => {
      if (seen.has(file.path)) return false;
      seen.add(file.path);
      return true;
    }).slice(0, FILES);
    const outputs: { name: string; text: string }[] = [];
    let edits = 0;
    for (const file of files) {
      const { ctx, dir } = await contextWith({ "m.py": file.text });
      for (const probe of PROBES) {
        const locator = (index: number) => ({
          type: "sexp",
          file: "m.py",
          query: probe.query,
          capture: "e",
          index,
        });
        try {
          // Insert after the last match first (in document order), then delete the first:
          // both edits stay valid whatever the other did.
          if (probe.before) {
            await PRIMITIVES.insert_before_node({ locator: locator(0), code: probe.insert }, ctx);
            await PRIMITIVES.delete_node({ locator: locator(-1) }, ctx);
          } else {
            await PRIMITIVES.insert_after_node({ locator: locator(-1), code: probe.insert }, ctx);
            await PRIMITIVES.delete_node({ locator: locator(0) }, ctx);
          }
          edits += 2;
        } catch (err) {
          if (!(err instanceof IssueError && err.issues[0].code.startsWith("locator-"))) throw err;
        }
      }
      outputs.push({ name: `${file.id}:${file.path}`, text: await textOf(ctx, "m.py") });
      await Deno.remove(dir, { recursive: true });
    }
    const errors = await pythonSyntaxErrors(outputs.map((output) => output.text));
    const broken = outputs.map((output, i) => [output.name, errors[i]]).filter(([, err]) => err !== null);
    assert.deepEqual(broken, []);
    assert.ok(edits > FILES * 4, `only ${edits} edits ran`);
    // No new doubled comma anywhere (CPython accepts none outside strings, but count them all).
    const doubled = (text: string) => (text.match(/,\s*,/g) ?? []).length;
    outputs.forEach((output, i) => assert.equal(doubled(output.text), doubled(files[i].text), output.name));
  },
});
