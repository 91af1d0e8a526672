import assert from "node:assert/strict";
import { checkInvariants, type InvariantReport } from "../../../engine/gate/invariants.ts";
import { unifiedDiff } from "../../../engine/exec/diff.ts";
import { CORPUS_SKIP } from "../../_support/corpus.ts";
import { corpusTestModule } from "./_corpus_tests.ts";

if (CORPUS_SKIP) console.log(`gate/weakening_test: corpus cases skipped: ${CORPUS_SKIP}`);

/** A file's text before and after a hand-made change (null: absent on that side). */
interface Change {
  path: string;
  before: string | null;
  after: string | null;
}

function diffOf(changes: Change[]): string {
  return changes.map(({ path, before, after }) => {
    if (before === null) {
      const lines = after!.split("\n").slice(0, -1);
      return `diff --git a/${path} b/${path}\nnew file mode 100644\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1,${lines.length} @@\n${
        lines.map((l) => `+${l}\n`).join("")
      }`;
    }
    if (after === null) {
      const lines = before.split("\n").slice(0, -1);
      return `diff --git a/${path} b/${path}\ndeleted file mode 100644\n--- a/${path}\n+++ /dev/null\n@@ -1,${lines.length} +0,0 @@\n${
        lines.map((l) => `-${l}\n`).join("")
      }`;
    }
    return unifiedDiff(path, before, after);
  }).join("");
}

async function gate(changes: Change[], extra: Record<string, string> = {}): Promise<InvariantReport> {
  const files = new Map<string, string>(Object.entries(extra));
  for (const change of changes) if (change.before !== null) files.set(change.path, change.before);
  return await checkInvariants(diffOf(changes), {
    readFile: (path) => Promise.resolve(files.get(path) ?? null),
  });
}

/** `text` with the one occurrence of `find` replaced (fails when it is absent or repeated). */
function replaceOnce(text: string, find: string, replacement: string): string {
  const at = text.indexOf(find);
  assert.ok(at >= 0, `not found: ${find}`);
  assert.equal(text.indexOf(find, at + 1), -1, `found twice: ${find}`);
  return text.slice(0, at) + replacement + text.slice(at + find.length);
}

function lineOf(text: string, find: string): number {
  const at = text.indexOf(find);
  assert.ok(at >= 0, `not found: ${find}`);
  return text.slice(0, at).split("\n").length;
}

interface Case {
  name: string;
  instance: string;
  path: string;
  /** Replace `find` by `replace` (or delete the file with `deleteFile`). */
  find?: string;
  replace?: string;
  deleteFile?: boolean;
  code: string;
  /** The text on the reported line, in the patched file (or the original for a removal). */
  at: { side: "before" | "after"; text: string };
}

