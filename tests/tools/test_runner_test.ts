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
  reasonsByImports,
  shardModules,
  skippedByFile,
  skipSummary,
  testFiles,
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

Deno.test("quick tier: --quick runs the quick folders with GRAPHPLAN_QUICK=1 in shards; a path narrows it", () => {
  assert.deepEqual(testInvocation(["--quick"], 2), {
    flags: [],
    paths: QUICK_FOLDERS,
    env: { GRAPHPLAN_QUICK: "1" },
    shards: 4,
  });
  assert.ok(!QUICK_FOLDERS.includes("tests/e2e") && !QUICK_FOLDERS.includes("tests/bundle"));
  for (const folder of QUICK_FOLDERS) assert.ok(Deno.statSync(`${ROOT}${folder}`).isDirectory, folder);
  // a flag's value that names no path stays with its flag; --isolate and --shards are the runner's own
  const plan = `${ROOT}tests/engine/plan`;
  assert.deepEqual(testInvocation(["--quick", "--fail-fast", "--filter", "plan", plan], 2), {
    flags: ["--fail-fast", "--filter", "plan"],
    paths: [plan],
    env: { GRAPHPLAN_QUICK: "1" },
    shards: 4,
  });
  assert.equal(testInvocation(["--quick", "--isolate"], 2).shards, 0);
  assert.equal(testInvocation(["--quick", "--shards=1", plan], 2).shards, 1);
  assert.deepEqual(testInvocation([`${ROOT}tests/engine`, "--isolate"]), {
    flags: ["--isolate"],
    paths: [`${ROOT}tests/engine`],
    env: {},
    shards: 0,
  });
});

Deno.test("quick tier: test files are found as deno test finds them, and dealt into shards", async () => {
  const dir = await Deno.makeTempDir({ prefix: "graphplan-runner-files-" });
  try {
    for (const name of ["test.ts", "a.test.ts", "b_test.ts", "c.ts", "latest.ts", "_d_test_support.ts"]) {
      await Deno.writeTextFile(`${dir}/${name}`, "");
    }
    for (const sub of [".hidden", "node_modules", "fixtures", "deep/er"]) {
      await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
      await Deno.writeTextFile(`${dir}/${sub}/e_test.ts`, "");
    }
    assert.deepEqual(testFiles([dir], [`${dir}/fixtures/`]), [
      `${dir}/a.test.ts`,
      `${dir}/b_test.ts`,
      `${dir}/deep/er/e_test.ts`,
      `${dir}/test.ts`,
    ]);
    // a file named explicitly is taken whatever its name
    assert.deepEqual(testFiles([`${dir}/c.ts`, `${dir}/b_test.ts`]), [`${dir}/b_test.ts`, `${dir}/c.ts`]);
    const modules = shardModules(["/r/1_test.ts", "/r/2_test.ts", "/r/3_test.ts"], 2);
    assert.equal(modules.length, 2);
    assert.deepEqual(modules.map((m) => [...m.matchAll(/import "([^"]+)"/g)].map((i) => i[1])), [
      ["file:///r/1_test.ts", "file:///r/3_test.ts"],
      ["file:///r/2_test.ts"],
    ]);
    assert.equal(shardModules(["/r/1_test.ts"], 8).length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("quick tier: a reason recorded by a shared module belongs to every file importing it", () => {
  const url = (name: string) => toUrl(`${ROOT}tests/${name}`);
  const graph = {
    modules: [
      { specifier: url("a_test.ts"), dependencies: [{ code: { specifier: url("_support/tool.ts") } }] },
      { specifier: url("b_test.ts"), dependencies: [{ code: { specifier: url("via.ts") } }] },
      { specifier: url("via.ts"), dependencies: [{ code: { specifier: url("_support/tool.ts") } }] },
      { specifier: url("c_test.ts"), dependencies: [{}] }, // a type-only import evaluates nothing
      { specifier: url("_support/tool.ts") },
    ],
  };
  const log = [
    { file: "/tmp/shard_1_test.ts", module: url("_support/tool.ts"), reason: "tool not found" },
    { file: "/tmp/shard_1_test.ts", module: url("c_test.ts"), reason: "quick tier" },
  ].map((line) => JSON.stringify(line)).join("\n");
  const files = ["tests/a_test.ts", "tests/b_test.ts", "tests/c_test.ts"];
  const reasons = reasonsByImports(log, graph, files, ROOT.replace(/\/$/, ""));
  assert.deepEqual([...reasons].map(([file, why]) => [file, [...why]]), [
    ["./tests/a_test.ts", ["tool not found"]],
    ["./tests/b_test.ts", ["tool not found"]],
    ["./tests/c_test.ts", ["quick tier"]],
  ]);
  // named from elsewhere, as deno test names a module outside the working directory
  assert.deepEqual([...reasonsByImports(log, graph, [`${ROOT}tests/a_test.ts`], `${ROOT}agent`).keys()], [
    "../tests/a_test.ts",
  ]);
});

Deno.test(
  "quick tier: shared isolates and one isolate per file end with the same skip summary",
  SLOW,
  async () => {
    const dir = await Deno.makeTempDir({ prefix: "graphplan-runner-shared-" });
    const skips = toUrl(`${ROOT}tests/_support/skips.ts`);
    try {
      await Deno.writeTextFile(
        `${dir}/_tool.ts`,
        `import { skipReason } from ${
          JSON.stringify(skips)
        };\nexport const TOOL_SKIP = skipReason("widget not found");\n`,
      );
      for (const name of ["a", "b"]) {
        await Deno.writeTextFile(
          `${dir}/${name}_test.ts`,
          'import { TOOL_SKIP } from "./_tool.ts";\n' +
            `Deno.test({ name: "${name} needs the widget", ignore: TOOL_SKIP !== undefined, fn() {} });\n` +
            `Deno.test("${name} runs", () => {});\n`,
        );
      }
      await Deno.writeTextFile(`${dir}/c_test.ts`, 'Deno.test({ name: "c", ignore: true, fn() {} });\n');
      const expected = [
        "skipped 2 tests: widget not found (2 files)",
        "skipped 1 test: no reason recorded (ignored in the file) (1 file)",
      ];
      for (const how of ["--shards=1", "--isolate"]) {
        const { code, stdout } = await runner(["--quick", how, dir]);
        assert.equal(code, 0, stdout);
        assert.match(stdout, /2 passed \| 0 failed \| 3 ignored/, `${how}: ${stdout}`);
        assert.deepEqual(stdout.trimEnd().split("\n").slice(-2), expected, how);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

function toUrl(path: string): string {
  return new URL(`file://${path}`).href;
}

Deno.test("quick tier: the corpus tests skip and say why", SLOW, async () => {
  const { code, stdout } = await runner(["--quick", "tests/agent/dataset_test.ts"]);
  assert.equal(code, 0, stdout);
  assert.match(
    stdout.trimEnd().split("\n").at(-1)!,
    /^skipped 1 test: quick tier \(GRAPHPLAN_QUICK=1\): corpus sweeps/,
  );
});
