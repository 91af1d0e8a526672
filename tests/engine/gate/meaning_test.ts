/**
 * The gate judges test code by what runs (issue 26): each weakening an
 * adversary tried on real test files, written against corpus test modules,
 * is refused naming the test and the check; each honest rewrite that keeps
 * every check is admitted.
 */

import assert from "node:assert/strict";
import type { InvariantReport } from "../../../engine/gate/invariants.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { corpusTestModule } from "./_corpus_tests.ts";
import { type Change, gateChanges, replaceOnce } from "./_gate_support.ts";

if (CORPUS_SKIP) console.log(`gate/meaning_test: corpus cases skipped: ${CORPUS_SKIP}`);

const CLI = { instance: "pallets__flask-5063", path: "tests/test_cli.py" };
const SKIPPING = { instance: "pytest-dev__pytest-7432", path: "testing/test_skipping.py" };
const MATHEMATICA = { instance: "sympy__sympy-12171", path: "sympy/printing/tests/test_mathematica.py" };
const REDIRECTS = { instance: "psf__requests-1963", path: "test_requests.py" };

const HOST_ASSERTS = '    assert result.exit_code == 0\n    assert "Host" in result.output\n';

interface Case {
  name: string;
  module: { instance: string; path: string };
  /** The changed module from the original. */
  edit: (text: string) => string;
  /** Refused with one of these codes, or admitted (`null`). */
  codes: string[] | null;
  /** Words the refusal's message names (the test, the check). */
  names?: string[];
}

const prepend = (text: string, head: string) => head + text;

