/**
 * An ambiguous `replace_code` pattern on requests' auth.py: each candidate
 * says whether it sits in code, in a string or in a comment, and CPython's
 * `tokenize` agrees on every one of them.
 *
 * @module
 */

import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { PYTHON_SKIP, runPythonJson } from "../../_support/python.ts";
import { tempRepo, verifyAt } from "../../_support/plans.ts";
import { corpusFile } from "./_edit_support.ts";

const AUTH = "requests/auth.py";

/** For each occurrence of the pattern, in order: its line and "code", "a string" or "a comment" by tokenize. */
const TOKEN_CONTEXT = `
import io, json, sys, tokenize
src, pattern = json.load(sys.stdin)
spans = []
lines = src.splitlines(keepends=True)
starts = [0]
for line in lines:
    starts.append(starts[-1] + len(line))
for tok in tokenize.generate_tokens(io.StringIO(src).readline):
    if tok.type in (tokenize.STRING, tokenize.COMMENT):
        a = starts[tok.start[0] - 1] + tok.start[1]
        b = starts[tok.end[0] - 1] + tok.end[1]
        spans.append((a, b, "a string" if tok.type == tokenize.STRING else "a comment"))
out = []
at = src.find(pattern)
while at != -1:
    where = next((kind for a, b, kind in spans if a <= at and at + len(pattern) <= b), "code")
    out.append([src.count("\\n", 0, at) + 1, where])
    at = src.find(pattern, at + 1)
print(json.dumps(out))
`;

Deno.test({
  name: "replace_code: ambiguous candidates are labelled code, string or comment, as tokenize sees them",
  ignore: CORPUS_SKIP !== undefined || PYTHON_SKIP !== undefined,
  async fn() {
    const text = await corpusFile("psf__requests-1766", AUTH);
    const dir = await tempRepo({ [AUTH]: text });
    try {
      const pattern = "digest";
      const { errors } = await verifyAt(dir, [{
        op: "replace_code",
        params: { file: AUTH, pattern, replacement: "digest_auth" },
      }]);
      assert.equal(errors.length, 1);
      assert.equal(errors[0].code, "pattern-ambiguous");
      const labelled = errors[0].candidates!.map((c) => [c.line, /, in (.*)$/.exec(c.kind)![1]]);
      const oracle = await runPythonJson<[number, string][]>(TOKEN_CONTEXT, [text, pattern]);
      assert.deepEqual(labelled, oracle);
      const contexts = new Set(labelled.map(([, context]) => context));
      assert.deepEqual([...contexts].sort(), ["a comment", "a string", "code"]);
      const outside = labelled.filter(([, context]) => context !== "code").length;
      assert.match(
        errors[0].hint!,
        new RegExp(`\\(${outside} of the matches are inside a string or a comment\\)`),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
