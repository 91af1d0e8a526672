/**
 * The Java table of the templates (tree-sitter-java node types). A
 * parameter is written `Type name`; Java has no default values. `try`
 * catches the given type by name: `catch (T name) { ... }`.
 *
 * Precedence is the C family's (`braced.ts`) with `>>>` and `instanceof`.
 *
 * @module
 */

import type { Node } from "../../../parse/mod.ts";
import { bracedTable, C_BINARY, C_LEVELS, nameOf } from "./braced.ts";
import { fieldIs, type LanguageTable, statementsOf } from "./table.ts";

/** The Java table. */
export const JAVA: LanguageTable = bracedTable({
  languages: ["java"],
  rootType: "program",
  blockTypes: ["block", "program", "switch_block_statement_group", "constructor_body"],
  functionTypes: ["method_declaration", "constructor_declaration", "lambda_expression"],
  classTypes: ["class_declaration", "enum_declaration", "record_declaration", "interface_declaration"],
  callTypes: ["method_invocation"],
  conditionalTypes: ["if_statement", "while_statement", "do_statement"],
  returnTypes: ["return_statement"],
  guardHeader: (condition) => `if (${condition}) {`,
  tryType: "try_statement",
  tryExcept: ({ excType, asName, handler, finallyBody }) => [
    { line: "try {" },
    { target: true },
    { line: `} catch (${excType.trim() === "*" ? "Exception" : excType.trim()} ${asName ?? "e"}) {` },
    { body: handler },
    ...(finallyBody ? [{ line: "} finally {" }, { body: finallyBody }] : []),
    { line: "}" },
  ],
  parameterTypes: ["formal_parameter", "spread_parameter"],
  variadicTypes: ["spread_parameter"],
  parameterName: (node) => nameOf(node),
  parameterDefaults: false,
  parameterTypeRequired: true,
  parameterText: ({ name, annotation }) => `${annotation?.trim() ?? "Object"} ${name}`,
  returnText: (value) => `return ${value};`,
  assignment: (name, value) => `var ${name} = ${value};`,
  parameterList: (fn) => fn.childForFieldName("parameters") ?? undefined,
  functionBody: (fn) => {
    const body = fn.childForFieldName("body");
    return body && /block|constructor_body/.test(body.type) ? body : undefined;
  },
  functionName: (fn) => fn.childForFieldName("name")?.text,
  classBody: (cls) => cls.childForFieldName("body") ?? undefined,
  memberText: (code) => `class __C {\n${code}\n}`,
  contextMembers: (root) => {
    const body = root.namedChild(0)?.childForFieldName("body");
    return body ? statementsOf(body).filter((n) => !/comment/.test(n.type)) : [];
  },
  methodTypes: ["method_declaration", "constructor_declaration"],
  memberName: (member: Node) => member.childForFieldName("name")?.text ?? nameOf(member),
  binary: C_BINARY,
  levels: C_LEVELS,
  isNameSlot: (node) =>
    !!node.parent && ((node.parent.type === "field_access" && fieldIs(node.parent, "field", node)) ||
      (node.parent.type === "method_invocation" && fieldIs(node.parent, "name", node))),
  blockScoped: ["local_variable_declaration"],
  identifierTypes: ["identifier"],
});
