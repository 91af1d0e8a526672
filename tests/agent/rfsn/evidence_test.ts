import assert from "node:assert/strict";
import { join } from "node:path";
import {
  extractEvidence,
  extractTracebackFile,
  firstProjectFrame,
  isProjectFile,
  parseFailingTests,
  parseFrames,
} from "../../../agent/rfsn/evidence.ts";
import { readTestFileRule } from "../../../engine/gate/test_files.ts";
import { PYTEST_SKIP, runPython, STATS_REPO, writeRepo } from "./_pyrepo.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

if (PYTEST_SKIP) console.log(`evidence_test: real-pytest tests skipped: ${PYTEST_SKIP}`);

Deno.test({
  name:
    "evidence from real pytest output: failing node ids, exception types, the project frame past pytest's own",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const repo = await writeRepo(STATS_REPO);
    try {
      for (const tb of ["long", "short"]) {
        const { code, output } = await runPython(repo, [
          "-m",
          "pytest",
          "-p",
          "no:cacheprovider",
          `--tb=${tb}`,
          "tests",
        ]);
        assert.equal(code, 1, output);
        const evidence = extractEvidence(output, repo);
        assert.deepEqual(evidence.failing_tests.toSorted(), [
          "tests/test_stats.py::TestSpread::test_spread_empty",
          "tests/test_stats.py::test_approx_misuse",
          "tests/test_stats.py::test_mean_empty",
        ]);
        for (const type of ["ZeroDivisionError", "ValueError"]) {
          assert.ok(evidence.exception_types.includes(type), `${tb}: ${type} in ${evidence.exception_types}`);
        }
        // The frames of each failure: test file, then pkg/stats.py (ZeroDivisionError, ValueError) or
        // pytest's own python_api.py (a negative tolerance), which is never the project frame.
        const files = new Set(evidence.frames.map((f) => f.file));
        assert.ok(files.has("pkg/stats.py") && files.has("tests/test_stats.py"), [...files].join(", "));
        assert.ok([...files].some((f) => !isProjectFile(f)), `${tb}: a library frame is present`);
        assert.deepEqual(firstProjectFrame(evidence.frames)?.file, "pkg/stats.py");
      }
      const single = await runPython(repo, [
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "tests/test_stats.py::test_approx_misuse",
      ]);
      // Only pytest's frame and the test: the test file is the project frame.
      assert.equal(extractTracebackFile(single.output, repo), "tests/test_stats.py");
      assert.equal(extractEvidence(single.output, repo).exception_types[0], "ValueError");
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  },
});

Deno.test({
  name: "evidence from real unittest output and a plain traceback: ids, types, absolute paths made relative",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const repo = await writeRepo(STATS_REPO);
    try {
      const unit = await runPython(repo, ["-m", "unittest", "tests.test_stats"]);
      assert.notEqual(unit.code, 0);
      const evidence = extractEvidence(unit.output, repo);
      assert.ok(
        evidence.failing_tests.includes("tests.test_stats.TestSpread.test_spread_empty"),
        unit.output,
      );
      assert.ok(evidence.exception_types.includes("ValueError"));
      assert.equal(extractTracebackFile(unit.output, repo), "pkg/stats.py");
      assert.deepEqual(firstProjectFrame(evidence.frames), { file: "pkg/stats.py", line: 6, func: "spread" });
      const plain = await runPython(repo, [
        "-c",
        "import json; from pkg.stats import mean; mean(json.loads('[]'))",
      ]);
      assert.equal(extractTracebackFile(plain.output, repo), "pkg/stats.py");
      assert.equal(extractEvidence(plain.output, repo).narrative, "ZeroDivisionError: division by zero");
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  },
});

Deno.test("evidence: library frames (site-packages, the standard library, <frozen>) are never the project frame", () => {
  const traceback = `Traceback (most recent call last):
  File "/repo/app/cli.py", line 12, in main
    run(args)
  File "/repo/app/core.py", line 40, in run
    return requests.get(url)
  File "/usr/lib/python3/dist-packages/requests/api.py", line 73, in get
    return request("get", url, params=params, **kwargs)
  File "/opt/venv/lib/python3.11/site-packages/urllib3/util.py", line 5, in parse
    raise LocationParseError(url)
  File "<frozen importlib._bootstrap>", line 1, in _call
urllib3.exceptions.LocationParseError: Failed to parse: http://
`;
  const frames = parseFrames(traceback, "/repo");
  assert.deepEqual(frames.map((f) => f.file), [
    "app/cli.py",
    "app/core.py",
    "/usr/lib/python3/dist-packages/requests/api.py",
    "/opt/venv/lib/python3.11/site-packages/urllib3/util.py",
    "<frozen importlib._bootstrap>",
  ]);
  assert.deepEqual(firstProjectFrame(frames), { file: "app/core.py", line: 40, func: "run" });
  assert.deepEqual(extractEvidence(traceback, "/repo").exception_types, ["LocationParseError"]);
  assert.deepEqual(
    parseFailingTests("tests/a_test.py::test_x FAILED [ 50%]\nERROR tests/b.py::test_y - Err"),
    [
      "tests/a_test.py::test_x",
      "tests/b.py::test_y",
    ],
  );
});

/** A repository whose pytest configuration names its test modules `check_*.py`; a callback fails in one. */
const CHECK_REPO: Record<string, string> = {
  "setup.cfg": "[metadata]\nname = pkg\n\n[tool:pytest]\npython_files = check_*.py\n",
  "pkg/__init__.py": "",
  "pkg/ops.py": `def apply_all(values, fn):
    out = []
    for value in values:
        out.append(fn(value))
    return out
`,
  "tests/__init__.py": "",
  "tests/check_foo.py": `from pkg.ops import apply_all


def scale(value):
    return 10 / value


def test_apply_all():
    assert apply_all([1, 0], scale) == [10, 0]
`,
};

Deno.test({
  name:
    "evidence: with python_files = check_*.py, a frame in check_foo.py is a test frame; the source localizes",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    const repo = await writeRepo(CHECK_REPO);
    try {
      // Real pytest collects check_foo.py by the configuration (and only by it).
      const { code, output } = await runPython(repo, ["-m", "pytest", "-p", "no:cacheprovider", "-rf"]);
      assert.equal(code, 1, output);
      const evidence = extractEvidence(output, repo);
      assert.deepEqual(evidence.failing_tests, ["tests/check_foo.py::test_apply_all"]);
      // Raised in the test module's callback, called from the source: check_foo.py is innermost.
      const innermost = evidence.frames.at(-1);
      assert.deepEqual([innermost?.file, innermost?.line], ["tests/check_foo.py", 5], output);
      const testFiles = await readTestFileRule(async (path) => {
        try {
          return await Deno.readTextFile(join(repo, path));
        } catch {
          return null;
        }
      });
      assert.equal(testFiles.source, "setup.cfg");
      assert.deepEqual(firstProjectFrame(evidence.frames, { testFiles }), {
        file: "pkg/ops.py",
        line: 4,
        func: "apply_all",
      });
      assert.equal(extractTracebackFile(output, repo, { testFiles }), "pkg/ops.py");
      // The default names would take the test module for source.
      assert.equal(extractTracebackFile(output, repo), "tests/check_foo.py");
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  },
});
