/**
 * What a Python file of test code means to the gate: the tests pytest
 * collects from it and what each one checks when it runs (`reach.ts`),
 * every skip or expected-failure marker as its name means it (`names.ts`),
 * its functions (helpers, fixtures, hooks) with their checks, the
 * statements run at import, and the expected-message annotations of
 * functional test inputs (`# [unused-import]`).
 *
 * Collection is read as pytest does it: the module's statements run in
 * order, so a test in an `if False:` block, after a module-level `raise` or
 * `sys.exit()`, removed by `del test_x`, or shadowed by a later definition of
 * the same name is not collected (the last definition of a name is the
 * test). A parametrized test runs once per case of its literal
 * `argvalues` (a `pytest.param(..., marks=skip/xfail)` case does not
 * count; stacked decorators multiply), and its weight is its checks' weight
 * times its cases.
 *
 * @module
 */

import type { Node, Tree } from "../parse/mod.ts";
import { withTree } from "../parse/mod.ts";
import type { Document } from "../parse/documents.ts";
import { resolveName } from "../analysis/scope.ts";
import { markerKind, normalizeCode, type Swallower } from "../analysis/python_tests.ts";
import { DYNAMIC, lastSegment, meaning, quickMeaning } from "./names.ts";
import { type Check, isCheckName, reachOf, truthOf, weightOf } from "./reach.ts";

/** A skip, expected failure, or a marker whose name is computed. */
export interface MeaningMarker {
  kind: "skip" | "xfail" | "dynamic";
  /** Whitespace-normalized source text. */
  text: string;
  /** What it means (`pytest.mark.skip`). */
  meaning: string;
  line: number;
  /** Qualified name of the definition it is in or decorates, "" at module level. */
  scope: string;
}

/** One collected test. */
export interface MeaningTest {
  /** `name` or `Class.name`. */
  id: string;
  line: number;
  checks: Check[];
  swallowers: Swallower[];
  /** `return` statements directly in its body. */
  returns: number[];
  /** Running cases of its parametrizations (1 when not parametrized). */
  cases: number;
  /** The parametrize cases' texts. */
  caseTexts: string[];
  /** Weight of its checks times its cases. */
  weight: number;
  /** Its body, whitespace-normalized (a test renamed keeps it). */
  body: string;
  /**
   * Its parameters and the statements of its body that are not checks or
   * its docstring ("" when it has none): a test renamed while its checks
   * change keeps it.
   */
  setup: string;
}

/** A function of a test-code file that is not a test (a helper, fixture or hook). */
export interface MeaningFunction {
  id: string;
  line: number;
  checks: Check[];
  swallowers: Swallower[];
  weight: number;
  hook: boolean;
  fixture: boolean;
  /** Whitespace-normalized definition text. */
  text: string;
}

/** A statement run at import (not a definition, import or docstring). */
export interface ModuleStatement {
  text: string;
  line: number;
  /** It ends the process or the test session (`sys.exit()`, `os._exit()`, `pytest.exit()`, `raise SystemExit`). */
  exits: boolean;
}

/** The meaning of one Python file of test code. */
export interface FileMeaning {
  tests: MeaningTest[];
  markers: MeaningMarker[];
  functions: MeaningFunction[];
  statements: ModuleStatement[];
  /** `# [message]` annotations of functional test inputs, one entry per message. */
  annotations: { text: string; line: number }[];
}

const EXIT_NAMES = new Set(["sys.exit", "os._exit", "exit", "quit", "pytest.exit", "os.abort", "os.kill"]);
const EXIT_EXCEPTIONS = new Set(["SystemExit", "KeyboardInterrupt"]);
const SKIP_EXCEPTIONS = new Set(["SkipTest", "Skipped", "SkipException", "unittest.SkipTest"]);

/** Whether a meaning names a skip, an expected failure or a computed marker. */
export function markerOf(name: string): MeaningMarker["kind"] | undefined {
  const last = lastSegment(name);
  if (last === DYNAMIC) return /(^|\.)(mark|pytest|unittest)\.<dynamic>$/.test(name) ? "dynamic" : undefined;
  return markerKind(last);
}

function definitionName(node: Node): string {
  return node.childForFieldName("name")?.text ?? "";
}

