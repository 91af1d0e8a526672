/**
 * The checks a piece of test code performs when it runs: a walk over a
 * function body that visits only what can execute, counting each check as
 * many times as it runs.
 *
 * What is not walked, because it never runs: the branch of an `if` whose
 * condition is a constant (`if False:`, `if 0:`, the `else` of `if True:`),
 * the body of a loop over nothing (`for _ in []:`, `range(0)`, `while
 * False:`), the statements after a `return`, `raise`, `break` or `continue`
 * in the same block, and a nested function or lambda nobody calls. What is
 * walked more than once: a loop over a literal runs its body once per
 * element (`for a, b in [(1, 2), (3, 4)]:` counts its assertion twice;
 * `range(3)` three times), so the same cases written as a loop count what
 * they counted written out. A call to a helper the walk can see (a
 * function of the same module, a nested function, a method of the test's
 * class through `self.`/`cls.`) is walked in place, so a check extracted
 * into a helper still counts for the test that calls it.
 *
 * A check is an `assert` statement or a call that means an assertion
 * (`self.assertEqual`, `pytest.raises`, `numpy.testing.assert_allclose`,
 * the same through any alias; `names.ts`). Its weight is how many times it
 * runs, or 0 when it cannot fail: a tautology (`assert "literal" is not
 * None`, `assert x == x`, `assertEqual(1, 1)`, `assert True`). A failure
 * swallowed (an `except` or `suppress` catching `AssertionError`,
 * `Exception`, `BaseException` or everything, through aliases, without
 * raising again) is recorded where it runs.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";
import type { Document } from "../parse/documents.ts";
import { resolveName } from "../analysis/scope.ts";
import {
  callStrength,
  conditionStrength,
  keywordTolerances,
  normalizeCode,
  type Swallower,
  type Tolerance,
} from "../analysis/python_tests.ts";
import { constantString, lastSegment, meaning, namesOf, quickMeaning } from "./names.ts";
import {
  derivedSubjects,
  inlined,
  isLiteral,
  type Locals,
  localsOf,
  NO_LOCALS,
  pinnedSubject,
  stable,
} from "./subject.ts";

export { isLiteral };

/** One check as it runs. */
export interface Check {
  /** `assert`, or the assertion's name (`assertEqual`, `raises`). */
  kind: string;
  /** Whitespace-normalized source text. */
  text: string;
  /** The check's shape without its values: kind, operators and the functions it calls. */
  skeleton: string;
  line: number;
  /** 3 exact, 2 partial, 1 truthiness, 0 vacuous (`engine/analysis/python_tests.ts`). */
  strength: number;
  tolerances: Tolerance[];
  /** How many times it runs (0 for a check that cannot fail). */
  weight: number;
  /** The helper it runs in, when not in the test's own body. */
  via?: string;
  /** Its text with the function's single-assignment locals written out, "" when it reads a rebound local (`subject.ts`). */
  subject: string;
  /** The subjects whose pin to a literal decides it (an assertion's; `subject.ts`). */
  derived: string[];
  /** The subject it pins to a literal (`assert S == "x"`), written out. */
  pin?: string;
}

/** What running a body performs. */
export interface Reach {
  checks: Check[];
  swallowers: Swallower[];
}

const MAX_INLINE_DEPTH = 5;
const MAX_TIMES = 1000;
const ASSERTION_NAMES = new Set([
  "raises",
  "warns",
  "deprecated_call",
  "assert_",
  "assertoutcome",
  "fnmatch_lines",
  "re_match_lines",
  "no_fnmatch_line",
  "no_re_match_line",
]);
const FAILURE_CATCHERS = new Set(["AssertionError", "Exception", "BaseException", "<bare>"]);
const TESTING_MODULES = /^(numpy|pandas|xarray|torch|tensorflow|scipy)\b.*\.testing\./;

