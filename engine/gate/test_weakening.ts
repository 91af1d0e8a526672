/**
 * What a change does to the tests of one Python file of test code, judged
 * by what runs (`test_meaning.ts`), not by how it is spelled.
 *
 * Tests are paired by qualified name, then a test that moved (into or out
 * of a class) by its own name, then a test renamed in its scope by its
 * setup (`MeaningTest.setup`: its parameters and the statements that are
 * not checks, when there are any, the same for exactly one old and one new
 * test). For each pair:
 * - its weight (checks that run, times parametrize cases) must not drop:
 *   a check deleted, made unreachable, moved into a function nobody calls,
 *   turned into a tautology, or a case dropped is `assertion-removed`
 *   (`test-deleted` for a parametrize case), naming the test and each
 *   check no new check stands in for (the old checks the pairing below
 *   leaves alone);
 * - the checks only in "before" are paired with those only in "after", by
 *   shape (`Check.skeleton`) and then in order: a weaker one (a lower
 *   strength, a tolerance moved the loose way) is `assertion-loosened`,
 *   one of equal strength the warning `assertion-changed` (a rewrite that
 *   keeps every check, as a loop, a parametrize or a helper, passes with
 *   such warnings);
 * - a new `return` in its body is `test-skipped`, a new `except`/`suppress`
 *   that drops a failure `failure-swallowed`.
 *
 * A check compared by what it is about (`subject.ts`): its subject is its
 * text with the test's single-assignment locals written out. A check that
 * is gone is no loss when the test's new version pins the value it read to
 * a literal (`assert s.endswith("x")` gone, `assert s == "a x"` added):
 * what Python computes from a literal is fixed, so the pin decides it (the
 * warning `assertion-changed` names both). Honest rewrites this admits and
 * what stays refused:
 * - a check replaced on the same subject because the fix changes the
 *   behaviour (an expected value changed, `is not` inverted to `is`): the
 *   pairing above, with a warning; a weaker one is still
 *   `assertion-loosened`, a deleted or vacuous one `assertion-removed`;
 * - a test renamed while its checks change (pytest-11148): paired by its
 *   setup and compared as above; a rename that also changes the setup is
 *   a test gone;
 * - several tests merged into one (pytest-5413): each old test's checks
 *   are in the new tests with the same subject (once is enough: the same
 *   check on the same inputs), decided by a pin there, or of the same
 *   shape, as often.
 * A check whose subject reads a local bound twice (`lam = ...` twice) is
 * about one point of its test and is matched by shape only. A removed check
 * no new check replaces on the same subject is refused whoever writes it:
 * a pin to a value the code computes (`B == BlockMatrix(...)`) decides no
 * method of it, and a new check of another object or in another file
 * (`blockcut(...)[i, j]` gone, `BlockMatrix(...)[i, j]` checked elsewhere)
 * is not about the same subject.
 *
 * A test that is gone is `test-deleted`, unless tests new in the same file
 * perform every check it performed (the same subjects, pins or shapes, as
 * often): the same cases merged into one parametrized test. A skip or xfail marker that was
 * not there, as its name means it, is `test-skipped`/`test-xfailed`; a
 * marker whose name is computed (`getattr(pytest.mark, name)`) is
 * `marker-dynamic`, refused because the gate cannot tell what it does. In
 * a file the patch creates, markers are the new tests' own business and
 * admitted. A statement that ends the process at import (`sys.exit(0)`,
 * `os._exit(0)`) is `collection-changed` in any file: pytest stops, having
 * run nothing, with status 0.
 *
 * Helpers, fixtures and hooks (`compareFunctions`) are judged the same way
 * by their own weight; a `pytest_*` hook or any statement run at import of
 * a `conftest.py` that changes is `test-config-changed`.
 *
 * @module
 */

