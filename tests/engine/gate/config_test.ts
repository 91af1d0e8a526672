import assert from "node:assert/strict";
import { checkInvariants, type InvariantReport } from "../../../engine/gate/invariants.ts";
import { parsePolicy } from "../../../engine/gate/policy.ts";
import { unifiedDiff } from "../../../engine/exec/diff.ts";
import type { GatePolicy } from "../../../engine/gate/policy.ts";

async function gate(
  path: string,
  before: string,
  after: string,
  policy?: GatePolicy,
): Promise<InvariantReport> {
  return await checkInvariants(unifiedDiff(path, before, after), {
    readFile: (p) => Promise.resolve(p === path ? before : null),
    policy,
  });
}

const SETUP_CFG = `[metadata]
name = requests
version = 2.3.0

[tool:pytest]
addopts = -ra
testpaths = tests
`;

Deno.test("gate: pytest options in setup.cfg are test configuration, package metadata is not", async () => {
  const deselect = SETUP_CFG.replace(
    "addopts = -ra",
    "addopts = -ra --deselect tests/test_requests.py::test_host",
  );
  const refused = await gate("setup.cfg", SETUP_CFG, deselect);
  assert.equal(refused.refused, true);
  assert.deepEqual(refused.errors.map((i) => [i.code, i.file, i.line]), [[
    "test-config-changed",
    "setup.cfg",
    5,
  ]]);
  const metadata = await gate("setup.cfg", SETUP_CFG, SETUP_CFG.replace("2.3.0", "2.3.1"));
  assert.equal(metadata.refused, false);
  assert.deepEqual(metadata.errors, []);
});

Deno.test("gate: tox.ini testenv commands and pyproject's tool.pytest table are test configuration", async () => {
  const tox = "[tox]\nenvlist = py311\n\n[testenv]\ncommands = pytest tests\n";
  const report = await gate("tox.ini", tox, tox.replace("pytest tests", "pytest tests -k 'not slow'"));
  assert.deepEqual(report.errors.map((i) => [i.code, i.line]), [["test-config-changed", 4]]);
  const pyproject = '[project]\nname = "seaborn"\n';
  const added = pyproject + '\n[tool.pytest.ini_options]\nfilterwarnings = ["ignore"]\n';
  const toml = await gate("pyproject.toml", pyproject, added);
  assert.deepEqual(toml.errors.map((i) => [i.code, i.line]), [["test-config-changed", 4]]);
  const unrelated = await gate("pyproject.toml", pyproject, pyproject + "\n[tool.black]\nline-length = 88\n");
  assert.equal(unrelated.refused, false);
});

Deno.test("gate: a conftest.py hook or import-time statement is test configuration, a new fixture is not", async () => {
  const conftest = "import pytest\n\n\n@pytest.fixture\ndef app():\n    return object()\n";
  const hook = conftest + "\n\ndef pytest_collection_modifyitems(items):\n    items.clear()\n";
  const changed = await gate("tests/conftest.py", conftest, hook);
  assert.deepEqual(changed.errors.map((i) => [i.code, i.file, i.line]), [[
    "test-config-changed",
    "tests/conftest.py",
    9,
  ]]);
  const ignore = await gate("tests/conftest.py", conftest, conftest + '\ncollect_ignore = ["test_app.py"]\n');
  assert.deepEqual(ignore.errors.map((i) => [i.code, i.line]), [["test-config-changed", 8]]);
  const created = await checkInvariants(
    "--- /dev/null\n+++ b/conftest.py\n@@ -0,0 +1,2 @@\n+def pytest_collection_modifyitems(items):\n+    items.clear()\n",
    { readFile: () => Promise.resolve(null) },
  );
  assert.match(
    created.errors[0].message,
    /Test hook "pytest_collection_modifyitems" added to "conftest\.py"/,
  );
  const fixture = await gate(
    "tests/conftest.py",
    conftest,
    conftest + "\n\n@pytest.fixture\ndef client(app):\n    return app.test_client()\n",
  );
  assert.equal(fixture.refused, false, JSON.stringify(fixture.errors));
  const ini = await gate(
    "pytest.ini",
    "[pytest]\naddopts = -ra\n",
    "[pytest]\naddopts = -ra -p no:cacheprovider\n",
  );
  assert.equal(ini.errors[0].code, "test-config-changed");
});

