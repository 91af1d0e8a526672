/**
 * `set_line_comment`: a `# noqa: C901` added to a `def` line, an inline
 * comment rewritten and removed (excerpts of setuptools' `_distutils`), a
 * CRLF line, the no-op, and every refusal (a line with no code, a
 * backslash continuation, a line inside a string, a text that is no
 * comment). CPython's `ast` is the oracle that only comments changed.
 */

import assert from "node:assert/strict";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { apply, reject } from "./_support.ts";

// setuptools/_distutils/dep_util.py (setuptools 58).
const DEP_UTIL = "def newer_group(sources, target, missing='error'):\n" +
  "    for source in sources:\n        if not os.path.exists(source):\n" +
  "            if missing == 'error':      # blow up when we stat() the file\n                pass\n" +
  "            elif missing == 'ignore':   # missing source dropped from\n" +
  "                continue                #  target's dependency list\n" +
  '    msg = """first line\n    second line"""\n    x = 1 + \\\n        2\n    return msg\n';
const fn = { file: "m.py", kind: "function", name: "newer_group" };
const statement = (kind: string, index = 0) => ({ file: "m.py", kind, parent: fn, index });

/** CPython's dump of the module: equal dumps mean the same code. */
function dumps(sources: string[]): Promise<string[]> {
  return runPythonJson<string[]>(
    "import ast, json, sys\nprint(json.dumps([ast.dump(ast.parse(s)) for s in json.load(sys.stdin)]))",
    sources,
  );
}

Deno.test({
  name: "set_line_comment: added to a def line, rewritten, removed; CPython sees the same code",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const added = await apply("set_line_comment", "m.py", DEP_UTIL, { target: fn, text: "# noqa: C901" });
    assert.equal(added.text, DEP_UTIL.replace("missing='error'):\n", "missing='error'):  # noqa: C901\n"));
    const continued = statement("if", 1);
    const rewritten = await apply("set_line_comment", "m.py", DEP_UTIL, {
      target: continued,
      text: "# blow up on stat()",
      spaces: 1,
    });
    assert.ok(
      rewritten.text.includes("            if missing == 'error': # blow up on stat()\n"),
      rewritten.text,
    );
    const removed = await apply("set_line_comment", "m.py", DEP_UTIL, { target: continued, text: "" });
    assert.ok(
      removed.text.includes("            if missing == 'error':\n                pass\n"),
      removed.text,
    );
    const crlf = DEP_UTIL.replaceAll("\n", "\r\n");
    const onCrlf = await apply("set_line_comment", "m.py", crlf, { target: fn, text: "# noqa" });
    assert.ok(onCrlf.text.startsWith("def newer_group(sources, target, missing='error'):  # noqa\r\n"));
    const [before, ...after] = await dumps([DEP_UTIL, added.text, rewritten.text, removed.text]);
    for (const text of after) assert.equal(text, before);
    const again = await apply("set_line_comment", "m.py", added.text, { target: fn, text: "# noqa: C901" });
    assert.equal(again.text, added.text);
    assert.deepEqual(again.warnings.map((w) => w.code), ["already-present"]);
  },
});

Deno.test("set_line_comment: no code, a continuation, a string's line or a non-comment is refused", async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ target: fn, text: "noqa" }, /must be one comment line/],
    [{ target: fn, text: "# two\n# lines" }, /must be one comment line/],
    [{ target: statement("assignment", 1), text: "# noqa" }, /backslash continuation/],
    [{ target: statement("assignment", 0), text: "# noqa" }, /inside a string/],
  ];
  for (const [params, message] of cases) {
    const issues = await reject("set_line_comment", "m.py", DEP_UTIL, params);
    assert.match(issues[0].message, message, JSON.stringify(params));
  }
});
