/**
 * `rewrite_comment`: one comment line, a run re-wrapped to another number of
 * lines at a block's depth, CRLF files, the no-op, and every refusal (code
 * in the text, a trailing comment, a run shorter than `lines`, a target that
 * is not a comment). CPython's `ast` is the oracle that only comments changed.
 */

import assert from "node:assert/strict";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { apply, reject } from "./_support.ts";

const SOURCE =
  "def f(x):\n    # Quotation marks, whitespace or inline\n    # comments are forbidden.\n    return x\n";
const first = { file: "m.py", kind: "comment", index: 0 };

Deno.test("rewrite_comment: a run re-wrapped to three lines keeps the block's depth", async () => {
  const after = await apply("rewrite_comment", "m.py", SOURCE, {
    target: first,
    lines: 2,
    text:
      "# Quotation marks, whitespace, control characters,\n  # hashes or inline\n# comments are forbidden.",
  });
  assert.equal(
    after.text,
    "def f(x):\n    # Quotation marks, whitespace, control characters,\n    # hashes or inline\n" +
      "    # comments are forbidden.\n    return x\n",
  );
  const one = await apply("rewrite_comment", "m.py", "#!/usr/bin/env python\r\nimport os\r\n", {
    target: first,
    text: "#!/usr/bin/env python3",
  });
  assert.equal(one.text, "#!/usr/bin/env python3\r\nimport os\r\n");
  if (PYTHON_SKIP === undefined) {
    const same = await runPythonJson<boolean>(
      "import ast, json, sys\na, b = json.load(sys.stdin)\nprint(json.dumps(ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))))",
      [SOURCE, after.text],
    );
    assert.equal(same, true);
  }
});

Deno.test("rewrite_comment: the same text is already-present", async () => {
  const again = await apply("rewrite_comment", "m.py", SOURCE, {
    target: first,
    text: "# Quotation marks, whitespace or inline",
  });
  assert.equal(again.text, SOURCE);
  assert.equal(again.output.changed, false);
  assert.deepEqual(again.warnings.map((w) => w.code), ["already-present"]);
});

Deno.test("rewrite_comment: code in the text, a trailing comment, a short run, a non-comment are refused", async () => {
  const refusals = [
    { source: SOURCE, params: { target: first, text: "# ok\nx = 1" } },
    { source: "x = 1  # one\n", params: { target: first, text: "# two" } },
    { source: SOURCE, params: { target: first, lines: 3, text: "# a" } },
    { source: SOURCE, params: { target: { file: "m.py", kind: "function", name: "f" }, text: "# a" } },
  ];
  for (const { source, params } of refusals) {
    const issues = await reject("rewrite_comment", "m.py", source, params);
    assert.deepEqual(issues.map((i) => i.code), ["template-precondition"], JSON.stringify(params));
  }
});
