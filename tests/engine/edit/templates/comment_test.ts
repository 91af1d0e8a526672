/**
 * `rewrite_comment`: one comment line, a run re-wrapped to another number of
 * lines at a block's depth, CRLF files, the no-op, and every refusal (code
 * in the text, a trailing comment, a run shorter than `lines`, a target that
 * is not a comment), a block of paragraphs with blank lines between them;
 * `add_comment` above and below a statement, its no-op and refusals.
 * CPython's `ast` is the oracle that only comments changed.
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

// subprocess.py of CPython 3.10: a note above a module global; a block's paragraphs kept apart by a blank line.
const KNOBS = "_USE_POSIX_SPAWN = _use_posix_spawn()\n\n\nclass Popen:\n    def poll(self):\n" +
  "        return self._internal_poll()\n";

Deno.test("add_comment: a block above a global, and below the last statement of a body", async () => {
  const above = await apply("add_comment", "m.py", KNOBS, {
    target: { file: "m.py", kind: "statement", index: 0 },
    text: "# These are primarily fail-safe knobs for negatives. A True value does not\n" +
      "# guarantee the given libc/syscall API will be used.",
  });
  assert.equal(
    above.text,
    "# These are primarily fail-safe knobs for negatives. A True value does not\n" +
      "# guarantee the given libc/syscall API will be used.\n" + KNOBS,
  );
  const below = await apply("add_comment", "m.py", KNOBS, {
    target: { file: "m.py", kind: "method", name: "poll", parent: { kind: "class", name: "Popen" } },
    text: "# See also:\n\n#   wait()",
    after: true,
  });
  assert.equal(below.text, KNOBS + "    # See also:\n\n    #   wait()\n");
  const again = await apply("add_comment", "m.py", above.text, {
    target: { file: "m.py", kind: "statement", index: 0 },
    text: "# guarantee the given libc/syscall API will be used.",
  });
  assert.deepEqual(again.warnings.map((w) => w.code), ["already-present"]);
  for (const text of ["# ok\nx = 1", "\n# starts blank", "# ends blank\n"]) {
    const issues = await reject("add_comment", "m.py", KNOBS, {
      target: { file: "m.py", kind: "class", name: "Popen" },
      text,
    });
    assert.deepEqual(issues.map((i) => i.code), ["template-precondition"], text);
  }
});

Deno.test("rewrite_comment: a block of two paragraphs (a blank line between) rewritten as one", async () => {
  const source = "    # Known values:\n    #  Python 1.5:   20121\n\n    # MAGIC must change\n    x = 1\n";
  const code = "def f():\n" + source;
  const after = await apply("rewrite_comment", "m.py", code, {
    target: { file: "m.py", kind: "comment", index: 0 },
    lines: 3,
    text: "# Known values:\n#  Python 1.5:   20121\n#  Python 1.6:   50428\n\n# MAGIC must change",
  });
  assert.equal(
    after.text,
    "def f():\n    # Known values:\n    #  Python 1.5:   20121\n    #  Python 1.6:   50428\n\n" +
      "    # MAGIC must change\n    x = 1\n",
  );
  const same = await apply("rewrite_comment", "m.py", code, {
    target: { file: "m.py", kind: "comment", index: 0 },
    lines: 3,
    text: "# Known values:\n#  Python 1.5:   20121\n\n# MAGIC must change",
  });
  assert.deepEqual(same.warnings.map((w) => w.code), ["already-present"]);
  const short = await reject("rewrite_comment", "m.py", code, {
    target: { file: "m.py", kind: "comment", index: 0 },
    lines: 4,
    text: "# a",
  });
  assert.deepEqual(short.map((i) => i.code), ["template-precondition"]);
});
