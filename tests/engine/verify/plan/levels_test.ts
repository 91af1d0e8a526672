/**
 * The edit levels L0–L6 through plan verification: every simulated step
 * gets the executor's post-checks, so `verify` reports what `apply` would
 * refuse (L0–L2 errors) or warn about (L3–L6), each issue with its `level`.
 * One plan each level passes and one it fires on, on requests' `auth.py`;
 * with the add-import-then-use plan that only verifies because the import
 * step is simulated first.
 */

import assert from "node:assert/strict";
import { ADAPTER, AUTH, authRepo, codes, CORPUS_SKIP, tagged, verifyIn } from "./_support.ts";

const ignore = CORPUS_SKIP !== undefined;
if (ignore) console.log(`skipping plan-verification level tests: ${CORPUS_SKIP}`);

const rc = (pattern: string, replacement: string) => ({
  op: "replace_code",
  params: { file: AUTH, pattern, replacement },
});

const method = (name: string, cls = "HTTPDigestAuth") => ({
  file: AUTH,
  kind: "method",
  name,
  parent: { kind: "class", name: cls },
});

Deno.test({
  name: "L0: a step that breaks the syntax fails verification; one that keeps it passes",
  ignore,
  async fn() {
    const dir = await authRepo();
    const ok = await verifyIn(dir, [rc("num_401_calls < 2", "num_401_calls < 3")]);
    assert.deepEqual(tagged(ok, "L0"), []);
    const bad = await verifyIn(dir, [rc("num_401_calls < 2", "num_401_calls < 2)")]);
    assert.ok(tagged(bad, "L0").length > 0);
    assert.ok(tagged(bad, "L0").every((issue) => issue.severity === "error" && issue.step === 0));
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "L1: a method replaced by a method passes; by an assignment is a kind change (error)",
  ignore,
  async fn() {
    const dir = await authRepo();
    const ok = await verifyIn(dir, [{
      op: "replace_node",
      params: {
        locator: method("__call__", "HTTPProxyAuth"),
        replacement: "def __call__(self, r):\n        return r",
      },
    }]);
    assert.deepEqual(tagged(ok, "L1"), []);
    const bad = await verifyIn(dir, [{
      op: "replace_node",
      params: {
        locator: method("__call__", "HTTPProxyAuth"),
        replacement: "__call__ = HTTPBasicAuth.__call__",
      },
    }]);
    assert.deepEqual(codes(tagged(bad, "L1")), ["kind-changed@0"]);
    assert.equal(bad.passed, false);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "L2: an edit that stays in its region passes; an unclosed string swallowing later code is an error",
  ignore,
  async fn() {
    const dir = await authRepo();
    const ok = await verifyIn(dir, [rc("self.last_nonce = ''", "self.last_nonce = None")]);
    assert.deepEqual(tagged(ok, "L2"), []);
    const bad = await verifyIn(dir, [rc("self.last_nonce = ''", "self.last_nonce = '''")]);
    assert.ok(tagged(bad, "L2").length > 0);
    assert.ok(tagged(bad, "L2").every((issue) => issue.severity === "error"));
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "L3: names in scope pass; an unbound name warns",
  ignore,
  async fn() {
    const dir = await authRepo();
    const ok = await verifyIn(dir, [rc("self.pos = None", "self.pos = username and None")]);
    assert.deepEqual(tagged(ok, "L3"), []);
    const bad = await verifyIn(dir, [rc("self.pos = None", "self.pos = default_position")]);
    const found = tagged(bad, "L3");
    assert.equal(found.length, 1);
    assert.equal(found[0].severity, "warning");
    assert.match(found[0].message, /default_position/);
    assert.equal(bad.passed, true, "warnings do not fail verification");
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "L4: the add-import-then-use plan verifies; the use alone is a missing import",
  ignore,
  async fn() {
    const dir = await authRepo();
    const use = rc("s += os.urandom(8)", "s += os.urandom(8) + secrets.token_bytes(8)");
    const plan = [{ op: "add_import", params: { file: AUTH, import_statement: "import secrets" } }, use];
    const ok = await verifyIn(dir, plan);
    assert.deepEqual(ok.errors, []);
    assert.deepEqual(tagged(ok, "L4"), []);
    assert.deepEqual(tagged(ok, "L3"), []);
    const bad = await verifyIn(dir, [use]);
    assert.ok(
      tagged(bad, "L4").some((issue) => issue.code === "import-missing" && issue.message.includes("secrets")),
    );
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name:
    "L5: a parameter added with a default passes; a required one breaks callers in this file and importers",
  ignore,
  async fn() {
    const dir = await authRepo({ "requests/adapters.py": ADAPTER });
    const signature = (next: string) => ({
      op: "modify_function_signature",
      params: {
        file: AUTH,
        func_name: "_basic_auth_str",
        old_signature: "(username, password)",
        new_signature: next,
      },
    });
    const ok = await verifyIn(dir, [signature("(username, password, encoding='latin1')")]);
    assert.deepEqual(tagged(ok, "L5"), []);
    const bad = await verifyIn(dir, [signature("(username, password, encoding)")]);
    const files = new Set(tagged(bad, "L5").map((issue) => issue.file));
    assert.deepEqual([...files].sort(), ["requests/adapters.py", AUTH]);
    assert.ok(tagged(bad, "L5").every((issue) => issue.severity === "warning"));
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "L6: a real body passes; a body reduced to pass warns",
  ignore,
  async fn() {
    const dir = await authRepo();
    const body = (code: string) => ({
      op: "replace_function_body",
      params: { file: AUTH, func_name: "HTTPProxyAuth.__call__", new_body: code },
    });
    const ok = await verifyIn(dir, [
      body("r.headers['Proxy-Authorization'] = _basic_auth_str(self.username, self.password)\nreturn r"),
    ]);
    assert.deepEqual(tagged(ok, "L6"), []);
    const bad = await verifyIn(dir, [body("pass")]);
    assert.equal(tagged(bad, "L6").length, 1);
    assert.equal(tagged(bad, "L6")[0].severity, "warning");
    await Deno.remove(dir, { recursive: true });
  },
});
