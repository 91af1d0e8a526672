/**
 * Small Python repositories with real bugs, and real pytest: the evidence
 * and end-to-end tests run the tests they describe. They skip, saying why,
 * where python3 or pytest is absent.
 *
 * @module
 */

import { PYTHON } from "../../_support/python.ts";

function pytestAvailable(): boolean {
  if (!PYTHON) return false;
  try {
    return new Deno.Command(PYTHON, { args: ["-m", "pytest", "--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** Reason to skip a test that runs pytest, or undefined. */
export const PYTEST_SKIP = !PYTHON
  ? "python3 not found on PATH"
  : pytestAvailable()
  ? undefined
  : "pytest not installed for python3 (apt-get install python3-pytest)";

/** A package with two bugs (empty input) and tests in pytest and unittest style. */
export const STATS_REPO: Record<string, string> = {
  "pkg/__init__.py": "",
  "pkg/stats.py": `def mean(values):
    return sum(values) / len(values)


def spread(values):
    return max(values) - min(values)
`,
  "tests/__init__.py": "",
  "tests/test_stats.py": `import unittest

import pytest

from pkg.stats import mean, spread


def test_mean_empty():
    assert mean([]) == 0


def test_mean():
    assert mean([1, 2, 3]) == 2


def test_approx_misuse():
    assert mean([2.0]) == pytest.approx(1.0, rel=-1)


class TestSpread(unittest.TestCase):
    def test_spread_empty(self):
        self.assertEqual(spread([]), 0)

    def test_spread(self):
        self.assertEqual(spread([1, 4]), 3)
`,
};

/** A fresh temporary directory holding `files` (the caller removes it). */
export { repoWith as writeRepo } from "../../engine/verify/plan/_support.ts";

/** Run `python3 args...` in `cwd` and return its interleaved-enough output (stdout then stderr). */
export async function runPython(cwd: string, args: string[]): Promise<{ code: number; output: string }> {
  const out = await new Deno.Command(PYTHON!, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, output: decode(out.stdout) + decode(out.stderr) };
}
