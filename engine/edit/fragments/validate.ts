/**
 * Fragment validation: the shape of a fragment (known kind, known and
 * required properties of the right JSON type, allowed children in the
 * allowed order, no children on leaves) and the source text in its
 * properties, each parsed in its grammatical role. Every problem is
 * collected, each with a JSON path such as
 * `["fragment", "children", 2, "properties", "condition"]`.
 *
 * @module
 */

import { error, type Issue } from "../../base/issue.ts";
import type { LanguageId } from "../../parse/mod.ts";
import { syntaxProblems, withTree } from "../../parse/mod.ts";
import { closestNames, didYouMean } from "../../base/suggest.ts";
import type { ParamKind } from "../catalog_types.ts";
import { validateParam } from "../params.ts";
import { isPythonIdentifier, validateBase, validateTarget } from "./_params.ts";
import type { Fragment } from "./fragment.ts";
import { FRAGMENT_KINDS, type PropertySpec } from "./kinds.ts";
import { serializeFragment } from "./serialize.ts";

/** A JSON path into a plan. */
export type JsonPath = (string | number)[];

/** Augmented assignment operators. */
export const AUGMENTED_OPERATORS: readonly string[] = [
  "+=",
  "-=",
  "*=",
  "/=",
  "//=",
  "%=",
  "**=",
  ">>=",
  "<<=",
  "&=",
  "^=",
  "|=",
  "@=",
];

const NODE_FIELDS = ["kind", "properties", "children"];

/** Source text found in a fragment, to be parsed in its role. */
interface TextCheck {
  role: ParamKind | "target" | "base";
  value: string;
  name: string;
  path: JsonPath;
}

/**
 * The structural problems of `fragment` (no parsing of its source text;
 * {@link checkFragment} does both). `path` is the fragment's JSON path.
 */
export function validateFragment(fragment: unknown, path: JsonPath = ["fragment"]): Issue[] {
  const issues: Issue[] = [];
  walk(fragment, path, issues, []);
  return issues;
}

/**
 * Every problem of `fragment`: the structural ones, then each source-text
 * property parsed in its grammatical role, then (when all that passed) the
 * serialized fragment parsed as a whole.
 */