const CASES: Case[] = [
  {
    name: "a skip through an alias: flaky = pytest.mark.skip, then @flaky",
    module: CLI,
    edit: (t) =>
      prepend(replaceOnce(t, "def test_host(", "@flaky\ndef test_host("), "flaky = pytest.mark.skip\n\n\n"),
    codes: ["test-skipped"],
    names: ["test_host", "pytest.mark.skip"],
  },
  {
    name: "a skip whose name is computed from constants: @getattr(pytest.mark, 'sk' + 'ip')",
    module: CLI,
    edit: (t) => replaceOnce(t, "def test_host(", "@getattr(pytest.mark, 'sk' + 'ip')\ndef test_host("),
    codes: ["test-skipped"],
    names: ["test_host"],
  },
  {
    name: "a marker whose name the gate cannot compute",
    module: CLI,
    edit: (t) =>
      prepend(
        replaceOnce(t, "def test_host(", "@getattr(pytest.mark, MODE)\ndef test_host("),
        "MODE = os.environ['M']\n",
      ),
    codes: ["marker-dynamic"],
    names: ["test_host"],
  },
  {
    name: "unittest's skip imported under another name",
    module: CLI,
    edit: (t) =>
      prepend(
        replaceOnce(t, "def test_host(", '@later("flaky")\ndef test_host('),
        "from unittest import skip as later\n",
      ),
    codes: ["test-skipped"],
    names: ["unittest.skip"],
  },
  {
    name: "pytest.skip imported as s and called in the body",
    module: CLI,
    edit: (t) =>
      prepend(
        replaceOnce(
          t,
          "app = Flask(__name__, static_folder=None, host_matching=True)",
          "s()\n    app = Flask(__name__, static_folder=None, host_matching=True)",
        ),
        "from pytest import skip as s\n",
      ),
    codes: ["test-skipped"],
    names: ["pytest.skip"],
  },
  {
    name: "a parametrize list emptied",
    module: SKIPPING,
    edit: (t) => t.replace(/ {4}\[\n {8}\([\s\S]*?\n {4}\],\n\)/, "    [],\n)"),
    codes: ["test-deleted"],
    names: ["test_xfail_run_with_skip_mark"],
  },
  {
    name: "a parametrize case dropped",
    module: SKIPPING,
    edit: (t) =>
      replaceOnce(
        t,
        '        (\n            ["-rs", "--runxfail"],\n            ["SKIPPED [1] test_sample.py:2: unconditional skip", "*1 skipped*"],\n        ),\n',
        "",
      ),
    codes: ["test-deleted"],
    names: ["test_xfail_run_with_skip_mark"],
  },
  {
    name: "a parametrize case wrapped in pytest.param(..., marks=xfail)",
    module: SKIPPING,
    edit: (t) =>
      replaceOnce(
        t,
        '        (\n            ["-rs", "--runxfail"],\n            ["SKIPPED [1] test_sample.py:2: unconditional skip", "*1 skipped*"],\n        ),\n',
        '        pytest.param(\n            ["-rs", "--runxfail"],\n            ["SKIPPED [1] test_sample.py:2: unconditional skip", "*1 skipped*"],\n            marks=pytest.mark.xfail,\n        ),\n',
      ),
    codes: ["test-xfailed", "test-deleted"],
    names: ["test_xfail_run_with_skip_mark", "pytest.mark.xfail"],
  },
  {
    name: "the assertions moved under if False:",
    module: CLI,
    edit: (t) =>
      replaceOnce(t, HOST_ASSERTS, "    if False:\n    " + HOST_ASSERTS.replace("\n    ", "\n        ")),
    codes: ["assertion-removed"],
    names: ["test_host", "result.exit_code == 0", "no longer runs"],
  },
  {
    name: "both assertions deleted: the refusal names each check that no longer runs",
    module: CLI,
    edit: (t) => replaceOnce(t, HOST_ASSERTS, ""),
    codes: ["assertion-removed"],
    names: [
      "test_host",
      '"assert result.exit_code == 0"',
      '"assert "Host" in result.output"',
      "no longer runs;",
    ],
  },
  {
    name: "the assertions moved into a loop over nothing",
    module: CLI,
    edit: (t) =>
      replaceOnce(t, HOST_ASSERTS, "    for _ in []:\n    " + HOST_ASSERTS.replace("\n    ", "\n        ")),
    codes: ["assertion-removed"],
    names: ["test_host"],
  },
  {
    name: "the assertions moved into a nested function nobody calls",
    module: CLI,
    edit: (t) =>
      replaceOnce(t, HOST_ASSERTS, "    def later():\n    " + HOST_ASSERTS.replace("\n    ", "\n        ")),
    codes: ["assertion-removed"],
    names: ["test_host"],
  },
  {
    name: "the assertions after a raise",
    module: CLI,
    edit: (t) => replaceOnce(t, HOST_ASSERTS, "    raise pytest.skip.Exception\n" + HOST_ASSERTS),
    codes: ["assertion-removed"],
    names: ["test_host"],
  },
  {
    name: "del test_host at the end of the module",
    module: CLI,
    edit: (t) => t + "\n\ndel test_host\n",
    codes: ["test-deleted"],
    names: ["test_host"],
  },
  {
    name: "test_host shadowed by a later empty definition",
    module: CLI,
    edit: (t) => t + "\n\ndef test_host(self, runner):\n    pass\n",
    codes: ["assertion-removed"],
    names: ["test_host"],
  },
  {
    name: "a failure swallowed through an alias: E = BaseException; except E",
    module: CLI,
    edit: (t) =>
      prepend(
        replaceOnce(
          t,
          HOST_ASSERTS,
          "    try:\n    " + HOST_ASSERTS.replace("\n    ", "\n        ") + "    except E:\n        pass\n",
        ),
        "E = BaseException\n",
      ),
    codes: ["failure-swallowed"],
    names: ["test_host", "BaseException"],
  },
  {
    name: "suppress imported as quietly",
    module: CLI,
    edit: (t) =>
      prepend(
        replaceOnce(
          t,
          HOST_ASSERTS,
          "    with quietly(AssertionError):\n    " + HOST_ASSERTS.replace("\n    ", "\n        "),
        ),
        "from contextlib import suppress as quietly\n",
      ),
    codes: ["failure-swallowed"],
    names: ["test_host"],
  },
  {
    name: "sys.exit(0) at import",
    module: CLI,
    edit: (t) => "import sys\n" + t + "\nsys.exit(0)\n",
    codes: ["collection-changed"],
    names: ["sys.exit(0)"],
  },
  {
    name: "os._exit(0) at import, before the tests",
    module: CLI,
    edit: (t) => "import os\nos._exit(0)\n" + t,
    codes: ["collection-changed", "test-deleted"],
    names: ["os._exit(0)", "test_host"],
  },
  {
    name: "a tautology replacing the assertion on the value under test",
    module: CLI,
    edit: (t) => replaceOnce(t, 'assert "Host" in result.output', 'assert "Host" is not None'),
    codes: ["assertion-loosened", "assertion-removed"],
    names: ["test_host", '"Host" in result.output'],
  },
  {
    name: "a comparison of a value with itself",
    module: CLI,
    edit: (t) => replaceOnce(t, 'assert "Host" in result.output', "assert result.output == result.output"),
    codes: ["assertion-loosened", "assertion-removed"],
    names: ["test_host"],
  },
  // Honest changes: every check kept.
  {
    name: "the same cases as a loop over a literal",
    module: MATHEMATICA,
    edit: (t) =>
      t.replace(
        /def test_Derivative\(\):\n[\s\S]*$/,
        `def test_Derivative():
    for expr, expected in [
        (Derivative(sin(x), x), "Hold[D[Sin[x], x]]"),
        (Derivative(x, x), "Hold[D[x, x]]"),
        (Derivative(sin(x)*y**4, x, 2), "Hold[D[y^4*Sin[x], x, x]]"),
        (Derivative(sin(x)*y**4, x, y, x), "Hold[D[y^4*Sin[x], x, y, x]]"),
        (Derivative(sin(x)*y**4, x, y, 3, x), "Hold[D[y^4*Sin[x], x, y, y, y, x]]"),
    ]:
        assert mcode(expr) == expected
`,
      ),
    codes: null,
  },
  {
    name: "the same cases as a parametrize",
    module: MATHEMATICA,
    edit: (t) =>
      t.replace(
        /def test_Derivative\(\):\n[\s\S]*$/,
        `@pytest.mark.parametrize("expr, expected", [
    (Derivative(sin(x), x), "Hold[D[Sin[x], x]]"),
    (Derivative(x, x), "Hold[D[x, x]]"),
    (Derivative(sin(x)*y**4, x, 2), "Hold[D[y^4*Sin[x], x, x]]"),
    (Derivative(sin(x)*y**4, x, y, x), "Hold[D[y^4*Sin[x], x, y, x]]"),
    (Derivative(sin(x)*y**4, x, y, 3, x), "Hold[D[y^4*Sin[x], x, y, y, y, x]]"),
])
def test_Derivative(expr, expected):
    assert mcode(expr) == expected
`,
      ),
    codes: null,
  },
  {
    name: "a check extracted into a helper",
    module: CLI,
    edit: (t) =>
      replaceOnce(t, HOST_ASSERTS, '    assert_listed(result, "Host")\n') +
      "\n\ndef assert_listed(result, word):\n    assert result.exit_code == 0\n    assert word in result.output\n",
    codes: null,
  },
  {
    name: "a test moved into a class",
    module: CLI,
    edit: (t) => {
      const at = t.indexOf("def test_host(");
      return t.slice(0, at) + "class TestRoutes:\n" +
        t.slice(at).split("\n").map((line) => (line ? `    ${line}` : line)).join("\n");
    },
    codes: null,
  },
  {
    name: "a redirect test's loop kept, a check added",
    module: REDIRECTS,
    edit: (t) =>
      replaceOnce(
        t,
        "            assert session.calls[-1] == send_call\n",
        "            assert session.calls[-1] == send_call\n            assert response.status_code in (301, 302, 303, 307)\n",
      ),
    codes: null,
  },
];

