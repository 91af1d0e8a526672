/**
 * The language-specific half of the templates: what a block, a guard, a
 * try, a parameter list, a condition, a return and an import look like in
 * one language. Templates only ever ask a {@link LanguageTable}; adding a
 * language means writing one table (`python.ts`, `javascript.ts`), or for a
 * brace language one spec of `braced.ts` (`go.ts`, `rust.ts`, `java.ts`, ...).
 *
 * Code is described as {@link Part}s, a language-neutral block shape:
 * header lines at the anchor's indentation, bodies one indentation unit
 * deeper (a model's snippet is fitted there by `reindent`), and the target's
 * own lines moved one unit deeper (for the `wrap_*` templates).
 *
 * @module
 */

import type { Issue } from "../../../base/issue.ts";
import type { Document } from "../../../parse/documents.ts";
import type { LanguageId, Node } from "../../../parse/mod.ts";
import { reindent, stringRows } from "../../indent.ts";

/** One piece of a constructed block. */
export type Part =
  /** A line (or a few) at the anchor's indentation. */
  | { line: string }
  /** A model-written snippet, one unit deeper than the anchor. */
  | { body: string }
  /** The target's own lines, one unit deeper (wrapping). */
  | { target: true };

/** What a parameter of a function looks like, whatever the language writes. */
export interface ParamInfo {
  node: Node;
  /** The bound name (`self`, `args` for `*args`), empty for separators. */
  name: string;
  /**
   * `plain` (no default), `default`, `self` (Python's first method parameter),
   * `varargs` (`*args`, `...rest`), `kwsep` (a bare `*`), `posonly` (`/`),
   * `kwargs` (`**kw`).
   */
  role: "plain" | "default" | "self" | "varargs" | "kwsep" | "posonly" | "kwargs";
}

/** A new parameter to write. */
export interface NewParam {
  name: string;
  default?: string;
  annotation?: string;
}

/** The language table every template works through. */
export interface LanguageTable {
  /** Languages this table serves. */
  languages: LanguageId[];
  /** Node types holding a sequence of statements (a block, the file). */
  blockTypes: ReadonlySet<string>;
  /** Function-like definitions (their body is a block). */
  functionTypes: ReadonlySet<string>;
  /** Class-like definitions. */
  classTypes: ReadonlySet<string>;
  /** The statements of a function body a guard goes before (docstring / directives skipped). */
  bodyStatements(fn: Node): { block: Node; statements: Node[]; skipped: Node[] } | undefined;
  /** `if cond: body` as parts. */
  guard(condition: string, body: string): Part[];
  /** `try: <target> except ...` as parts, or undefined when the language has no try. */
  tryExcept(o: { excType: string; asName?: string; handler: string; finallyBody?: string }): Part[];
  /** Whether `statement` is already the only statement of a try handling `excType`. */
  inTry(statement: Node, excType: string): boolean;
  /** `with context as name: <target>`, or undefined when the language has none. */
  withBlock?(context: string, asName?: string): Part[];
  /** Whether `statement` is already the only statement of a `with` on `context`. */
  inWith?(statement: Node, context: string): boolean;
  /** The parameter list node of a function. */
  parameterList(fn: Node): Node | undefined;
  /** The parameters of a parameter list, classified. */
  parameters(list: Node): ParamInfo[];
  /** The source of a new parameter. */
  parameterText(param: NewParam): string;
  /** Whether parameters may have default values (absent: they may). */
  parameterDefaults?: boolean;
  /** Whether a new parameter must be given a type (`annotation`): Go, Rust, Java, C, C++. */
  parameterTypeRequired?: boolean;
  /** Whether keyword-only parameters exist in the language. */
  keywordOnly: boolean;
  /** The bare keyword-only marker (`*`), when `keywordOnly`. */
  keywordOnlyMarker?: string;
  /** The name of a function (for call sites). */
  functionName(fn: Node): string | undefined;
  /** Call nodes and their callee's last name and argument list. */
  callTypes: ReadonlySet<string>;
  /** How many positional arguments a call passes and its keyword names; undefined when unknowable (`*args`). */
  callArguments(call: Node): { positional: number; keywords: string[] } | undefined;
  /** The condition expression of an if/elif/while (JS: inside the parentheses), undefined if none. */
  condition(node: Node): Node | undefined;
  /** Nodes `modify_condition` accepts. */
  conditionalTypes: ReadonlySet<string>;
  /** The expression of a return statement, or undefined for a bare return. */
  returnValue(node: Node): Node | undefined;
  /** Return statement node types. */
  returnTypes: ReadonlySet<string>;
  /** Text of `return <value>` to replace a bare return. */
  returnText(value: string): string;
  /** `name = value` as a statement. */
  assignment(name: string, value: string): string;
  /** A new branch of an if (`elif` / `else`), or undefined to refuse; `last` is the last clause. */
  branch(ifNode: Node, o: { condition?: string; body: string }): BranchPlan | { error: string };
  /** The body node of a function and the range to replace for a new body. */
  bodyRange(fn: Node, keepDocstring: boolean): { block: Node; start: number; end: number; inline: boolean };
  /** `name: annotation = value` in a class body. */
  classAttribute(name: string, value: string, annotation?: string): string;
  /** Names a class body already binds (attributes and methods). */
  classMembers(cls: Node): { attributes: Map<string, Node>; methods: Map<string, Node> };
  /** The class body node. */
  classBody(cls: Node): Node | undefined;
  /** The name a method definition in `code` defines. */
  definedName(code: Node): string | undefined;
  /** Node types of expressions that are statements' single child (Python `expression_statement`). */
  unwrapExpression(node: Node): Node;
  /** Whether `node` is an expression (a valid `replace_expression` target). */
  isExpression(node: Node): boolean;
  /** Whether `node` is a name that only another name can replace (an attribute, a keyword, a property key). */
  isNameSlot(node: Node): boolean;
  /** Precedence of an expression node (higher binds tighter). */
  precedence(expr: Node): number;
  /** The least precedence an expression needs to sit where `slot` is without parentheses. */
  requiredPrecedence(slot: Node): number;
  /** Statement-level block types of a file's root. */
  rootType: string;
  /** A snippet holding one class member, wrapped so it parses (`class __C {...}` in JS), and its members. */
  memberContext(code: string): { text: string; members(root: Node): Node[] };
  /** Whether a body's first statement is documentation (a Python docstring). */
  isDocstring(statement: Node): boolean;
  /** A statement that only stands for an empty body (`pass`, `...`), which new code replaces. */
  isPlaceholder(statement: Node): boolean;
  /** Whether members may be followed by a `;` they do not own (TS fields): insert after whole lines. */
  detachedTerminators: boolean;
  /** Declarations whose names a new enclosing block would hide (JS `const`/`let`/`class`). */
  blockScoped: ReadonlySet<string>;
  /** Definitions `add_decorator` decorates (none: the language has no decorators the template supports). */
  decoratable: ReadonlySet<string>;
  /** Function bodies are braces (`{ ... }`, replaced inside them) rather than indented blocks. */
  bracedBodies: boolean;
  /** The slack a new value needs as an assignment's right-hand side. */
  assignmentPrecedence: number;
  /**
   * Why a new variable `name` cannot be introduced in the scope of `node`
   * (`name-bound` errors: bound or read there) and what it would shadow (warnings).
   */
  newNameConflicts(doc: Document, node: Node, name: string): Issue[];
}

