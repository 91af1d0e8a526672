/**
 * The machinery every template shares: parameter checks before and after
 * the target is resolved, the language table lookup, the file's layout,
 * exact locators for primitives, and fitting an expression into a slot
 * (parentheses where precedence needs them).
 *
 * A template run is: names (`param-unknown`, `param-missing`) → the target
 * locator's shape → resolve the target → the language's table (else
 * `language-unsupported`) → every parameter validated in its grammatical role
 * for that language (`param-invalid`) → the template's own preconditions
 * (`template-precondition` and friends) → edits through the primitives or
 * `ctx.edit()`. Nothing is edited when any check fails.
 *
 * @module
 */

import { error, fail, type Issue, IssueError } from "../../base/issue.ts";
import type { IssueCode } from "../../base/issue_codes.ts";
import { parseLocator, resolveOne } from "../../locate/mod.ts";
import { boundFunction } from "../../locate/bound_functions.ts";
import type { Document } from "../../parse/documents.ts";
import { type LanguageId, type Node, withTree } from "../../parse/mod.ts";
import * as z from "zod";
import { LOCATOR_SCHEMA } from "../../locate/schema.ts";
import type { CatalogEntry, ParamSpec } from "../catalog_types.ts";
import { detectIndentUnit, lineIndent, reindent } from "../indent.ts";
import type { OperatorFn, StepContext } from "../operator.ts";
import { alreadyPresentWarning } from "../already_present.ts";
import { checkParamNames, dedent, isJsFamily, validateParam, withParenthesized } from "../params.ts";
import { SNIPPET_CONTEXTS } from "../snippet_contexts.ts";
import { JAVASCRIPT } from "./lang/javascript.ts";
import { GO } from "./lang/go.ts";
import { RUST } from "./lang/rust.ts";
import { JAVA } from "./lang/java.ts";
import { C, CPP } from "./lang/c_family.ts";
import { PHP } from "./lang/php.ts";
import { RUBY } from "./lang/ruby.ts";
import { enclosingFStringQuotes, fitIntoFString } from "../fstring_fit.ts";
import { formatVersion, repositoryPythonTarget } from "../../analysis/python_version.ts";
import { PYTHON } from "./lang/python.ts";
import type { LanguageTable, Layout } from "./lang/table.ts";

/** The tables by language. */
export const TABLES: Partial<Record<LanguageId, LanguageTable>> = {
  python: PYTHON,
  javascript: JAVASCRIPT,
  typescript: JAVASCRIPT,
  tsx: JAVASCRIPT,
  go: GO,
  rust: RUST,
  java: JAVA,
  c: C,
  cpp: CPP,
  php: PHP,
  ruby: RUBY,
};

/** What a template's `apply` gets. */
export interface TemplateRun {
  ctx: StepContext;
  doc: Document;
  /** The resolved target. */
  node: Node;
  params: Record<string, unknown>;
  table: LanguageTable;
  language: LanguageId;
  /** The template's name (for issues and edit records). */
  name: string;
}

/** A template as written: catalog data plus its code. */
export interface TemplateDefinition extends CatalogEntry {
  /** Check and edit; return the step's output. */
  apply(run: TemplateRun): Promise<Record<string, unknown>>;
  /** Values accepted verbatim for a parameter besides its kind (`exc_type: ["*"]`). */
  literals?: Record<string, string[]>;
  /** Parameters the template validates itself in these languages (a JS method is not a statement). */
  ownChecks?: Record<string, string[]>;
}

/** A registry entry: catalog data and the operator that runs it. */
export type TemplateEntry = CatalogEntry & {
  run: OperatorFn;
  /** The zod shape of the step's `params` (for the plan schema): strict, required ones required. */
  paramsSchema: z.ZodType;
};

/** A zod object for `specs`: locators as locators, booleans as booleans, counts as whole numbers, code as strings. */
export function paramsSchemaOf(specs: readonly ParamSpec[]): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const spec of specs) {
    const base: z.ZodType = spec.kind === "locator"
      ? LOCATOR_SCHEMA
      : spec.kind === "boolean"
      ? z.boolean()
      : spec.kind === "names"
      ? z.union([z.string(), z.array(z.string())])
      : spec.kind === "count"
      ? z.number().int().min(0)
      : z.string();
    const described = base.describe(`${spec.kind}: ${spec.description}`);
    shape[spec.name] = spec.required ? described : described.optional();
  }
  return z.strictObject(shape);
}

/** The `target` parameter every template has. */
export function targetParam(description: string): ParamSpec {
  return { name: "target", kind: "locator", required: true, description };
}