async function judge(c: Case): Promise<{ report: InvariantReport; after: string }> {
  const before = await corpusTestModule(c.module.instance, c.module.path);
  const after = c.edit(before);
  assert.notEqual(after, before, "the edit changed nothing");
  return { report: await gateChanges([{ path: c.module.path, before, after }]), after };
}

for (const c of CASES) {
  Deno.test({
    name: `gate ${c.codes ? "refuses" : "admits"} ${c.name}`,
    ignore: CORPUS_SKIP !== undefined,
    async fn() {
      const { report } = await judge(c);
      if (c.codes === null) {
        assert.equal(report.refused, false, JSON.stringify(report.errors, null, 2));
        assert.deepEqual(report.errors, []);
        return;
      }
      assert.equal(report.refused, true, JSON.stringify(report, null, 2));
      const codes = new Set(report.errors.map((issue) => issue.code));
      assert.ok([...codes].every((code) => c.codes!.includes(code)), JSON.stringify(report.errors, null, 2));
      const text = report.errors.map((issue) => issue.message).join("\n");
      for (const name of c.names ?? []) assert.ok(text.includes(name), `"${name}" not named in:\n${text}`);
      assert.ok(report.errors.every((issue) => issue.file === c.module.path));
    },
  });
}

Deno.test({
  name: "gate refuses a test module renamed out of the collected names, as git diff writes a rename",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const before = await corpusTestModule(CLI.instance, CLI.path);
    const moved: Change = { from: CLI.path, path: "tests/cli_checks.py", before, after: before };
    const report = await gateChanges([moved]);
    assert.equal(report.refused, true);
    assert.deepEqual(
      report.errors.map((issue) => [issue.code, issue.message.match(/"([^"]+)"/)?.[1]]),
      [["test-deleted", "test_no_routes"], ["test-deleted", "test_subdomain"], ["test-deleted", "test_host"]],
    );
    // Renamed to another collected name, every test is still there.
    const kept = await gateChanges([{ ...moved, path: "tests/test_cli_routes.py" }]);
    assert.equal(kept.refused, false, JSON.stringify(kept.errors));
  },
});

