/**
 * What a locator's `name` matches, node by node.
 *
 * - Named definitions (functions, methods, classes, structs, modules, ...):
 *   their declared name (`name` field, or the C declarator's identifier).
 *   A member of a class also answers to `Class.name` (`Session.send`); Go
 *   methods answer to `Receiver.Name`, Ruby singleton methods to
 *   `self.name`, Rust `impl` blocks to their type and their trait.
 * - Imports: the imported module and every imported name or alias
 *   (`from a.b import c as d` → `a.b`, `c`, `d`); a path (`"./util.js"`,
 *   `<stdio.h>`, `require "models/item"`) also by its base name with and
 *   without extension.
 * - Calls and decorators: the callee (`os.path.join` → `os.path.join` and
 *   `join`); a call's canonical name is the callee's last identifier.
 * - Assignments, variables, fields, parameters: the bound names.
 * - Attributes: the attribute (`self.items` → `items`, and the full text).
 * - Identifiers: their text.
 *
 * A dotted or qualified name (`a.b`, `A::b`, `App\Item`, `obj->m`) matches
 * both in full and by its last segment; leading sigils (`$`, `@`, `@@`) are
 * optional. Names are compared exactly, case included.
 *
 * @module
 */

import type { LanguageId, Node } from "../parse/mod.ts";
import { kindOf, ownerOf } from "./kinds.ts";

/** Leaf node types whose text is a name. */
const IDENTIFIERS = new Set([
  "identifier",
  "property_identifier",
  "field_identifier",
  "type_identifier",
  "shorthand_property_identifier",
  "shorthand_property_identifier_pattern",
  "private_property_identifier",
  "statement_identifier",
  "namespace_identifier",
  "package_identifier",
  "constant",
  "instance_variable",
  "class_variable",
  "global_variable",
  "name",
  "variable_name",
  "self",
  "this",
]);

/** Node types that are a qualified name or a member access (`a.b`, `A::b`). */
const QUALIFIED = new Set([
  "attribute",
  "dotted_name",
  "member_expression",
  "field_expression",
  "selector_expression",
  "field_access",
  "member_access_expression",
  "nullsafe_member_access_expression",
  "scoped_property_access_expression",
  "class_constant_access_expression",
  "scoped_identifier",
  "scoped_type_identifier",
  "qualified_identifier",
  "qualified_type",
  "qualified_name",
  "namespace_name",
  "scope_resolution",
  "nested_identifier",
  "nested_type_identifier",
  "generic_type",
  "template_type",
  "destructor_name",
  "operator_name",
]);

/** The field holding the callee of each call node type. */
const CALLEE_FIELD: Readonly<Record<string, string>> = {
  call: "function",
  call_expression: "function",
  new_expression: "constructor",
  method_invocation: "name",
  object_creation_expression: "type",
  macro_invocation: "macro",
  function_call_expression: "function",
  member_call_expression: "name",
  nullsafe_member_call_expression: "name",
  scoped_call_expression: "name",
};

const ASSIGNMENTS = new Set([
  "assignment",
  "augmented_assignment",
  "assignment_expression",
  "augmented_assignment_expression",
  "reference_assignment_expression",
  "assignment_statement",
  "compound_assignment_expr",
  "operator_assignment",
]);

/** Element targets (`a[k] = v`) bind no name. */
const SUBSCRIPTS = new Set([
  "subscript",
  "element_reference",
  "subscript_expression",
  "index_expression",
  "array_access",
]);

const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
  "lambda",
  "func_literal",
  "closure_expression",
  "anonymous_function_creation_expression",
  "lambda_expression",
]);

/** The canonical name of a node (see the module doc), or undefined when it has none. */
export function nodeName(node: Node, language: LanguageId): string | undefined {
  const kind = kindOf(node, language);
  // a condition is what a conditional answers to, not what it is called
  if (kind === "if" || kind === "while" || CONDITIONAL_CLAUSES.has(node.type)) return undefined;
  const names = nodeNames(node, language, kind);
  if (names.length === 0) return undefined;
  return kind === "import" ? names[0] : lastSegment(names[0]);
}