/** Turn a definition into a registry entry whose `run` performs all the checks first. */
export function defineTemplate(definition: TemplateDefinition): TemplateEntry {
  const { apply, literals = {}, ownChecks = {}, ...entry } = definition;
  const run: OperatorFn = async (raw, ctx) => {
    const params = (raw ?? {}) as Record<string, unknown>;
    const shape = checkParamNames(entry.params, params);
    if (params.target !== undefined) {
      try {
        parseLocator(params.target, ["params", "target"]);
      } catch (caught) {
        if (!(caught instanceof IssueError)) throw caught;
        shape.push(...caught.issues);
      }
    }
    if (shape.length) throw new IssueError(shape);
    const locator = parseLocator(params.target, ["params", "target"]);
    const { doc, node } = await resolveOne(ctx.store, locator, { path: ["params", "target"] });
    const language = doc.file.language;
    const table = TABLES[language];
    if (!table || !entry.languages.includes(language)) {
      fail("language-unsupported", `Template "${entry.name}" does not support ${language} files`, {
        file: doc.file.path,
        hint: `supported: ${entry.languages.join(", ")}`,
      });
    }
    const checked = entry.params.filter((spec) =>
      !literals[spec.name]?.includes(params[spec.name] as string) && !ownChecks[spec.name]?.includes(language)
    );
    const issues: Issue[] = [];
    for (const spec of checked) {
      if (params[spec.name] === undefined) continue;
      issues.push(...await validateParam(spec.kind, params[spec.name], { language, name: spec.name }));
    }
    if (issues.length) throw new IssueError(issues.map((issue) => ({ ...issue, file: doc.file.path })));
    const output = await apply({ ctx, doc, node, params, table, language, name: entry.name });
    return { template: entry.name, file: doc.file.path, ...output };
  };
  return { ...entry, run, paramsSchema: paramsSchemaOf(entry.params) };
}

/** A string parameter (validated already) or undefined. */
export function str(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  return typeof value === "string" ? value : undefined;
}

/** Throw a `template-precondition` error (or another code) about the target. */
export function refuse(
  run: TemplateRun,
  message: string,
  details: { code?: IssueCode; node?: Node; hint?: string } = {},
): never {
  const node = details.node ?? run.node;
  throw new IssueError(error(details.code ?? "template-precondition", message, {
    file: run.doc.file.path,
    line: node.startPosition.row + 1,
    ...(details.hint ? { hint: details.hint } : {}),
  }));
}

/** Record an `already-present` warning; the step changes nothing. */
export function alreadyPresent(run: TemplateRun, message: string): Record<string, unknown> {
  run.ctx.warnings.push(alreadyPresentWarning(message, {
    file: run.doc.file.path,
    line: run.node.startPosition.row + 1,
    step: run.ctx.step,
  }));
  return { changed: false };
}

/** The file's layout at `offset`'s line. */
export function layoutAt(doc: Document, offset: number): Layout {
  return {
    indent: lineIndent(doc.file.text, offset),
    unit: detectIndentUnit(doc.file.text),
    eol: doc.file.eol,
    language: doc.file.language,
  };
}

/**
 * A sexp locator matching exactly `node` in `doc` (its type, and its index
 * among the nodes of that type in the resolver's order), for primitives.
 */
export function exactLocator(doc: Document, node: Node): Record<string, unknown> {
  const all = doc.tree.rootNode.descendantsOfType(node.type).filter((n): n is Node => !!n)
    .sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const index = all.findIndex((candidate) => candidate.id === node.id);
  if (index < 0) throw new Error(`node ${node.type} not found in its own document`);
  return { type: "sexp", file: doc.file.path, query: `(${node.type}) @node`, capture: "node", index };
}

/** The definition a decorated definition wraps, else the node. */
export function unwrapDefinition(node: Node): Node {
  if (node.type === "decorated_definition") return node.childForFieldName("definition") ?? node;
  if (node.type === "export_statement") {
    const declaration = node.childForFieldName("declaration");
    return declaration ? unwrapDefinition(declaration) : node;
  }
  return boundFunction(node) ?? node;
}

/** The node's ancestors, nearest first. */
export function ancestors(node: Node): Node[] {
  const out: Node[] = [];
  for (let current = node.parent; current; current = current.parent) out.push(current);
  return out;
}

/** The statement holding `node` directly in a block (or the file). */
export function enclosingStatement(node: Node, table: LanguageTable): Node | undefined {
  let current: Node | null = node;
  while (current && current.parent && !table.blockTypes.has(current.parent.type)) current = current.parent;
  return current?.parent ? current : undefined;
}

