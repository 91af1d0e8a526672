/**
 * `deno task test` (tools/test.ts) ends with one line per group of skipped
 * tests saying why: run for real on the dataset test with the corpus made
 * absent (`GRAPHPLAN_CORPUS`), and on a failing test file (the exit code is
 * the test run's); plus the JUnit and skip-log parsing on their own.
 *
 * @module
 */

import assert from "node:assert/strict";
import {
  QUICK_FOLDERS,
  reasonsByFile,
  skippedByFile,
  skipSummary,
  testInvocation,
} from "../../tools/test.ts";
import { slow } from "../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

const ROOT = new URL("../../", import.meta.url).pathname;

async function runner(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "tools/test.ts", ...args],
    cwd: ROOT,
    // A quick run of this file must not make the runs it starts quick ones (only `--quick` does).
    env: { NO_COLOR: "1", GRAPHPLAN_QUICK: "", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

Deno.test(
  "test runner: without the corpus, the run ends with why the corpus test was skipped",
  SLOW,
  async () => {
    const { code, stdout } = await runner(["tests/agent/dataset_test.ts"], {
      GRAPHPLAN_CORPUS: "/nonexistent/swebench-heldin.jsonl.gz",
    });
    assert.equal(code, 0, stdout);
    const lines = stdout.trimEnd().split("\n");
    assert.equal(
      lines.at(-1),
      "skipped 1 test: corpus not found at /nonexistent/swebench-heldin.jsonl.gz (GRAPHPLAN_CORPUS) (1 file)",
    );
    assert.match(stdout, /1 passed \| 0 failed \| 1 ignored/);
  },
);

Deno.test(
  "test runner: a failing test file fails the run; a run that skipped nothing says so last",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-runner-" });
    try {
      await Deno.writeTextFile(
        `${dir}/fails_test.ts`,
        'Deno.test("fails", () => { throw new Error("no"); });\n',
      );
      const { code, stdout } = await runner([`${dir}/fails_test.ts`]);
      assert.equal(code, 1);
      assert.equal(stdout.trimEnd().split("\n").at(-1), "no tests were skipped");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("skip summary: files grouped by their reasons, unexplained skips said so", () => {
  const junit = `<testsuites>
    <testsuite name="./tests/a_test.ts" tests="3"><testcase name="x"><skipped/></testcase>
      <testcase name="y"><skipped/></testcase><testcase name="z"></testcase></testsuite>
    <testsuite name="./tests/b_test.ts" tests="1"><testcase name="x"><skipped/></testcase></testsuite>
    <testsuite name="./tests/c_test.ts" tests="1"><testcase name="x"><skipped/></testcase></testsuite>
    <testsuite name="./tests/d_test.ts" tests="1"><testcase name="x"></testcase></testsuite>
  </testsuites>`;
  const log = [
    { file: "./tests/a_test.ts", reason: "../shared/corpus not found" },
    { file: "./tests/b_test.ts", reason: "../shared/corpus not found" },
    { file: "./tests/d_test.ts", reason: "python3 not found on PATH" },
  ].map((line) => JSON.stringify(line)).join("\n") + "\n{torn";
  const skipped = skippedByFile(junit);
  assert.deepEqual([...skipped], [["./tests/a_test.ts", 2], ["./tests/b_test.ts", 1], [
    "./tests/c_test.ts",
    1,
  ]]);
  assert.deepEqual(skipSummary(skipped, reasonsByFile(log)), [
    "skipped 3 tests: ../shared/corpus not found (2 files)",
    "skipped 1 test: no reason recorded (ignored in the file) (1 file)",
  ]);
});

Deno.test("quick tier: --quick runs the quick folders with GRAPHPLAN_QUICK=1; a path narrows it", () => {
  assert.deepEqual(testInvocation(["--quick"]), { args: QUICK_FOLDERS, env: { GRAPHPLAN_QUICK: "1" } });
  assert.ok(!QUICK_FOLDERS.includes("tests/e2e") && !QUICK_FOLDERS.includes("tests/bundle"));
  for (const folder of QUICK_FOLDERS) assert.ok(Deno.statSync(`${ROOT}${folder}`).isDirectory, folder);
  assert.deepEqual(testInvocation(["--quick", "--fail-fast", "tests/engine/plan"]), {
    args: ["--fail-fast", "tests/engine/plan"],
    env: { GRAPHPLAN_QUICK: "1" },
  });
  assert.deepEqual(testInvocation(["tests/engine"]), { args: ["tests/engine"], env: {} });
});

Deno.test("quick tier: the corpus tests skip and say why", SLOW, async () => {
  const { code, stdout } = await runner(["--quick", "tests/agent/dataset_test.ts"]);
  assert.equal(code, 0, stdout);
  assert.match(
    stdout.trimEnd().split("\n").at(-1)!,
    /^skipped 1 test: quick tier \(GRAPHPLAN_QUICK=1\): corpus sweeps/,
  );
});