/**
 * Every name `node` answers to, the canonical one first. `kind` is the
 * normalized kind it is being matched as (defaults to `kindOf(node)`): a
 * Ruby `require "json"` is named `json` as an import and `require` as a call.
 */
export function nodeNames(node: Node, language: LanguageId, kind = kindOf(node, language)): string[] {
  return unique(collectNames(node, language, kind).map(compact).filter((name) => name !== ""));
}

/** Whether `node` answers to `name` (full or last segment, sigils optional). */
export function nameMatches(node: Node, name: string, language: LanguageId, kind?: string): boolean {
  const wanted = stripSigil(name);
  const compacted = compact(name);
  for (const candidate of nodeNames(node, language, kind)) {
    if (candidate === name || candidate === compacted || stripSigil(candidate) === wanted) return true;
    if (candidate.includes("/")) continue;
    const last = lastSegment(candidate);
    if (last === name || stripSigil(last) === wanted) return true;
  }
  return false;
}

function collectNames(node: Node, language: LanguageId, kind: string): string[] {
  if (kind === "import") return importNames(node, language);
  if (kind === "decorator") return decoratorNames(node);
  if (kind === "call" && language === "ruby" && node.type === "call") return rubyCallNames(node);
  if (node.type in CALLEE_FIELD) {
    const callee = node.childForFieldName(CALLEE_FIELD[node.type]) ?? node.namedChildren.find(isNameNode);
    if (!callee) return [];
    if (node.type === "method_invocation" || node.type === "member_call_expression") {
      const object = node.childForFieldName("object");
      return object ? [callee.text, `${object.text}.${callee.text}`] : [callee.text];
    }
    return qualifiedNames(callee);
  }
  if (kind === "argument") {
    const name = node.childForFieldName("name");
    return name ? [name.text] : [];
  }
  if (kind === "if" || kind === "while" || CONDITIONAL_CLAUSES.has(node.type)) return conditionNames(node);
  if (kind === "for") return bindingNames(node.childForFieldName("left"));
  if (ASSIGNMENTS.has(node.type)) return bindingNames(node.childForFieldName("left"));
  if (kind === "field" && node.type === "expression_statement") {
    return bindingNames(node.firstNamedChild?.childForFieldName("left") ?? null);
  }
  if (QUALIFIED.has(node.type)) return qualifiedNames(node);
  if (node.type === "method_declaration" && language === "go") return goMethodNames(node);
  if (node.type === "singleton_method") {
    const name = node.childForFieldName("name")?.text;
    const object = node.childForFieldName("object")?.text;
    return name ? (object ? [name, `${object}.${name}`] : [name]) : [];
  }
  if (node.type === "impl_item") {
    return [node.childForFieldName("type"), node.childForFieldName("trait")].flatMap((n) =>
      n ? qualifiedNames(baseType(n)) : []
    );
  }
  if (node.type === "self_parameter") return ["self"];
  if (FUNCTION_VALUES.has(node.type) && !node.childForFieldName("name")) return bindingOfValue(node);
  if (node.type === "module" && node.childForFieldName("name")?.type === "string") {
    return pathNames(unquote(node.childForFieldName("name")!.text));
  }
  if (kind === "method" || kind === "function") {
    // a member also answers to `Class.name`, as a traceback or the graph view would write it
    const names = bindingNames(node);
    const owner = ownerOf(node, language)?.childForFieldName("name")?.text;
    return owner ? [...names, ...names.map((name) => `${owner}.${name}`)] : names;
  }
  return bindingNames(node);
}

/** Clauses named by their condition, like `if` and `while`. */
const CONDITIONAL_CLAUSES = new Set(["if_statement", "elif_clause", "while_statement", "else_if_clause"]);