/** Not from the corpus: it holds no unittest-style test (checked: no `self.assert` in any test patch). */
const UNITTEST = `import unittest
import pytest


class TestParse(unittest.TestCase):
    def test_version(self):
        self.assertEqual(parse("1.2"), (1, 2))

    def test_ratio(self):
        self.assertAlmostEqual(ratio(1, 3), 0.3333333, places=7)
        assert ratio(2, 3) == pytest.approx(0.6666667, rel=1e-9)
        assert abs(ratio(1, 7) - 0.142857) < 1e-6
`;

for (
  const [name, find, replace, code] of [
    [
      "assertEqual -> assertTrue",
      'self.assertEqual(parse("1.2"), (1, 2))',
      'self.assertTrue(parse("1.2"))',
      "assertion-loosened",
    ],
    ["places=7 -> places=2", "places=7", "places=2", "assertion-loosened"],
    ["approx rel=1e-9 -> rel=1e-2", "rel=1e-9", "rel=1e-2", "assertion-loosened"],
    ["abs(a - b) < 1e-6 -> < 0.1", "< 1e-6", "< 0.1", "assertion-loosened"],
    [
      "self.skipTest()",
      "    def test_version(self):\n",
      '    def test_version(self):\n        self.skipTest("later")\n',
      "test-skipped",
    ],
    [
      "unittest.expectedFailure",
      "    def test_ratio",
      "    @unittest.expectedFailure\n    def test_ratio",
      "test-xfailed",
    ],
  ] as const
) {
  Deno.test(`gate refuses a unittest-style weakening: ${name} (${code})`, async () => {
    const after = UNITTEST.replace(find, replace);
    assert.notEqual(after, UNITTEST);
    const report = await gate("tests/test_parse.py", UNITTEST, after);
    assert.deepEqual([...new Set(report.errors.map((i) => i.code))], [code], JSON.stringify(report.errors));
    assert.equal(report.errors[0].file, "tests/test_parse.py");
  });
}

Deno.test("gate policy: report lets violations through as warnings, allow exempts a code", async () => {
  const after = UNITTEST.replace("    def test_ratio", "    @unittest.expectedFailure\n    def test_ratio");
  const reported = await gate("tests/test_parse.py", UNITTEST, after, parsePolicy("mode: report", "inline"));
  assert.equal(reported.refused, false);
  assert.equal(reported.admissible, false);
  assert.deepEqual(reported.warnings.map((i) => i.code), ["test-xfailed"]);
  const allowed = await gate(
    "tests/test_parse.py",
    UNITTEST,
    after,
    parsePolicy("allow: [test-xfailed]", "inline"),
  );
  assert.equal(allowed.refused, false);
  assert.equal(allowed.admissible, true);
  assert.throws(
    () => parsePolicy("allow: [anything]", "p.yaml"),
    /Invalid gate policy "p\.yaml": "allow\.0"/,
  );
});

Deno.test("gate: a patch whose context is not in the file, or a malformed diff, is refused without judging it", async () => {
  const stale = await checkInvariants(unifiedDiff("a.py", "x = 1\n", "x = 2\n"), {
    readFile: () => Promise.resolve("y = 1\n"),
  });
  assert.equal(stale.refused, true);
  assert.equal(stale.errors[0].code, "patch-does-not-apply");
  const garbage = await checkInvariants("not a diff\n", { readFile: () => Promise.resolve(null) });
  assert.equal(garbage.errors[0].code, "diff-empty");
  const counts = await checkInvariants("--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n-x = 1\n+x = 2\n", {
    readFile: () => Promise.resolve("x = 1\n"),
  });
  assert.equal(counts.errors[0].code, "diff-malformed");
});
