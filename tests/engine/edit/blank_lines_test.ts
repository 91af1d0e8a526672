/**
 * Blank lines on real code (requests' auth.py and utils.py): a moved
 * statement keeps the blank line that followed it, `insert_before_node` and
 * `insert_after_node` keep blank lines the code starts or ends with on that
 * side, without doubling the file's own, and `guard_clause` follows the
 * function's habit of a blank line after a block. CPython parses every
 * result.
 *
 * @module
 */

import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { afterPlan } from "../../_support/plans.ts";
import { corpusFile } from "./_edit_support.ts";

const AUTH = "requests/auth.py";
const UTILS = "requests/utils.py";
const ignore = CORPUS_SKIP !== undefined;
const DIGEST = { file: AUTH, kind: "method", name: "build_digest_header" };

/** Apply `plan` to `file` of `instance` and return the file's new text (CPython must parse it). */
async function applied(
  instance: string,
  file: string,
  plan: unknown,
): Promise<{ before: string; after: string }> {
  const before = await corpusFile(instance, file);
  return { before, after: await afterPlan({ path: file, text: before }, plan) };
}

Deno.test({
  name: "move_node: a statement followed by a blank line keeps it at its destination; the source closes up",
  ignore,
  async fn() {
    const target = { file: AUTH, kind: "assignment", name: "self.last_nonce", parent: DIGEST };
    const destination = { file: AUTH, kind: "return", parent: DIGEST, index: -1 };
    const { before, after } = await applied("psf__requests-1766", AUTH, [
      { op: "move_node", params: { target, destination, position: "before" } },
    ]);
    const expected = before
      .replace(
        "            return None\n\n        self.last_nonce = nonce\n\n        # XXX should",
        "            return None\n\n        # XXX should",
      )
      .replace(
        "(ncvalue, cnonce)\n\n        return 'Digest %s' % (base)",
        "(ncvalue, cnonce)\n\n        self.last_nonce = nonce\n\n        return 'Digest %s' % (base)",
      );
    assert.notEqual(expected, before);
    assert.equal(after, expected);
  },
});

Deno.test({
  name: "move_node: the last statement of a block carries no blank line; a gap before a definition stays",
  ignore,
  async fn() {
    // `self.pos = None` ends __init__: it lands tight before `realm = ...`
    const target = { file: AUTH, kind: "assignment", name: "self.pos", index: 0 };
    const destination = { file: AUTH, kind: "assignment", name: "realm", parent: DIGEST };
    const { before, after } = await applied("psf__requests-1766", AUTH, [
      { op: "move_node", params: { target, destination, position: "before" } },
    ]);
    const expected = before
      .replace("        self.chal = {}\n        self.pos = None\n", "        self.chal = {}\n")
      .replace(
        "\n        realm = self.chal['realm']",
        "\n        self.pos = None\n        realm = self.chal['realm']",
      );
    assert.equal(after, expected);
  },
});

const HASH_CHECK = { file: AUTH, kind: "if", name: "hash_utf8 is None", parent: DIGEST };

Deno.test({
  name: "insert_before_node: blank lines at the start of the code go above it, at the end below it",
  ignore,
  async fn() {
    const anchorLine = "\n        if hash_utf8 is None:";
    const trailing = await applied("psf__requests-1766", AUTH, [
      { op: "insert_before_node", params: { locator: HASH_CHECK, code: "entdig = None\n\n" } },
    ]);
    assert.equal(
      trailing.after,
      trailing.before.replace(anchorLine, "\n        entdig = None\n" + anchorLine),
    );
    // a leading blank line: the file already has one above the anchor, so none is added
    const leading = await applied("psf__requests-1766", AUTH, [
      { op: "insert_before_node", params: { locator: HASH_CHECK, code: "\nentdig = None" } },
    ]);
    assert.equal(leading.after, leading.before.replace(anchorLine, "\n        entdig = None" + anchorLine));
    // a lone final line break only ends the line
    const plain = await applied("psf__requests-1766", AUTH, [
      { op: "insert_before_node", params: { locator: HASH_CHECK, code: "entdig = None\n" } },
    ]);
    assert.equal(plain.after, leading.after);
  },
});

Deno.test({
  name: "insert_after_node: a leading blank line separates the code from the anchor, trailing ones follow it",
  ignore,
  async fn() {
    const anchor = { file: AUTH, kind: "assignment", name: "self.last_nonce", parent: DIGEST };
    const { before, after } = await applied("psf__requests-1766", AUTH, [
      { op: "insert_after_node", params: { locator: anchor, code: "\nself.nonce_seen = True\n\n" } },
    ]);
    assert.equal(
      after,
      before.replace(
        "        self.last_nonce = nonce\n\n",
        "        self.last_nonce = nonce\n\n        self.nonce_seen = True\n\n",
      ),
    );
  },
});

Deno.test({
  name: "guard_clause: a blank line after the guard where the function's blocks have one, none where not",
  ignore,
  async fn() {
    const spaced = await applied("psf__requests-1766", AUTH, [{
      template: "guard_clause",
      params: { target: DIGEST, condition: "not self.chal", guard_body: "return None" },
    }]);
    assert.equal(
      spaced.after,
      spaced.before.replace(
        "\n        realm = self.chal['realm']",
        "\n        if not self.chal:\n            return None\n\n        realm = self.chal['realm']",
      ),
    );
    const tight = await applied("psf__requests-3362", UTILS, [{
      template: "guard_clause",
      params: {
        target: { file: UTILS, kind: "function", name: "guess_json_utf" },
        condition: "not data",
        guard_body: "return None",
      },
    }]);
    assert.equal(
      tight.after,
      tight.before.replace(
        "    sample = data[:4]\n",
        "    if not data:\n        return None\n    sample = data[:4]\n",
      ),
    );
  },
});