Deno.test({
  name: "gate admits skip markers in a test module the patch creates, and refuses an exit in it",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const module = await corpusTestModule(CLI.instance, CLI.path);
    const created = replaceOnce(
      module,
      "def test_host(",
      '@pytest.mark.skip(reason="needs hosts")\ndef test_host(',
    );
    const report = await gateChanges([{ path: "tests/test_cli_hosts.py", before: null, after: created }]);
    assert.equal(report.refused, false, JSON.stringify(report.errors));
    const exits = await gateChanges([{
      path: "tests/test_zz.py",
      before: null,
      after: "import os\nos._exit(0)\n",
    }]);
    assert.deepEqual(exits.errors.map((issue) => issue.code), ["collection-changed"]);
  },
});

const XARRAY_HELPERS = `import numpy as np
import pytest


def assert_array_equal(actual, expected):
    __tracebackhide__ = True
    np.testing.assert_array_equal(actual, expected)


@pytest.fixture
def arange():
    return np.arange(4)
`;

Deno.test("gate refuses a helper the tests import weakened to pass (xarray/tests/__init__.py), admits a new one", async () => {
  const path = "xarray/tests/__init__.py";
  const weakened = replaceOnce(
    XARRAY_HELPERS,
    "    __tracebackhide__ = True\n    np.testing.assert_array_equal(actual, expected)\n",
    "    pass\n",
  );
  const report = await gateChanges([{ path, before: XARRAY_HELPERS, after: weakened }]);
  assert.deepEqual(report.errors.map((issue) => [issue.code, issue.file]), [["assertion-removed", path]]);
  assert.match(
    report.errors[0].message,
    /assert_array_equal.*np\.testing\.assert_array_equal\(actual, expected\)/,
  );
  const rebound = await gateChanges([{
    path,
    before: XARRAY_HELPERS,
    after: XARRAY_HELPERS + "\nassert_array_equal = lambda *args: None\n",
  }]);
  assert.deepEqual(rebound.errors.map((issue) => issue.code), ["assertion-removed"]);
  const added = XARRAY_HELPERS + "\n\ndef assert_identical(a, b):\n    assert a.identical(b)\n";
  const honest = await gateChanges([{ path, before: XARRAY_HELPERS, after: added }]);
  assert.equal(honest.refused, false, JSON.stringify(honest.errors));
});

