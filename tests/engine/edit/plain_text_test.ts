/**
 * Text operators on files no grammar applies to: a real fix (pallets/flask
 * 4045: a blueprint name may not contain a dot) comes with its changelog
 * entry, and one plan edits both `src/flask/blueprints.py` (a template,
 * CPython parses the result) and `CHANGES.rst` (replace_code, insert_code,
 * delete_lines), as one transaction. Structural steps on a text file are
 * refused with a clear error; binary files still are.
 *
 * @module
 */

import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { assertPythonParses } from "../../_support/python.ts";
import { applyAt, tempRepo, verifyAt } from "../../_support/plans.ts";
import { corpusFile } from "./_edit_support.ts";

const BLUEPRINTS = "src/flask/blueprints.py";
const CHANGES = `Version 2.0.1
-------------

Unreleased

-   Re-add the \`\`filename\`\` parameter in \`\`send_from_directory\`\`.
    :issue:\`4019\`


Version 2.0.0
-------------

Released 2021-05-11
`;

const PLAN = [
  {
    template: "guard_clause",
    params: {
      target: {
        file: BLUEPRINTS,
        kind: "assignment",
        name: "self.name",
        parent: { kind: "class", name: "Blueprint" },
      },
      condition: '"." in name',
      guard_body: "raise ValueError(\"'name' may not contain a dot '.' character.\")",
    },
  },
  {
    op: "replace_code",
    params: {
      file: "CHANGES.rst",
      pattern: "    :issue:`4019`\n",
      replacement:
        "    :issue:`4019`\n-   Raise a \`\`ValueError\`\` when a blueprint name contains a dot.\n    :issue:`4041`\n",
    },
  },
  {
    op: "insert_code",
    params: { file: "Makefile", anchor_line: 1, position: "before", code: "# build helpers" },
  },
  { op: "delete_lines", params: { file: "CHANGES.rst", start_line: 4, end_line: 5 } },
];

Deno.test({
  name: "plain text: a code fix and its changelog entry in one plan, edited by the text operators",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const source = await corpusFile("pallets__flask-4045", BLUEPRINTS);
    const dir = await tempRepo({
      [BLUEPRINTS]: source,
      "CHANGES.rst": CHANGES,
      Makefile: "test:\n\tpytest\n",
    });
    try {
      const verified = await verifyAt(dir, PLAN);
      assert.deepEqual(verified.errors, []);
      const applied = await applyAt(dir, PLAN);
      assert.equal(applied.success, true, JSON.stringify(applied.errors));
      assert.deepEqual([...applied.files_changed].sort(), ["CHANGES.rst", "Makefile", BLUEPRINTS]);
      assert.equal(
        await Deno.readTextFile(`${dir}/CHANGES.rst`),
        CHANGES.replace("Unreleased\n\n", "").replace(
          "    :issue:`4019`\n",
          "    :issue:`4019`\n-   Raise a ``ValueError`` when a blueprint name contains a dot.\n    :issue:`4041`\n",
        ),
      );
      assert.equal(await Deno.readTextFile(`${dir}/Makefile`), "# build helpers\ntest:\n\tpytest\n");
      const fixed = await Deno.readTextFile(`${dir}/${BLUEPRINTS}`);
      await assertPythonParses(fixed);
      assert.ok(fixed.includes(`        if "." in name:\n            raise ValueError(`));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("plain text: structural steps and code-reading legacy operators are refused with a clear error", async () => {
  const dir = await tempRepo({ "CHANGES.rst": CHANGES });
  await Deno.writeFile(`${dir}/logo.png`, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  try {
    const { errors } = await verifyAt(dir, [
      { op: "replace_node", params: { locator: { file: "CHANGES.rst", kind: "string" }, replacement: "x" } },
      { op: "rename_symbol", params: { file: "CHANGES.rst", old_name: "filename", new_name: "path" } },
      { op: "replace_code", params: { file: "logo.png", pattern: "PNG", replacement: "JPG" } },
    ]);
    assert.deepEqual(errors.map((issue) => [issue.step, issue.code]), [
      [0, "locator-plain-text"],
      [1, "plain-text-file"],
      [2, "binary-file"],
    ]);
    assert.match(errors[0].hint!, /replace_code, insert_code, delete_lines/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
