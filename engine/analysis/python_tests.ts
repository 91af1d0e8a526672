/**
 * What a Python test suite is made of, read from the parse tree: which files
 * are tests or test configuration, which functions are tests, what each test
 * asserts and how strictly, what skips or expects a failure, and where a
 * failure is caught and dropped.
 *
 * The facts are structural and comparable across two versions of a file:
 * tests are named by their qualified name (`TestX.test_y`), assertions and
 * markers by their whitespace-normalized text, so a checker can pair the
 * tests of "before" and "after" and tell what a change did to each one.
 *
 * Test functions come from the code graph (`extractFileGraph`): a function
 * named `test*`, at module level or in a class. Assertion strength is a small
 * scale: 3 exact (`==`, `is`, `assertEqual`, `pytest.raises(ValueError)`),
 * 2 partial (`in`, `<`, `assertIn`, `assertAlmostEqual`, an exception as
 * broad as `Exception`), 1 truthiness (`assert x`, `assertTrue`), 0 vacuous
 * (`assert True`, `assert x or True`). Tolerances are the numeric arguments
 * that bound an approximate comparison (`rel=`, `atol=`, `places=`, the
 * bound of `abs(a - b) < 1e-6`), each with the direction that loosens it.
 *
 * @module
 */

import { extractFileGraph } from "../graph/extract.ts";
import type { Node, Tree } from "../parse/mod.ts";
import type { SourceFile } from "../workspace.ts";

/** A numeric bound of an approximate comparison. */
export interface Tolerance {
  /** The keyword (`rel`, `places`, ...) or `bound` for `abs(a - b) < N`. */
  name: string;
  value: number;
  /** Which way the value moves to accept more results. */
  looser: "larger" | "smaller";
}

/** One assertion in a test. */
export interface Assertion {
  /** `assert`, a method name (`assertEqual`), or a helper (`raises`, `assert_allclose`). */
  kind: string;
  /** Whitespace-normalized source text. */
  text: string;
  line: number;
  /** 3 exact, 2 partial, 1 truthiness, 0 vacuous. */
  strength: number;
  tolerances: Tolerance[];
}

/** Something that keeps a test from running or from counting as failed. */
export interface Marker {
  kind: "skip" | "xfail";
  /** Whitespace-normalized source text of the decorator, call or assignment. */
  text: string;
  line: number;
  /** Qualified name of the definition it sits in or decorates, "" at module level. */
  scope: string;
}

/** A `try` or `suppress` in a test that catches a failure and does not raise it again. */
export interface Swallower {
  /** What is caught, normalized (`AssertionError`, `Exception`, `<bare>`, `suppress(Exception)`). */
  caught: string;
  line: number;
}

/** One test function or method. */
export interface TestFunction {
  /** `name` or `Class.name`. */
  id: string;
  line: number;
  endLine: number;
  assertions: Assertion[];
  swallowers: Swallower[];
  /** `return` statements directly in the test's body (not in nested functions). */
  returns: number[];
}

/** The test structure of one Python file. */
export interface TestFileFacts {
  tests: TestFunction[];
  /** Skip/xfail markers anywhere in the file (decorators, calls, `pytestmark`, `__test__ = False`). */
  markers: Marker[];
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
const SKIP_EXCEPTIONS = new Set(["SkipTest", "Skipped", "SkipException"]);

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
const CATCHES_FAILURE = new Set(["AssertionError", "Exception", "BaseException"]);

function isAssertionCallee(name: string): boolean {
  const last = lastSegment(name);
  return /^(assert|fail)[A-Z_]/.test(last) || last === "assert_" || STRENGTH_3.has(last);
}

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

/** Every assertion inside `body`, in document order. */
export function assertionsIn(body: Node): Assertion[] {
  const out: Assertion[] = [];
  const visit = (node: Node) => {
    if (node.type === "assert_statement") {
      const condition = node.namedChildren[0];
      if (condition) {
        const { strength, tolerances } = conditionStrength(condition);
        out.push({
          kind: "assert",
          text: normalizeCode(node.text),
          line: node.startPosition.row + 1,
          strength,
          tolerances,
        });
      }
    } else if (node.type === "call") {
      const name = dottedName(node.childForFieldName("function"));
      if (name && isAssertionCallee(name)) {
        out.push({
          kind: lastSegment(name),
          text: normalizeCode(node.text),
          line: node.startPosition.row + 1,
          strength: callStrength(node, name),
          tolerances: keywordTolerances(node),
        });
        return; // an assertion's arguments are part of it
      }
    }
    for (const child of node.namedChildren) if (child) visit(child);
  };
  visit(body);
  return out;
}

function exceptNames(clause: Node): string[] {
  const caught = clause.namedChildren.find((child) => child !== null && child.type !== "block") ?? null;
  if (!caught) return ["<bare>"];
  const target = caught.type === "as_pattern" ? caught.namedChildren[0] : caught;
  if (!target) return ["<bare>"];
  if (target.type === "tuple" || target.type === "parenthesized_expression") {
    return target.namedChildren.filter((n): n is Node => n !== null).map((n) => lastSegment(dottedName(n)));
  }
  return [lastSegment(dottedName(target))];
}

/** `try`/`except` clauses and `suppress(...)` blocks inside `body` that drop a failure. */
export function swallowersIn(body: Node): Swallower[] {
  const out: Swallower[] = [];
  for (const clause of body.descendantsOfType("except_clause")) {
    if (!clause) continue;
    const names = exceptNames(clause);
    const catchesFailure = names.some((name) => name === "<bare>" || CATCHES_FAILURE.has(name));
    const reraises = clause.descendantsOfType("raise_statement").length > 0;
    if (catchesFailure && !reraises) {
      out.push({ caught: names.join(", "), line: clause.startPosition.row + 1 });
    }
  }
  for (const item of body.descendantsOfType("with_item")) {
    const value = item?.childForFieldName("value");
    const call = value?.type === "as_pattern" ? value.namedChildren[0] : value;
    if (call?.type === "call" && lastSegment(dottedName(call)) === "suppress") {
      out.push({ caught: normalizeCode(call.text), line: call.startPosition.row + 1 });
    }
  }
  return out;
}

function directReturns(body: Node): number[] {
  const out: number[] = [];
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "return_statement") out.push(child.startPosition.row + 1);
      else if (
        child.type !== "function_definition" && child.type !== "class_definition" && child.type !== "lambda"
      ) {
        visit(child);
      }
    }
  };
  visit(body);
  return out;
}