/** An `if`/`elif`/`while` answers to its condition's text (`x > 0`; JS parentheses dropped). */
function conditionNames(node: Node): string[] {
  let condition = node.childForFieldName("condition");
  while (condition?.type === "parenthesized_expression" && condition.namedChildCount === 1) {
    condition = condition.namedChild(0);
  }
  return condition ? [condition.text] : [];
}

/** Names bound by a definition, declaration, parameter or assignment target. */
function bindingNames(node: Node | null): string[] {
  if (!node || SUBSCRIPTS.has(node.type)) return [];
  if (IDENTIFIERS.has(node.type)) return [node.text];
  if (QUALIFIED.has(node.type)) return qualifiedNames(node);
  for (const field of ["name", "pattern", "declarator", "left"]) {
    const children = node.childrenForFieldName(field).filter((child): child is Node => child !== null);
    if (children.length > 0) return children.flatMap(bindingNames);
  }
  // Declarations holding specs or declarators without a field, and lists.
  const out: string[] = [];
  for (const child of node.namedChildren) {
    if (!child) continue;
    if (IDENTIFIERS.has(child.type)) out.push(child.text);
    else if (/(_spec|_declarator|^property_element|^const_element|_list|_pattern)$/.test(child.type)) {
      out.push(...bindingNames(child));
    }
  }
  return out;
}

/** `a.b.c` → the full text; the last segment matches through `nameMatches`. */
function qualifiedNames(node: Node): string[] {
  if (node.type === "string" || node.type.endsWith("string_literal")) return pathNames(unquote(node.text));
  return [node.text];
}

/** The name an anonymous function value is bound to: `const f = () => {}`, `f = lambda: 0`. */
function bindingOfValue(node: Node): string[] {
  const parent = node.parent;
  if (!parent) return [];
  switch (parent.type) {
    case "variable_declarator":
    case "public_field_definition":
    case "field_definition":
      return bindingNames(parent.childForFieldName("name") ?? parent.childForFieldName("property"));
    case "assignment":
    case "assignment_expression":
      return bindingNames(parent.childForFieldName("left"));
    case "pair":
      return bindingNames(parent.childForFieldName("key"));
    case "let_declaration":
      return bindingNames(parent.childForFieldName("pattern"));
    default:
      return [];
  }
}

function goMethodNames(node: Node): string[] {
  const name = node.childForFieldName("name")?.text;
  if (!name) return [];
  const receiver = goReceiverType(node);
  return receiver ? [name, `${receiver}.${name}`] : [name];
}

/** The receiver type name of a Go method (`func (s *Store) Get()` → `Store`). */
export function goReceiverType(node: Node): string | undefined {
  const param = node.childForFieldName("receiver")?.namedChildren.find((c) =>
    c?.type === "parameter_declaration"
  );
  let type = param?.childForFieldName("type") ?? null;
  while (type && (type.type === "pointer_type" || type.type === "generic_type")) {
    type = type.type === "pointer_type" ? type.namedChild(0) : type.childForFieldName("type");
  }
  return type?.text;
}

/** The type name of a Rust `impl` (`impl<T> Display for Item<T>` → `Item`). */
export function implTypeName(node: Node): string | undefined {
  const type = node.childForFieldName("type");
  return type ? baseType(type).text : undefined;
}

function baseType(node: Node): Node {
  let type = node;
  while (type.type === "generic_type" || type.type === "reference_type") {
    const inner = type.childForFieldName("type");
    if (!inner) break;
    type = inner;
  }
  return type;
}

function rubyCallNames(node: Node): string[] {
  const method = node.childForFieldName("method")?.text;
  if (!method) return [];
  const receiver = node.childForFieldName("receiver")?.text;
  return receiver ? [method, `${receiver}.${method}`] : [method];
}

