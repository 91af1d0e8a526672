/**
 * The vocabulary of a Python test suite, read from the parse tree: which
 * files are test modules or `conftest.py`, which names mark a test as
 * skipped or expected to fail, and how strictly an assertion checks.
 *
 * The gate (`engine/gate/`) builds each test's meaning from these
 * pieces; text is whitespace-normalized (`normalizeCode`) so two versions of
 * a file compare. Assertion strength is a small scale: 3 exact (`==`, `is`,
 * `assertEqual`, `pytest.raises(ValueError)`), 2 partial (`in`, `<`,
 * `assertIn`, `assertAlmostEqual`, an exception as broad as `Exception`),
 * 1 truthiness (`assert x`, `assertTrue`), 0 vacuous (`assert True`,
 * `assert x or True`). Tolerances are the numeric arguments that bound an
 * approximate comparison (`rel=`, `atol=`, `places=`, the bound of
 * `abs(a - b) < 1e-6`), each with the direction that loosens it.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";

/** A numeric bound of an approximate comparison. */
export interface Tolerance {
  /** The keyword (`rel`, `places`, ...) or `bound` for `abs(a - b) < N`. */
  name: string;
  value: number;
  /** Which way the value moves to accept more results. */
  looser: "larger" | "smaller";
}

/** A `try` or `suppress` in a test that catches a failure and does not raise it again. */
export interface Swallower {
  /** What is caught, normalized (`AssertionError`, `Exception`, `<bare>`, `suppress(Exception)`). */
  caught: string;
  line: number;
}

const TEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test|tests)\.py$/;
const CONFTEST = /(^|\/)conftest\.py$/;

/** Whether `path` names a Python test module as pytest and unittest discover them by default. */
export function isPythonTestFile(path: string): boolean {
  return TEST_FILE.test(path);
}

/** Whether `path` is a `conftest.py` (fixtures and hooks that shape the whole test run). */
export function isConftest(path: string): boolean {
  return CONFTEST.test(path);
}

/** Collapse whitespace runs to one space (text compared across versions of a file). */
export function normalizeCode(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The dotted name a callee or decorator is spelled with (`pytest.mark.skip`), "" when it is not a name. */
export function dottedName(node: Node | null): string {
  if (!node) return "";
  if (node.type === "identifier") return node.text;
  if (node.type === "attribute") {
    const object = dottedName(node.childForFieldName("object"));
    const attribute = node.childForFieldName("attribute")?.text ?? "";
    return object ? `${object}.${attribute}` : attribute;
  }
  if (node.type === "call") return dottedName(node.childForFieldName("function"));
  return "";
}

function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf(".") + 1);
}

const SKIP_NAMES = new Set(["skip", "skipif", "skipIf", "skipUnless", "skipTest", "importorskip", "SKIP"]);
const XFAIL_NAMES = new Set(["xfail", "expectedFailure", "XFAIL"]);

/** Whether a decorator or callee name marks a skip or an expected failure. */
export function markerKind(name: string): "skip" | "xfail" | undefined {
  const last = lastSegment(name);
  if (SKIP_NAMES.has(last)) return "skip";
  if (XFAIL_NAMES.has(last)) return "xfail";
  return undefined;
}

const STRENGTH_3 = new Set([
  "assertEqual",
  "assertEquals",
  "failUnlessEqual",
  "assertIs",
  "assertIsNone",
  "assertListEqual",
  "assertDictEqual",
  "assertTupleEqual",
  "assertSetEqual",
  "assertSequenceEqual",
  "assertMultiLineEqual",
  "assertCountEqual",
  "assertItemsEqual",
  "assertRaises",
  "assertRaisesRegex",
  "assertRaisesRegexp",
  "assertWarns",
  "assertWarnsRegex",
  "assertLogs",
  "assert_equal",
  "assert_array_equal",
  "assert_frame_equal",
  "assert_series_equal",
  "raises",
  "warns",
  "deprecated_call",
]);
const STRENGTH_1 = new Set([
  "assertTrue",
  "assertFalse",
  "assert_",
  "failUnless",
  "failIf",
  "assertIsNotNone",
]);
const BROAD_EXCEPTIONS = new Set(["Exception", "BaseException"]);
const TOLERANCE_LARGER = new Set([
  "rel",
  "abs",
  "rel_tol",
  "abs_tol",
  "rtol",
  "atol",
  "delta",
  "tol",
  "epsilon",
  "eps",
]);
const TOLERANCE_SMALLER = new Set(["places", "decimal", "significant"]);

