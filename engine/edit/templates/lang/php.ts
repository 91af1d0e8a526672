/**
 * The PHP table of the templates (tree-sitter-php node types). A parameter
 * is written `Type $name = default`; `catch (T $e)` catches by type.
 * Variables keep their `$`: a new parameter's name is given without it and
 * written with it.
 *
 * Precedence follows the PHP manual, mapped onto the C family's levels
 * (`and`/`or`/`xor` as `&&`/`||`, `??` below `||`, `.` with `+ -`).
 *
 * @module
 */

import type { Node } from "../../../parse/mod.ts";
import { bracedTable, C_BINARY, C_LEVELS, nameOf } from "./braced.ts";
import { fieldIs, type LanguageTable, statementsOf } from "./table.ts";

const dollar = (name: string) => name.startsWith("$") ? name : `$${name}`;

/** The PHP table. */
export const PHP: LanguageTable = bracedTable({
  languages: ["php"],
  rootType: "program",
  blockTypes: ["compound_statement", "program", "case_statement", "default_statement"],
  functionTypes: [
    "function_definition",
    "method_declaration",
    "anonymous_function_creation_expression",
    "arrow_function",
  ],
  classTypes: ["class_declaration", "trait_declaration", "enum_declaration"],
  callTypes: ["function_call_expression", "member_call_expression", "scoped_call_expression"],
  conditionalTypes: ["if_statement", "while_statement", "do_statement", "else_if_clause"],
  returnTypes: ["return_statement"],
  guardHeader: (condition) => `if (${condition}) {`,
  tryType: "try_statement",
  tryExcept: ({ excType, asName, handler, finallyBody }) => [
    { line: "try {" },
    { target: true },
    {
      line: `} catch (${excType.trim() === "*" ? "\\Throwable" : excType.trim()} ${dollar(asName ?? "e")}) {`,
    },
    { body: handler },
    ...(finallyBody ? [{ line: "} finally {" }, { body: finallyBody }] : []),
    { line: "}" },
  ],
  parameterTypes: ["simple_parameter", "variadic_parameter", "property_promotion_parameter"],
  variadicTypes: ["variadic_parameter"],
  parameterName: (node) => (node.childForFieldName("name")?.text ?? "").replace(/^\$/, ""),
  parameterDefaults: true,
  parameterTypeRequired: false,
  parameterText: ({ name, default: value, annotation }) =>
    `${annotation ? `${annotation.trim()} ` : ""}${dollar(name)}${
      value !== undefined ? ` = ${value.trim()}` : ""
    }`,
  returnText: (value) => `return ${value};`,
  assignment: (name, value) => `${dollar(name)} = ${value};`,
  parameterList: (fn) => fn.childForFieldName("parameters") ?? undefined,
  functionBody: (fn) => {
    const body = fn.childForFieldName("body");
    return body?.type === "compound_statement" ? body : undefined;
  },
  functionName: (fn) => fn.childForFieldName("name")?.text,
  classBody: (cls) => cls.childForFieldName("body") ?? undefined,
  memberText: (code) => `<?php\nclass __C {\n${code}\n}`,
  contextMembers: (root) => {
    const cls = root.namedChildren.find((n) => n?.type === "class_declaration");
    const body = cls?.childForFieldName("body");
    return body ? statementsOf(body) : [];
  },
  methodTypes: ["method_declaration"],
  memberName: (member: Node) => member.childForFieldName("name")?.text ?? nameOf(member),
  binary: {
    ...C_BINARY,
    "and": 5,
    "or": 4,
    "xor": 4,
    "??": 3.5,
    ".": 12,
    "===": 9,
    "!==": 9,
    "<>": 9,
    "**": 14,
  },
  levels: C_LEVELS,
  notExpressions: /^(php_tag|text_interpolation|argument)$/,
  isNameSlot: (node) =>
    node.type === "name" && !!node.parent &&
    (/member_access|member_call|scoped/.test(node.parent.type) && fieldIs(node.parent, "name", node)),
  blockScoped: [],
  identifierTypes: ["name"],
});
