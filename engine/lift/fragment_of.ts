/**
 * A Python statement node as a tier-3 fragment (`{kind, properties,
 * children}`), the inverse of the fragment serializer. Source text that a
 * fragment carries as a property (expressions, conditions, parameter lists)
 * is taken as written. A comment on its own line in a body is a `comment`
 * fragment; one that ends a line of code is left out of the body (lift's
 * replay adds it back with `set_line_comment`); one on its own line that a
 * fragment has no place for (between a header and its block, between
 * clauses) makes the conversion fail (undefined), and lift tries another
 * step. `try` (with its `except`, `else`, `finally`) and `with` statements
 * are fragments like `if`, `for` and `while`.
 *
 * Whether the serialized fragment reproduces the node's exact text (blank
 * lines, spacing after keywords) is not judged here: lift replays the step
 * and compares.
 *
 * @module
 */

import { stringContinuationRows } from "../edit/fragments/serialize.ts";
import type { Node } from "../parse/mod.ts";

/** A fragment value. */
export interface FragmentValue {
  kind: string;
  properties?: Record<string, unknown>;
  children?: FragmentValue[];
}

const SIMPLE = new Set(["pass_statement", "break_statement", "continue_statement"]);

function field(node: Node, name: string): string | undefined {
  return node.childForFieldName(name)?.text;
}

function named(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => !!child);
}

/** Options of {@link fragmentOf}. */
export interface FragmentOptions {
  /**
   * Convert class and function definitions too, their bodies statement by
   * statement (nested definitions included). Off by default: a changed
   * definition is better said by the templates that name its part
   * (`change_signature`, `replace_function_body`) than by a fragment
   * replacing it whole; a new class has no such template.
   */
  definitions?: boolean;
}

/** The statements of a block as fragments; undefined when one cannot be one (a comment). */
function bodyOf(block: Node | null | undefined, options: FragmentOptions): FragmentValue[] | undefined {
  if (!block) return undefined;
  const out: FragmentValue[] = [];
  for (const statement of named(block)) {
    // A comment ending a line of code is left out: lift adds it back with `set_line_comment`.
    if (statement.type === "comment" && !ownLine(statement)) continue;
    const fragment = fragmentOf(statement, options);
    if (!fragment) return undefined;
    out.push(fragment);
  }
  return out;
}

/** Whether a comment is alone on its line (else it ends a line of code). */
function ownLine(comment: Node): boolean {
  const text = comment.tree.rootNode.text;
  return text.slice(text.lastIndexOf("\n", comment.startIndex - 1) + 1, comment.startIndex).trim() === "";
}

/**
 * Whether a comment on its own line is a child of the statement itself,
 * outside its blocks (before a body's first statement, between clauses):
 * a place no fragment has.
 */
function strayComment(node: Node): boolean {
  return named(node).some((child) => child.type === "comment" && ownLine(child));
}

function props(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
}

/**
 * The fragment for a statement (or clause), or undefined when fragments
 * cannot express it. Source-text properties spanning several lines are made
 * relative to the statement's indentation, which the serializer adds back to
 * every continuation line (lines inside a string literal are kept as they are).
 */
export function fragmentOf(node: Node, options: FragmentOptions = {}): FragmentValue | undefined {
  const fragment = literalFragmentOf(node, options);
  if (!fragment?.properties) return fragment;
  return { ...fragment, properties: relativeProperties(node, fragment.properties) };
}

/**
 * `properties` of a fragment for `node` with their multi-line source text
 * made relative to the node's indentation (the serializer adds it back to
 * every continuation line; lines inside a string literal stay as they are).
 */
export function relativeProperties(node: Node, properties: Record<string, unknown>): Record<string, unknown> {
  const text = node.tree.rootNode.text;
  const start = text.lastIndexOf("\n", node.startIndex - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(start))![0];
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (typeof value !== "string" || !value.includes("\n")) {
      out[key] = value;
      continue;
    }
    const lines = value.split("\n");
    const verbatim = stringContinuationRows(lines);
    const relative = lines.map((line, row) =>
      // A last line of blanks is the indentation of a closing bracket that follows the text.
      row === 0 || verbatim.has(row) || (line.trim() === "" && row < lines.length - 1) ||
        !line.startsWith(indent)
        ? line
        : line.slice(indent.length)
    );
    out[key] = relative.join("\n");
  }
  return out;
}

