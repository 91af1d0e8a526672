/**
 * Typed parameters: a parameter value is validated by parsing it in its
 * grammatical role, wrapped in a tiny context of the target's language.
 *
 * | kind               | Python context                          | JS/TS context                    |
 * | ------------------ | --------------------------------------- | -------------------------------- |
 * | `expression`       | `__x = (<value>)`: exactly one expression | `__x = (<value>);`             |
 * | `condition`        | as `expression`                          | as `expression`                |
 * | `statements`       | a module (dedented)                      | `function __f() { <value> }`   |
 * | `type_annotation`  | `__x: <value>`                           | `let __x: <value>;` (TS)       |
 * | `import_statement` | one `import` / `from ... import`         | one `import` declaration       |
 * | `decorator`        | `@<value>` above `def __f(): pass`       | `@<value>` above a class (TS)  |
 * | `parameters`       | `def __f(<value>): pass`                 | `function __f(<value>) {}`     |
 * | `identifier`       | a non-keyword identifier                 | the same                       |
 *
 * Go, Rust, Java, C, C++, PHP and Ruby values are parsed in the contexts of
 * `snippet_contexts.ts` (an expression between the context's own
 * parentheses, statements in a function body, a type where a variable's
 * type goes).
 *
 * "Exactly one expression" means the parenthesised context node spans our
 * own parentheses: `a) + (b` parses, but as a `+` of two parenthesised
 * expressions, and is rejected. Every problem is a `param-invalid` issue whose
 * message names the parameter and whose `path` is `["params", name]`.
 *
 * @module
 */

import { checkNewName } from "../analysis/rename_safety.ts";
import { error, fail, type Issue, IssueError } from "../base/issue.ts";
import { parseLocator } from "../locate/mod.ts";
import { type LanguageId, type Node, syntaxProblems, type Tree, withTree } from "../parse/mod.ts";
import type { ParamKind, ParamSpec } from "./catalog_types.ts";
import { SNIPPET_CONTEXTS } from "./snippet_contexts.ts";

/** Options of {@link validateParam}. */
export interface ParamOptions {
  /** The language the value is code in (the target file's). */
  language: LanguageId;
  /** The parameter's name, for messages and the issue path. */
  name: string;
}

const JS_FAMILY = new Set<LanguageId>(["javascript", "typescript", "tsx"]);

/**
 * A string parameter of an operator; throws `param-missing` or
 * `param-invalid` (path `["params", name]`). With `optional`, an absent
 * parameter is `undefined`.
 */
export function stringParam(params: Record<string, unknown>, name: string): string;
export function stringParam(
  params: Record<string, unknown>,
  name: string,
  options: { optional: true },
): string | undefined;
export function stringParam(
  params: Record<string, unknown>,
  name: string,
  options: { optional?: boolean } = {},
): string | undefined {
  const value = params[name];
  if (value === undefined && options.optional) return undefined;
  if (typeof value !== "string") {
    fail(
      value === undefined ? "param-missing" : "param-invalid",
      value === undefined ? `Missing parameter "${name}"` : `Parameter "${name}" must be a string`,
      { path: ["params", name] },
    );
  }
  return value;
}