/** Whether a callee meaning `name` (or spelled `spelled`) is an assertion. */
export function isCheckName(name: string, spelled: string): boolean {
  for (const candidate of [lastSegment(name), lastSegment(spelled)]) {
    if (/^(assert|fail)[A-Z_]/.test(candidate) || ASSERTION_NAMES.has(candidate)) return true;
  }
  return TESTING_MODULES.test(name) && lastSegment(name).startsWith("assert");
}

/** Whether a condition is constantly true or false (undefined when it depends on something). */
export function truthOf(node: Node | null): boolean | undefined {
  if (!node) return undefined;
  switch (node.type) {
    case "true":
      return true;
    case "false":
    case "none":
      return false;
    case "integer":
    case "float":
      return Number(node.text.replace(/_/g, "")) !== 0;
    case "string":
    case "concatenated_string": {
      const value = constantString(node);
      return value === undefined ? undefined : value !== "";
    }
    case "list":
    case "tuple":
    case "dictionary":
    case "set":
      // A display with an element is true whatever the element (`assert (x == y, "msg")`).
      if (node.namedChildren.some((child) => child && !/splat/.test(child.type))) return true;
      return isLiteral(node) ? false : undefined;
    case "parenthesized_expression":
      return truthOf(node.namedChildren[0] ?? null);
    case "not_operator": {
      const inner = truthOf(node.childForFieldName("argument"));
      return inner === undefined ? undefined : !inner;
    }
    default:
      return undefined;
  }
}

/** The value bound by a module-level `NAME = <literal>` that `node` names, or `node` itself. */
function literalBehind(doc: Document, node: Node): Node {
  if (node.type !== "identifier") return node;
  const binding = resolveName(doc, node.text, node).binding;
  if (binding?.kind !== "assignment") return node;
  const target = doc.tree.rootNode.descendantForIndex(binding.start);
  const assignment = target?.parent;
  if (
    !target || assignment?.type !== "assignment" || assignment.childForFieldName("left")?.id !== target.id
  ) return node;
  return assignment.childForFieldName("right") ?? node;
}

/** How many times a loop over `iterable` runs its body: its length when known, else 1. */
export function iterations(doc: Document, iterable: Node | null): number {
  if (!iterable) return 1;
  const node = literalBehind(doc, iterable);
  switch (node.type) {
    case "list":
    case "tuple":
    case "set":
    case "dictionary":
      return node.namedChildren.some((child) =>
          child?.type === "list_splat" || child?.type === "dictionary_splat"
        )
        ? Math.max(1, node.namedChildren.length)
        : node.namedChildren.length;
    case "parenthesized_expression":
      return iterations(doc, node.namedChildren[0] ?? null);
    case "call": {
      const callee = meaning(doc, node.childForFieldName("function"));
      const args = (node.childForFieldName("arguments")?.namedChildren ?? []).filter((n): n is Node =>
        n !== null && n.type !== "keyword_argument"
      );
      if (callee === "range") {
        const bounds = args.map((arg) => Number(arg.text.replace(/_/g, "")));
        if (bounds.length === 0 || bounds.some((b) => !Number.isInteger(b))) return 1;
        const [start, stop, step] = bounds.length === 1
          ? [0, bounds[0], 1]
          : [bounds[0], bounds[1], bounds[2] ?? 1];
        if (step === 0) return 1;
        return Math.min(MAX_TIMES, Math.max(0, Math.ceil((stop - start) / step)));
      }
      if (callee === "enumerate" || callee === "sorted" || callee === "reversed" || callee === "list") {
        return args[0] ? iterations(doc, args[0]) : 1;
      }
      if (callee === "zip" && args.length > 0) return Math.min(...args.map((arg) => iterations(doc, arg)));
      return 1;
    }
    case "string": {
      const value = constantString(node);
      return value === undefined ? 1 : Math.min(MAX_TIMES, value.length);
    }
    default:
      return 1;
  }
}

function operands(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null);
}

