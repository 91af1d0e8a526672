/**
 * `graphplan lift` and the helper's `lift` method as subprocesses: one JSON
 * document with `--json`, `--out` writes the plan (which `graphplan apply`
 * then executes to the diff's result), the exit codes, and the repository
 * left untouched.
 */

import assert from "node:assert/strict";
import { gitDiff, snapshot } from "../engine/lift/_support.ts";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const BEFORE = "def price(base, rate):\n    if rate > 1:\n        rate = 1\n    return base * rate\n";
const AFTER =
  "def price(base, rate):\n    if rate > 1 or rate < 0:\n        rate = 1\n    return round(base * rate, 2)\n";

Deno.test(
  "graphplan lift --diff: JSON result, --out plan that apply executes, nothing written by lift",
  SLOW,
  async () => {
    const { dir, diff } = gitDiff({ "shop.py": BEFORE }, { "shop.py": AFTER });
    await Deno.writeTextFile(`${dir}.diff`, diff);
    const untouched = snapshot(dir);
    const json = await runCli([
      "lift",
      "--diff",
      `${dir}.diff`,
      "--repo",
      dir,
      "--json",
      "--out",
      `${dir}.plan.json`,
    ]);
    assert.equal(json.code, 0, json.stderr);
    const result = JSON.parse(json.stdout);
    assert.equal(result.success, true);
    assert.equal(result.exact, true);
    assert.deepEqual(result.hunks.map((h: { kinds: string[] }) => h.kinds), [[
      "change_return_value",
      "modify_condition",
    ]]);
    assert.deepEqual(snapshot(dir), untouched);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(`${dir}.plan.json`)), result.plan);
    const text = await runCli(["lift", "--diff", "-", "--repo", dir], { stdin: diff });
    assert.equal(text.code, 0);
    assert.match(
      text.stdout,
      /hunk 0 shop\.py: 0:change_return_value\(tier 2\), 1:modify_condition\(tier 2\)/,
    );
    const applied = await runCli(["apply", `${dir}.plan.json`, "--repo", dir]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(await Deno.readTextFile(`${dir}/shop.py`), AFTER);
    await Deno.remove(`${dir}.diff`);
    await Deno.remove(`${dir}.plan.json`);
  },
);

Deno.test("graphplan lift: exit 1 for a diff that does not apply, 2 for usage errors", SLOW, async () => {
  const { dir, diff } = gitDiff({ "shop.py": BEFORE }, { "shop.py": AFTER });
  const stale = diff.replace("-    if rate > 1:", "-    if rate > 9:");
  const refused = await runCli(["lift", "--diff", "-", "--repo", dir, "--json"], { stdin: stale });
  assert.equal(refused.code, 1);
  const result = JSON.parse(refused.stdout);
  assert.equal(result.success, false);
  assert.equal(result.errors[0].code, "hunk-not-applicable");
  assert.equal((await runCli(["lift", "--repo", dir])).code, 2);
  assert.equal((await runCli(["lift", "--diff", "-", "--search-replace", "-", "--repo", dir])).code, 2);
  const help = await runCli(["lift", "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--search-replace FILE/);
});

Deno.test(
  "graphplan helper lift: {diff} and {search_replace} give the lift result; bad params are an error",
  SLOW,
  async () => {
    const { dir, diff } = gitDiff({ "shop.py": BEFORE }, { "shop.py": AFTER });
    const viaDiff = await runCli(["helper", "lift", "--repo", dir], { stdin: JSON.stringify({ diff }) });
    assert.equal(viaDiff.code, 0, viaDiff.stderr);
    const response = JSON.parse(viaDiff.stdout);
    assert.equal(response.result.success, true);
    const blocks =
      "shop.py\n```\n<<<<<<< SEARCH\n    if rate > 1:\n=======\n    if rate > 2:\n>>>>>>> REPLACE\n```\n";
    const viaBlocks = await runCli(["helper", "lift", "--repo", dir], {
      stdin: JSON.stringify({ search_replace: blocks }),
    });
    assert.equal(JSON.parse(viaBlocks.stdout).result.plan[0].template, "modify_condition");
    const bad = await runCli(["helper", "lift", "--repo", dir], { stdin: JSON.stringify({ diff: 3 }) });
    assert.equal(bad.code, 1);
    assert.equal(JSON.parse(bad.stdout).error.issues[0].code, "params-invalid");
    assert.equal(await Deno.readTextFile(`${dir}/shop.py`), BEFORE);
  },
);

Deno.test(
  "graphplan lift --out: a diff that is not lifted leaves the PLAN file as it was",
  SLOW,
  async () => {
    const { dir, diff } = gitDiff({ "shop.py": BEFORE }, { "shop.py": AFTER });
    const stale = diff.replace("-    if rate > 1:", "-    if rate > 9:");
    const out = `${dir}.plan.json`;
    const kept = '[{"op": "locate", "params": {"locator": {"file": "shop.py", "kind": "function"}}}]\n';
    await Deno.writeTextFile(out, kept);
    for (const extra of [[], ["--json"]]) {
      const refused = await runCli(["lift", "--diff", "-", "--repo", dir, "--out", out, ...extra], {
        stdin: stale,
      });
      assert.equal(refused.code, 1);
      assert.equal(await Deno.readTextFile(out), kept, `${extra.join(" ")}: the earlier plan is kept`);
      if (extra.length === 0) {
        assert.match(refused.stderr, /Not lifted: .*; --out ".*\.plan\.json" not written/);
      }
    }
    await Deno.remove(out);
  },
);

Deno.test(
  "graphplan lift --apply-patch and helper {apply_patch}: a V4A patch with a new file lifts, and apply makes it",
  SLOW,
  async () => {
    const { dir } = gitDiff({ "shop.py": BEFORE }, { "shop.py": BEFORE });
    const patch = [
      "*** Begin Patch",
      "*** Update File: shop.py",
      "@@ def price(base, rate):",
      "-    return base * rate",
      "+    return round(base * rate, 2)",
      "*** Add File: tests/test_shop.py",
      "+from shop import price",
      "+",
      "+",
      "+def test_round():",
      "+    assert price(1, 0.333) == 0.33",
      "*** End Patch",
      "",
    ].join("\n");
    await Deno.writeTextFile(`${dir}.patch`, patch);
    const lifted = await runCli([
      "lift",
      "--apply-patch",
      `${dir}.patch`,
      "--repo",
      dir,
      "--out",
      `${dir}.plan.json`,
    ]);
    assert.equal(lifted.code, 0, lifted.stderr);
    assert.match(lifted.stdout, /hunk 1 tests\/test_shop\.py: 0:create_file\(tier 1\)/);
    const applied = await runCli(["apply", `${dir}.plan.json`, "--repo", dir]);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(await Deno.readTextFile(`${dir}/shop.py`), /return round\(base \* rate, 2\)/);
    assert.match(await Deno.readTextFile(`${dir}/tests/test_shop.py`), /^from shop import price\n/);
    const helper = await runCli(["helper", "lift", "--repo", dir], {
      stdin: JSON.stringify({
        apply_patch: patch.replaceAll("test_shop", "test_other"),
      }),
    });
    const response = JSON.parse(helper.stdout);
    assert.equal(response.result.success, false, "shop.py already holds the change now");
    assert.equal(response.result.errors[0].code, "patch-context-not-found");
    assert.equal(response.result.errors[0].file, "shop.py");
    await Deno.remove(`${dir}.patch`);
    await Deno.remove(`${dir}.plan.json`);
  },
);