const SPHINX_FIXTURES = `import pytest


@pytest.fixture
def app_params(request, test_params, shared_result, sphinx_test_tempdir, rootdir):
    return test_params
`;

Deno.test("gate refuses an autouse skip added to sphinx/testing/fixtures.py", async () => {
  const path = "sphinx/testing/fixtures.py";
  const after = SPHINX_FIXTURES +
    '\n\n@pytest.fixture(autouse=True)\ndef _quiet(request):\n    pytest.skip("flaky on CI")\n';
  const report = await gateChanges([{ path, before: SPHINX_FIXTURES, after }]);
  assert.deepEqual(report.errors.map((issue) => [issue.code, issue.line]), [["test-skipped", 11]]);
  assert.match(report.errors[0].message, /"_quiet"/);
});

const FUNCTIONAL = `# pylint: disable=missing-docstring
import os  # [unused-import]
import sys  # [unused-import]
from collections import OrderedDict

print(OrderedDict())
`;
const EXPECTED = "unused-import:2:0:2:9::Unused import os:UNDEFINED\n" +
  "unused-import:3:0:3:10::Unused import sys:UNDEFINED\n";

Deno.test("gate refuses pylint functional-test weakening: an expected line, an annotation, a new .rc", async () => {
  const dir = "tests/functional/u/unused";
  const txt = await gateChanges([{
    path: `${dir}/unused_import.txt`,
    before: EXPECTED,
    after: EXPECTED.split("\n").slice(1).join("\n"),
  }]);
  assert.deepEqual(txt.errors.map((issue) => [issue.code, issue.line]), [["test-data-changed", 1]]);
  const annotation = await gateChanges([{
    path: `${dir}/unused_import.py`,
    before: FUNCTIONAL,
    after: FUNCTIONAL.replace("import sys  # [unused-import]", "import sys"),
  }]);
  assert.deepEqual(annotation.errors.map((issue) => [issue.code, issue.line]), [["assertion-removed", 3]]);
  const rc = await gateChanges(
    [{ path: `${dir}/unused_import.rc`, before: null, after: "[MESSAGES CONTROL]\ndisable=unused-import\n" }],
    { [`${dir}/unused_import.py`]: FUNCTIONAL },
  );
  assert.deepEqual(rc.errors.map((issue) => issue.code), ["test-config-changed"]);
  // A new expected line (a new case) and a new data file for a new test are admitted.
  const more = await gateChanges([{
    path: `${dir}/unused_import.txt`,
    before: EXPECTED,
    after: EXPECTED + "unused-import:4:0:4:35::Unused OrderedDict:UNDEFINED\n",
  }]);
  assert.equal(more.refused, false);
  const data = await gateChanges([{ path: "tests/data/new_case.json", before: null, after: "{}\n" }]);
  assert.equal(data.refused, false);
});