function literalFragmentOf(node: Node, options: FragmentOptions): FragmentValue | undefined {
  if (SIMPLE.has(node.type)) return { kind: node.type };
  if (
    options.definitions && /^(class_definition|function_definition|decorated_definition)$/.test(node.type)
  ) {
    return definitionFragmentOf(node, options);
  }
  if (node.type === "comment") {
    // A comment on its own line; one that ends a line of code belongs to that code.
    return ownLine(node) ? { kind: "comment", properties: { text: node.text.slice(1) } } : undefined;
  }
  if (strayComment(node)) return undefined;
  switch (node.type) {
    case "expression_statement": {
      const inner = named(node);
      if (inner.length !== 1) return undefined;
      const expression = inner[0];
      if (expression.type === "assignment") {
        const value = expression.childForFieldName("right");
        const annotation = expression.childForFieldName("type");
        if (!value && !annotation) return undefined;
        if (value && (value.type === "assignment" || value.type === "yield")) return undefined;
        return {
          kind: "assignment",
          properties: props({
            target: field(expression, "left"),
            value: value?.text,
            annotation: field(expression, "type"),
          }),
        };
      }
      if (expression.type === "augmented_assignment") {
        return {
          kind: "augmented_assignment",
          properties: props({
            target: field(expression, "left"),
            operator: field(expression, "operator"),
            value: field(expression, "right"),
          }),
        };
      }
      return { kind: "expression_statement", properties: { expression: expression.text } };
    }
    case "return_statement": {
      const value = named(node)[0];
      return { kind: "return_statement", ...(value ? { properties: { value: value.text } } : {}) };
    }
    case "raise_statement": {
      const exception = named(node).find((child) => child.type !== "comment");
      return {
        kind: "raise_statement",
        properties: props({ exception: exception?.text, cause: field(node, "cause") }),
      };
    }
    case "assert_statement": {
      const parts = named(node);
      return {
        kind: "assert_statement",
        properties: props({ condition: parts[0]?.text, message: parts[1]?.text }),
      };
    }
    case "import_statement": {
      const names = named(node);
      if (names.length !== 1) return undefined;
      const only = names[0];
      if (only.type === "aliased_import") {
        return {
          kind: "import_statement",
          properties: { module: field(only, "name"), as: field(only, "alias") },
        };
      }
      return { kind: "import_statement", properties: { module: only.text } };
    }
    case "future_import_statement": // `from __future__ import x`: the same fragment writes it
    case "import_from_statement": {
      const module = node.type === "future_import_statement" ? "__future__" : field(node, "module_name");
      const names = node.childrenForFieldName("name").filter((child): child is Node => !!child).map((child) =>
        child.type === "aliased_import"
          ? { name: field(child, "name"), as: field(child, "alias") }
          : child.text
      );
      if (!module) return undefined;
      if (names.length === 0 && named(node).some((child) => child.type === "wildcard_import")) {
        return { kind: "import_from_statement", properties: { module, names: ["*"] } };
      }
      if (names.length === 0) return undefined;
      return { kind: "import_from_statement", properties: { module, names } };
    }
    case "if_statement": {
      const body = bodyOf(node.childForFieldName("consequence"), options);
      if (!body) return undefined;
      const clauses: FragmentValue[] = [];
      for (const clause of node.childrenForFieldName("alternative")) {
        if (!clause) continue;
        const fragment = fragmentOf(clause, options);
        if (!fragment) return undefined;
        clauses.push(fragment);
      }
      return {
        kind: "if_statement",
        properties: { condition: field(node, "condition") },
        children: [...body, ...clauses],
      };
    }
    case "elif_clause": {
      const body = bodyOf(node.childForFieldName("consequence"), options);
      return body &&
        { kind: "elif_clause", properties: { condition: field(node, "condition") }, children: body };
    }
    case "else_clause": {
      const body = bodyOf(node.childForFieldName("body"), options);
      return body && { kind: "else_clause", children: body };
    }
    case "for_statement": {
      const body = bodyOf(node.childForFieldName("body"), options);
      const otherwise = node.childForFieldName("alternative");
      const tail = otherwise ? fragmentOf(otherwise, options) : undefined;
      if (!body || (otherwise && !tail)) return undefined;
      return {
        kind: "for_statement",
        properties: props({
          target: field(node, "left"),
          iterable: field(node, "right"),
          async: node.text.startsWith("async") ? true : undefined,
        }),
        children: [...body, ...(tail ? [tail] : [])],
      };
    }
    case "while_statement": {
      const body = bodyOf(node.childForFieldName("body"), options);
      const otherwise = node.childForFieldName("alternative");
      const tail = otherwise ? fragmentOf(otherwise, options) : undefined;
      if (!body || (otherwise && !tail)) return undefined;
      return {
        kind: "while_statement",
        properties: { condition: field(node, "condition") },
        children: [...body, ...(tail ? [tail] : [])],
      };
    }
    case "try_statement":
      return clausedFragmentOf(node, "try_statement", node.childForFieldName("body"), {}, options);
    case "except_clause": {
      const value = named(node).find((child) => child.type !== "block" && child.type !== "comment");
      const pattern = value?.type === "as_pattern";
      const exception = pattern ? named(value!)[0]?.text : value?.text;
      const as = pattern ? (value!.childForFieldName("alias") ?? named(value!)[1])?.text : undefined;
      if (pattern && (!exception || !as)) return undefined;
      const block = named(node).find((child) => child.type === "block");
      return clausedFragmentOf(node, "except_clause", block, props({ exception, as }), options);
    }
    case "finally_clause":
      return clausedFragmentOf(
        node,
        "finally_clause",
        named(node).find((c) => c.type === "block"),
        {},
        options,
      );
    case "with_statement": {
      const clause = named(node).find((child) => child.type === "with_clause");
      if (!clause || clause.text.startsWith("(")) return undefined;
      const items: { expression: string; as?: string }[] = [];
      for (const item of named(clause)) {
        const value = item.childForFieldName("value");
        if (item.type !== "with_item" || !value) return undefined;
        if (value.type !== "as_pattern") {
          items.push({ expression: value.text });
          continue;
        }
        const alias = value.childForFieldName("alias") ?? named(value)[1];
        if (!named(value)[0] || !alias) return undefined;
        items.push({ expression: named(value)[0].text, as: alias.text });
      }
      const async = node.text.startsWith("async") ? true : undefined;
      return clausedFragmentOf(
        node,
        "with_statement",
        node.childForFieldName("body"),
        props({ items, async }),
        options,
      );
    }
    default:
      return undefined;
  }
}