/** Where and what `add_conditional_branch` inserts. */
export interface BranchPlan {
  /** Offset to insert at. */
  at: number;
  /** Parts at the if's indentation. */
  parts: Part[];
  /** Whether the parts start on the insertion line (JS `} else {`) rather than on a new line. */
  inline: boolean;
  /** An equivalent branch is already there. */
  present?: boolean;
}

/** Layout of the file a block is rendered into. */
export interface Layout {
  /** Indentation of the anchor line. */
  indent: string;
  unit: string;
  eol: string;
  language: LanguageId;
}

/**
 * Render parts as lines at `layout.indent` (the first line included), joined
 * with the file's line ending, no trailing line break. `target` is the text
 * of the whole lines being wrapped (with their indentation) and `targetRow`
 * the row of its first line, for multi-line string protection.
 */
export async function renderParts(
  parts: Part[],
  layout: Layout,
  target?: { text: string; root: Node; firstRow: number },
): Promise<string> {
  const { indent, unit, eol, language } = layout;
  const out: string[] = [];
  for (const part of parts) {
    if ("line" in part) {
      out.push(await reindent(part.line, { indent, unit, eol, language }));
    } else if ("body" in part) {
      out.push(await reindent(part.body, { indent: indent + unit, unit, eol, language }));
    } else if (target) {
      const guarded = stringRows(target.root, language);
      out.push(
        target.text.split(/\r?\n/).map((line, i) =>
          guarded.has(target.firstRow + i) || line.trim() === "" ? line : unit + line
        ).join(eol),
      );
    }
  }
  return out.join(eol);
}

/** The named children of `node` that are not comments. */
export function statementsOf(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => !!child && child.type !== "comment");
}

/** Whether `child` is the `field` child of `parent`. */
export function fieldIs(parent: Node, field: string, child: Node): boolean {
  return parent.childForFieldName(field)?.id === child.id;
}

/** Normalise code for comparisons: whitespace runs to one space, around punctuation removed. */
export function normalizeCode(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\s*([,()\[\]{}:;=.])\s*/g, "$1").trim();
}
