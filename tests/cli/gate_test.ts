/**
 * `graphplan gate` as a subprocess on a repository on disk: exit codes,
 * `--json`, `--policy`, and that nothing on disk changes.
 */

import assert from "node:assert/strict";
import { runCli } from "../_support/cli.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const TEST = `def test_add():
    assert add(1, 2) == 3
`;
const WEAKENED = `--- a/tests/test_calc.py
+++ b/tests/test_calc.py
@@ -1,2 +1,2 @@
 def test_add():
-    assert add(1, 2) == 3
+    assert add(1, 2) in (3, 4)
`;
const FIX = `--- a/calc.py
+++ b/calc.py
@@ -1,2 +1,2 @@
 def add(a, b):
-    return a - b
+    return a + b
`;

const gate = (args: string[], repo: string) => runCli(["gate", ...args, "--repo", repo]);

Deno.test(
  "graphplan gate: refuses a loosened assertion (exit 1), admits a source fix (exit 0), writes nothing",
  SLOW,
  async () => {
    const repo = await Deno.makeTempDir({ prefix: "graphplan-gate-" });
    try {
      await Deno.mkdir(`${repo}/tests`);
      await Deno.writeTextFile(`${repo}/tests/test_calc.py`, TEST);
      await Deno.writeTextFile(`${repo}/calc.py`, "def add(a, b):\n    return a - b\n");
      await Deno.writeTextFile(`${repo}/weak.patch`, WEAKENED);
      await Deno.writeTextFile(`${repo}/fix.patch`, FIX);
      const refused = await gate([`${repo}/weak.patch`, "--json"], repo);
      assert.equal(refused.code, 1, refused.stderr);
      const report = JSON.parse(refused.stdout);
      assert.equal(report.refused, true);
      assert.deepEqual(
        report.errors.map((i: { code: string; file: string; line: number }) => [i.code, i.file, i.line]),
        [
          ["assertion-loosened", "tests/test_calc.py", 2],
        ],
      );
      const text = await gate([`${repo}/weak.patch`], repo);
      assert.equal(text.code, 1);
      assert.match(
        text.stderr,
        /error\[assertion-loosened\] tests\/test_calc\.py:2: Assertion loosened in test "test_add"/,
      );
      const ok = await gate([`${repo}/fix.patch`], repo);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /Patch admissible: 1 file\(s\), 0 existing test\(s\) compared/);
      await Deno.writeTextFile(`${repo}/policy.yaml`, "mode: report\n");
      const reported = await gate([`${repo}/weak.patch`, "--policy", `${repo}/policy.yaml`], repo);
      assert.equal(reported.code, 0);
      assert.match(reported.stderr, /warning\[assertion-loosened\]/);
      assert.equal(await Deno.readTextFile(`${repo}/tests/test_calc.py`), TEST);
      assert.equal((await gate([], repo)).code, 2);
      const help = await gate(["--help"], repo);
      assert.equal(help.code, 0);
      assert.match(help.stdout, /test-config-changed/);
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  },
);