export async function checkFragment(
  fragment: unknown,
  options: { path?: JsonPath; language?: LanguageId } = {},
): Promise<Issue[]> {
  const path = options.path ?? ["fragment"];
  const language = options.language ?? "python";
  const issues: Issue[] = [];
  const texts: TextCheck[] = [];
  walk(fragment, path, issues, texts);
  for (const check of texts) {
    const found = check.role === "target"
      ? await validateTarget(check.value, check.name)
      : check.role === "base"
      ? await validateBase(check.value, check.name)
      : await validateParam(check.role, check.value, { language, name: check.name });
    issues.push(...found.map((issue) => ({ ...issue, path: check.path })));
  }
  if (issues.some((issue) => issue.severity === "error")) return issues;
  const frag = fragment as Fragment;
  // A clause is parsed in a compound statement that can hold it.
  const host = frag.kind === "elif_clause" || frag.kind === "else_clause"
    ? "if _:\n    pass\n"
    : FRAGMENT_KINDS[frag.kind].role === "clause"
    ? "try:\n    pass\n"
    : "";
  const source = serializeFragment(frag);
  await withTree(language, host + source + "\n", (tree) => {
    const problems = syntaxProblems(tree, 1);
    const hostLines = host.split("\n").length - 1;
    // A comment fragment is one comment; any other fragment is one statement (comments inside it aside).
    const statements = tree.rootNode.namedChildren.filter((child) =>
      child && (frag.kind === "comment" || child.type !== "comment")
    );
    if (problems.length > 0) {
      const line = Math.max(1, problems[0].line - hostLines);
      issues.push(
        error(
          "fragment-syntax",
          `The fragment does not serialize to valid Python: syntax error at line ${line} of ${
            JSON.stringify(source.split("\n")[line - 1] ?? "")
          }`,
          { path, hint: "check the source text in the properties of that statement" },
        ),
      );
    } else if (statements.length !== 1) {
      issues.push(
        error(
          "fragment-syntax",
          `The fragment serializes to ${statements.length} statements instead of one: ${
            JSON.stringify(source.split("\n")[0])
          }`,
          { path, hint: "a property holds more than its part of the statement" },
        ),
      );
    }
  });
  return issues;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Validate one fragment node and its descendants. */
function walk(node: unknown, path: JsonPath, issues: Issue[], texts: TextCheck[]): void {
  if (!isObject(node)) {
    issues.push(
      error(
        "fragment-invalid",
        `A fragment must be an object {"kind", "properties", "children"}, got ${typeName(node)}`,
        { path },
      ),
    );
    return;
  }
  for (const key of Object.keys(node)) {
    if (NODE_FIELDS.includes(key)) continue;
    issues.push(error("fragment-invalid", `Unknown field "${key}" in a fragment`, {
      path: [...path, key],
      hint: didYouMean(closestNames(key, NODE_FIELDS, 1)) ??
        'a fragment has "kind", "properties" and "children"; put values in "properties"',
    }));
  }
  const kind = node.kind;
  if (typeof kind !== "string") {
    issues.push(error(
      kind === undefined ? "fragment-missing-kind" : "fragment-invalid",
      kind === undefined ? `The fragment has no "kind"` : `"kind" must be a string, got ${typeName(kind)}`,
      { path: [...path, "kind"], hint: `kinds: ${Object.keys(FRAGMENT_KINDS).join(", ")}` },
    ));
    return;
  }
  const spec = Object.hasOwn(FRAGMENT_KINDS, kind) ? FRAGMENT_KINDS[kind] : undefined;
  if (!spec) {
    issues.push(error("fragment-unknown-kind", `Unknown fragment kind "${clip(kind)}"`, {
      path: [...path, "kind"],
      hint: didYouMean(suggestKinds(kind)) ??
        `kinds: ${Object.keys(FRAGMENT_KINDS).join(", ")}`,
    }));
    return;
  }
  checkProperties(kind, node.properties, path, issues, texts);
  checkChildren(kind, node.children, path, issues, texts);
}

function checkProperties(
  kind: string,
  raw: unknown,
  path: JsonPath,
  issues: Issue[],
  texts: TextCheck[],
): void {
  const spec = FRAGMENT_KINDS[kind];
  const base = [...path, "properties"];
  if (raw !== undefined && raw !== null && !isObject(raw)) {
    issues.push(
      error("fragment-invalid", `"properties" of "${kind}" must be an object, got ${typeName(raw)}`, {
        path: base,
      }),
    );
    return;
  }
  const props = (raw ?? {}) as Record<string, unknown>;
  const known = Object.keys(spec.properties);
  for (const key of Object.keys(props)) {
    if (Object.hasOwn(spec.properties, key)) continue;
    issues.push(error("fragment-unknown-property", `Unknown property "${clip(key)}" for "${kind}"`, {
      path: [...base, key],
      hint: didYouMean(closestNames(key, known)) ??
        (known.length ? `"${kind}" takes ${known.map((k) => `"${k}"`).join(", ")}` : `"${kind}" takes none`),
    }));
  }
  for (const [name, prop] of Object.entries(spec.properties)) {
    const value = Object.hasOwn(props, name) ? props[name] : undefined;
    if (value === undefined || value === null) {
      if (prop.required) {
        issues.push(error("fragment-missing-property", `"${kind}" needs the property "${name}"`, {
          path: [...base, name],
          hint: `${name}: ${prop.description}`,
        }));
      }
      continue;
    }
    checkValue(kind, name, prop, value, [...base, name], issues, texts);
  }
  const has = (name: string) => props[name] !== undefined && props[name] !== null;
  if (kind === "raise_statement" && has("cause") && !has("exception")) {
    issues.push(error("fragment-property-conflict", `"raise_statement" with "cause" needs "exception"`, {
      path: [...base, "cause"],
    }));
  }
  if (kind === "assignment" && !has("value") && !has("annotation")) {
    issues.push(error("fragment-missing-property", `"assignment" needs the property "value"`, {
      path: [...base, "value"],
      hint: 'value: assigned value (only an annotated declaration, "x: int", has none)',
    }));
  }
  if (kind === "except_clause" && has("as") && !has("exception")) {
    issues.push(error("fragment-property-conflict", `"except_clause" with "as" needs "exception"`, {
      path: [...base, "as"],
    }));
  }
}

function checkValue(
  kind: string,
  name: string,
  prop: PropertySpec,
  value: unknown,
  path: JsonPath,
  issues: Issue[],
  texts: TextCheck[],
): void {
  const wrongType = (expected: string): void => {
    issues.push(
      error(
        "fragment-property-type",
        `Property "${name}" of "${kind}" must be ${expected}, got ${typeName(value)}`,
        { path, hint: prop.description },
      ),
    );
  };
  const shape = prop.shape;
  switch (shape.type) {
    case "text":
    case "target":
      if (typeof value !== "string") return wrongType("a string of source text");
      texts.push({ role: shape.type === "target" ? "target" : shape.role, value, name, path });
      return;
    case "identifier":
      if (typeof value !== "string") return wrongType("a string");
      if (!isPythonIdentifier(value)) {
        issues.push(
          error(
            "param-invalid",
            `Property "${name}" of "${kind}" must be an identifier, got "${clip(value)}"`,
            { path },
          ),
        );
      }
      return;
    case "module": {
      if (typeof value !== "string") return wrongType("a string");
      const dotted = /^[\p{L}_][\p{L}\p{N}_]*(\.[\p{L}_][\p{L}\p{N}_]*)*$/u;
      const ok = shape.relative
        ? /^\.+$/.test(value) || dotted.test(value.replace(/^\.+/, ""))
        : dotted.test(value);
      if (!ok) {
        issues.push(
          error(
            "param-invalid",
            `Property "${name}" of "${kind}" must be a dotted module name, got "${clip(value)}"`,
            { path, hint: shape.relative ? 'e.g. "os.path", ".models", ".."' : 'e.g. "os.path"' },
          ),
        );
      }
      return;
    }
    case "string":
      if (typeof value !== "string") return wrongType("a string");
      return;
    case "line":
      if (typeof value !== "string") return wrongType("a string");
      if (/[\r\n]/.test(value)) {
        issues.push(
          error("param-invalid", `Property "${name}" of "${kind}" must be one line, it has a line break`, {
            path,
            hint: "one fragment per comment line",
          }),
        );
      }
      return;
    case "boolean":
      if (typeof value !== "boolean") return wrongType("true or false");
      return;
    case "operator":
      if (typeof value !== "string") return wrongType("a string");
      if (!AUGMENTED_OPERATORS.includes(value) && !AUGMENTED_OPERATORS.includes(`${value}=`)) {
        issues.push(
          error(
            "param-invalid",
            `Property "${name}" of "${kind}" must be an augmented operator, got "${clip(value)}"`,
            { path, hint: AUGMENTED_OPERATORS.join(" ") },
          ),
        );
      }
      return;
    case "text_list":
      if (!Array.isArray(value)) return wrongType("an array of strings");
      value.forEach((item, index) => {
        if (typeof item !== "string") {
          issues.push(
            error(
              "fragment-property-type",
              `Item ${index} of "${name}" must be a string, got ${typeName(item)}`,
              { path: [...path, index] },
            ),
          );
        } else {
          const role = kind === "class_definition" && name === "bases" ? "base" : shape.role;
          texts.push({ role, value: item, name, path: [...path, index] });
        }
      });
      return;
    case "with_items":
      if (!Array.isArray(value) || value.length === 0) {
        return wrongType('a non-empty array of {"expression", "as"?}');
      }
      value.forEach((item, index) => checkWithItem(item, [...path, index], issues, texts));
      return;
    case "import_names":
      if (!Array.isArray(value) || value.length === 0) {
        return wrongType('a non-empty array of names or {"name", "as"}');
      }
      value.forEach((item, index) => checkImportName(item, value.length, [...path, index], issues));
      return;
  }
}

function checkWithItem(item: unknown, path: JsonPath, issues: Issue[], texts: TextCheck[]): void {
  if (!isObject(item)) {
    issues.push(
      error("fragment-property-type", `A "with" item must be {"expression", "as"?}, got ${typeName(item)}`, {
        path,
      }),
    );
    return;
  }
  for (const key of Object.keys(item)) {
    if (key === "expression" || key === "as") continue;
    issues.push(error("fragment-unknown-property", `Unknown field "${clip(key)}" in a "with" item`, {
      path: [...path, key],
      hint: didYouMean(closestNames(key, ["expression", "as"], 1)) ??
        'a "with" item has "expression" and "as"',
    }));
  }
  if (typeof item.expression !== "string") {
    issues.push(error(
      item.expression === undefined ? "fragment-missing-property" : "fragment-property-type",
      item.expression === undefined
        ? `A "with" item needs "expression"`
        : `"expression" of a "with" item must be a string, got ${typeName(item.expression)}`,
      { path: [...path, "expression"] },
    ));
  } else {
    texts.push({
      role: "expression",
      value: item.expression,
      name: "expression",
      path: [...path, "expression"],
    });
  }
  if (item.as !== undefined && item.as !== null) {
    if (typeof item.as !== "string") {
      issues.push(
        error("fragment-property-type", `"as" of a "with" item must be a string, got ${typeName(item.as)}`, {
          path: [...path, "as"],
        }),
      );
    } else {
      texts.push({ role: "target", value: item.as, name: "as", path: [...path, "as"] });
    }
  }
}

function checkImportName(item: unknown, count: number, path: JsonPath, issues: Issue[]): void {
  const checkName = (value: unknown, at: JsonPath, what: string) => {
    if (typeof value !== "string") {
      issues.push(
        error("fragment-property-type", `${what} must be a string, got ${typeName(value)}`, { path: at }),
      );
    } else if (!isPythonIdentifier(value)) {
      issues.push(
        error("param-invalid", `${what} must be an identifier, got "${clip(value)}"`, { path: at }),
      );
    }
  };
  if (item === "*") {
    if (count > 1) {
      issues.push(error("param-invalid", `"*" must be the only imported name`, { path }));
    }
    return;
  }
  if (typeof item === "string") return checkName(item, path, "An imported name");
  if (!isObject(item)) {
    issues.push(
      error(
        "fragment-property-type",
        `An imported name must be a string or {"name", "as"}, got ${typeName(item)}`,
        { path },
      ),
    );
    return;
  }
  for (const key of Object.keys(item)) {
    if (key === "name" || key === "as") continue;
    issues.push(error("fragment-unknown-property", `Unknown field "${clip(key)}" in an imported name`, {
      path: [...path, key],
      hint: 'an imported name is {"name", "as"}',
    }));
  }
  checkName(item.name, [...path, "name"], `"name" of an imported name`);
  if (item.as !== undefined && item.as !== null) {
    checkName(item.as, [...path, "as"], `"as" of an imported name`);
  }
}

function checkChildren(
  kind: string,
  raw: unknown,
  path: JsonPath,
  issues: Issue[],
  texts: TextCheck[],
): void {
  const spec = FRAGMENT_KINDS[kind];
  const base = [...path, "children"];
  if (raw === undefined || raw === null) {
    if (kind === "try_statement") tryHandlers([], base, issues);
    return;
  }
  if (!Array.isArray(raw)) {
    issues.push(error("fragment-invalid", `"children" of "${kind}" must be an array, got ${typeName(raw)}`, {
      path: base,
    }));
    return;
  }
  if (!spec.children) {
    if (raw.length > 0) {
      issues.push(error("fragment-leaf-children", `"${kind}" is a leaf and takes no children`, {
        path: base,
        hint: `put the values of "${kind}" in "properties"`,
      }));
    }
    return;
  }
  const clauses = spec.children.clauses;
  let lastClause = -1;
  const seen = new Set<string>();
  raw.forEach((child, index) => {
    const at = [...base, index];
    walk(child, at, issues, texts);
    const childKind = isObject(child) && typeof child.kind === "string" ? child.kind : undefined;
    const childSpec = childKind && Object.hasOwn(FRAGMENT_KINDS, childKind)
      ? FRAGMENT_KINDS[childKind]
      : undefined;
    if (!childKind || !childSpec) return;
    if (childSpec.role === "statement") {
      if (lastClause >= 0) {
        issues.push(error(
          "fragment-child-order",
          `A body statement ("${childKind}") follows the clause "${clauses[lastClause].kind}" in "${kind}"`,
          { path: at, hint: "body statements come first, then the clauses" },
        ));
      }
      return;
    }
    const position = clauses.findIndex((clause) => clause.kind === childKind);
    if (position === -1) {
      issues.push(error("fragment-child-not-allowed", `"${kind}" cannot contain "${childKind}"`, {
        path: [...at, "kind"],
        hint: clauses.length
          ? `"${kind}" takes body statements, then ${clauses.map((clause) => `"${clause.kind}"`).join(", ")}`
          : `"${kind}" takes body statements only`,
      }));
      return;
    }
    if (position < lastClause || (seen.has(childKind) && !clauses[position].many)) {
      issues.push(error(
        "fragment-child-order",
        seen.has(childKind) && !clauses[position].many
          ? `"${kind}" takes at most one "${childKind}"`
          : `"${childKind}" cannot follow "${clauses[lastClause].kind}" in "${kind}"`,
        { path: at, hint: `order: body statements, ${clauses.map((clause) => clause.kind).join(", ")}` },
      ));
    }
    seen.add(childKind);
    lastClause = Math.max(lastClause, position);
  });
  if (kind === "try_statement") {
    const kinds = raw.map((child) => isObject(child) ? child.kind : undefined);
    tryHandlers(kinds, base, issues);
  }
}

/** A `try` needs an `except` or a `finally`, and an `else` needs an `except`. */
function tryHandlers(kinds: unknown[], path: JsonPath, issues: Issue[]): void {
  const except = kinds.includes("except_clause");
  if (!except && !kinds.includes("finally_clause")) {
    issues.push(
      error(
        "fragment-try-handlers",
        `"try_statement" needs at least one "except_clause" or a "finally_clause"`,
        {
          path,
        },
      ),
    );
  } else if (!except && kinds.includes("else_clause")) {
    issues.push(
      error("fragment-try-handlers", `"try_statement" with an "else_clause" needs an "except_clause"`, {
        path,
      }),
    );
  }
}

function clip(value: string): string {
  const flat = value.replace(/\s+/g, " ");
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

const KIND_ALIASES: Record<string, string> = {
  def: "function_definition",
  function: "function_definition",
  method: "function_definition",
  class: "class_definition",
  assign: "assignment",
  call: "expression_statement",
  expression: "expression_statement",
  from_import: "import_from_statement",
  import_from: "import_from_statement",
  except: "except_clause",
  catch: "except_clause",
  elif: "elif_clause",
  else: "else_clause",
  finally: "finally_clause",
};

/** Kinds a misspelled kind may have meant: close names, an alias, or kinds starting with its first word. */
function suggestKinds(kind: string): string[] {
  const names = Object.keys(FRAGMENT_KINDS);
  const close = closestNames(kind, names);
  if (close.length) return close;
  const lower = kind.toLowerCase();
  if (Object.hasOwn(KIND_ALIASES, lower)) return [KIND_ALIASES[lower]];
  const first = lower.split(/[_\s-]+/)[0];
  if (Object.hasOwn(KIND_ALIASES, first)) return [KIND_ALIASES[first]];
  return names.filter((name) => name.split("_")[0] === first).slice(0, 3);
}