const CASES: Case[] = [
  {
    name: "pytest.mark.skip decorator on a sympy test",
    instance: "sympy__sympy-13471",
    path: "sympy/core/tests/test_numbers.py",
    find: "def test_Float_from_tuple():",
    replace: '@pytest.mark.skip(reason="flaky")\ndef test_Float_from_tuple():',
    code: "test-skipped",
    at: { side: "after", text: "@pytest.mark.skip" },
  },
  {
    name: "sympy's @SKIP decorator",
    instance: "sympy__sympy-17630",
    path: "sympy/matrices/expressions/tests/test_blockmatrix.py",
    find: "def test_issue_17624():",
    replace: '@SKIP("slow")\ndef test_issue_17624():',
    code: "test-skipped",
    at: { side: "after", text: '@SKIP("slow")' },
  },
  {
    name: "pytest.mark.xfail on a requests test",
    instance: "psf__requests-2148",
    path: "test_requests.py",
    find: "def test_iter_content_handles_socket_error(self):",
    replace: "@pytest.mark.xfail\ndef test_iter_content_handles_socket_error(self):",
    code: "test-xfailed",
    at: { side: "after", text: "@pytest.mark.xfail" },
  },
  {
    name: "sympy's @XFAIL on a second test of a file that already has one",
    instance: "sympy__sympy-17630",
    path: "sympy/matrices/expressions/tests/test_matadd.py",
    find: "def test_zero_matrix_add():",
    replace: "@XFAIL\ndef test_zero_matrix_add():",
    code: "test-xfailed",
    at: { side: "after", text: "@XFAIL\ndef test_zero" },
  },
  {
    name: "pytest.skip() at the top of a test's body",
    instance: "pytest-dev__pytest-7220",
    path: "testing/test_nodes.py",
    find: '    """\n    p = testdir.makepyfile(',
    replace: '    """\n    pytest.skip("cwd handling differs")\n    p = testdir.makepyfile(',
    code: "test-skipped",
    at: { side: "after", text: "pytest.skip(" },
  },
  {
    name: "an early return before the assertions",
    instance: "sympy__sympy-20049",
    path: "sympy/physics/vector/tests/test_point.py",
    find: "    O.set_vel(N, q2 * N.y)\n    assert O.vel(N) == q2 * N.y",
    replace: "    O.set_vel(N, q2 * N.y)\n    return\n    assert O.vel(N) == q2 * N.y",
    code: "test-skipped",
    at: { side: "after", text: "    return\n" },
  },
  {
    name: "a module-level pytestmark skip",
    instance: "pallets__flask-5063",
    path: "tests/test_cli.py",
    find: "def test_no_routes(self, runner):",
    replace:
      'pytestmark = pytest.mark.skip(reason="routes output changed")\n\n\ndef test_no_routes(self, runner):',
    code: "test-skipped",
    at: { side: "after", text: "pytestmark" },
  },
  {
    name: "__test__ = False on a test class",
    instance: "psf__requests-1963",
    path: "test_requests.py",
    find: "class TestRedirects:\n",
    replace: "class TestRedirects:\n    __test__ = False\n",
    code: "test-skipped",
    at: { side: "after", text: "__test__" },
  },
  {
    name: "a deleted assert in a sympy test",
    instance: "sympy__sympy-17630",
    path: "sympy/matrices/expressions/tests/test_blockmatrix.py",
    find: "    assert block_collapse(b * b * b) == BlockMatrix([[a**3, z], [z, z]])\n",
    replace: "",
    code: "assertion-removed",
    at: { side: "before", text: "def test_issue_17624" },
  },
  {
    name: "a deleted assert inside a loop",
    instance: "psf__requests-1963",
    path: "test_requests.py",
    find: "            assert session.calls[-1] == send_call\n",
    replace: "",
    code: "assertion-removed",
    at: { side: "before", text: "def test_requests_are_updated_each_time" },
  },
  {
    name: "== loosened to in",
    instance: "pallets__flask-5063",
    path: "tests/test_cli.py",
    find: '    assert result.exit_code == 0\n    assert "Host" in result.output',
    replace: '    assert result.exit_code in (0, 1)\n    assert "Host" in result.output',
    code: "assertion-loosened",
    at: { side: "after", text: "assert result.exit_code in (0, 1)" },
  },
  {
    name: "== loosened to truthiness",
    instance: "sympy__sympy-13471",
    path: "sympy/core/tests/test_numbers.py",
    find: "    assert a == b\n",
    replace: "    assert a\n",
    code: "assertion-loosened",
    at: { side: "after", text: "    assert a\n" },
  },
  {
    name: "an 'or True' that makes an assertion vacuous",
    instance: "sympy__sympy-17630",
    path: "sympy/matrices/expressions/tests/test_matadd.py",
    find: "    assert Add(ZeroMatrix(2, 2), ZeroMatrix(2, 2)) == ZeroMatrix(2, 2)",
    replace: "    assert Add(ZeroMatrix(2, 2), ZeroMatrix(2, 2)) == ZeroMatrix(2, 2) or True",
    code: "assertion-loosened",
    at: { side: "after", text: "or True" },
  },
  {
    name: "an assertion replaced by assert True",
    instance: "sympy__sympy-20049",
    path: "sympy/physics/vector/tests/test_point.py",
    find: "    assert O.vel(N) == q2 * N.y\n",
    replace: "    assert True\n",
    code: "assertion-loosened",
    at: { side: "after", text: "assert True" },
  },
  {
    name: "pytest.raises of a specific error widened to Exception",
    instance: "psf__requests-2148",
    path: "test_requests.py",
    find: "with pytest.raises(ConnectionError):",
    replace: "with pytest.raises(Exception):",
    code: "assertion-loosened",
    at: { side: "after", text: "pytest.raises(Exception)" },
  },
  {
    name: "sympy's raises(ValueError, ...) widened to Exception",
    instance: "sympy__sympy-20049",
    path: "sympy/physics/vector/tests/test_point.py",
    find: "    raises(ValueError , lambda : O.vel(B)) #Velocity of O is not defined in B",
    replace: "    raises(Exception , lambda : O.vel(B)) #Velocity of O is not defined in B",
    code: "assertion-loosened",
    at: { side: "after", text: "raises(Exception , lambda : O.vel(B))" },
  },
  {
    name: "an exact comparison made approximate (tolerance added)",
    instance: "sympy__sympy-13471",
    path: "sympy/core/tests/test_numbers.py",
    find: "    assert a == b\n",
    replace: "    assert a == pytest.approx(b, rel=0.5)\n",
    code: "assertion-loosened",
    at: { side: "after", text: "pytest.approx" },
  },
  {
    name: "a deleted test function",
    instance: "pallets__flask-5063",
    path: "tests/test_cli.py",
    find:
      'def test_host(self, runner):\n    app = Flask(__name__, static_folder=None, host_matching=True)\n    app.add_url_rule("/a", host="a", endpoint="a")\n    app.add_url_rule("/b", host="b", endpoint="b")\n    cli = FlaskGroup(create_app=lambda: app)\n    result = runner.invoke(cli, ["routes"])\n    assert result.exit_code == 0\n    assert "Host" in result.output\n',
    replace: "",
    code: "test-deleted",
    at: { side: "before", text: "def test_host" },
  },
  {
    name: "a test renamed so that pytest no longer collects it",
    instance: "sympy__sympy-17630",
    path: "sympy/matrices/expressions/tests/test_blockmatrix.py",
    find: "def test_issue_17624():",
    replace: "def _test_issue_17624():",
    code: "test-deleted",
    at: { side: "before", text: "def test_issue_17624" },
  },
  {
    name: "a deleted test module",
    instance: "sympy__sympy-17630",
    path: "sympy/matrices/expressions/tests/test_matadd.py",
    deleteFile: true,
    code: "test-deleted",
    at: { side: "before", text: "def test_zero_matrix_add" },
  },
  {
    name: "try/except AssertionError around the failing assert",
    instance: "psf__requests-1963",
    path: "test_requests.py",
    find: "        assert r0.request.method == 'POST'\n",
    replace:
      "        try:\n            assert r0.request.method == 'POST'\n        except AssertionError:\n            pass\n",
    code: "failure-swallowed",
    at: { side: "after", text: "except AssertionError:" },
  },
  {
    name: "a bare except around the failing assert",
    instance: "pytest-dev__pytest-5103",
    path: "testing/test_assertrewrite.py",
    find: '    assert "0 == 1" in getmsg(f)\n',
    replace: '    try:\n        assert "0 == 1" in getmsg(f)\n    except:\n        pass\n',
    code: "failure-swallowed",
    at: { side: "after", text: "    except:" },
  },
  {
    name: "contextlib.suppress(Exception) around the failing call",
    instance: "sympy__sympy-17022",
    path: "sympy/printing/tests/test_numpy.py",
    find: "    raises(NotImplementedError, lambda: lambdify(N, N + Identity(n)))",
    replace:
      "    with suppress(Exception):\n        raises(NotImplementedError, lambda: lambdify(N, N + Identity(n)))",
    code: "failure-swallowed",
    at: { side: "after", text: "suppress(Exception)" },
  },
];

