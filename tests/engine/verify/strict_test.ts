/**
 * `--strict` on real code (requests' auth.py): the warnings that mean
 * broken code become errors for `verify` and roll `apply` back, judged on
 * the plan's settled warnings (a helper a later step defines is fine); the
 * helper's `strict` parameter does the same.
 */

import assert from "node:assert/strict";
import { handleRequest, Session } from "../../../engine/helper/mod.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { makeRepo, snapshot } from "../exec/_support.ts";
import { runCli } from "./_cli.ts";
import { AUTH, corpusText } from "./plan/_support.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

async function cli(args: string[], stdin: string) {
  const out = await runCli(args, { stdin });
  return { ...out, body: out.stdout.trim() ? JSON.parse(out.stdout) : {} };
}

const init = { kind: "method", name: "__init__", parent: { kind: "class", name: "HTTPBasicAuth" } };
/** A typo'd name in new code: `usrname` is bound nowhere (L3 unbound-name). */
const TYPO = [{
  op: "insert_after_node",
  params: {
    locator: { file: AUTH, kind: "statement", parent: init, index: -1 },
    code: "self.user = usrname",
  },
}];
/** A use of a helper the next step defines: a warning after step 0, settled by step 1. */
const LATER = [
  {
    op: "insert_after_node",
    params: {
      locator: { file: AUTH, kind: "statement", parent: init, index: -1 },
      code: "self.user = _norm(username)",
    },
  },
  {
    op: "insert_before_node",
    params: {
      locator: { file: AUTH, kind: "class", name: "AuthBase" },
      code: "def _norm(name):\n    return name.strip()\n\n\n",
    },
  },
];

const codes = (issues: { code: string }[]) => issues.map((issue) => issue.code);

Deno.test({
  name: "strict: verify and apply count unbound-name as an error only with --strict; apply rolls back",
  ignore: CORPUS_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const dir = makeRepo({ [AUTH]: await corpusText("psf__requests-1766", AUTH) });
    const plan = JSON.stringify(TYPO);
    const lenient = await cli(["verify", "-", "--repo", dir, "--json"], plan);
    assert.equal(lenient.code, 0, lenient.stderr);
    assert.deepEqual(codes(lenient.body.warnings), ["unbound-name"]);
    const strict = await cli(["verify", "-", "--repo", dir, "--json", "--strict"], plan);
    assert.equal(strict.code, 1);
    assert.deepEqual(codes(strict.body.errors), ["unbound-name"]);
    assert.equal(strict.body.errors[0].severity, "error");
    assert.match(strict.body.errors[0].hint, /an error under --strict \(code "unbound-name"\)/);
    // chosen codes: only those
    const other = await cli([
      "verify",
      "-",
      "--repo",
      dir,
      "--json",
      "--strict-codes",
      "import-unused,no-op-edit",
    ], plan);
    assert.equal(other.code, 0);
    const before = snapshot(dir);
    const applied = await cli(["apply", "-", "--repo", dir, "--json", "--strict"], plan);
    assert.equal(applied.code, 1);
    assert.equal(applied.body.rolled_back, true);
    assert.deepEqual(codes(applied.body.errors), ["unbound-name"]);
    assert.deepEqual(snapshot(dir), before);
    const usage = await cli(["verify", "-", "--repo", dir, "--strict-codes", "Not A Code"], plan);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /Invalid --strict-codes: "Not A Code" is not a kebab-case code/);
  },
});

Deno.test({
  name:
    "strict: judged on the settled plan: a helper a later step defines is no error; the helper's strict param",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const dir = makeRepo({ [AUTH]: await corpusText("psf__requests-1766", AUTH) });
    const session = Session.open(dir);
    try {
      const later = await handleRequest(session, "verify_plan", { plan: LATER, strict: true });
      assert.ok("result" in later);
      assert.deepEqual((later.result as { errors: unknown[] }).errors, []);
      const typo = await handleRequest(session, "execute_plan", { plan: TYPO, strict: ["unbound-name"] });
      assert.ok("result" in typo);
      const result = typo.result as { success: boolean; rolled_back: boolean; errors: { code: string }[] };
      assert.equal(result.success, false);
      assert.equal(result.rolled_back, true);
      assert.deepEqual(codes(result.errors), ["unbound-name"]);
      const bad = await handleRequest(session, "verify_plan", { plan: TYPO, strict: "yes" });
      assert.ok("error" in bad);
      assert.deepEqual(codes(bad.error.issues), ["params-invalid"]);
      const applied = await handleRequest(session, "execute_plan", { plan: LATER, strict: true });
      assert.equal((applied as { result: { success: boolean } }).result.success, true);
    } finally {
      await session.close();
    }
  },
});