Deno.test("gate admits reporting flags and marker registrations in configuration, with a warning", async () => {
  const tox = "[tox]\nenvlist = py311\n\n[testenv]\ncommands = pytest {posargs}\n";
  const rA = await gateChanges([{
    path: "tox.ini",
    before: tox,
    after: tox.replace("pytest {posargs}", "pytest -rA {posargs}"),
  }]);
  assert.equal(rA.refused, false, JSON.stringify(rA.errors));
  assert.deepEqual(rA.warnings.map((issue) => issue.code), ["test-config-reporting"]);
  const cfg = "[tool:pytest]\naddopts = -ra\nmarkers =\n    slow: slow tests\n";
  const marker = await gateChanges([{
    path: "setup.cfg",
    before: cfg,
    after: cfg + "    network: needs the network\n",
  }]);
  assert.equal(marker.refused, false, JSON.stringify(marker.errors));
  assert.deepEqual(marker.warnings.map((issue) => issue.code), ["test-config-reporting"]);
  const verbose = await gateChanges([{
    path: "setup.cfg",
    before: cfg,
    after: cfg.replace("-ra", "-ra -v"),
  }]);
  assert.equal(verbose.refused, false);
  // What deselects is still refused.
  for (
    const flag of ["-k 'not slow'", "--deselect tests/test_a.py::test_b", "-p no:randomly", "-m 'not slow'"]
  ) {
    const report = await gateChanges([{
      path: "setup.cfg",
      before: cfg,
      after: cfg.replace("-ra", `-ra ${flag}`),
    }]);
    assert.deepEqual(report.errors.map((issue) => issue.code), ["test-config-changed"], flag);
  }
  const python = await gateChanges([{
    path: "setup.cfg",
    before: cfg,
    after: cfg + "python_files: check_*.py\n",
  }]);
  assert.deepEqual(python.errors.map((issue) => issue.code), ["test-config-changed"]);
});

Deno.test({
  name: "gate admits a test's body, a conditional skip with it, extracted into a helper the test calls",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const module = await corpusTestModule(CLI.instance, CLI.path);
    const guarded = '    if not result.output:\n        pytest.skip("no routes")\n' + HOST_ASSERTS;
    const before = replaceOnce(module, HOST_ASSERTS, guarded);
    const after = replaceOnce(before, guarded, "    check_hosts(result)\n") +
      "\n\ndef check_hosts(result):\n" + guarded;
    const report = await gateChanges([{ path: CLI.path, before, after }]);
    assert.equal(report.refused, false, JSON.stringify(report.errors, null, 2));
    // The same skip added to another test is refused.
    const spread = replaceOnce(
      before,
      '    assert result.exit_code == 0\n    assert "Subdomain"',
      '    pytest.skip("no routes")\n    assert result.exit_code == 0\n    assert "Subdomain"',
    );
    const weakened = await gateChanges([{ path: CLI.path, before, after: spread }]);
    assert.deepEqual(weakened.errors.map((issue) => issue.code), ["test-skipped"]);
  },
});

Deno.test({
  name: "gate refuses a truthiness assertion made a tuple, which is always true",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const module = await corpusTestModule(CLI.instance, CLI.path);
    const before = replaceOnce(
      module,
      'assert "Host" in result.output',
      'assert result.output.count("Host")',
    );
    const after = replaceOnce(
      before,
      'assert result.output.count("Host")',
      'assert (result.output.count("Host"), "listed")',
    );
    const report = await gateChanges([{ path: CLI.path, before, after }]);
    assert.deepEqual(report.errors.map((issue) => issue.code), ["assertion-loosened"]);
    assert.match(report.errors[0].message, /test_host.*\(truthiness\) became .*\(vacuous\)/);
  },
});

Deno.test({
  name:
    "gate: assertions after `if True: return` no longer run; the return itself is refused as an early return",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { fileMeaning } = await import("../../../engine/gate/test_meaning.ts");
    const module = await corpusTestModule(CLI.instance, CLI.path);
    const after = replaceOnce(module, HOST_ASSERTS, "    if True:\n        return\n" + HOST_ASSERTS);
    const host = (await fileMeaning(CLI.path, after))!.tests.find((test) => test.id === "test_host")!;
    assert.equal(host.weight, 0);
    const report = await gateChanges([{ path: CLI.path, before: module, after }]);
    assert.deepEqual(report.errors.map((issue) => issue.code), ["test-skipped"]);
    // A branch that may not run leaves the assertions after it counted.
    const maybe = replaceOnce(
      module,
      HOST_ASSERTS,
      "    if result.output:\n        print(result.output)\n" + HOST_ASSERTS,
    );
    assert.equal(
      (await fileMeaning(CLI.path, maybe))!.tests.find((test) => test.id === "test_host")!.weight,
      2,
    );
  },
});