/** The node type of an expression snippet (parsed in context) and its precedence. */
export async function snippetPrecedence(
  table: LanguageTable,
  language: LanguageId,
  expression: string,
): Promise<number> {
  if (SNIPPET_CONTEXTS[language]) {
    return await withParenthesized(
      dedent(expression).trim(),
      language,
      (inner) => inner ? table.precedence(inner) : 0,
    );
  }
  const prefix = "__x = (";
  const text = `${prefix}\n${dedent(expression).trim()}\n)${isJsFamily(language) ? ";" : ""}\n`;
  return await withTree(language, text, (tree) => {
    const statement = tree.rootNode.namedChild(0);
    const right = statement?.namedChild(0)?.childForFieldName("right");
    if (!right) return 0;
    // A Python tuple or generator written without its parentheses comes back as one of them.
    if (right.type === "tuple") return 0.5;
    if (right.type === "generator_expression") return 0;
    const inner = right.namedChildren.filter((c) => c && c.type !== "comment");
    return inner.length === 1 ? table.precedence(inner[0]!) : 0;
  });
}

/**
 * The text that replaces `slot` by `expression`: fitted to the slot's line
 * (continuation lines re-indented) and parenthesised when its precedence is
 * lower than the slot's context needs (`a + b` for `x` in `x * 2`).
 */
export async function fitExpression(
  run: TemplateRun,
  slot: Node,
  expression: string,
): Promise<{ text: string; parenthesized: boolean }> {
  // A lone multi-line string literal: every line is part of its value, so it is written as given.
  const literal = expression.replace(/\r\n?/g, "\n").trim();
  if (
    /^[rRbBuUfF]{0,2}("""|''')/.test(literal) && literal.includes("\n") && await isLoneString(run, literal)
  ) {
    return { text: literal, parenthesized: false };
  }
  const trimmed = dedent(expression).trim();
  if (run.table.isNameSlot(slot) && !/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(trimmed)) {
    refuse(
      run,
      `"${slot.text}" at line ${
        slot.startPosition.row + 1
      } is a name (attribute, keyword or property), only a name can replace it`,
      {
        node: slot,
        hint: "target the whole expression around it (e.g. the attribute or call), or use rename_identifier",
      },
    );
  }
  const fitted = await fitForTarget(run, slot, trimmed);
  const needs = run.table.requiredPrecedence(slot);
  const has = await snippetPrecedence(run.table, run.language, fitted);
  const parenthesized = has < needs;
  const body = parenthesized ? `(${fitted})` : fitted;
  const layout = layoutAt(run.doc, slot.startIndex);
  return { text: await reindent(body, { ...layout, inlineFirst: true }), parenthesized };
}

/**
 * A Python expression going inside an f-string's braces, in a form the
 * repository's Python reads (`engine/edit/fstring_fit.ts`): its clashing
 * quotes switched, or the step refused with a hint.
 */
async function fitForTarget(run: TemplateRun, slot: Node, expression: string): Promise<string> {
  if (run.language !== "python") return expression;
  const quotes = enclosingFStringQuotes(slot);
  if (quotes.length === 0) return expression;
  const target = repositoryPythonTarget(run.ctx.store.workspace.root);
  if (target.version.major > 3 || target.version.minor >= 12) return expression;
  const fitted = await fitIntoFString(expression, quotes);
  if ("text" in fitted) return fitted.text;
  refuse(
    run,
    `Cannot put the expression inside the f-string at line ${slot.startPosition.row + 1} for Python ${
      formatVersion(target.version)
    }: ${fitted.refused}`,
    {
      code: "syntax-too-new",
      node: slot,
      hint: "assign the value to a variable before the f-string and use that name in the braces",
    },
  );
}

/** Whether `text` parses as exactly one string literal (not a concatenation or an expression using one). */
async function isLoneString(run: TemplateRun, text: string): Promise<boolean> {
  return await withTree(run.language, `${text}\n`, (tree) => {
    const statements = tree.rootNode.namedChildren.filter((child) => child && child.type !== "comment");
    const inner = statements.length === 1 ? statements[0]?.namedChildren : undefined;
    return !tree.rootNode.hasError && inner?.length === 1 && inner[0]?.type === "string";
  });
}

/** Issues as an error to throw, when there are errors; warnings go to the step. */
export function raise(run: TemplateRun, issues: Issue[]): void {
  const errors = issues.filter((issue) => issue.severity === "error");
  if (errors.length) throw new IssueError(errors);
  for (const item of issues) run.ctx.warnings.push(item);
}

/** The op name edits of a template are recorded under. */
export function opName(run: TemplateRun): string {
  return `template:${run.name}`;
}