import { error, type Issue, warning } from "../base/issue.ts";
import { type Check, weightOf } from "./reach.ts";
import type { FileMeaning, MeaningFunction, MeaningMarker, MeaningTest } from "./test_meaning.ts";
import { lastSegment } from "./names.ts";

/** Items only in `after`, matched against `before` by key as multisets. */
export function added<T>(before: readonly T[], after: readonly T[], key: (item: T) => string): T[] {
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

const STRENGTH_WORDS = ["vacuous", "truthiness", "partial", "exact"];

/** The checks of `removed` that a pin among `checks` decides (`subject.ts`). */
function decidedBy(checks: readonly Check[], removed: readonly Check[]): Check[] {
  const pins = new Set(checks.flatMap((check) => (check.pin !== undefined ? [check.pin] : [])));
  return removed.filter((check) => check.weight > 0 && check.derived.some((subject) => pins.has(subject)));
}
const FIX_HINT = "fix the code under test, not the test";

function widened(old: Check, now: Check): { name: string; from?: number; to: number } | undefined {
  for (const tolerance of now.tolerances) {
    const previous = old.tolerances.find((t) => t.name === tolerance.name);
    if (!previous) {
      if (old.tolerances.length === 0) return { name: tolerance.name, to: tolerance.value };
      continue;
    }
    const looser = tolerance.looser === "larger"
      ? tolerance.value > previous.value
      : tolerance.value < previous.value;
    if (looser) return { name: tolerance.name, from: previous.value, to: tolerance.value };
  }
  return undefined;
}

function where(check: Check): string {
  return check.via ? ` (in "${check.via}")` : "";
}

/**
 * Pair the checks only in `old` with those only in `now`; report weaker ones.
 * `unpaired`: the old checks no new check stands in for.
 */
function pairChecks(
  file: string,
  id: string,
  old: Check[],
  now: Check[],
  what: string,
): { issues: Issue[]; unpaired: Check[] } {
  const issues: Issue[] = [];
  const alone: Check[] = [];
  const gone = added(now, old, (c) => c.text).filter((c) => c.weight > 0);
  const fresh = added(old, now, (c) => c.text);
  const unpaired = [...fresh];
  for (const check of gone) {
    let at = unpaired.findIndex((c) => c.skeleton === check.skeleton);
    // Else the one that reads the same subject (`f(y) == 3` became `f(y) is not None`).
    if (at === -1) at = unpaired.findIndex((c) => c.derived.slice(1).some((d) => check.derived.includes(d)));
    if (at === -1) at = 0;
    const replacement = unpaired[at];
    if (!replacement) {
      alone.push(check);
      continue;
    }
    unpaired.splice(at, 1);
    const tolerance = widened(check, replacement);
    if (replacement.strength < check.strength) {
      issues.push(error(
        "assertion-loosened",
        `Assertion loosened in ${what} "${id}": "${check.text}" (${
          STRENGTH_WORDS[check.strength]
        }) became "${replacement.text}" (${STRENGTH_WORDS[replacement.strength]})`,
        { file, line: replacement.line, hint: "keep the original assertion and fix the code under test" },
      ));
    } else if (tolerance) {
      issues.push(error(
        "assertion-loosened",
        `Tolerance widened in ${what} "${id}": "${tolerance.name}" ${
          tolerance.from !== undefined
            ? `went from ${tolerance.from} to ${tolerance.to}`
            : `of ${tolerance.to} added`
        } in "${replacement.text}"`,
        { file, line: replacement.line, hint: "keep the original tolerance and fix the code under test" },
      ));
    } else {
      issues.push(warning(
        "assertion-changed",
        `Assertion changed in ${what} "${id}": "${check.text}" became "${replacement.text}"`,
        { file, line: replacement.line },
      ));
    }
  }
  return { issues, unpaired: alone };
}

/**
 * The checks whose runs dropped from `old` to `now` (by text), with the
 * runs left: those among `texts` when any of them dropped (the checks no
 * new check stands in for), else every one, in the order of `old`.
 */
function droppedChecks(
  old: Check[],
  now: Check[],
  texts: ReadonlySet<string>,
): { check: Check; runs: number; weight: number }[] {
  const runs = new Map<string, number>();
  for (const check of now) runs.set(check.text, (runs.get(check.text) ?? 0) + check.weight);
  const before = new Map<string, { check: Check; weight: number }>();
  for (const check of old) {
    const entry = before.get(check.text);
    if (entry) entry.weight += check.weight;
    else before.set(check.text, { check, weight: check.weight });
  }
  const dropped = [...before.values()]
    .map(({ check, weight }) => ({ check, weight, runs: runs.get(check.text) ?? 0 }))
    .filter(({ weight, runs }) => weight > runs);
  const named = dropped.filter(({ check }) => texts.has(check.text));
  return named.length > 0 ? named : dropped;
}

function droppedText({ check, runs, weight }: { check: Check; runs: number; weight: number }): string {
  return `"${check.text}"${where(check)} (line ${check.line} of the original) ${
    runs === 0
      ? `no longer runs${weight > 1 ? ` (it ran ${weight} times)` : ""}`
      : `runs ${runs} time(s) instead of ${weight}`
  }`;
}

function weightIssues(
  file: string,
  id: string,
  old: MeaningTest | MeaningFunction,
  now: typeof old,
  what: string,
) {
  const decided = decidedBy(now.checks, added(now.checks, old.checks, (c) => c.subject));
  const kept = old.checks.filter((check) => !decided.includes(check));
  const { issues, unpaired } = pairChecks(file, id, kept, now.checks, what);
  const loosened = issues.some((issue) => issue.severity === "error");
  const cases = "cases" in old ? old.cases : 1;
  for (const check of decided) {
    issues.push(warning(
      "assertion-changed",
      `Check "${check.text}" of ${what} "${id}" is gone; "${
        now.checks.find((c) => c.pin !== undefined && check.derived.includes(c.pin))!.text
      }" pins the value it read`,
      { file, line: now.line },
    ));
  }
  if (now.weight >= old.weight - weightOf(decided) * cases || loosened) return issues;
  const dropped = droppedChecks(old.checks, now.checks, new Set(unpaired.map((check) => check.text)));
  const detail = dropped.length > 0
    ? dropped.map(droppedText).join("; ")
    : `its checks run ${now.weight} time(s) instead of ${old.weight}`;
  issues.push(error("assertion-removed", `Check removed from ${what} "${id}": ${detail}`, {
    file,
    line: now.line,
    hint: FIX_HINT,
  }));
  return issues;
}

function compareTest(file: string, old: MeaningTest, now: MeaningTest): Issue[] {
  const issues: Issue[] = [];
  if (now.returns.length > old.returns.length) {
    issues.push(error("test-skipped", `Test "${now.id}" returns early: a "return" was added to its body`, {
      file,
      line: now.returns.find((n) => !old.returns.includes(n - now.line + old.line)) ?? now.returns[0],
      hint: "let the test run to its end",
    }));
  }
  if (now.cases < old.cases) {
    const gone = added(now.caseTexts, old.caseTexts, (t) => t)[0];
    issues.push(error(
      "test-deleted",
      `Parametrize case removed from test "${now.id}": ${old.cases} case(s) ran, now ${now.cases}${
        gone ? ` ("${gone}" is gone)` : ""
      }`,
      { file, line: now.line, hint: "keep every case; add new ones instead" },
    ));
  } else if (issues.length === 0) issues.push(...weightIssues(file, now.id, old, now, "test"));
  issues.push(...swallowIssues(file, now.id, old.swallowers, now.swallowers, "test"));
  return issues;
}

function swallowIssues(
  file: string,
  id: string,
  old: { caught: string; line: number }[],
  now: { caught: string; line: number }[],
  what: string,
): Issue[] {
  return added(old, now, (s) => s.caught).map((swallower) =>
    error(
      "failure-swallowed",
      `Failure swallowed in ${what} "${id}": "${swallower.caught}" is caught and not raised again`,
      {
        file,
        line: swallower.line,
        hint: "let the test fail; fix the code under test",
      },
    )
  );
}

function markerKey(marker: MeaningMarker): string {
  return `${lastSegment(marker.scope)}\0${marker.kind}\0${marker.meaning}\0${marker.text}`;
}

function markerIssue(file: string, marker: MeaningMarker): Issue {
  const where = marker.scope ? `"${marker.scope}"` : "the whole module";
  if (marker.kind === "dynamic") {
    return error("marker-dynamic", `Marker with a computed name added to ${where}: "${marker.text}"`, {
      file,
      line: marker.line,
      hint: "name markers directly; the gate cannot tell whether a computed one skips the test",
    });
  }
  return error(
    marker.kind === "skip" ? "test-skipped" : "test-xfailed",
    marker.kind === "skip"
      ? `Test skipped: "${marker.text}" (${marker.meaning}) added to ${where}`
      : `Test marked as an expected failure: "${marker.text}" (${marker.meaning}) added to ${where}`,
    { file, line: marker.line, hint: "make the test pass instead of skipping it or expecting it to fail" },
  );
}

/**
 * Markers and import-time exits new in `after`: markers of a created file,
 * and those `own` says belong to tests the patch adds, are theirs.
 */
export function importIssues(
  file: string,
  before: FileMeaning | null,
  after: FileMeaning,
  created: boolean,
  own: (marker: MeaningMarker) => boolean = () => false,
): Issue[] {
  const issues: Issue[] = [];
  if (!created) {
    // A runtime skip moved into a helper (a function that is not a test) is the one it was.
    const gone = added(after.markers, before?.markers ?? [], markerKey);
    for (const marker of added(before?.markers ?? [], after.markers, markerKey)) {
      const moved = !lastSegment(marker.scope).startsWith("test") &&
        gone.findIndex((old) =>
          old.kind === marker.kind && old.text === marker.text && old.meaning === marker.meaning
        );
      if (moved !== false && moved !== -1) {
        gone.splice(moved, 1);
        continue;
      }
      if (!own(marker)) issues.push(markerIssue(file, marker));
    }
  }
  const exits = (m: FileMeaning | null) => (m?.statements ?? []).filter((s) => s.exits);
  for (const exit of added(exits(before), exits(after), (s) => s.text)) {
    issues.push(error("collection-changed", `Test collection stopped: "${exit.text}" runs at import`, {
      file,
      line: exit.line,
      hint: "pytest exits having run nothing; remove the exit",
    }));
  }
  for (const annotation of added(after.annotations, before?.annotations ?? [], (a) => a.text)) {
    issues.push(
      error("assertion-removed", `Expected message "${annotation.text}" removed from a functional test`, {
        file,
        line: annotation.line,
        hint: FIX_HINT,
      }),
    );
  }
  return issues;
}

/**
 * Old tests with no pair: covered by new unpaired tests that run (no new
 * skip or xfail) and perform their checks, or by one with the same body (a
 * rename), or deleted.
 */
function unpairedIssues(
  file: string,
  gone: MeaningTest[],
  fresh: MeaningTest[],
  collected: boolean,
): Issue[] {
  // New checks cover by shape; one that repeats an old test's check covers that check alone.
  const carried = new Set(gone.flatMap((test) => test.checks.map((check) => check.subject)));
  carried.delete("");
  const pool = new Map<string, number>();
  for (const test of fresh) {
    for (const check of test.checks) {
      if (carried.has(check.subject)) continue;
      pool.set(check.skeleton, (pool.get(check.skeleton) ?? 0) + check.weight * test.cases);
    }
  }
  const bodies = fresh.map((test) => test.body);
  // The same check (the same subject, written out) in new tests, and the checks their pins decide.
  const same = new Map<string, number>();
  for (const test of fresh) {
    for (const check of test.checks) {
      same.set(check.subject, (same.get(check.subject) ?? 0) + check.weight * test.cases);
    }
  }
  const freshChecks = fresh.flatMap((test) => test.checks);
  const issues: Issue[] = [];
  for (const test of gone) {
    const needs = new Map<string, number>();
    const ownRuns = new Map<string, number>();
    for (const check of test.checks) {
      ownRuns.set(check.subject, (ownRuns.get(check.subject) ?? 0) + check.weight);
    }
    const decided = decidedBy(freshChecks, test.checks);
    for (const check of test.checks) {
      if (decided.includes(check)) continue;
      if (check.subject && (same.get(check.subject) ?? 0) >= ownRuns.get(check.subject)! * test.cases) {
        continue;
      }
      needs.set(check.skeleton, (needs.get(check.skeleton) ?? 0) + check.weight * test.cases);
    }
    const renamed = bodies.indexOf(test.body);
    const covered = renamed !== -1 ||
      (test.weight > 0 && [...needs].every(([skeleton, weight]) => (pool.get(skeleton) ?? 0) >= weight));
    if (covered) {
      if (renamed !== -1) bodies.splice(renamed, 1);
      else for (const [skeleton, weight] of needs) pool.set(skeleton, pool.get(skeleton)! - weight);
      issues.push(
        warning("assertion-changed", `Test "${test.id}" is gone; new tests of the file perform its checks`, {
          file,
          line: test.line,
        }),
      );
      continue;
    }
    issues.push(error(
      "test-deleted",
      collected
        ? `Test deleted or no longer collected: "${test.id}" (line ${test.line} of the original)`
        : `Test no longer collected: "${test.id}" (line ${test.line} of the original)`,
      { file, line: test.line, hint: "keep every existing test; add new ones instead" },
    ));
  }
  return issues;
}

/**
 * The test-weakening issues of one test module's change. `before` is null
 * for a created file, `after` null for a deleted one or one renamed out of
 * the collected names (`collected` false); `file` names the file.
 */
export function compareTestFiles(
  file: string,
  before: FileMeaning | null,
  after: FileMeaning | null,
  options: { collected?: boolean } = {},
): Issue[] {
  const issues: Issue[] = [];
  const oldTests = new Map((before?.tests ?? []).map((test) => [test.id, test]));
  const newTests = new Map((after?.tests ?? []).map((test) => [test.id, test]));
  const pairs: [MeaningTest, MeaningTest][] = [];
  const gone: MeaningTest[] = [];
  for (const [id, old] of oldTests) {
    const now = newTests.get(id);
    if (now) pairs.push([old, now]);
    else gone.push(old);
  }
  const paired = new Set(pairs.map(([, now]) => now.id));
  const fresh = [...newTests.values()].filter((test) => !paired.has(test.id));
  // A test moved into or out of a class keeps its own name.
  for (const old of [...gone]) {
    const name = lastSegment(old.id);
    const candidates = fresh.filter((test) => lastSegment(test.id) === name);
    if (candidates.length !== 1) continue;
    pairs.push([old, candidates[0]]);
    gone.splice(gone.indexOf(old), 1);
    fresh.splice(fresh.indexOf(candidates[0]), 1);
  }
  // A test renamed while its checks change keeps its setup (its statements that are not checks).
  const scope = (id: string) => id.slice(0, Math.max(0, id.lastIndexOf(".")));
  for (const old of [...gone]) {
    if (!old.setup) continue;
    const alike = (test: MeaningTest) => test.setup === old.setup && scope(test.id) === scope(old.id);
    const candidates = fresh.filter(alike);
    if (candidates.length !== 1 || gone.filter(alike).length !== 1) continue;
    pairs.push([old, candidates[0]]);
    gone.splice(gone.indexOf(old), 1);
    fresh.splice(fresh.indexOf(candidates[0]), 1);
  }
  // Markers the patch puts on tests it adds are theirs; those tests do not stand in for old ones.
  const ownMarkers = new Set(fresh.map((test) => lastSegment(test.id)));
  const marked = new Set(
    added(before?.markers ?? [], after?.markers ?? [], markerKey).map((marker) => lastSegment(marker.scope)),
  );
  const running = fresh.filter((test) => !marked.has(lastSegment(test.id)));
  issues.push(...unpairedIssues(file, gone, running, options.collected !== false && after !== null));
  for (const [old, now] of pairs) issues.push(...compareTest(file, old, now));
  if (after) {
    issues.push(
      ...importIssues(
        file,
        before,
        after,
        before === null,
        (marker) => ownMarkers.has(lastSegment(marker.scope)),
      ),
    );
  }
  return issues;
}

/**
 * The issues of a change to the non-test functions of a file of test code
 * (helpers, fixtures, hooks). `removedCounts`: whether a helper that had
 * checks and is gone is refused (support files: other modules import it).
 */
export function compareFunctions(
  file: string,
  before: FileMeaning | null,
  after: FileMeaning | null,
  options: { removedCounts: boolean; conftest: boolean },
): Issue[] {
  const issues: Issue[] = [];
  const now = new Map((after?.functions ?? []).map((fn) => [fn.id, fn]));
  const old = new Map((before?.functions ?? []).map((fn) => [fn.id, fn]));
  for (const [id, fn] of old) {
    const next = now.get(id);
    if (options.conftest && fn.hook && next?.text !== fn.text) {
      issues.push(
        error("test-config-changed", `Test hook "${id}" ${next ? "changed" : "removed"} in "${file}"`, {
          file,
          line: (next ?? fn).line,
          hint: "test configuration is not part of a fix; change the code under test",
        }),
      );
      continue;
    }
    if (!next) {
      if (options.removedCounts && fn.weight > 0) {
        issues.push(error("assertion-removed", `Test helper "${id}" removed with its checks`, {
          file,
          line: fn.line,
          hint: FIX_HINT,
        }));
      }
      continue;
    }
    issues.push(...weightIssues(file, id, fn, next, "test helper"));
    issues.push(...swallowIssues(file, id, fn.swallowers, next.swallowers, "test helper"));
  }
  if (options.conftest) {
    for (const [id, fn] of now) {
      if (fn.hook && !old.has(id)) {
        issues.push(error("test-config-changed", `Test hook "${id}" added to "${file}"`, {
          file,
          line: fn.line,
          hint: "test configuration is not part of a fix; change the code under test",
        }));
      }
    }
    const statements = (m: FileMeaning | null) => (m?.statements ?? []).filter((s) => !s.exits);
    const changed = [
      ...added(statements(before), statements(after), (s) => s.text),
      ...added(statements(after), statements(before), (s) => s.text),
    ];
    for (const statement of changed) {
      issues.push(
        error("test-config-changed", `Statement run at import of "${file}" changed: "${statement.text}"`, {
          file,
          line: statement.line,
          hint: "test configuration is not part of a fix; change the code under test",
        }),
      );
    }
  } else {
    // A helper rebound at module level (`assert_close = lambda *a: None`).
    const names = new Set((before?.functions ?? []).map((fn) => fn.id));
    for (const statement of added(before?.statements ?? [], after?.statements ?? [], (s) => s.text)) {
      const target = /^([A-Za-z_][A-Za-z0-9_]*)\s*[:=]/.exec(statement.text)?.[1];
      if (target && names.has(target)) {
        issues.push(
          error("assertion-removed", `Test helper "${target}" rebound at import: "${statement.text}"`, {
            file,
            line: statement.line,
            hint: FIX_HINT,
          }),
        );
      }
    }
  }
  return issues;
}