/** Whether `language` is JavaScript, TypeScript or TSX. */
export function isJsFamily(language: LanguageId): boolean {
  return JS_FAMILY.has(language);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `"${value.length > 60 ? value.slice(0, 57) + "..." : value}"`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

function short(value: string): string {
  const one = value.trim().replace(/\s+/g, " ");
  return one.length > 60 ? `${one.slice(0, 57)}...` : one;
}

function hasProblems(tree: Tree): boolean {
  return syntaxProblems(tree, 1).length > 0;
}

/** Remove the common indentation of `value`'s non-blank lines (a model may send indented code). */
export function dedent(value: string): string {
  const lines = value.replace(/\r\n?/g, "\n").split("\n");
  const widths = lines.filter((line) => line.trim() !== "").map((line) => /^[ \t]*/.exec(line)![0].length);
  const common = widths.reduce((a, b) => Math.min(a, b), widths.length ? Infinity : 0);
  return lines.map((line) => line.slice(Math.min(common, /^[ \t]*/.exec(line)![0].length))).join("\n");
}

const PY_STATEMENT_START =
  /^\s*(return|raise|pass|break|continue|del|import|from|global|nonlocal|assert|def|class|if|for|while|with|try)\b/;
const JS_STATEMENT_START =
  /^\s*(return|throw|break|continue|var|let|const|import|export|if|for|while|do|try|switch|class)\b/;

/**
 * Whether `value` parses as exactly one expression in `language`. Returns the
 * expression's node type (the caller's tree is freed), or undefined.
 */
export async function expressionType(value: string, language: LanguageId): Promise<string | undefined> {
  if (value.trim() === "") return undefined;
  const context = SNIPPET_CONTEXTS[language];
  if (context) {
    return await withParenthesized(value, language, (inner) => inner?.type);
  }
  const prefix = "__x = (";
  const text = `${prefix}\n${value}\n)${isJsFamily(language) ? ";" : ""}\n`;
  return await withTree(language, text, (tree) => {
    if (hasProblems(tree)) return undefined;
    const root = tree.rootNode;
    const statements = root.namedChildren.filter((child) => child && child.type !== "comment");
    if (statements.length !== 1) return undefined;
    const statement = statements[0]!;
    const assignment = statement.type === "expression_statement" ? statement.namedChild(0) : null;
    if (!assignment || !/^assignment(_expression)?$/.test(assignment.type)) return undefined;
    const right = assignment.childForFieldName("right");
    const close = text.lastIndexOf(")");
    if (!right || right.startIndex !== prefix.length - 1 || right.endIndex !== close + 1) return undefined;
    // `a) + (b` also spans our parentheses, as a `+` of two parenthesised expressions.
    if (!/^(parenthesized_expression|tuple|generator_expression)$/.test(right.type)) return undefined;
    const inner = right.type === "parenthesized_expression"
      ? right.namedChildren.filter((child) => child && child.type !== "comment")
      : [right];
    if (inner.length !== 1) return right.type;
    // The grammar reads a lone keyword (`pass`) as an identifier.
    if (/identifier/.test(inner[0]!.type) && checkNewName(inner[0]!.text, language).length) return undefined;
    return inner[0]!.type;
  });
}

/**
 * Parse `value` in parentheses in its language's expression context
 * (`snippet_contexts.ts`) and call `use` with the one expression inside them
 * (undefined when the text has syntax errors, or is not exactly one
 * expression between the context's parentheses).
 */
export async function withParenthesized<T>(
  value: string,
  language: LanguageId,
  use: (inner: Node | undefined) => T,
): Promise<T> {
  const [before, after] = SNIPPET_CONTEXTS[language]!.expression;
  const text = `${before}${value}${after}`;
  const open = before.length - 2;
  const close = before.length + value.length + 1;
  return await withTree(language, text, (tree) => {
    if (hasProblems(tree)) return use(undefined);
    let node: Node | null = tree.rootNode.descendantForIndex(open, close);
    while (node && !(node.startIndex === open && node.endIndex === close + 1)) node = node.parent;
    if (!node || !/^parenthesized_(expression|statements)$/.test(node.type)) return use(undefined);
    const inner = node.namedChildren.filter((child): child is Node => !!child && !/comment/.test(child.type));
    if (inner.length !== 1) return use(undefined);
    if (/identifier|^name$/.test(inner[0].type) && checkNewName(inner[0].text, language).length) {
      return use(undefined);
    }
    return use(inner[0]);
  });
}

async function checkExpression(value: string, options: ParamOptions, role: string): Promise<Issue[]> {
  const { language, name } = options;
  if (await expressionType(value, language)) return [];
  const start = SNIPPET_CONTEXTS[language]?.statementStart ??
    (isJsFamily(language) ? JS_STATEMENT_START : PY_STATEMENT_START);
  const statementLike = start.test(value) ||
    /^\s*[\w.\[\]'"]+\s*(=|\+=|-=|\*=|\/=)[^=]/.test(value);
  const what = statementLike ? "a statement" : "text that does not parse as one expression";
  return [invalid(
    name,
    `Parameter "${name}" must be ${role}, got ${what}: "${short(value)}"`,
    statementLike ? `give only the expression, e.g. the right-hand side` : undefined,
  )];
}

function invalid(name: string, message: string, hint?: string): Issue {
  return error("param-invalid", message, { path: ["params", name], ...(hint ? { hint } : {}) });
}

async function checkStatements(value: string, options: ParamOptions): Promise<Issue[]> {
  const { language, name } = options;
  if (value.trim() === "") return [invalid(name, `Parameter "${name}" must hold at least one statement`)];
  const body = dedent(value);
  const context = SNIPPET_CONTEXTS[language]?.statements;
  const text = context
    ? `${context[0]}${body}${context[1]}`
    : isJsFamily(language)
    ? `async function* __f() {\n${body}\n}\n`
    : `async def __f():\n${
      body.split("\n").map((line) => line.trim() === "" ? "" : `    ${line}`).join("\n")
    }\n`;
  const ok = await withTree(language, text, (tree) => !hasProblems(tree) && !emptyBlock(tree.rootNode));
  if (ok) return [];
  return [
    invalid(name, `Parameter "${name}" must be statements, got code that does not parse: "${short(value)}"`),
  ];
}

/** A Python block without statements (the grammar accepts `if x:` followed by a dedent). */
function emptyBlock(node: Node): boolean {
  if (node.type === "block" && !node.namedChildren.some((child) => child && child.type !== "comment")) {
    return true;
  }
  return node.namedChildren.some((child) => !!child && emptyBlock(child));
}

async function checkTypeAnnotation(value: string, options: ParamOptions): Promise<Issue[]> {
  const { language, name } = options;
  if (language === "javascript") {
    return [invalid(name, `Parameter "${name}": JavaScript has no type annotations`, "leave it out")];
  }
  const context = SNIPPET_CONTEXTS[language];
  if (context && !context.type) {
    return [invalid(name, `Parameter "${name}": ${language} has no type annotations`, "leave it out")];
  }
  const prefix = context?.type?.[0] ?? (isJsFamily(language) ? "let __x: " : "__x: ");
  const text = `${prefix}${value.trim()}${context?.type?.[1] ?? (isJsFamily(language) ? ";\n" : "\n")}`;
  const ok = value.trim() !== "" && !value.includes("\n") && await withTree(language, text, (tree) => {
    if (hasProblems(tree) || tree.rootNode.descendantsOfType("constrained_type").length) return false;
    const statements = tree.rootNode.namedChildren.filter((child) => child && child.type !== "comment");
    if (statements.length !== 1 && !context) return false;
    let found = false;
    const visit = (node: Node) => {
      if (found) return;
      const type = node.type === "type_annotation" ? node : node.childForFieldName("type");
      if (type && type.endIndex === prefix.length + value.trim().length) found = true;
      // C writes a pointer or an array in the declarator: `char *` is a type and `*__x` its declarator.
      if (context && !context.type![0] && node.type === "declaration") found = true;
      for (const child of node.namedChildren) if (child) visit(child);
    };
    visit(tree.rootNode);
    return found;
  });
  if (ok) return [];
  return [invalid(name, `Parameter "${name}" must be a type annotation, got "${short(value)}"`)];
}

async function checkImport(value: string, options: ParamOptions): Promise<Issue[]> {
  const { language, name } = options;
  const context = SNIPPET_CONTEXTS[language];
  const types = context?.imports ??
    (isJsFamily(language)
      ? ["import_statement"]
      : ["import_statement", "import_from_statement", "future_import_statement"]);
  const prefix = context?.importPrefix ?? "";
  const ok = await withTree(language, prefix + dedent(value).trim() + "\n", (tree) => {
    if (hasProblems(tree)) return false;
    const statements = tree.rootNode.namedChildren.filter((child) =>
      child && child.type !== "comment" && child.startIndex >= prefix.length
    );
    return statements.length === 1 && types.includes(statements[0]!.type);
  });
  if (ok) return [];
  return [invalid(
    name,
    `Parameter "${name}" must be exactly one import statement, got "${short(value)}"`,
    context
      ? `e.g. ${context.importExample}`
      : isJsFamily(language)
      ? `e.g. import { x } from "./x.js";`
      : "e.g. from os import path",
  )];
}

async function checkDecorator(value: string, options: ParamOptions): Promise<Issue[]> {
  const { language, name } = options;
  const bare = value.trim().replace(/^@/, "");
  const text = isJsFamily(language) ? `@${bare}\nclass __C {}\n` : `@${bare}\ndef __f():\n    pass\n`;
  const ok = bare !== "" && !bare.includes("\n") && await withTree(language, text, (tree) => {
    if (hasProblems(tree)) return false;
    const first = tree.rootNode.namedChild(0);
    if (!first) return false;
    const decorators = first.namedChildren.filter((child) => child?.type === "decorator");
    return decorators.length === 1 && decorators[0]!.endIndex === bare.length + 1;
  });
  if (ok) return [];
  return [invalid(name, `Parameter "${name}" must be a decorator expression, got "${short(value)}"`)];
}

async function checkParameters(value: string, options: ParamOptions): Promise<Issue[]> {
  const { language, name } = options;
  const context = SNIPPET_CONTEXTS[language]?.parameters;
  const text = context
    ? `${context[0]}${value}${context[1]}`
    : isJsFamily(language)
    ? `function __f(${value}) {}\n`
    : `def __f(${value}):\n    pass\n`;
  const ok = await withTree(language, text, (tree) => !hasProblems(tree));
  if (ok) return [];
  return [invalid(name, `Parameter "${name}" must be a parameter list, got "${short(value)}"`)];
}

function checkIdentifier(value: string, options: ParamOptions): Issue[] {
  const { language, name } = options;
  const problems = checkNewName(value, language);
  if (problems.length === 0) return [];
  const keyword = problems.some((issue) => issue.code === "rename-keyword");
  return [invalid(
    name,
    keyword
      ? `Parameter "${name}" must be an identifier, got the reserved word "${value}"`
      : `Parameter "${name}" must be an identifier, got "${short(value)}"`,
  )];
}

function checkPosition(value: string, options: ParamOptions): Issue[] {
  const { name } = options;
  if (value === "end" || value === "start") return [];
  const match = /^after:(.+)$/.exec(value);
  if (match && checkIdentifier(match[1].trim(), options).length === 0) return [];
  return [invalid(name, `Parameter "${name}" must be "end", "start" or "after:NAME", got "${short(value)}"`)];
}

/**
 * Problems with `value` as a parameter of `kind` in `language`: an empty list
 * when it is valid. Code-typed values are parsed in their grammatical role.
 */
export async function validateParam(
  kind: ParamKind,
  value: unknown,
  options: ParamOptions,
): Promise<Issue[]> {
  const { name } = options;
  if (kind === "boolean") {
    return typeof value === "boolean"
      ? []
      : [invalid(name, `Parameter "${name}" must be true or false, got ${describe(value)}`)];
  }
  if (kind === "locator") {
    try {
      parseLocator(value, ["params", name]);
      return [];
    } catch (caught) {
      if (caught instanceof IssueError) return caught.issues;
      throw caught;
    }
  }
  if (kind === "count") {
    return typeof value === "number" && Number.isInteger(value) && value >= 0
      ? []
      : [invalid(name, `Parameter "${name}" must be a whole number, 0 or more, got ${describe(value)}`)];
  }
  if (kind === "names") {
    const list = typeof value === "string" ? value.split(",").map((part) => part.trim()) : value;
    if (!Array.isArray(list) || list.length === 0 || list.some((item) => typeof item !== "string")) {
      return [invalid(name, `Parameter "${name}" must be a list of names, got ${describe(value)}`)];
    }
    return list.flatMap((item) => checkIdentifier(item as string, options));
  }
  if (typeof value !== "string") {
    return [invalid(name, `Parameter "${name}" must be a string, got ${describe(value)}`)];
  }
  switch (kind) {
    case "string":
      return [];
    case "identifier":
      return checkIdentifier(value, options);
    case "position":
      return checkPosition(value, options);
    case "expression":
      return await checkExpression(value, options, "an expression");
    case "condition":
      return await checkExpression(value, options, "a condition (an expression)");
    case "statements":
      return await checkStatements(value, options);
    case "type_annotation":
      return await checkTypeAnnotation(value, options);
    case "import_statement":
      return await checkImport(value, options);
    case "decorator":
      return await checkDecorator(value, options);
    case "parameters":
      return await checkParameters(value, options);
  }
}

/**
 * The shape problems of a step's params against `specs`, before the target is
 * known: unknown parameters (`param-unknown`, with the valid names), missing
 * required ones (`param-missing`).
 */
export function checkParamNames(specs: readonly ParamSpec[], params: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  const names = specs.map((spec) => spec.name);
  for (const key of Object.keys(params)) {
    if (names.includes(key)) continue;
    issues.push(error("param-unknown", `Unknown parameter "${key}"`, {
      path: ["params", key],
      hint: `valid parameters: ${names.join(", ")}`,
    }));
  }
  for (const spec of specs) {
    if (spec.required && params[spec.name] === undefined) {
      issues.push(error("param-missing", `Missing parameter "${spec.name}" (${spec.kind})`, {
        path: ["params", spec.name],
        hint: spec.description,
      }));
    }
  }
  return issues;
}

/** Every problem with `params` against `specs` in `language`: names first, then each value by kind. */
export async function validateParams(
  specs: readonly ParamSpec[],
  params: Record<string, unknown>,
  language: LanguageId,
): Promise<Issue[]> {
  const issues = checkParamNames(specs, params);
  for (const spec of specs) {
    const value = params[spec.name];
    if (value === undefined) continue;
    issues.push(...await validateParam(spec.kind, value, { language, name: spec.name }));
  }
  return issues;
}