function numberOf(node: Node | null): number | undefined {
  if (!node) return undefined;
  if (node.type === "integer" || node.type === "float") {
    const value = Number(node.text.replace(/_/g, ""));
    return Number.isFinite(value) ? value : undefined;
  }
  if (node.type === "unary_operator" && node.text.startsWith("-")) {
    const inner = numberOf(node.childForFieldName("argument"));
    return inner === undefined ? undefined : -inner;
  }
  if (node.type === "parenthesized_expression") return numberOf(node.namedChildren[0] ?? null);
  return undefined;
}

function isConstantTrue(node: Node | null): boolean {
  if (!node) return false;
  if (node.type === "true" || node.type === "string" || node.type === "concatenated_string") return true;
  const value = numberOf(node);
  if (value !== undefined) return value !== 0;
  if (node.type === "parenthesized_expression") return isConstantTrue(node.namedChildren[0] ?? null);
  return false;
}

/** Keyword tolerances anywhere inside `node` (`approx(x, rel=1e-3)`, `assertAlmostEqual(a, b, places=7)`). */
export function keywordTolerances(node: Node): Tolerance[] {
  const out: Tolerance[] = [];
  for (const kw of node.descendantsOfType("keyword_argument")) {
    if (!kw) continue;
    const name = kw.childForFieldName("name")?.text ?? "";
    const value = numberOf(kw.childForFieldName("value"));
    if (value === undefined) continue;
    if (TOLERANCE_LARGER.has(name)) out.push({ name, value, looser: "larger" });
    else if (TOLERANCE_SMALLER.has(name)) out.push({ name, value, looser: "smaller" });
  }
  return out;
}

function comparisonOperators(node: Node): string[] {
  const ops: string[] = [];
  for (let i = 0; i < node.childCount; i++) {
    const child = node.child(i);
    if (child && !child.isNamed) ops.push(child.type);
  }
  return ops;
}

/** Strength and bound tolerances of the condition of an `assert` statement. */
export function conditionStrength(condition: Node): { strength: number; tolerances: Tolerance[] } {
  const tolerances = keywordTolerances(condition);
  if (isConstantTrue(condition)) return { strength: 0, tolerances };
  if (condition.type === "parenthesized_expression" && condition.namedChildren[0]) {
    return conditionStrength(condition.namedChildren[0]);
  }
  if (condition.type === "boolean_operator") {
    const operator = condition.childForFieldName("operator")?.type ?? "";
    if (operator === "or") {
      const vacuous = isConstantTrue(condition.childForFieldName("left")) ||
        isConstantTrue(condition.childForFieldName("right"));
      return { strength: vacuous ? 0 : 1, tolerances };
    }
    const left = conditionStrength(condition.childForFieldName("left")!);
    const right = conditionStrength(condition.childForFieldName("right")!);
    return { strength: Math.max(left.strength, right.strength), tolerances };
  }
  if (condition.type === "comparison_operator") {
    const ops = comparisonOperators(condition);
    const exact = ops.every((op) => op === "==" || op === "is");
    const operands = condition.namedChildren.filter((n): n is Node => n !== null);
    if (ops.length === 1 && (ops[0] === "<" || ops[0] === "<=")) {
      const bound = numberOf(operands[1] ?? null);
      if (bound !== undefined) tolerances.push({ name: "bound", value: bound, looser: "larger" });
    }
    return { strength: exact ? 3 : 2, tolerances };
  }
  return { strength: 1, tolerances };
}

/** Strength of an assertion call whose callee means `name` (its last segment decides). */
export function callStrength(call: Node, name: string): number {
  const last = lastSegment(name);
  const args = (call.childForFieldName("arguments")?.namedChildren ?? []).filter((n): n is Node =>
    n !== null
  );
  const positional = args.filter((arg) => arg.type !== "keyword_argument");
  if (STRENGTH_1.has(last)) return positional[0] && isConstantTrue(positional[0]) ? 0 : 1;
  if (STRENGTH_3.has(last)) {
    const raisesLike = /raises|Raises|warns|Warns/.test(last);
    if (raisesLike && positional[0] && exceptionIsBroad(positional[0])) return 2;
    return 3;
  }
  return 2;
}

function exceptionIsBroad(node: Node): boolean {
  if (node.type === "tuple" || node.type === "parenthesized_expression") {
    return node.namedChildren.some((child) => child !== null && exceptionIsBroad(child));
  }
  return BROAD_EXCEPTIONS.has(lastSegment(dottedName(node)));
}