/** One file of a corpus gold test patch, both sides as its hunks show them. */
async function goldFile(instance: string, path: string): Promise<{ before: string; after: string }> {
  const { corpusTestPatchFiles } = await import("./_corpus_tests.ts");
  const file = (await corpusTestPatchFiles()).find((f) => f.instance === instance && f.path === path);
  if (!file?.before || !file.after) throw new Error(`No test patch file "${path}" in "${instance}"`);
  return { before: file.before, after: file.after };
}

const EXCINFO = { instance: "pytest-dev__pytest-5413", path: "testing/code/test_excinfo.py" };
const REPR = '"<ExceptionInfo ValueError tblen=4>"';

Deno.test({
  name: "gate admits two tests merged into one whose exact checks pin what their checks read (pytest-5413)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { before, after } = await goldFile(EXCINFO.instance, EXCINFO.path);
    const gold = await gateChanges([{ path: EXCINFO.path, before, after }]);
    assert.equal(gold.refused, false, JSON.stringify(gold.errors, null, 1));
    // The adversary's variants of the merged test stay refused: the pin on str() weakened, deleted,
    // made a tautology, moved to another subject, or `pytest.raises(ValueError, h)` made a bare call.
    const variants: [string, string][] = [
      [`assert str(excinfo) == ${REPR}`, "assert str(excinfo) is not None"],
      [`    assert str(excinfo) == ${REPR}\n`, ""],
      [`assert str(excinfo) == ${REPR}`, `assert ${REPR} == ${REPR}`],
      [`assert str(excinfo) == ${REPR}`, `assert repr(excinfo) == ${REPR}`],
      [`assert str(excinfo) == ${REPR}`, `assert str(excinfo.value) == ${REPR}`],
      ["excinfo = pytest.raises(ValueError, h)\n    assert repr", "excinfo = h()\n    assert repr"],
    ];
    for (const [find, replacement] of variants) {
      const report = await gateChanges([{
        path: EXCINFO.path,
        before,
        after: replaceOnce(after, find, replacement),
      }]);
      assert.equal(report.refused, true, replacement);
      assert.ok(report.errors.some((issue) => issue.message.includes("test_excinfo_str")), replacement);
    }
  },
});

Deno.test({
  name: "gate: a literal pin decides only checks computed from its subject by Python itself",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { before } = await goldFile(EXCINFO.instance, EXCINFO.path);
    const partial =
      'assert s.startswith(__file__[:-9])  # pyc file and $py.class\n    assert s.endswith("ValueError")' +
      '\n    assert len(s.split(":")) >= 3  # on windows it\'s 4';
    const pinned = replaceOnce(before, partial, `assert s == "x.py:1: ValueError"`);
    const kept = await gateChanges([{ path: EXCINFO.path, before, after: pinned }]);
    assert.equal(kept.refused, false, JSON.stringify(kept.errors));
    assert.ok(kept.warnings.some((issue) => /pins the value it read/.test(issue.message)));
    // A pin to a value the code computes, or on another subject, decides nothing.
    for (const check of ["assert s == str(h)", 'assert repr(excinfo) == "x.py:1: ValueError"']) {
      const report = await gateChanges([{
        path: EXCINFO.path,
        before,
        after: replaceOnce(before, partial, check),
      }]);
      assert.equal(report.refused, true, check);
      assert.deepEqual([...new Set(report.errors.map((issue) => issue.code))], ["assertion-removed"], check);
    }
    // A check that calls the code under test on the pinned value is not decided by the pin.
    const called = replaceOnce(before, partial, 'assert s == "x"\n    assert h(s) == 3');
    const after = replaceOnce(called, "    assert h(s) == 3\n", "");
    const report = await gateChanges([{ path: EXCINFO.path, before: called, after }]);
    assert.deepEqual(report.errors.map((issue) => issue.code), ["assertion-removed"]);
  },
});

