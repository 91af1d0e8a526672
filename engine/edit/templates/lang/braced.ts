/**
 * The templates' table for the brace languages (Go, Rust, Java, C, C++,
 * PHP), built from a {@link BracedSpec}: what differs between them is data
 * (node types, how a guard or a parameter is written, operator precedence),
 * what they share is code written once here. Ruby reuses it for its
 * expression slots (`ruby.ts`).
 *
 * A table answers for what the language has: Go, Rust and C have no `try`,
 * none has keyword-only parameters, defaults or decorators the templates
 * write; the templates that need those list only the languages that have
 * them (`engine/edit/templates/mod.ts`), so the table is never asked.
 *
 * Precedence: each spec maps binary operators to levels (higher binds
 * tighter) and names its unary, cast and primary levels; `requiredPrecedence`
 * reads the slot's parent the same way for all of them (the left operand of
 * a left-associative operator needs its level, the right one more; an
 * operand of a unary operator or the object of a call / member access needs
 * the primary level; an argument, a parenthesised expression or a statement
 * needs nothing).
 *
 * @module
 */

import { error } from "../../../base/issue.ts";
import type { LanguageId, Node } from "../../../parse/mod.ts";
import {
  type BranchPlan,
  fieldIs,
  type LanguageTable,
  type NewParam,
  type ParamInfo,
  type Part,
  statementsOf,
} from "./table.ts";

/** What one brace language looks like to the templates. */
export interface BracedSpec {
  languages: LanguageId[];
  rootType: string;
  blockTypes: string[];
  functionTypes: string[];
  classTypes: string[];
  callTypes: string[];
  conditionalTypes: string[];
  returnTypes: string[];
  /** `if <condition> {` as the language writes it. */
  guardHeader(condition: string): string;
  /** try/catch, when the language has one. */
  tryExcept?(o: { excType: string; asName?: string; handler: string; finallyBody?: string }): Part[];
  /** The try statement type and how a handler names its type (for `inTry`). */
  tryType?: string;
  /** Parameter node types of a parameter list, and which of them are variadic. */
  parameterTypes: string[];
  variadicTypes: string[];
  /** The bound name of a parameter node. */
  parameterName(node: Node): string;
  parameterText(param: NewParam): string;
  /** Whether parameters may have defaults (PHP, Ruby) and whether a new one needs a type (the others). */
  parameterDefaults: boolean;
  parameterTypeRequired: boolean;
  /** A bare `return <value>` statement. */
  returnText(value: string): string;
  /** A local variable declaration. */
  assignment(name: string, value: string): string;
  /** The parameter list of a function. */
  parameterList(fn: Node): Node | undefined;
  /** The body block of a function. */
  functionBody(fn: Node): Node | undefined;
  /** The name of a function. */
  functionName(fn: Node): string | undefined;
  /** A class's member list, and a snippet context holding one member. */
  classBody?(cls: Node): Node | undefined;
  memberText?(code: string): string;
  /** The members of the snippet context's class. */
  contextMembers?(root: Node): Node[];
  /** Member node types counted as methods. */
  methodTypes?: string[];
  /** The name a member defines. */
  memberName?(member: Node): string | undefined;
  /** Binary operators by precedence level; `unary`, `primary` levels and extra types. */
  binary: Record<string, number>;
  levels: { assignment: number; ternary: number; unary: number; primary: number };
  /** Node types that are never expressions in this language (beyond statements, declarations, types). */
  notExpressions?: RegExp;
  /** Whether a node is a name only a name can replace (the field of a member access, a key). */
  isNameSlot(node: Node): boolean;
  /** Declarations a new enclosing block would hide. */
  blockScoped: string[];
  /** Identifier node types (for new-name conflicts). */
  identifierTypes: string[];
}

const set = (list: readonly string[]) => new Set(list);

function unparenthesized(node: Node | null | undefined): Node | undefined {
  if (!node) return undefined;
  if (/^(parenthesized_expression|condition|condition_clause)$/.test(node.type)) {
    const inner = statementsOf(node);
    return inner.length === 1 ? inner[0] : node;
  }
  return node;
}