function decoratorNames(node: Node): string[] {
  if (node.type === "annotation" || node.type === "marker_annotation" || node.type === "attribute") {
    const name = node.childForFieldName("name") ?? node.namedChildren.find(isNameNode);
    return name ? qualifiedNames(name) : [];
  }
  let expr = node.type === "attribute_item" ? node.namedChild(0)?.namedChild(0) ?? null : node.namedChild(0);
  if (expr && expr.type in CALLEE_FIELD) expr = expr.childForFieldName(CALLEE_FIELD[expr.type]);
  return expr ? qualifiedNames(expr) : [];
}

function importNames(node: Node, language: LanguageId): string[] {
  const out: string[] = [];
  const add = (n: Node | null | undefined) => {
    if (n) out.push(...qualifiedNames(n));
  };
  switch (language) {
    case "python":
      add(node.childForFieldName("module_name"));
      if (node.type === "future_import_statement") out.push("__future__");
      for (const name of node.childrenForFieldName("name")) {
        if (name?.type === "aliased_import") {
          add(name.childForFieldName("name"));
          add(name.childForFieldName("alias"));
        } else add(name);
      }
      if (node.namedChildren.some((c) => c?.type === "wildcard_import")) out.push("*");
      break;
    case "javascript":
    case "typescript":
    case "tsx":
      add(node.childForFieldName("source"));
      // `const x = require("m")`: the module is the call's first argument.
      for (const call of node.descendantsOfType("call_expression")) {
        if (call?.childForFieldName("function")?.text === "require") {
          add(call.childForFieldName("arguments")?.namedChild(0));
        }
      }
      for (const id of node.descendantsOfType(["identifier", "type_identifier"])) {
        if (id?.text !== "require") add(id);
      }
      break;
    case "go":
      for (const spec of node.descendantsOfType("import_spec")) {
        add(spec?.childForFieldName("path"));
        add(spec?.childForFieldName("name"));
      }
      break;
    case "ruby":
      for (const arg of node.childForFieldName("arguments")?.namedChildren ?? []) add(arg);
      break;
    case "php":
      if (node.type === "namespace_use_declaration") {
        for (const n of node.descendantsOfType(["qualified_name", "namespace_name", "name"])) {
          if (n && !QUALIFIED.has(n.parent?.type ?? "")) add(n);
        }
      } else {
        for (const s of node.descendantsOfType(["string", "encapsed_string"])) add(s);
      }
      break;
    case "c":
    case "cpp":
      if (node.type === "preproc_include") {
        const path = node.childForFieldName("path");
        if (path) out.push(...pathNames(path.text.replace(/^[<"]|[>"]$/g, "")));
      } else {
        for (const child of node.namedChildren) add(child);
      }
      break;
    default: // java, rust
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (child.type === "use_list" || child.type === "scoped_use_list" || child.type === "use_as_clause") {
          out.push(child.text);
          for (const id of child.descendantsOfType(["identifier", "type_identifier", "scoped_identifier"])) {
            add(id);
          }
        } else if (child.type !== "visibility_modifier" && child.type !== "asterisk") add(child);
      }
  }
  return out;
}

/** A path's names: itself, its base name, and the base name without extension. */
function pathNames(path: string): string[] {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return [path, base, dot > 0 ? base.slice(0, dot) : base];
}

function isNameNode(node: Node | null): boolean {
  return node !== null && (IDENTIFIERS.has(node.type) || QUALIFIED.has(node.type));
}

/** The last segment of a qualified name: `a.b` → `b`, `A::b` → `b`, `App\Item` → `Item`. */
export function lastSegment(name: string): string {
  const parts = name.split(/::|->|\?->|\.|\\/).filter((part) => part !== "");
  return parts.length > 0 ? parts[parts.length - 1] : name;
}

function compact(name: string): string {
  return unquote(name.replace(/\s+/g, ""));
}

function unquote(text: string): string {
  return /^(["'`]).*\1$/s.test(text) ? text.slice(1, -1) : text;
}

function stripSigil(name: string): string {
  return name.replace(/^(\$|@@|@)/, "");
}

function unique(names: string[]): string[] {
  return [...new Set(names)];
}