/** Whether an `assert` condition cannot fail: constant operands only, or one value compared with itself. */
function tautological(condition: Node): boolean {
  if (condition.type === "parenthesized_expression") return tautological(condition.namedChildren[0]!);
  if (truthOf(condition) === true) return true;
  if (condition.type === "comparison_operator") {
    const sides = operands(condition);
    if (sides.every(isLiteral)) return true;
    return sides.length === 2 && normalizeCode(sides[0].text) === normalizeCode(sides[1].text);
  }
  if (condition.type === "boolean_operator") {
    const left = condition.childForFieldName("left");
    const right = condition.childForFieldName("right");
    const operator = condition.childForFieldName("operator")?.type;
    if (operator === "or") {
      return (left !== null && tautological(left)) || (right !== null && tautological(right));
    }
    return left !== null && right !== null && tautological(left) && tautological(right);
  }
  return false;
}

/** The names of the functions a check calls, sorted (part of its skeleton). */
function calleesIn(doc: Document, node: Node): string {
  const names = new Set<string>();
  for (const call of node.descendantsOfType("call")) {
    if (call) names.add(lastSegment(meaning(doc, call.childForFieldName("function"))));
  }
  names.delete("");
  return [...names].sort().join(",");
}

function assertCheck(
  doc: Document,
  node: Node,
  times: number,
  via: string | undefined,
  locals: Locals,
): Check | undefined {
  const condition = node.namedChildren[0];
  if (!condition) return undefined;
  const { strength: spelled, tolerances } = conditionStrength(condition);
  const strength = tautological(condition) ? 0 : spelled;
  const ops = condition.type === "comparison_operator"
    ? condition.children.filter((c) => c !== null && !c.isNamed).map((c) => c!.type).join(" ")
    : condition.type;
  return {
    kind: "assert",
    text: normalizeCode(node.text),
    skeleton: `assert:${ops}:${calleesIn(doc, condition)}`,
    line: node.startPosition.row + 1,
    strength,
    tolerances,
    weight: strength > 0 ? times : 0,
    via,
    subject: stable(condition, locals) ? `assert ${inlined(condition, locals)}` : "",
    derived: strength > 0 ? derivedSubjects(condition, locals) : [],
    pin: strength > 0 ? pinnedSubject(condition, locals) : undefined,
  };
}

function callCheck(
  doc: Document,
  call: Node,
  name: string,
  times: number,
  via: string | undefined,
  locals: Locals,
): Check {
  const args = (call.childForFieldName("arguments")?.namedChildren ?? []).filter((n): n is Node =>
    n !== null
  );
  const positional = args.filter((arg) => arg.type !== "keyword_argument");
  const last = lastSegment(name);
  const constant = positional.length > 0 && positional.every(isLiteral) &&
    !/raises|warns|Raises|Warns/.test(last);
  const strength = constant ? 0 : callStrength(call, last);
  return {
    kind: last,
    text: normalizeCode(call.text),
    skeleton: `${last}:${args.map((arg) => calleesIn(doc, arg)).join(",")}`,
    line: call.startPosition.row + 1,
    strength,
    tolerances: keywordTolerances(call),
    weight: strength > 0 ? times : 0,
    via,
    subject: stable(call, locals) ? inlined(call, locals) : "",
    derived: [],
  };
}

function exceptNames(doc: Document, clause: Node): string[] {
  const caught = clause.namedChildren.find((child) => child !== null && child.type !== "block") ?? null;
  if (!caught) return ["<bare>"];
  const target = caught.type === "as_pattern" ? caught.namedChildren[0] : caught;
  if (!target) return ["<bare>"];
  const items = target.type === "tuple" || target.type === "parenthesized_expression"
    ? target.namedChildren.filter((n): n is Node => n !== null)
    : [target];
  return items.map((item) => lastSegment(meaning(doc, item) || item.text));
}

/** A walk over one body: where it is, what it found, which helpers it is inside. */
interface Walk {
  doc: Document;
  out: Reach;
  /** The class whose methods `self.x()` may call. */
  owner?: Node;
  /** Function bodies being walked (a recursive helper is walked once). */
  active: Set<number>;
  /** Nested functions defined in the bodies walked so far, by name. */
  locals: Map<string, Node>;
  /** The single-assignment locals of the function whose body is walked (`subject.ts`). */
  assigned: Locals;
  via?: string;
}