/** The precedence function of a spec. */
function precedenceOf(spec: BracedSpec): (expr: Node) => number {
  const { levels } = spec;
  return (expr) => {
    const type = expr.type;
    if (/assignment/.test(type)) return levels.assignment;
    if (/^(conditional_expression|ternary_expression)$/.test(type)) return levels.ternary;
    if (type === "binary_expression" || type === "binary") {
      const op = expr.childForFieldName("operator")?.text ??
        expr.children.find((c) => c && !c.isNamed)?.text ?? "";
      return spec.binary[op] ?? levels.ternary + 1;
    }
    if (
      /^(range_expression|closure_expression|lambda_expression|func_literal|instanceof_expression)$/.test(
        type,
      )
    ) {
      return type === "instanceof_expression"
        ? spec.binary["instanceof"] ?? levels.ternary + 1
        : levels.assignment;
    }
    if (/^(type_cast_expression|cast_expression)$/.test(type)) return levels.unary;
    if (
      /^(unary_expression|pointer_expression|reference_expression|try_expression|unary|not|update_expression|await_expression|sizeof_expression)$/
        .test(type)
    ) {
      return type === "try_expression" ? levels.primary : levels.unary;
    }
    if (/^(new_expression|object_creation_expression)$/.test(type)) return levels.unary + 1;
    return levels.primary;
  };
}

function requiredOf(spec: BracedSpec, precedence: (expr: Node) => number): (slot: Node) => number {
  const { levels } = spec;
  return (slot) => {
    const parent = slot.parent;
    if (!parent) return 0;
    const type = parent.type;
    if (type === "binary_expression" || type === "binary") {
      const p = precedence(parent);
      return fieldIs(parent, "left", slot) ? p : p + 1;
    }
    if (
      /^(unary_expression|pointer_expression|reference_expression|unary|not|cast_expression|type_cast_expression|update_expression)$/
        .test(type)
    ) {
      return levels.unary;
    }
    if (/^(conditional_expression|ternary_expression)$/.test(type)) {
      return fieldIs(parent, "condition", slot) ? levels.ternary + 1 : levels.ternary;
    }
    const objectField = ["function", "object", "value", "operand", "argument"].find((field) =>
      fieldIs(parent, field, slot)
    );
    if (
      objectField &&
      /call|field|member|selector|subscript|index|method_invocation|field_access|access|try_expression|element_reference/
        .test(type)
    ) {
      return levels.primary;
    }
    if (type === "method_invocation" && fieldIs(parent, "object", slot)) return levels.primary;
    if (/assignment|let_declaration|variable_declarator|init_declarator|short_var_declaration/.test(type)) {
      return levels.assignment;
    }
    return 0;
  };
}

