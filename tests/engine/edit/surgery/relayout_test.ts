/**
 * `relayout_node`: a call's arguments joined and exploded, an inline
 * comment's spacing, a backslash continuation joined (excerpts of
 * setuptools' `_distutils` before black), each checked by CPython's `ast`
 * (the same tree); and every refusal, with the file unchanged: a changed
 * token, a literal's inner whitespace, an indentation that moves a statement
 * out of its block, a text that does not parse.
 */

import assert from "node:assert/strict";
import { PYTHON_SKIP, runPythonJson } from "../../../_support/python.ts";
import { failing, run } from "./_support.ts";

// setuptools/_distutils/command/upload.py and versionpredicate.py (setuptools 58), before black.
const UPLOAD = "class upload(PyPIRCCommand):\n    def run(self):\n" +
  "        if not self.distribution.dist_files:\n" +
  '            msg = ("Must create and upload files in one command "\n' +
  '                   "(e.g. setup.py sdist upload)")\n            raise DistutilsOptionError(msg)\n\n' +
  "    def upload_file(self, command, pyversion, filename):\n" +
  "        schema, netloc, url, params, query, fragments = \\\n            urlparse(self.repository)\n" +
  "        if params or query or fragments:\n            raise AssertionError(url)\n";
const PREDICATE = 're_paren = re.compile(r"^\\s*\\((.*)\\)\\s*$") # (list) inside of parentheses\n' +
  're_splitComparison = re.compile(r"^\\s*(<=|>=|<|>|!=|==)\\s*([^\\s,]+)\\s*$")\n';

const method = (name: string) => ({
  file: "m.py",
  kind: "method",
  name,
  parent: { kind: "class", name: "upload" },
});
const statement = (name: string, index: number) => ({
  file: "m.py",
  kind: "statement",
  parent: method(name),
  index,
});

/** CPython's dump of the module (no attributes): equal dumps mean the same code. */
async function dump(source: string): Promise<string> {
  return await runPythonJson<string>(
    "import ast, json, sys\nprint(json.dumps(ast.dump(ast.parse(json.load(sys.stdin)))))",
    source,
  );
}

Deno.test({
  name:
    "relayout_node: parentheses exploded, a continuation joined, a comment re-spaced; CPython sees the same code",
  ignore: PYTHON_SKIP !== undefined,
  async fn() {
    const exploded = '            msg = (\n                "Must create and upload files in one command "\n' +
      '                "(e.g. setup.py sdist upload)"\n            )';
    const one = await run("relayout_node", { target: statement("run", 1), text: exploded }, {
      "m.py": UPLOAD,
    });
    assert.ok(one.text.includes(exploded), one.text);
    const joined = "        schema, netloc, url, params, query, fragments = urlparse(self.repository)";
    const two = await run("relayout_node", { target: statement("upload_file", 0), text: joined }, {
      "m.py": UPLOAD,
    });
    assert.equal(two.text, UPLOAD.replace(" = \\\n            urlparse", " = urlparse"));
    const comment = { file: "m.py", kind: "statement", index: 0 };
    const spaced = PREDICATE.replace(") # (list)", ")  # (list)");
    const three = await run("relayout_node", { target: comment, text: spaced.split("\n")[0] }, {
      "m.py": PREDICATE,
    });
    assert.equal(three.text, spaced);
    for (const [before, after] of [[UPLOAD, one.text], [UPLOAD, two.text], [PREDICATE, three.text]]) {
      assert.equal(await dump(after), await dump(before));
    }
  },
});

Deno.test("relayout_node: a token, a literal's inside, a block change or a parse error is refused, nothing changed", async () => {
  const target = statement("upload_file", 1);
  const refusals: [Record<string, unknown>, string][] = [
    [{
      target: statement("upload_file", 0),
      text: "        schema, netloc, url, params, query, fragments = urlparse(self.repo)",
    }, "tokens"],
    [{
      target: statement("run", 1),
      text:
        '            msg = ("Must  create and upload files in one command "\n                   "(e.g. setup.py sdist upload)")',
    }, "tokens"],
    // The raise dedented to the method's level: the same tokens, another tree.
    [
      { target, text: "        if params or query or fragments:\n        raise AssertionError(url)" },
      "structure",
    ],
    [{
      target: statement("upload_file", 0),
      text: "        schema, netloc, url, params, query, fragments =\n urlparse(self.repository)",
    }, "parse"],
  ];
  for (const [params, why] of refusals) {
    const { codes, messages, text } = await failing("relayout_node", params, { "m.py": UPLOAD });
    assert.deepEqual(codes, ["relayout-not-layout"], why);
    assert.match(messages[0], new RegExp(why === "parse" ? "does not parse" : why), messages[0]);
    assert.equal(text, UPLOAD, why);
  }
});