/** The function a call runs, when the walk can see it. */
function helperOf(walk: Walk, callee: Node | null): { fn: Node; name: string } | undefined {
  if (!callee) return undefined;
  if (callee.type === "identifier") {
    const local = walk.locals.get(callee.text);
    if (local) return { fn: local, name: callee.text };
    if (!namesOf(walk.doc).functions.has(callee.text)) return undefined;
    const binding = resolveName(walk.doc, callee.text, callee).binding;
    if (binding?.kind !== "def") return undefined;
    const fn = walk.doc.tree.rootNode.descendantForIndex(binding.start)?.parent;
    return fn?.type === "function_definition" ? { fn, name: callee.text } : undefined;
  }
  if (callee.type === "attribute" && walk.owner) {
    const object = callee.childForFieldName("object")?.text;
    const name = callee.childForFieldName("attribute")?.text ?? "";
    if (object !== "self" && object !== "cls") return undefined;
    for (const statement of walk.owner.childForFieldName("body")?.namedChildren ?? []) {
      const fn = statement?.type === "decorated_definition"
        ? statement.childForFieldName("definition")
        : statement;
      if (fn?.type === "function_definition" && fn.childForFieldName("name")?.text === name) {
        return { fn, name };
      }
    }
  }
  return undefined;
}

function visitCall(walk: Walk, call: Node, times: number): void {
  const callee = call.childForFieldName("function");
  const name = quickMeaning(walk.doc, callee);
  const spelled = callee?.text ?? "";
  // A helper the walk can see is walked, whatever its name says (`assert_listed` written here).
  const helper = helperOf(walk, callee);
  if (!helper && isCheckName(name, spelled)) {
    walk.out.checks.push(callCheck(walk.doc, call, name || spelled, times, walk.via, walk.assigned));
    return;
  }
  if (lastSegment(name) === "suppress") {
    const caught = (call.childForFieldName("arguments")?.namedChildren ?? [])
      .map((arg) => (arg ? lastSegment(meaning(walk.doc, arg) || arg.text) : ""));
    if (caught.some((each) => FAILURE_CATCHERS.has(each))) {
      walk.out.swallowers.push({
        caught: `suppress(${caught.join(", ")})`,
        line: call.startPosition.row + 1,
      });
    }
  }
  visitChildren(walk, call, times);
  if (helper && walk.active.size < MAX_INLINE_DEPTH && !walk.active.has(helper.fn.id)) {
    const body = helper.fn.childForFieldName("body");
    if (!body) return;
    walk.active.add(helper.fn.id);
    const via = walk.via;
    const assigned = walk.assigned;
    walk.via = via ?? helper.name;
    walk.assigned = localsOf(helper.fn);
    walkBlock(walk, body, times);
    walk.via = via;
    walk.assigned = assigned;
    walk.active.delete(helper.fn.id);
  }
}

function visitChildren(walk: Walk, node: Node, times: number): void {
  for (const child of node.namedChildren) if (child) visit(walk, child, times);
}

/** Visit an expression or a simple statement. */
function visit(walk: Walk, node: Node, times: number): void {
  if (times === 0) return;
  switch (node.type) {
    case "assert_statement": {
      const check = assertCheck(walk.doc, node, times, walk.via, walk.assigned);
      if (check) walk.out.checks.push(check);
      return;
    }
    case "call":
      return visitCall(walk, node, times);
    case "lambda":
    case "function_definition":
    case "class_definition":
    case "decorated_definition":
      return;
    case "block":
      walkBlock(walk, node, times);
      return;
    default:
      if (isCompound(node.type)) {
        walkCompound(walk, node, times);
        return;
      }
      return visitChildren(walk, node, times);
  }
}

const COMPOUND = new Set([
  "if_statement",
  "for_statement",
  "while_statement",
  "try_statement",
  "with_statement",
]);

function isCompound(type: string): boolean {
  return COMPOUND.has(type);
}

