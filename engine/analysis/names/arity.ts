/**
 * Arity where it is visible: the parameter count of a function that takes
 * a fixed number of arguments, and the argument counts of its calls, in
 * TypeScript, Go, Rust, Ruby, PHP and C. A function whose parameter list
 * changed length still called with the old count breaks those calls.
 *
 * Only what the language enforces and the text shows: a parameter with a
 * default, a rest or variadic parameter, a C `()` without prototype make a
 * function's arity open, and a spread argument (`...xs`, `xs...`, `*args`)
 * a call's; such ones are never judged. JavaScript checks no arity and
 * PHP only a missing argument (`tooFewOnly`); Java and C++ overload by
 * arity, so a changed count may pick another overload: none of them is
 * judged here. Methods are reached through a receiver whose type the text
 * does not show: only free functions count, defined once in the file.
 *
 * @module
 */

import type { LanguageId, Node, Tree } from "../../parse/mod.ts";

interface ArityRules {
  /** Function definition node types, and how to find their parameter list. */
  definitions: ReadonlySet<string>;
  parameters: (definition: Node) => Node | null;
  /** Parameter node types that make the arity open. */
  open: ReadonlySet<string>;
  /** Counts of one parameter node (Go's `a, b int` is two). */
  count?: (parameter: Node) => number;
  /** Call node types; the callee and the argument list. */
  calls: ReadonlySet<string>;
  callee: (call: Node) => Node | null;
  args: (call: Node) => Node | null;
  /** Argument node types that make a call's count unknown. */
  spread: ReadonlySet<string>;
  /** Only a call with fewer arguments than parameters breaks (PHP ignores extra ones). */
  tooFewOnly?: boolean;
  /** Whether a definition is a free function (not a method). */
  free?: (definition: Node) => boolean;
}

const field = (name: string) => (node: Node) => node.childForFieldName(name);

function cParameters(definition: Node): Node | null {
  let declarator = definition.childForFieldName("declarator");
  while (declarator && declarator.type !== "function_declarator") {
    declarator = declarator.childForFieldName("declarator");
  }
  return declarator?.childForFieldName("parameters") ?? null;
}

const RULES: Partial<Record<LanguageId, ArityRules>> = {
  typescript: {
    definitions: new Set(["function_declaration"]),
    parameters: field("parameters"),
    open: new Set(["optional_parameter", "rest_pattern", "assignment_pattern"]),
    count: (p) => (p.type === "required_parameter" && p.childForFieldName("value") ? Number.NaN : 1),
    calls: new Set(["call_expression"]),
    callee: field("function"),
    args: field("arguments"),
    spread: new Set(["spread_element"]),
  },
  go: {
    definitions: new Set(["function_declaration"]),
    parameters: field("parameters"),
    open: new Set(["variadic_parameter_declaration"]),
    count: (p) => Math.max(1, p.childrenForFieldName("name").length),
    calls: new Set(["call_expression"]),
    callee: field("function"),
    args: field("arguments"),
    spread: new Set(["variadic_argument"]),
  },
  rust: {
    definitions: new Set(["function_item"]),
    parameters: field("parameters"),
    open: new Set(["variadic_parameter"]),
    count: (p) => (p.type === "self_parameter" ? Number.NaN : 1),
    calls: new Set(["call_expression"]),
    callee: field("function"),
    args: field("arguments"),
    spread: new Set([]),
    free: (d) => !d.parent || d.parent.type !== "declaration_list",
  },
  ruby: {
    definitions: new Set(["method"]),
    parameters: field("parameters"),
    open: new Set([
      "optional_parameter",
      "splat_parameter",
      "hash_splat_parameter",
      "keyword_parameter",
      "block_parameter",
      "forward_parameter",
    ]),
    calls: new Set(["call"]),
    callee: (call) => (call.childForFieldName("receiver") ? null : call.childForFieldName("method")),
    args: field("arguments"),
    spread: new Set(["splat_argument", "hash_splat_argument", "block_argument", "pair", "forward_argument"]),
    free: (d) => !d.parent || d.parent.type === "program",
  },
  php: {
    definitions: new Set(["function_definition"]),
    parameters: field("parameters"),
    open: new Set(["variadic_parameter"]),
    count: (p) => (p.childForFieldName("default_value") ? Number.NaN : 1),
    calls: new Set(["function_call_expression"]),
    callee: field("function"),
    args: field("arguments"),
    spread: new Set(["variadic_unpacking"]),
    tooFewOnly: true,
  },
  c: {
    definitions: new Set(["function_definition"]),
    parameters: cParameters,
    open: new Set(["variadic_parameter", "..."]),
    count: (p) => (p.text.trim() === "void" ? 0 : 1),
    calls: new Set(["call_expression"]),
    callee: field("function"),
    args: field("arguments"),
    spread: new Set([]),
  },
};