/** Build the table of one brace language. */
export function bracedTable(spec: BracedSpec): LanguageTable {
  const precedence = precedenceOf(spec);
  const requiredPrecedence = requiredOf(spec, precedence);
  const functionTypes = set(spec.functionTypes);
  const table: LanguageTable = {
    languages: spec.languages,
    rootType: spec.rootType,
    blockTypes: set(spec.blockTypes),
    functionTypes,
    classTypes: set(spec.classTypes),
    callTypes: set(spec.callTypes),
    conditionalTypes: set(spec.conditionalTypes),
    returnTypes: set(spec.returnTypes),
    keywordOnly: false,
    parameterDefaults: spec.parameterDefaults,
    parameterTypeRequired: spec.parameterTypeRequired,

    bodyStatements(fn) {
      const block = spec.functionBody(fn);
      if (!block) return undefined;
      return { block, statements: statementsOf(block), skipped: [] };
    },

    guard: (condition, body) => [{ line: spec.guardHeader(condition.trim()) }, { body }, { line: "}" }],

    tryExcept: (o) => spec.tryExcept?.(o) ?? [],

    inTry(statement, excType) {
      const block = statement.parent;
      const tryNode = block?.parent;
      if (!block || !spec.tryType || tryNode?.type !== spec.tryType || !fieldIs(tryNode, "body", block)) {
        return false;
      }
      if (statementsOf(block).length !== 1) return false;
      const type = excType.trim();
      return tryNode.namedChildren.some((c) => !!c && /catch/.test(c.type) && c.text.includes(type));
    },

    parameterList: (fn) => spec.parameterList(fn),

    parameters: (list) =>
      statementsOf(list).filter((node) => spec.parameterTypes.includes(node.type)).map((node): ParamInfo => ({
        node,
        name: spec.parameterName(node),
        role: spec.variadicTypes.includes(node.type) ? "varargs" : "plain",
      })),

    parameterText: (param) => spec.parameterText(param),

    functionName: (fn) => spec.functionName(fn),

    callArguments(call) {
      const args = call.childForFieldName("arguments");
      if (!args) return undefined;
      const list = statementsOf(args);
      if (list.some((arg) => /spread|splat|variadic/.test(arg.type) || /^\.\.\./.test(arg.text))) {
        return undefined;
      }
      return { positional: list.length, keywords: [] };
    },

    condition: (node) => unparenthesized(node.childForFieldName("condition")),

    returnValue(node) {
      const value = node.namedChildren.find((c) => c && !/comment/.test(c.type)) ?? undefined;
      if (value?.type === "expression_list" && statementsOf(value).length === 1) {
        return statementsOf(value)[0];
      }
      return value;
    },

    returnText: (value) => spec.returnText(value.trim()),

    assignment: (name, value) => spec.assignment(name, value.trim()),

    branch(): BranchPlan | { error: string } {
      return { error: `add_conditional_branch does not support ${spec.languages.join("/")} yet` };
    },

    bodyRange(fn) {
      const block = spec.functionBody(fn)!;
      const open = block.child(0)!;
      const close = block.child(block.childCount - 1)!;
      return { block, start: open.endIndex, end: close.startIndex, inline: true };
    },

    classAttribute: (name, value) => `${name} = ${value.trim()};`,

    classBody: (cls) => spec.classBody?.(cls),

    classMembers(cls) {
      const attributes = new Map<string, Node>();
      const methods = new Map<string, Node>();
      const body = spec.classBody?.(cls);
      for (const member of body ? statementsOf(body) : []) {
        const name = spec.memberName?.(member);
        if (!name) continue;
        if (spec.methodTypes?.includes(member.type)) methods.set(name, member);
        else attributes.set(name, member);
      }
      return { attributes, methods };
    },

    definedName: (code) => spec.methodTypes?.includes(code.type) ? spec.memberName?.(code) : undefined,

    unwrapExpression(node) {
      if (node.type === "expression_statement" && statementsOf(node).length === 1) {
        return statementsOf(node)[0];
      }
      return node;
    },

    isExpression(node) {
      if (!node.isNamed || /comment/.test(node.type)) return false;
      if (
        /statement|declaration|declarator|definition|item|clause|block|program|source_file|translation_unit|parameter|arguments|argument_list|type|specifier|modifier|label|attribute_item|^condition$|_list$|package|import|use_|^name$|escape_sequence/
          .test(node.type)
      ) {
        return false;
      }
      return !spec.notExpressions?.test(node.type);
    },

    isNameSlot: (node) => spec.isNameSlot(node),

    precedence,
    requiredPrecedence,

    memberContext: (code) => ({
      text: spec.memberText?.(code) ?? code,
      members: (root) => spec.contextMembers?.(root) ?? [],
    }),
    isDocstring: () => false,
    isPlaceholder: () => false,
    detachedTerminators: false,
    blockScoped: set(spec.blockScoped),
    decoratable: new Set(),
    bracedBodies: true,
    assignmentPrecedence: spec.levels.assignment,

    newNameConflicts(doc, node, name) {
      let scope: Node = doc.tree.rootNode;
      for (let current = node.parent; current; current = current.parent) {
        if (functionTypes.has(current.type)) {
          scope = current;
          break;
        }
      }
      const clash = scope.descendantsOfType(spec.identifierTypes).find((id) => id?.text === name);
      if (!clash) return [];
      const line = clash.startPosition.row + 1;
      return [error("name-bound", `Name "${name}" is already used in this function (line ${line})`, {
        file: doc.file.path,
        line,
        hint: "choose another name",
      })];
    },
  };
  return table;
}

/** The C family's binary operator levels (C, C++, Java, PHP share them; Java adds `>>>`, `instanceof`). */
export const C_BINARY: Record<string, number> = {
  "||": 4,
  "&&": 5,
  "|": 6,
  "^": 7,
  "&": 8,
  "==": 9,
  "!=": 9,
  "<": 10,
  ">": 10,
  "<=": 10,
  ">=": 10,
  "instanceof": 10,
  "<=>": 10,
  "<<": 11,
  ">>": 11,
  ">>>": 11,
  "+": 12,
  "-": 12,
  "*": 13,
  "/": 13,
  "%": 13,
};

/** The C family's levels: assignment 2, `?:` 3, unary 15, primary 18. */
export const C_LEVELS = { assignment: 2, ternary: 3, unary: 15, primary: 18 };

/** The name field, or the first identifier-like child of a node. */
export function nameOf(node: Node | null | undefined): string {
  if (!node) return "";
  const name = node.childForFieldName("name") ?? node.childForFieldName("pattern") ??
    node.childForFieldName("declarator");
  if (name) return /identifier|^name$/.test(name.type) ? name.text : nameOf(name);
  if (/identifier|^name$/.test(node.type)) return node.text;
  const inner = node.namedChildren.find((c) =>
    !!c && /identifier|declarator|variable_name|^name$/.test(c.type)
  );
  return inner ? nameOf(inner) : "";
}
