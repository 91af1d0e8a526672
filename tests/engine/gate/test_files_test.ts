/**
 * Test modules as the repository's pytest configuration names them
 * (`engine/gate/test_files.ts`), checked against real pytest's own
 * collection on the same files, and the gate (`graphplan gate`) refusing a
 * skip added to a module only the configuration makes a test module.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { readTestFileRule } from "../../../engine/gate/test_files.ts";
import { graphplan } from "../../e2e/_support.ts";
import { PYTEST_SKIP, runPython, writeRepo } from "../../agent/rfsn/_pyrepo.ts";
import { slow } from "../../_support/quick.ts";

const SLOW = slow("tests that start processes (the CLI, a helper, pytest, podman, the bundle)");

if (PYTEST_SKIP) console.log(`gate/test_files_test: the pytest oracle is skipped: ${PYTEST_SKIP}`);

const TEST_BODY = "def test_it():\n    assert 1 + 1 == 2\n";

/** Candidate modules: each holds one passing test, so pytest collects exactly the test modules. */
const MODULES = [
  "tests/check_foo.py",
  "tests/test_bar.py",
  "tests/baz_test.py",
  "tests/tests.py",
  "pkg/io_spec.py",
  "testing/unit/helpers.py",
  "tests/check_notes.txt",
];

/** Each configuration (files at the root) and the modules it makes test modules. */
const CASES: { name: string; config: Record<string, string>; source: string | null; tests: string[] }[] = [
  {
    name: "no configuration: the defaults",
    config: {},
    source: null,
    tests: ["tests/test_bar.py", "tests/baz_test.py", "tests/tests.py"],
  },
  {
    name: "pytest.ini",
    config: { "pytest.ini": "[pytest]\npython_files = check_*.py\n" },
    source: "pytest.ini",
    tests: ["tests/check_foo.py"],
  },
  {
    name: "setup.cfg [tool:pytest], globs on continuation lines",
    config: {
      "setup.cfg":
        "[metadata]\nname = demo\n\n[tool:pytest]\npython_files =\n    check_*.py\n    *_spec.py\n",
    },
    source: "setup.cfg",
    tests: ["tests/check_foo.py", "pkg/io_spec.py"],
  },
  {
    name: "tox.ini [pytest] with a path glob",
    config: { "tox.ini": "[tox]\nenvlist = py3\n\n[pytest]\npython_files = testing/*/*.py test_*.py\n" },
    source: "tox.ini",
    tests: ["tests/test_bar.py", "testing/unit/helpers.py"],
  },
  {
    name: "pyproject.toml [tool.pytest.ini_options], a list",
    config: {
      "pyproject.toml": '[project]\nname = "demo"\n\n[tool.pytest.ini_options]\n' +
        'python_files = [\n  "check_*.py",  # the checks\n  "*_test.py",\n]\n',
    },
    source: "pyproject.toml",
    tests: ["tests/check_foo.py", "tests/baz_test.py"],
  },
  {
    name: "an empty pytest.ini wins over setup.cfg: the defaults",
    config: { "pytest.ini": "", "setup.cfg": "[tool:pytest]\npython_files = check_*.py\n" },
    source: null,
    tests: ["tests/test_bar.py", "tests/baz_test.py", "tests/tests.py"],
  },
  {
    name: "pyproject.toml without a pytest table is passed over for setup.cfg",
    config: {
      "pyproject.toml": '[project]\nname = "demo"\n',
      "setup.cfg": "[tool:pytest]\npython_files = *_spec.py\n",
    },
    source: "setup.cfg",
    tests: ["pkg/io_spec.py"],
  },
];

async function scratchRepo(config: Record<string, string>): Promise<string> {
  const files: Record<string, string> = { ...config };
  for (const module of MODULES) files[module] = TEST_BODY;
  return await writeRepo(files);
}

Deno.test("test files: python_files from pytest.ini, setup.cfg, tox.ini and pyproject.toml, in pytest's order", async () => {
  for (const { name, config, source, tests } of CASES) {
    const rule = await readTestFileRule((path) => Promise.resolve(config[path] ?? null));
    assert.equal(rule.source, source, name);
    assert.deepEqual(MODULES.filter((path) => rule.matches(path)), tests, name);
  }
  // pytest 9's own TOML file comes first (not in the pytest oracle: older pytest ignores it).
  const files: Record<string, string> = {
    "pytest.toml": '[pytest]\npython_files = ["*_spec.py"]\n',
    "pytest.ini": "[pytest]\npython_files = check_*.py\n",
  };
  const rule = await readTestFileRule((path) => Promise.resolve(files[path] ?? null));
  assert.equal(rule.source, "pytest.toml");
  assert.deepEqual(MODULES.filter((path) => rule.matches(path)), ["pkg/io_spec.py"]);
});

Deno.test({
  name: "test files: the rule picks the modules real pytest collects under each configuration",
  ignore: PYTEST_SKIP !== undefined || SLOW.ignore,
  async fn() {
    for (const { name, config } of CASES) {
      const repo = await scratchRepo(config);
      try {
        const rule = await readTestFileRule(async (path) => {
          try {
            return await Deno.readTextFile(join(repo, path));
          } catch {
            return null;
          }
        });
        const run = await runPython(repo, ["-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]);
        const collected = [...new Set([...run.output.matchAll(/^(\S+\.py)::/gm)].map((m) => m[1]))].sort();
        // `tests.py` is a unittest name the gate also guards; pytest does not collect it by default.
        const ours = MODULES.filter((path) => rule.matches(path) && !path.endsWith("/tests.py")).sort();
        assert.deepEqual(collected, ours, `${name}:\n${run.output}`);
      } finally {
        await Deno.remove(repo, { recursive: true });
      }
    }
  },
});

Deno.test("graphplan gate: a skip added to check_foo.py is refused when python_files = check_*.py, admitted without", async () => {
  const skip = "--- a/tests/check_foo.py\n+++ b/tests/check_foo.py\n@@ -1,2 +1,3 @@\n" +
    '+@pytest.mark.skip(reason="flaky")\n def test_it():\n     assert 1 + 1 == 2\n';
  for (const configured of [true, false]) {
    const repo = await scratchRepo(
      configured ? { "pytest.ini": "[pytest]\npython_files = check_*.py\n" } : {},
    );
    try {
      const patch = join(repo, "..", `${repo.split("/").at(-1)}.patch`);
      await Deno.writeTextFile(patch, skip);
      const result = await graphplan(["gate", patch, "--repo", repo, "--json"]);
      const report = JSON.parse(result.stdout) as {
        refused: boolean;
        errors: { code: string; file: string; line: number }[];
        files: { file: string; role: string }[];
      };
      assert.deepEqual(report.files, [{
        file: "tests/check_foo.py",
        // Not collected, it is still test code (a support module in tests/), but its tests do not run.
        role: configured ? "test" : "test-support",
        ...(configured ? { tests: 1 } : {}),
      }]);
      if (configured) {
        assert.equal(result.code, 1, result.stderr);
        assert.equal(report.refused, true);
        assert.deepEqual(report.errors.map((e) => [e.code, e.file, e.line]), [[
          "test-skipped",
          "tests/check_foo.py",
          1,
        ]]);
      } else {
        assert.equal(result.code, 0, result.stderr);
        assert.deepEqual(report.errors, []);
      }
      await Deno.remove(patch);
      // Nothing on disk changed.
      assert.equal(await Deno.readTextFile(join(repo, "tests/check_foo.py")), TEST_BODY);
    } finally {
      await Deno.remove(repo, { recursive: true });
    }
  }
});
