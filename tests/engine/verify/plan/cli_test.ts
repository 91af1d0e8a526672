/**
 * `graphplan verify` and the helper's `verify_plan`, as processes: exit
 * codes, the `--json` document, the text report, and nothing written.
 */

import assert from "node:assert/strict";
import { ADAPTER, AUTH, authRepo, CORPUS_SKIP, hashTree } from "./_support.ts";
import { runCli } from "../../../_support/cli.ts";
import { slow } from "../../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const ignore = CORPUS_SKIP !== undefined || SLOW.ignore;
if (ignore) console.log(`skipping verify CLI tests: ${CORPUS_SKIP}`);

const run = async (args: string[], stdin = "") =>
  runCli(args, {
    stdin,
    env: { NO_COLOR: "1", XDG_STATE_HOME: await Deno.makeTempDir({ prefix: "graphplan-state-" }) },
  });

const GOOD = [
  { op: "add_import", params: { file: AUTH, import_statement: "import secrets" } },
  {
    op: "replace_code",
    params: {
      file: AUTH,
      pattern: "s += os.urandom(8)",
      replacement: "s += os.urandom(8) + secrets.token_bytes(8)",
    },
  },
];

const BAD = [
  { op: "rename_symbol", params: { file: AUTH, old_name: "_basic_auth_str", new_name: "basic_auth_header" } },
  { op: "replace_code", params: { file: AUTH, pattern: "self.pos = None", replacement: "self.pos = (None" } },
];

Deno.test({
  name: "graphplan verify: exit 0 and {passed: true} for a good plan, exit 1 with every issue for a bad one",
  ignore,
  async fn() {
    const dir = await authRepo({ "requests/adapters.py": ADAPTER });
    const before = await hashTree(dir);
    const plan = `${dir}.plan.json`;
    await Deno.writeTextFile(plan, JSON.stringify(GOOD));
    const good = await run(["verify", plan, "--repo", dir, "--json"]);
    assert.equal(good.code, 0, good.stderr);
    const body = JSON.parse(good.stdout);
    assert.deepEqual(Object.keys(body).sort(), ["compiled", "errors", "passed", "warnings"]);
    assert.equal(body.passed, true);

    const bad = await run(["verify", "-", "--repo", dir, "--json"], JSON.stringify(BAD));
    assert.equal(bad.code, 1);
    const report = JSON.parse(bad.stdout);
    assert.equal(report.passed, false);
    assert.ok(
      report.errors.some((i: { code: string; layer: string }) =>
        i.code === "syntax-error" && i.layer === "5"
      ),
    );
    assert.ok(report.warnings.some((i: { layer: string }) => i.layer === "6"));
    // the renamed function's importer is left dangling: an L3 error naming the use
    assert.ok(
      report.errors.some((i: { code: string; level: string; file: string }) =>
        i.code === "dangling-import" && i.level === "L3" && i.file === "requests/adapters.py"
      ),
    );

    const text = await run(["verify", "-", "--repo", dir], JSON.stringify(BAD));
    assert.equal(text.code, 1);
    assert.match(text.stderr, /error\[syntax-error\]\[L0\] requests\/auth.py:\d+: /);
    assert.match(
      text.stderr,
      /warning\[cross-file-impact\]\[layer 6\] requests\/auth.py: Step 0 \(rename_symbol\)/,
    );
    assert.match(text.stderr, /Plan failed verification: \d+ errors?, \d+ warnings?/);

    const notJson = await run(["verify", "-", "--repo", dir, "--json"], "[{");
    assert.equal(notJson.code, 1);
    assert.equal(JSON.parse(notJson.stdout).errors[0].code, "json-invalid");
    const usage = await run(["verify", "--repo", dir]);
    assert.equal(usage.code, 2);
    const help = await run(["verify", "--help"]);
    assert.equal(help.code, 0);
    assert.match(
      help.stdout + help.stderr,
      /Usage: graphplan verify PLAN \[--repo DIR\] \[--strict\] \[--json\]/,
    );
    assert.deepEqual(await hashTree(dir), before);
    await Deno.remove(plan);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test({
  name: "helper verify_plan: a result {passed, errors, warnings} one-shot and over --serve; nothing written",
  ignore,
  async fn() {
    const dir = await authRepo();
    const before = await hashTree(dir);
    const one = await run(["helper", "verify_plan", "--repo", dir], JSON.stringify({ plan: GOOD }));
    assert.equal(one.code, 0, one.stderr);
    // compiled: the python3 on PATH that compiled the simulated result (null without one)
    const { compiled, ...result } = JSON.parse(one.stdout).result;
    assert.ok(compiled === null || /^python3\.\d+$/.test(compiled), String(compiled));
    assert.deepEqual(result, { passed: true, errors: [], warnings: [] });

    const lines = [
      { id: 1, method: "verify_plan", params: { plan: BAD } },
      { id: 2, method: "verify_plan", params: {} },
      { id: 3, method: "verify_plan", params: { plan: GOOD } },
    ].map((request) => JSON.stringify(request)).join("\n") + "\n";
    const served = await run(["helper", "--serve", "--repo", dir], lines);
    const responses = served.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.equal(responses.length, 3, served.stderr);
    assert.equal(responses[0].result.passed, false);
    assert.equal(responses[1].error.issues[0].code, "params-invalid");
    assert.equal(responses[2].result.passed, true);
    assert.deepEqual(await hashTree(dir), before);
    await Deno.remove(dir, { recursive: true });
  },
});
