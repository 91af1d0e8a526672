/**
 * What a change does to the tests of one Python test file: the tests of
 * "before" and "after" are paired by qualified name and compared one by one
 * (facts from `engine/analysis/python_tests.ts`).
 *
 * - a test that is gone (deleted, or renamed so that it is no longer
 *   collected) is `test-deleted`;
 * - a skip or xfail marker that was not there (decorator, `pytest.skip()`,
 *   `self.skipTest()`, `raise SkipTest`, `pytestmark`, `__test__ = False`),
 *   or a new `return` in a test's body, is `test-skipped`/`test-xfailed`;
 * - assertions compared as multisets of their normalized text: those only
 *   in "before" are paired in order with those only in "after"; a pair whose
 *   new side is weaker (a lower strength, a tolerance moved the loose way) is
 *   `assertion-loosened`, an unpaired old one `assertion-removed`; a pair of
 *   equal strength (a changed expected value) is the warning `assertion-changed`;
 * - a `try`/`except` or `suppress` that catches `AssertionError`, `Exception`
 *   or everything without raising it again, new in a test, is
 *   `failure-swallowed`.
 *
 * @module
 */

import { error, type Issue, warning } from "../../../engine/issue.ts";
import type {
  Assertion,
  Marker,
  TestFileFacts,
  TestFunction,
  Tolerance,
} from "../../../engine/analysis/python_tests.ts";

/** Occurrences only in `after` that are not matched by one in `before`, by key. */
function added<T>(before: T[], after: T[], key: (item: T) => string): T[] {
  const counts = new Map<string, number>();
  for (const item of before) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  const out: T[] = [];
  for (const item of after) {
    const left = counts.get(key(item)) ?? 0;
    if (left > 0) counts.set(key(item), left - 1);
    else out.push(item);
  }
  return out;
}

function widened(old: Tolerance[], now: Tolerance[]): Tolerance | undefined {
  for (const tolerance of now) {
    const previous = old.find((t) => t.name === tolerance.name);
    if (!previous) {
      if (old.length === 0) return tolerance; // a tolerance where the comparison was exact
      continue;
    }
    const looser = tolerance.looser === "larger"
      ? tolerance.value > previous.value
      : tolerance.value < previous.value;
    if (looser) return tolerance;
  }
  return undefined;
}

const STRENGTH_WORDS = ["vacuous", "truthiness", "partial", "exact"];

function compareAssertions(file: string, test: TestFunction, old: TestFunction): Issue[] {
  const issues: Issue[] = [];
  const removed = added(test.assertions, old.assertions, (a) => a.text);
  const fresh = added(old.assertions, test.assertions, (a) => a.text);
  removed.forEach((gone: Assertion, i: number) => {
    const replacement = fresh[i];
    if (!replacement) {
      issues.push(error(
        "assertion-removed",
        `Assertion removed from test "${test.id}": "${gone.text}" (line ${gone.line} of the original)`,
        { file, line: test.line, hint: "fix the code under test, not the test" },
      ));
      return;
    }
    const tolerance = widened(gone.tolerances, replacement.tolerances);
    if (replacement.strength < gone.strength) {
      issues.push(error(
        "assertion-loosened",
        `Assertion loosened in test "${test.id}": "${gone.text}" (${
          STRENGTH_WORDS[gone.strength]
        }) became "${replacement.text}" (${STRENGTH_WORDS[replacement.strength]})`,
        { file, line: replacement.line, hint: "keep the original assertion and fix the code under test" },
      ));
    } else if (tolerance) {
      const before = gone.tolerances.find((t) => t.name === tolerance.name);
      issues.push(error(
        "assertion-loosened",
        `Tolerance widened in test "${test.id}": "${tolerance.name}" ${
          before ? `went from ${before.value} to ${tolerance.value}` : `of ${tolerance.value} added`
        } in "${replacement.text}"`,
        { file, line: replacement.line, hint: "keep the original tolerance and fix the code under test" },
      ));
    } else {
      issues.push(warning(
        "assertion-changed",
        `Assertion changed in test "${test.id}": "${gone.text}" became "${replacement.text}"`,
        { file, line: replacement.line },
      ));
    }
  });
  return issues;
}

function markerIssue(file: string, marker: Marker): Issue {
  const where = marker.scope ? `"${marker.scope}"` : "the whole module";
  return error(
    marker.kind === "skip" ? "test-skipped" : "test-xfailed",
    marker.kind === "skip"
      ? `Test skipped: "${marker.text}" added to ${where}`
      : `Test marked as an expected failure: "${marker.text}" added to ${where}`,
    { file, line: marker.line, hint: "make the test pass instead of skipping it or expecting it to fail" },
  );
}

/**
 * The test-weakening issues of one file's change. `before` is null for an
 * added file, `after` null for a deleted one; `file` names the file in the
 * issues (its path after the patch, or before when deleted).
 */
export function compareTestFiles(
  file: string,
  before: TestFileFacts | null,
  after: TestFileFacts | null,
): Issue[] {
  const issues: Issue[] = [];
  const oldTests = new Map((before?.tests ?? []).map((test) => [test.id, test]));
  const newTests = new Map((after?.tests ?? []).map((test) => [test.id, test]));
  for (const [id, old] of oldTests) {
    if (!newTests.has(id)) {
      issues.push(error(
        "test-deleted",
        after
          ? `Test deleted or no longer collected: "${id}" (line ${old.line} of the original)`
          : `Test deleted with its file: "${id}" (line ${old.line} of the original)`,
        { file, line: old.line, hint: "keep every existing test; add new ones instead" },
      ));
    }
  }
  for (const marker of added(before?.markers ?? [], after?.markers ?? [], (m) => `${m.scope}\0${m.text}`)) {
    issues.push(markerIssue(file, marker));
  }
  for (const [id, test] of newTests) {
    const old = oldTests.get(id);
    if (!old) continue;
    if (test.returns.length > old.returns.length) {
      const line = test.returns.find((n) => !old.returns.includes(n - test.line + old.line)) ??
        test.returns[0];
      issues.push(error("test-skipped", `Test "${id}" returns early: a "return" was added to its body`, {
        file,
        line,
        hint: "let the test run to its end",
      }));
    }
    issues.push(...compareAssertions(file, test, old));
    for (const swallower of added(old.swallowers, test.swallowers, (s) => s.caught)) {
      issues.push(error(
        "failure-swallowed",
        `Failure swallowed in test "${id}": "${swallower.caught}" is caught and not raised again`,
        { file, line: swallower.line, hint: "let the test fail; fix the code under test" },
      ));
    }
  }
  return issues;
}