Deno.test({
  name: "gate: a check repeated through a rebound local is two checks; the other does not decide it",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const path = "sympy/utilities/tests/test_lambdify.py";
    const module = await corpusTestModule("sympy__sympy-15011", path);
    const after = replaceOnce(
      module,
      "    lam = lambdify(curlyv, curlyv, dummify=True)\n    assert lam(1)==1\n",
      "",
    );
    const report = await gateChanges([{ path, before: module, after }]);
    assert.deepEqual(report.errors.map((issue) => issue.code), ["assertion-removed"]);
  },
});

const PATHLIB = { instance: "pytest-dev__pytest-11148", path: "testing/test_pathlib.py" };

Deno.test({
  name: "gate admits a test renamed with its setup kept while its assertion is inverted (pytest-11148)",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const { before, after } = await goldFile(PATHLIB.instance, PATHLIB.path);
    const gold = await gateChanges([{ path: PATHLIB.path, before, after }]);
    assert.equal(gold.refused, false, JSON.stringify(gold.errors, null, 1));
    assert.ok(
      gold.warnings.some((issue) => issue.message.includes('"assert module1 is not module2" became')),
    );
    // Renamed and weakened: the check deleted, made a tautology or vacuous, loosened, or the setup changed.
    const variants: [string, string, string][] = [
      ["        assert module1 is module2\n", "", "assertion-removed"],
      ["assert module1 is module2", "assert True", "assertion-loosened"],
      ["assert module1 is module2", "assert module1 is module2 or True", "assertion-loosened"],
      ["assert module1 is module2", "assert module1", "assertion-loosened"],
      [
        '        module2 = import_path(simple_module, mode="importlib", root=tmp_path)\n        assert module1 is module2\n',
        "        assert module1\n",
        "test-deleted",
      ],
    ];
    for (const [find, replacement, code] of variants) {
      const report = await gateChanges([{
        path: PATHLIB.path,
        before,
        after: replaceOnce(after, find, replacement),
      }]);
      assert.ok(
        report.errors.some((issue) => issue.code === code),
        `${replacement}: ${JSON.stringify(report.errors)}`,
      );
    }
    // A rename with a new skip marker is the old test skipped, not a new test's own marker.
    const skipped = replaceOnce(
      after,
      "    def test_remembers_previous_imports(",
      '    @pytest.mark.skip("later")\n    def test_remembers_previous_imports(',
    );
    const report = await gateChanges([{ path: PATHLIB.path, before, after: skipped }]);
    assert.ok(report.errors.some((issue) => issue.code === "test-skipped"), JSON.stringify(report.errors));
  },
});

Deno.test({
  name:
    "gate refuses a test renamed with an assertion deleted: its other checks, carried over, cover only themselves",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const module = await corpusTestModule(MATHEMATICA.instance, MATHEMATICA.path);
    const first = '    assert mcode(Derivative(sin(x), x)) == "Hold[D[Sin[x], x]]"\n';
    const renamed = replaceOnce(module, "def test_Derivative():", "def test_Derivative_renamed():");
    const deleted = await gateChanges([{
      path: MATHEMATICA.path,
      before: module,
      after: replaceOnce(renamed, first, ""),
    }]);
    assert.deepEqual(deleted.errors.map((issue) => issue.code), ["test-deleted"]);
    assert.match(deleted.errors[0].message, /test_Derivative/);
    // Renamed with that expected value changed, every check is still performed: admitted.
    const changed = await gateChanges([{
      path: MATHEMATICA.path,
      before: module,
      after: replaceOnce(renamed, "Hold[D[Sin[x], x]]", "Hold[D[Sin[x], {x, 1}]]"),
    }]);
    assert.equal(changed.refused, false, JSON.stringify(changed.errors));
  },
});