/** A function's arity: a number, or null when open (see the module notes). */
function arityOf(rules: ArityRules, definition: Node): number | null {
  const list = rules.parameters(definition);
  if (!list) return rules.definitions.has("method") ? 0 : null; // a Ruby `def f` without parentheses
  let count = 0;
  const parameters = list.namedChildren.filter((node): node is Node =>
    node !== null && node.type !== "comment"
  );
  // C: `()` declares no prototype; `(void)` is none
  if (parameters.length === 0 && rules === RULES.c) return null;
  for (const parameter of parameters) {
    if (rules.open.has(parameter.type) || parameter.children.some((c) => c && rules.open.has(c.type))) {
      return null;
    }
    const n = rules.count ? rules.count(parameter) : 1;
    if (Number.isNaN(n)) {
      if (parameter.type === "self_parameter") continue;
      return null;
    }
    count += n;
  }
  return count;
}

/** Free functions of fixed arity, by name; a name defined twice is left out. */
export function fixedArities(language: LanguageId, tree: Tree): Map<string, number> {
  const rules = RULES[language];
  const out = new Map<string, number>();
  if (!rules) return out;
  const seen = new Set<string>();
  for (const definition of tree.rootNode.descendantsOfType([...rules.definitions])) {
    if (!definition || (rules.free && !rules.free(definition))) continue;
    const name = nameOf(rules, definition);
    if (!name) continue;
    if (seen.has(name)) {
      out.delete(name);
      continue;
    }
    seen.add(name);
    const arity = arityOf(rules, definition);
    if (arity !== null) out.set(name, arity);
  }
  for (const name of [...out.keys()]) if (!seen.has(name)) out.delete(name);
  return out;
}

function nameOf(rules: ArityRules, definition: Node): string | undefined {
  if (rules === RULES.c) {
    let declarator = definition.childForFieldName("declarator");
    while (declarator && declarator.type !== "function_declarator") {
      declarator = declarator.childForFieldName("declarator");
    }
    const id = declarator?.childForFieldName("declarator");
    return id?.type === "identifier" ? id.text : undefined;
  }
  return definition.childForFieldName("name")?.text;
}

/** A call of a name with a known argument count. */
export interface CountedCall {
  node: Node;
  count: number;
}

const callCache = new WeakMap<Tree, Map<string, CountedCall[]>>();

/** The calls of `name` in `tree` without a receiver and without spread arguments. */
export function callsOf(language: LanguageId, tree: Tree, name: string): CountedCall[] {
  let byName = callCache.get(tree);
  if (!byName) {
    byName = countedCalls(language, tree);
    callCache.set(tree, byName);
  }
  return byName.get(name) ?? [];
}

function countedCalls(language: LanguageId, tree: Tree): Map<string, CountedCall[]> {
  const rules = RULES[language];
  const out = new Map<string, CountedCall[]>();
  if (!rules) return out;
  for (const call of tree.rootNode.descendantsOfType([...rules.calls])) {
    if (!call) continue;
    const callee = rules.callee(call);
    if (!callee || (callee.type !== "identifier" && callee.type !== "name")) continue;
    const args = rules.args(call);
    if (!args) continue;
    const list = args.namedChildren.filter((node): node is Node => node !== null && node.type !== "comment");
    const spread = list.some((arg) =>
      rules.spread.has(arg.type) || arg.namedChildren.some((c) => c && rules.spread.has(c.type))
    );
    if (spread) continue;
    const calls = out.get(callee.text);
    const counted = { node: call, count: list.length };
    if (calls) calls.push(counted);
    else out.set(callee.text, [counted]);
  }
  return out;
}

/** Whether a call with `count` arguments breaks against `arity` in `language`. */
export function breaks(language: LanguageId, count: number, arity: number): boolean {
  return RULES[language]?.tooFewOnly ? count < arity : count !== arity;
}
