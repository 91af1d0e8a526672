/**
 * A step whose locator matched the file before the plan but not after an
 * earlier step changed it (the same node edited twice): the
 * `locator-not-found` issue names that step, and only then.
 */

import assert from "node:assert/strict";
import { AUTH, authRepo, CORPUS_SKIP, verifyIn } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;

const IN_METHOD = { kind: "method", name: "build_digest_header" };

/** Step 0 of both plans: rename the local `entdig` of `build_digest_header` and its uses. */
const RENAME = {
  op: "rename_identifier",
  params: {
    target: { file: AUTH, kind: "identifier", name: "entdig", parent: IN_METHOD, index: 0 },
    new_name: "digest",
  },
};

/** A second edit of `entdig` (what step 0 already changed), or of a misspelt name. */
const edit = (name: string) => ({
  template: "replace_expression",
  params: {
    target: { file: AUTH, kind: "identifier", name, parent: IN_METHOD, index: -1 },
    expression: "digest",
  },
});

Deno.test({
  name: "stale locator: a step re-targeting what an earlier step changed is told which step it was",
  ignore,
  async fn() {
    const dir = await authRepo();
    const twice = await verifyIn(dir, [RENAME, edit("entdig")]);
    assert.equal(twice.passed, false);
    assert.deepEqual(twice.errors.map((issue) => `${issue.code}@${issue.step}`), ["locator-not-found@1"]);
    assert.match(
      twice.errors[0].hint!,
      /^it matched "requests\/auth\.py" before the plan \(line 145\), but step 0 changed that file/,
    );
    // A misspelt name matched nothing before the plan either: no such note.
    const typo = await verifyIn(dir, [RENAME, edit("entdgi")]);
    assert.deepEqual(typo.errors.map((issue) => `${issue.code}@${issue.step}`), ["locator-not-found@1"]);
    assert.doesNotMatch(typo.errors[0].hint!, /before the plan/);
    await Deno.remove(dir, { recursive: true });
  },
});