/** Walk a compound statement; true when control cannot pass it (a constant branch that leaves). */
function walkCompound(walk: Walk, node: Node, times: number): boolean {
  const field = (name: string) => node.childForFieldName(name);
  switch (node.type) {
    case "if_statement": {
      const clauses: { condition: Node | null; body: Node | null }[] = [
        { condition: field("condition"), body: field("consequence") },
      ];
      for (const alt of node.childrenForFieldName("alternative")) {
        if (!alt) continue;
        if (alt.type === "elif_clause") {
          clauses.push({
            condition: alt.childForFieldName("condition"),
            body: alt.childForFieldName("consequence"),
          });
        } else clauses.push({ condition: null, body: alt.childForFieldName("body") });
      }
      for (const clause of clauses) {
        const truth = clause.condition ? truthOf(clause.condition) : true;
        if (clause.condition) visit(walk, clause.condition, times);
        const ended = truth !== false && clause.body !== null && walkBlock(walk, clause.body, times);
        // `if True: return` ends the block around it too; an `else` only when no branch before it could run.
        if (truth === true) {
          return ended &&
            clauses.slice(0, clauses.indexOf(clause)).every((c) => truthOf(c.condition) === false);
        }
      }
      return false;
    }
    case "for_statement": {
      const right = field("right");
      if (right) visit(walk, right, times);
      const body = field("body");
      if (body) walkBlock(walk, body, times * iterations(walk.doc, right));
      const other = field("alternative")?.childForFieldName("body");
      if (other) walkBlock(walk, other, times);
      return false;
    }
    case "while_statement": {
      const condition = field("condition");
      if (truthOf(condition) === false) return false;
      if (condition) visit(walk, condition, times);
      const body = field("body");
      if (body) walkBlock(walk, body, times);
      return false;
    }
    case "try_statement": {
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === "except_clause" || child.type === "except_group_clause") {
          const names = exceptNames(walk.doc, child);
          const reraises = child.descendantsOfType("raise_statement").length > 0;
          if (!reraises && names.some((name) => FAILURE_CATCHERS.has(name))) {
            walk.out.swallowers.push({ caught: names.join(", "), line: child.startPosition.row + 1 });
          }
        }
        const body = child.type === "block" ? child : child.namedChildren.find((c) => c?.type === "block");
        if (body) walkBlock(walk, body, times);
      }
      return false;
    }
    case "with_statement":
      visitChildren(walk, node, times);
      return false;
  }
  return false;
}

/** Walk the statements of a block in order, stopping where control cannot pass (then true). */
function walkBlock(walk: Walk, block: Node, times: number): boolean {
  if (times === 0) return false;
  for (const statement of block.namedChildren) {
    if (!statement) continue;
    if (statement.type === "function_definition") {
      const name = statement.childForFieldName("name")?.text;
      if (name) walk.locals.set(name, statement);
      continue;
    }
    if (statement.type === "decorated_definition") {
      const fn = statement.childForFieldName("definition");
      const name = fn?.childForFieldName("name")?.text;
      if (fn?.type === "function_definition" && name) walk.locals.set(name, fn);
      continue;
    }
    if (isCompound(statement.type)) {
      if (walkCompound(walk, statement, times)) return true;
      continue;
    }
    visit(walk, statement, times);
    if (/^(return|raise|break|continue)_statement$/.test(statement.type)) return true;
  }
  return false;
}

/**
 * What running `fn` (a function definition) performs; `owner` is its class
 * when it is a method (for `self.helper()` calls).
 */
export function reachOf(doc: Document, fn: Node, owner?: Node, times = 1): Reach {
  const walk: Walk = {
    doc,
    out: { checks: [], swallowers: [] },
    owner,
    active: new Set([fn.id]),
    locals: new Map(),
    assigned: fn.type === "function_definition" ? localsOf(fn) : NO_LOCALS,
  };
  const body = fn.childForFieldName("body");
  if (body) walkBlock(walk, body, times);
  return walk.out;
}

/** The total weight of a list of checks. */
export function weightOf(checks: readonly Check[]): number {
  return checks.reduce((sum, check) => sum + check.weight, 0);
}