/**
 * A statement or clause with a body and, for `try`, its clauses: undefined
 * when a comment on its own line sits outside the body (between the header
 * and the block, a place no fragment has) or a part has no fragment. A
 * comment ending a line is left out (see {@link bodyOf}).
 */
function clausedFragmentOf(
  node: Node,
  kind: string,
  block: Node | null | undefined,
  properties: Record<string, unknown>,
  options: FragmentOptions,
): FragmentValue | undefined {
  if (strayComment(node)) return undefined;
  const body = bodyOf(block, options);
  if (!body) return undefined;
  const clauses: FragmentValue[] = [];
  if (kind === "try_statement") {
    for (const clause of named(node).filter((child) => /_clause$/.test(child.type))) {
      const fragment = fragmentOf(clause, options);
      if (!fragment) return undefined;
      clauses.push(fragment);
    }
    if (!clauses.some((clause) => clause.kind !== "else_clause")) return undefined;
  }
  return {
    kind,
    ...(Object.keys(properties).length ? { properties } : {}),
    children: [...body, ...clauses],
  };
}

/**
 * A class or function definition as one fragment: decorators, header
 * fields as written (bases, parameters without their parentheses, return
 * annotation) and the body statement by statement; a docstring is its
 * first expression statement, kept as written. Undefined when a part has no
 * fragment (a comment inside the header, a statement fragments lack).
 */
function definitionFragmentOf(node: Node, options: FragmentOptions): FragmentValue | undefined {
  const definition = node.type === "decorated_definition" ? node.childForFieldName("definition") : node;
  if (!definition || definition.type === "decorated_definition") return undefined;
  const decorators = node.type === "decorated_definition"
    ? named(node).filter((child) => child.type === "decorator").map((child) =>
      child.text.replace(/^@\s*/, "")
    )
    : [];
  if (named(node).some((child) => child.type === "comment")) return undefined;
  if (strayComment(definition)) return undefined;
  const children = bodyOf(definition.childForFieldName("body"), options);
  if (!children) return undefined;
  const common = {
    ...(decorators.length ? { decorators } : {}),
    ...(definition.text.startsWith("async") ? { async: true } : {}),
  };
  if (definition.type === "class_definition") {
    const superclasses = definition.childForFieldName("superclasses");
    const bases = superclasses ? named(superclasses) : [];
    if (bases.some((base) => base.type === "comment")) return undefined;
    return {
      kind: "class_definition",
      properties: props({
        name: field(definition, "name"),
        bases: bases.length ? bases.map((base) => base.text) : undefined,
        ...common,
      }),
      children,
    };
  }
  const parameters = definition.childForFieldName("parameters");
  if (!parameters || named(parameters).some((child) => child.type === "comment")) return undefined;
  return {
    kind: "function_definition",
    properties: props({
      name: field(definition, "name"),
      parameters: parameters.text.slice(1, -1),
      return_type: field(definition, "return_type"),
      ...common,
    }),
    children,
  };
}