/** The qualified name of the definitions around `node` (a decorator belongs to what it decorates). */
function ownerOf(node: Node): string {
  const names: string[] = [];
  for (let up: Node | null = node.type === "decorator" ? node : node.parent; up; up = up.parent) {
    if (up.type === "function_definition" || up.type === "class_definition") {
      names.unshift(definitionName(up));
    } else if (up.type === "decorator") {
      const definition = up.parent?.childForFieldName("definition");
      if (definition) names.unshift(definitionName(definition));
      up = up.parent ?? up; // the decorated_definition; go on above it
    }
  }
  return names.join(".");
}

function markersIn(doc: Document): MeaningMarker[] {
  const out: MeaningMarker[] = [];
  const add = (kind: MeaningMarker["kind"], node: Node, meant: string) =>
    out.push({
      kind,
      text: normalizeCode(node.text),
      meaning: meant,
      line: node.startPosition.row + 1,
      scope: ownerOf(node),
    });
  const root = doc.tree.rootNode;
  for (const decorator of root.descendantsOfType("decorator")) {
    if (!decorator) continue;
    const meant = meaning(doc, decorator);
    const kind = markerOf(meant);
    if (kind) add(kind, decorator, meant);
  }
  for (const call of root.descendantsOfType("call")) {
    if (!call || call.parent?.type === "decorator") continue;
    const meant = quickMeaning(doc, call.childForFieldName("function"));
    const kind = markerOf(meant);
    if (kind) add(kind, call, meant);
  }
  // A marker used as a value: `marks=pytest.mark.xfail`, `flaky = pytest.mark.skip`, `pytestmark = ...`.
  for (const attribute of root.descendantsOfType("attribute")) {
    if (!attribute) continue;
    const parent = attribute.parent;
    if (parent?.type === "attribute" && parent.childForFieldName("object")?.id === attribute.id) continue;
    if (parent?.type === "call" && parent.childForFieldName("function")?.id === attribute.id) continue;
    if (parent?.type === "decorator") continue;
    const meant = quickMeaning(doc, attribute);
    const kind = markerOf(meant);
    if (kind && /(^|\.)mark\.|^unittest\./.test(meant)) add(kind, attribute, meant);
  }
  for (const raise of root.descendantsOfType("raise_statement")) {
    const raised = raise?.namedChildren[0];
    const meant = raised ? meaning(doc, raised) : "";
    if (raise && (SKIP_EXCEPTIONS.has(lastSegment(meant)) || SKIP_EXCEPTIONS.has(meant))) {
      add("skip", raise, meant);
    }
  }
  for (const assignment of root.descendantsOfType("assignment")) {
    const left = assignment?.childForFieldName("left")?.text ?? "";
    const right = assignment?.childForFieldName("right");
    if (assignment && /(^|\.)__test__$/.test(left) && truthOf(right ?? null) === false) {
      add("skip", assignment, "__test__ = False");
    }
  }
  return out;
}

/** A parametrize decorator's running cases and their texts. */
function parametrizeCases(doc: Document, decorator: Node): { cases: number; texts: string[] } | undefined {
  const call = decorator.namedChildren[0];
  if (call?.type !== "call" || lastSegment(meaning(doc, call)) !== "parametrize") return undefined;
  const args = (call.childForFieldName("arguments")?.namedChildren ?? []).filter((n): n is Node =>
    n !== null
  );
  const keyword = args.find((arg) =>
    arg.type === "keyword_argument" && arg.childForFieldName("name")?.text === "argvalues"
  );
  let values = keyword?.childForFieldName("value") ??
    args.filter((arg) => arg.type !== "keyword_argument")[1];
  if (!values) return undefined;
  if (values.type === "identifier") {
    const binding = resolveName(doc, values.text, values).binding;
    const target = binding?.kind === "assignment"
      ? doc.tree.rootNode.descendantForIndex(binding.start)
      : undefined;
    const right = target?.parent?.type === "assignment"
      ? target.parent.childForFieldName("right")
      : undefined;
    if (right) values = right;
  }
  if (values.type !== "list" && values.type !== "tuple") {
    return { cases: 1, texts: [normalizeCode(values.text)] };
  }
  const elements = values.namedChildren.filter((n): n is Node => n !== null);
  let cases = 0;
  for (const element of elements) {
    const marked = element.type === "call" && lastSegment(meaning(doc, element)) === "param" &&
      element.descendantsOfType(["attribute", "identifier", "call"]).some((n) =>
        n !== null && n.parent?.type !== "attribute" && markerOf(meaning(doc, n)) !== undefined
      );
    if (!marked) cases++;
  }
  return { cases, texts: elements.map((element) => normalizeCode(element.text)) };
}

