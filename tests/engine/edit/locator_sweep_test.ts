/**
 * A step with several bad locators reports every one of them (requests'
 * auth.py): move_node's target and destination, swap_nodes' target and
 * other; a good locator next to a bad one adds nothing.
 *
 * @module
 */

import assert from "node:assert/strict";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { tempRepo, verifyAt } from "../../_support/plans.ts";
import { corpusFile } from "./_edit_support.ts";

const AUTH = "requests/auth.py";

async function errorsOf(plan: unknown) {
  const dir = await tempRepo({ [AUTH]: await corpusFile("psf__requests-1766", AUTH) });
  try {
    return (await verifyAt(dir, plan)).errors;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "every bad locator of a step is reported, each with its path",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const errors = await errorsOf([
      {
        op: "move_node",
        params: {
          target: { file: AUTH, kind: "method", name: "build_digest_headers" },
          destination: { file: AUTH, kind: "clas", name: "HTTPDigestAuth" },
          position: "append_to_body",
        },
      },
      {
        op: "swap_nodes",
        params: {
          target: { file: AUTH, kind: "method", name: "handle_401", index: 3 },
          other: { file: AUTH, kind: "method", name: "__call__" },
        },
      },
      {
        op: "move_node",
        params: {
          target: { file: AUTH, kind: "method", name: "handle_40l" },
          destination: { file: AUTH, kind: "class", name: "HTTPDigestAuth" },
          position: "append_to_body",
        },
      },
    ]);
    const summary = errors.map((issue) => [issue.step, issue.code, issue.path?.join(".")]);
    assert.deepEqual(summary, [
      [0, "locator-not-found", "0.params.target"],
      [0, "locator-invalid", "0.params.destination.kind"],
      [1, "locator-not-found", "1.params.target"],
      [1, "locator-ambiguous", "1.params.other"],
      [2, "locator-not-found", "2.params.target"],
    ]);
    assert.match(errors[1].hint ?? "", /^did you mean "class"/);
    assert.match(errors[0].message, /^Step 0 \(move_node\): /);
    assert.match(errors[1].message, /^Step 0 \(move_node\): /);
  },
});
