/**
 * One plan mixing all four tiers on one real file (requests/auth.py from the
 * corpus), executed for real through the executor with every post-check, and
 * then applied a second time: the second run must be a no-op or be rejected
 * as a whole, never a duplicate edit.
 *
 * @module
 */

import assert from "node:assert/strict";
import { executePlan } from "../../../engine/exec/mod.ts";
import { parsePlanSteps } from "../../../engine/exec/wiring.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { assertPythonParses } from "../../_support/python.ts";
import { corpusFile, makeRepo } from "./_legacy_support.ts";

const AUTH = "requests/auth.py";
const BASIC = { file: AUTH, kind: "class", name: "HTTPBasicAuth" };
const BASIC_INIT = {
  file: AUTH,
  kind: "method",
  name: "__init__",
  parent: { kind: "class", name: "HTTPBasicAuth" },
};

const PLAN = [
  // Tier 0: a legacy operator.
  { op: "add_import", params: { file: AUTH, import_statement: "import warnings" } },
  // Tier 1: scope-aware rename of a module-level function and its three uses.
  {
    op: "rename_identifier",
    params: {
      target: { file: AUTH, kind: "function", name: "_basic_auth_str" },
      new_name: "basic_auth_header",
    },
  },
  // Tier 2: a template.
  {
    template: "guard_clause",
    params: {
      target: BASIC_INIT,
      condition: "username is None",
      guard_body: "raise ValueError('username is required')",
    },
  },
  // Tier 3: a typed fragment appended to the class body.
  {
    fragment: {
      kind: "function_definition",
      properties: { name: "__repr__", parameters: "self" },
      children: [{ kind: "return_statement", properties: { value: "'<HTTPBasicAuth %s>' % self.username" } }],
    },
    action: "append_to_body",
    target: BASIC,
  },
  // Tier 0 again, using what tier 0 imported.
  {
    op: "replace_code",
    params: {
      file: AUTH,
      pattern: "        self.pos = None",
      replacement: "        self.pos = None\n        warnings.warn('digest auth is slow', stacklevel=2)",
    },
  },
];

async function run(dir: string, repo: Awaited<ReturnType<typeof makeRepo>>) {
  const parsed = await parsePlanSteps(PLAN);
  assert.deepEqual(parsed.issues.filter((issue) => issue.severity === "error"), []);
  void dir;
  return await executePlan(repo.store, parsed.steps, { runStep: parsed.runStep });
}

Deno.test({
  name:
    "a plan of tiers 0-3 on requests/auth.py executes as one transaction; applying it twice never duplicates",
  ignore: CORPUS_SKIP !== undefined,
  fn: async () => {
    const { before } = await corpusFile("psf__requests-1766", AUTH);
    const repo = await makeRepo({ [AUTH]: before });
    try {
      const first = await run(repo.dir, repo);
      assert.equal(first.success, true, JSON.stringify(first.errors, null, 2));
      assert.deepEqual(first.files_changed, [AUTH]);
      const after = await Deno.readTextFile(`${repo.dir}/${AUTH}`);
      await assertPythonParses(after, "mixed-tier result");

      // Tier 0: the import went after the last import, once.
      assert.equal(after.match(/^import warnings$/gm)?.length, 1);
      assert.ok(after.includes("from .utils import parse_dict_header\nimport warnings\n"));
      // Tier 1: the definition and all three calls renamed, nothing left behind.
      assert.equal(after.includes("_basic_auth_str"), false);
      assert.equal(after.match(/basic_auth_header\(/g)?.length, 3);
      // Tier 2: the guard is the first statement of HTTPBasicAuth.__init__ only.
      assert.ok(after.includes(
        "    def __init__(self, username, password):\n" +
          "        if username is None:\n" +
          "            raise ValueError('username is required')\n" +
          "        self.username = username\n",
      ));
      assert.equal(after.match(/if username is None:/g)?.length, 1);
      // Tier 3: __repr__ at the end of HTTPBasicAuth, indented as a method.
      const basic = after.slice(after.indexOf("class HTTPBasicAuth"), after.indexOf("class HTTPProxyAuth"));
      assert.ok(
        basic.includes("\n    def __repr__(self):\n        return '<HTTPBasicAuth %s>' % self.username\n"),
      );
      // Tier 0 again: the replacement uses the import from step 0.
      assert.ok(
        after.includes(
          "        self.pos = None\n        warnings.warn('digest auth is slow', stacklevel=2)\n",
        ),
      );

      // The second application: whatever each step decides, the plan as a
      // whole must not duplicate anything it already did.
      const second = await run(repo.dir, repo);
      const again = await Deno.readTextFile(`${repo.dir}/${AUTH}`);
      if (second.success) {
        assert.equal(again.match(/^import warnings$/gm)?.length, 1);
        assert.equal(again.match(/if username is None:/g)?.length, 1);
        assert.equal(again.match(/def __repr__/g)?.length, 1);
        assert.equal(again.match(/warnings\.warn\(/g)?.length, 1);
      } else {
        assert.equal(second.rolled_back, true);
        assert.equal(again, after, "a rejected second run leaves the file as the first run wrote it");
      }
    } finally {
      await repo.cleanup();
    }
  },
});
