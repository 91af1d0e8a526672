/**
 * Which files are test code to the gate, beyond the test modules pytest
 * collects: whatever the tests import or read. A file whose path has a
 * `tests`, `test` or `testing` directory, a `conftest.py`, or a module
 * named as test support (`testing.py`, `pytest.py`, `randtest.py`,
 * `test_utils.py`, ...) is test code: a Python one is a support module whose
 * helpers, fixtures and hooks are compared by what they check
 * (`xarray/tests/__init__.py`, `sphinx/testing/fixtures.py`,
 * `sympy/utilities/pytest.py`); anything else there is test data (expected
 * outputs, inputs, per-test configuration such as pylint's functional
 * `.txt` and `.rc` files).
 *
 * Test data is compared by line: a line removed or changed is
 * `test-data-changed` (expected output that no longer expects something),
 * lines only added are admitted (a new case). A configuration file (`.rc`,
 * `.cfg`, `.ini`, `.toml`) that is new beside a Python file of the same name
 * configures that file's test (pylint reads `x.rc` for `x.py`): it is
 * `test-config-changed`, as is any change to one that exists.
 *
 * @module
 */

import { error, type Issue } from "../base/issue.ts";
import { added } from "./test_weakening.ts";

const TEST_DIRECTORY = /(^|\/)(tests?|testing)\//;
const SUPPORT_MODULE =
  /(^|\/)(conftest|testing|pytest|randtest|runtests|test_?utils?|test_?helpers?|testutils)\.py$/;
const CONFIG_DATA = /\.(rc|cfg|ini|toml)$/;

/** Whether `path` is test code that is not a collected test module (support module or data). */
export function testCodeRole(path: string): "test-support" | "test-data" | undefined {
  const python = path.endsWith(".py");
  if (python && SUPPORT_MODULE.test(path) && !/(^|\/)_pytest\//.test(path)) return "test-support";
  if (!TEST_DIRECTORY.test(path)) return undefined;
  return python ? "test-support" : "test-data";
}

/** The Python file a configuration data file configures (`x.rc` configures `x.py`), when it is one. */
export function configuredModule(path: string): string | undefined {
  return CONFIG_DATA.test(path) ? path.replace(CONFIG_DATA, ".py") : undefined;
}

/**
 * The issues of a change to a test data file. `configures` says whether a
 * Python file exists that the file configures (`configuredModule`).
 */
export function compareTestData(
  file: string,
  before: string | null,
  after: string | null,
  configures: boolean,
): Issue[] {
  if (before === after) return [];
  const hint = "expected outputs and test inputs are part of the tests; change the code under test";
  if (configuredModule(file) && (before !== null || configures)) {
    const what = before === null ? "added" : after === null ? "deleted" : "changed";
    return [
      error("test-config-changed", `Configuration of a test ${what}: "${file}"`, { file, line: 1, hint }),
    ];
  }
  if (before === null) return [];
  if (after === null) {
    return [error("test-data-changed", `Test data deleted: "${file}"`, { file, line: 1, hint })];
  }
  const lines = (text: string) =>
    text.split("\n").map((line, index) => ({ text: line.trimEnd(), line: index + 1 })).filter((l) =>
      l.text !== ""
    );
  const removed = added(lines(after), lines(before), (l) => l.text);
  if (removed.length === 0) return [];
  return [error(
    "test-data-changed",
    `Test data changed: ${removed.length} line(s) of "${file}" removed or changed, the first "${
      removed[0].text.slice(0, 120)
    }" (line ${removed[0].line} of the original)`,
    { file, line: removed[0].line, hint },
  )];
}