function decoratorsOf(definition: Node): Node[] {
  const parent = definition.parent;
  if (parent?.type !== "decorated_definition") return [];
  return parent.namedChildren.filter((n): n is Node => n?.type === "decorator");
}

function testOf(
  doc: Document,
  fn: Node,
  id: string,
  owner: Node | undefined,
  classDecorators: Node[],
): MeaningTest {
  const reach = reachOf(doc, fn, owner);
  let cases = 1;
  const caseTexts: string[] = [];
  for (const decorator of [...classDecorators, ...decoratorsOf(fn)]) {
    const found = parametrizeCases(doc, decorator);
    if (!found) continue;
    cases *= found.cases;
    caseTexts.push(...found.texts);
  }
  const returns: number[] = [];
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "return_statement") returns.push(child.startPosition.row + 1);
      else if (!/^(function_definition|class_definition|lambda|decorated_definition)$/.test(child.type)) {
        visit(child);
      }
    }
  };
  const body = fn.childForFieldName("body");
  if (body) visit(body);
  return {
    id,
    line: fn.startPosition.row + 1,
    checks: reach.checks,
    swallowers: reach.swallowers,
    returns,
    cases,
    caseTexts,
    weight: weightOf(reach.checks) * cases,
    body: normalizeCode(body?.text ?? ""),
    setup: setupOf(doc, fn),
  };
}

/** A test's parameters and its body's statements that are not checks, nor its docstring. */
function setupOf(doc: Document, fn: Node): string {
  const statements = (fn.childForFieldName("body")?.namedChildren ?? []).filter(
    (statement): statement is Node => {
      if (!statement || statement.type === "assert_statement" || statement.type === "comment") return false;
      if (statement.type !== "expression_statement") return true;
      const inner = statement.namedChildren[0];
      if (inner?.type === "string") return false;
      if (inner?.type !== "call") return true;
      const callee = inner.childForFieldName("function");
      return !isCheckName(quickMeaning(doc, callee), callee?.text ?? "");
    },
  );
  if (statements.length === 0) return "";
  const parameters = normalizeCode(fn.childForFieldName("parameters")?.text ?? "");
  return [parameters, ...statements.map((statement) => normalizeCode(statement.text))].join("\n");
}

interface Collector {
  doc: Document;
  /** Only the statements run at import (the code under test: nothing else is read). */
  statementsOnly: boolean;
  tests: Map<string, MeaningTest>;
  functions: MeaningFunction[];
  statements: ModuleStatement[];
}

function isExit(doc: Document, statement: Node): boolean {
  if (statement.type === "raise_statement") {
    const raised = statement.namedChildren[0];
    return raised !== undefined && raised !== null && EXIT_EXCEPTIONS.has(lastSegment(meaning(doc, raised)));
  }
  return statement.descendantsOfType("call").some((call) =>
    call !== null && EXIT_NAMES.has(meaning(doc, call.childForFieldName("function")))
  );
}

