import assert from "node:assert/strict";
import { runFragment } from "../../../../engine/edit/fragments/mod.ts";
import { IssueError } from "../../../../engine/base/issue.ts";
import { parse } from "../../../../engine/parse/mod.ts";
import { corpusBeforeFiles } from "../../../_support/corpus.ts";
import { PYTHON_SKIP, pythonSyntaxErrors } from "../../../_support/python.ts";
import { contextWith, CORPUS_SKIP, textOf } from "../_edit_support.ts";

/** How many corpus files the sweep edits. */
const FILES = 30;

const GUARD = {
  kind: "if_statement",
  properties: { condition: "_fragment_probe is None" },
  children: [
    { kind: "assignment", properties: { target: "_fragment_probe", value: '{\n    "a": 1,\n}' } },
    { kind: "else_clause", children: [{ kind: "pass_statement" }] },
  ],
};

const TAIL = {
  kind: "try_statement",
  children: [
    { kind: "expression_statement", properties: { expression: "_fragment_probe()" } },
    {
      kind: "except_clause",
      properties: { exception: "Exception" },
      children: [{ kind: "raise_statement" }],
    },
  ],
};

Deno.test({
  name: "corpus sweep: prepend and append fragments to functions of real files, CPython parses every result",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const files = (await corpusBeforeFiles(".py")).slice(0, FILES);
    const results: string[] = [];
    const names: string[] = [];
    let refused = 0;
    for (const file of files) {
      const tree = await parse("python", file.text);
      const count = tree.rootNode.descendantsOfType("function_definition").length;
      tree.delete();
      // The first, middle and last function of the file.
      for (const index of [...new Set([0, Math.floor(count / 2), count - 1])].filter((i) => i >= 0)) {
        const { ctx } = await contextWith({ [file.path]: file.text });
        const target = { type: "sexp", file: file.path, query: "(function_definition) @target", index };
        try {
          await runFragment({ fragment: GUARD, action: "prepend_to_body", target }, ctx);
          await runFragment({ fragment: TAIL, action: "append_to_body", target }, ctx);
        } catch (err) {
          // A one-line body (`def f(): pass`) is refused with a reason; anything else is a bug.
          assert.ok(err instanceof IssueError, String(err));
          assert.deepEqual(
            err.issues.map((issue) => issue.code),
            ["fragment-target"],
            `${file.id} ${file.path}`,
          );
          refused++;
          continue;
        }
        const after = await textOf(ctx, file.path);
        assert.equal(after.split("_fragment_probe").length - 1, 3, `${file.path}: both fragments inserted`);
        results.push(after);
        names.push(`${file.id}:${file.path}#${index}`);
      }
    }
    assert.ok(results.length >= FILES * 2, `edited ${results.length} functions (${refused} refused)`);
    const errors = await pythonSyntaxErrors(results);
    errors.forEach((err, i) => assert.equal(err, null, names[i]));
  },
});