/** The definition node (function or class) whose keyword is on `line` and whose name is `name`. */
function definitionAt(tree: Tree, line: number, name: string): Node | undefined {
  const row = line - 1;
  const text = tree.rootNode.text.split("\n", row + 1)[row] ?? "";
  const column = text.search(/\S/);
  let node: Node | null = tree.rootNode.descendantForPosition({ row, column: Math.max(column, 0) });
  while (node) {
    if (
      (node.type === "function_definition" || node.type === "class_definition") &&
      node.childForFieldName("name")?.text === name
    ) return node;
    node = node.parent;
  }
  return undefined;
}

function enclosingScope(node: Node): string {
  const names: string[] = [];
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === "function_definition" || up.type === "class_definition") {
      names.unshift(up.childForFieldName("name")?.text ?? "");
    }
  }
  return names.join(".");
}

function decoratedName(decorator: Node): string {
  const definition = decorator.parent?.childForFieldName("definition");
  const own = definition?.childForFieldName("name")?.text ?? "";
  const outer = definition ? enclosingScope(definition) : "";
  return outer ? `${outer}.${own}` : own;
}

/** Skip and xfail markers of a whole file. */
export function markersIn(root: Node): Marker[] {
  const out: Marker[] = [];
  const add = (kind: "skip" | "xfail", node: Node, scope: string) =>
    out.push({ kind, text: normalizeCode(node.text), line: node.startPosition.row + 1, scope });
  for (const decorator of root.descendantsOfType("decorator")) {
    if (!decorator) continue;
    const kind = markerKind(dottedName(decorator.namedChildren[0] ?? null));
    if (kind) add(kind, decorator, decoratedName(decorator));
  }
  for (const call of root.descendantsOfType("call")) {
    if (!call || call.parent?.type === "decorator") continue;
    const kind = markerKind(dottedName(call.childForFieldName("function")));
    // `pytest.mark.skip(...)` as a value (pytestmark, parametrize marks) is found here too.
    if (kind) add(kind, call, enclosingScope(call));
  }
  for (const raise of root.descendantsOfType("raise_statement")) {
    const raised = raise?.namedChildren[0];
    if (raise && raised && SKIP_EXCEPTIONS.has(lastSegment(dottedName(raised)))) {
      add("skip", raise, enclosingScope(raise));
    }
  }
  for (const assignment of root.descendantsOfType("assignment")) {
    if (!assignment) continue;
    const left = assignment.childForFieldName("left")?.text ?? "";
    const right = assignment.childForFieldName("right");
    if (/(^|\.)__test__$/.test(left) && right?.type === "false") {
      add("skip", assignment, enclosingScope(assignment));
    } else if (left === "pytestmark" && right?.type !== "call") {
      // A bare marker attribute (`pytestmark = pytest.mark.xfail`): calls were counted above.
      const kind = markerKind(dottedName(right ?? null));
      if (kind) add(kind, assignment, enclosingScope(assignment));
    }
  }
  return out;
}

/**
 * The tests of a parsed Python file, found through its code graph: every
 * function or method whose name starts with `test`.
 */
export function testFileFacts(file: SourceFile, tree: Tree): TestFileFacts {
  const graph = extractFileGraph(file, tree);
  const tests: TestFunction[] = [];
  for (const symbol of graph.symbols) {
    if ((symbol.kind !== "function" && symbol.kind !== "method") || !symbol.name.startsWith("test")) continue;
    const node = definitionAt(tree, symbol.start_line, symbol.name);
    const body = node?.childForFieldName("body");
    if (!node || !body) continue;
    tests.push({
      id: symbol.parent ? `${symbol.parent}.${symbol.name}` : symbol.name,
      line: symbol.start_line,
      endLine: symbol.end_line,
      assertions: assertionsIn(body),
      swallowers: swallowersIn(body),
      returns: directReturns(body),
    });
  }
  return { tests, markers: markersIn(tree.rootNode) };
}