function isMainGuard(condition: Node | null): boolean {
  return /__name__\s*==\s*['"]__main__['"]/.test(condition?.text ?? "");
}

/**
 * Run the statements of a module or class body as import does: definitions
 * collected, constant branches chosen, and nothing after a statement that
 * leaves the body.
 */
function collectBlock(
  c: Collector,
  block: Node,
  prefix: string,
  owner: Node | undefined,
  classDecorators: Node[],
) {
  for (const statement of block.namedChildren) {
    if (!statement) continue;
    const definition = statement.type === "decorated_definition"
      ? statement.childForFieldName("definition")
      : statement;
    if (definition?.type === "function_definition") {
      if (c.statementsOnly) continue;
      const name = definitionName(definition);
      const id = prefix ? `${prefix}.${name}` : name;
      c.tests.delete(id); // a later definition shadows an earlier one
      if (name.startsWith("test")) c.tests.set(id, testOf(c.doc, definition, id, owner, classDecorators));
      else {
        const reach = reachOf(c.doc, definition, owner);
        c.functions.push({
          id,
          line: definition.startPosition.row + 1,
          checks: reach.checks,
          swallowers: reach.swallowers,
          weight: weightOf(reach.checks),
          hook: !prefix && name.startsWith("pytest_"),
          fixture: decoratorsOf(definition).some((d) => lastSegment(meaning(c.doc, d)) === "fixture"),
          text: normalizeCode(statement.text),
        });
      }
      continue;
    }
    if (definition?.type === "class_definition") {
      const name = definitionName(definition);
      const id = prefix ? `${prefix}.${name}` : name;
      for (const key of [...c.tests.keys()]) if (key.startsWith(`${id}.`)) c.tests.delete(key);
      const body = definition.childForFieldName("body");
      if (body) collectBlock(c, body, id, definition, [...classDecorators, ...decoratorsOf(definition)]);
      continue;
    }
    if (/^(import_statement|import_from_statement|future_import_statement)$/.test(statement.type)) continue;
    if (statement.type === "expression_statement" && statement.namedChildren[0]?.type === "string") continue;
    if (statement.type === "if_statement" && isMainGuard(statement.childForFieldName("condition"))) continue;
    const exits = isExit(c.doc, statement);
    if (statement.type !== "if_statement" && statement.type !== "try_statement") {
      c.statements.push({
        text: normalizeCode(statement.text),
        line: statement.startPosition.row + 1,
        exits,
      });
    }
    if (statement.type === "delete_statement") {
      for (const target of statement.descendantsOfType("identifier")) {
        if (target) c.tests.delete(prefix ? `${prefix}.${target.text}` : target.text);
      }
    }
    if (statement.type === "if_statement") {
      collectIf(c, statement, prefix, owner, classDecorators);
      continue;
    }
    if (statement.type === "try_statement" || statement.type === "with_statement") {
      for (const child of statement.namedChildren) {
        const body = child?.type === "block" ? child : child?.namedChildren.find((n) => n?.type === "block");
        if (body) collectBlock(c, body, prefix, owner, classDecorators);
      }
      continue;
    }
    if (exits || statement.type === "raise_statement" || statement.type === "return_statement") return;
  }
}

function collectIf(
  c: Collector,
  statement: Node,
  prefix: string,
  owner: Node | undefined,
  decorators: Node[],
) {
  const clauses: { condition: Node | null; body: Node | null }[] = [
    { condition: statement.childForFieldName("condition"), body: statement.childForFieldName("consequence") },
  ];
  for (const alt of statement.childrenForFieldName("alternative")) {
    if (alt?.type === "elif_clause") {
      clauses.push({
        condition: alt.childForFieldName("condition"),
        body: alt.childForFieldName("consequence"),
      });
    } else if (alt) clauses.push({ condition: null, body: alt.childForFieldName("body") });
  }
  c.statements.push({
    text: `if ${normalizeCode(clauses[0].condition?.text ?? "")}`,
    line: statement.startPosition.row + 1,
    exits: false,
  });
  for (const clause of clauses) {
    const truth = clause.condition ? truthOf(clause.condition) : true;
    if (truth !== false && clause.body) collectBlock(c, clause.body, prefix, owner, decorators);
    if (truth === true) break;
  }
}

const ANNOTATION = /#\s*\[([a-z][a-z0-9-]*(?:\s*,\s*[a-z][a-z0-9-]*)*)\]/g;

function annotationsOf(text: string): FileMeaning["annotations"] {
  const out: FileMeaning["annotations"] = [];
  text.split("\n").forEach((line, index) => {
    for (const match of line.matchAll(ANNOTATION)) {
      for (const message of match[1].split(",")) out.push({ text: message.trim(), line: index + 1 });
    }
  });
  return out;
}

/** The meaning of a parsed file (with `statementsOnly`, its statements run at import alone). */
export function meaningOfTree(path: string, text: string, tree: Tree, statementsOnly = false): FileMeaning {
  const doc: Document = {
    file: { path, absPath: path, language: "python", text, bom: false, eol: "\n", mode: null },
    tree,
  } as Document;
  const collector: Collector = { doc, statementsOnly, tests: new Map(), functions: [], statements: [] };
  collectBlock(collector, tree.rootNode, "", undefined, []);
  return {
    tests: [...collector.tests.values()],
    markers: statementsOnly ? [] : markersIn(doc),
    functions: collector.functions,
    statements: collector.statements,
    annotations: statementsOnly ? [] : annotationsOf(text),
  };
}

/** The meaning of a Python file's text (null: the file is absent); `statementsOnly` as in `meaningOfTree`. */
export async function fileMeaning(
  path: string,
  text: string | null,
  statementsOnly = false,
): Promise<FileMeaning | null> {
  if (text === null) return null;
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  return await withTree("python", source, (tree) => meaningOfTree(path, source, tree, statementsOnly));
}