for (const c of CASES) {
  Deno.test({
    name: `gate refuses ${c.name} (${c.code})`,
    ignore: CORPUS_SKIP !== undefined,
    async fn() {
      const before = await corpusTestModule(c.instance, c.path);
      const after = c.deleteFile ? null : replaceOnce(before, c.find!, c.replace!);
      const report = await gate([{ path: c.path, before, after }]);
      assert.equal(report.refused, true, JSON.stringify(report, null, 2));
      assert.equal(report.admissible, false);
      const found = report.errors.filter((issue) => issue.code === c.code);
      assert.ok(found.length > 0, `expected ${c.code}, got ${JSON.stringify(report.errors, null, 2)}`);
      const expectedLine = lineOf(c.at.side === "after" ? after! : before, c.at.text);
      assert.ok(
        found.some((issue) => issue.file === c.path && issue.line === expectedLine),
        `expected ${c.code} at ${c.path}:${expectedLine}, got ${JSON.stringify(found, null, 2)}`,
      );
      // Only the weakening is reported: no other error code than the expected one.
      assert.deepEqual([...new Set(report.errors.map((issue) => issue.code))], [c.code]);
    },
  });
}

Deno.test({
  name:
    "gate admits the same corpus test modules when a test or an assertion is added, or a check made stricter",
  ignore: CORPUS_SKIP !== undefined,
  async fn() {
    const before = await corpusTestModule("pallets__flask-5063", "tests/test_cli.py");
    const added = before + "\n\ndef test_routes_sorted(self, runner):\n    assert runner is not None\n";
    const stricter = replaceOnce(
      before,
      '    assert "Host" in result.output',
      '    assert "Host" in result.output\n    assert result.output.count("Host") == 1',
    );
    const exact = replaceOnce(
      before,
      'assert "Subdomain" in result.output',
      'assert result.output == "Subdomain"',
    );
    for (const after of [added, stricter, exact]) {
      const report = await gate([{ path: "tests/test_cli.py", before, after }]);
      assert.equal(report.refused, false, JSON.stringify(report.errors));
      assert.equal(report.admissible, true);
    }
  },
});
