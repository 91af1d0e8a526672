/**
 * `wrap_node`'s `indent_body` as a boolean, on requests' auth.py: `true` is
 * one indentation unit of the file, `false` none (numbers and strings as
 * before). CPython parses every result.
 *
 * @module
 */

import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { PYTHON_SKIP } from "../../_support/python.ts";
import { afterPlan } from "../../_support/plans.ts";
import { corpusFile } from "./_edit_support.ts";

const AUTH = "requests/auth.py";
const SEEK = {
  file: AUTH,
  kind: "statement",
  parent: { kind: "if", name: "self.pos is not None" },
  index: -1,
};
const LINE = "            r.request.body.seek(self.pos)\n";

async function wrapped(params: Record<string, unknown>): Promise<{ before: string; after: string }> {
  const before = await corpusFile("psf__requests-1766", AUTH);
  const plan = [{ op: "wrap_node", params: { locator: SEEK, ...params } }];
  return { before, after: await afterPlan({ path: AUTH, text: before }, plan, { verify: true }) };
}

Deno.test({
  name: "wrap_node: indent_body true indents one unit of the file (4 spaces), like the default and like 4",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const params = { before: "try:", after: "except (AttributeError, OSError):\n    pass" };
    const { before, after } = await wrapped({ ...params, indent_body: true });
    assert.equal(
      after,
      before.replace(
        LINE,
        "            try:\n                r.request.body.seek(self.pos)\n" +
          "            except (AttributeError, OSError):\n                pass\n",
      ),
    );
    assert.equal((await wrapped(params)).after, after);
    assert.equal((await wrapped({ ...params, indent_body: 4 })).after, after);
  },
});

Deno.test({
  name: "wrap_node: indent_body false leaves the wrapped lines where they are",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const { before, after } = await wrapped({
      before: "# fmt: off\n# the body's position, as the caller left it",
      after: "# fmt: on",
      indent_body: false,
    });
    assert.equal(
      after,
      before.replace(
        LINE,
        "            # fmt: off\n            # the body's position, as the caller left it\n" + LINE +
          "            # fmt: on\n",
      ),
    );
  },
});
