/**
 * The C and C++ tables of the templates (tree-sitter-c / -cpp node types).
 * A parameter is written `Type name`; C has no `try`, C++ catches by
 * reference (`catch (const T& e)`). A C++ method goes into a class body
 * (`add_method` on the class); C has no classes.
 *
 * @module
 */

import type { Node } from "../../../parse/mod.ts";
import { type BracedSpec, bracedTable, C_BINARY, C_LEVELS, nameOf } from "./braced.ts";
import { fieldIs, type LanguageTable, statementsOf } from "./table.ts";

/** The name a C declarator declares (following pointer, array and function declarators). */
function declaredName(node: Node | null | undefined): string | undefined {
  for (let current = node; current; current = current.childForFieldName("declarator")) {
    if (/identifier|^destructor_name$|^operator_name$/.test(current.type)) return current.text;
  }
  return undefined;
}

function functionDeclarator(fn: Node): Node | undefined {
  for (
    let current = fn.childForFieldName("declarator");
    current;
    current = current.childForFieldName("declarator")
  ) {
    if (current.type === "function_declarator") return current;
  }
  return undefined;
}

const C_SPEC: BracedSpec = {
  languages: ["c"],
  rootType: "translation_unit",
  blockTypes: ["compound_statement", "translation_unit", "case_statement"],
  functionTypes: ["function_definition"],
  classTypes: [],
  callTypes: ["call_expression"],
  conditionalTypes: ["if_statement", "while_statement", "do_statement"],
  returnTypes: ["return_statement"],
  guardHeader: (condition) => `if (${condition}) {`,
  parameterTypes: ["parameter_declaration", "variadic_parameter", "optional_parameter_declaration"],
  variadicTypes: ["variadic_parameter"],
  parameterName: (node) => declaredName(node.childForFieldName("declarator")) ?? "",
  parameterDefaults: false,
  parameterTypeRequired: true,
  parameterText: ({ name, annotation }) => `${annotation?.trim() ?? "int"} ${name}`,
  returnText: (value) => `return ${value};`,
  assignment: (name, value) => `__auto_type ${name} = ${value};`,
  parameterList: (fn) => functionDeclarator(fn)?.childForFieldName("parameters") ?? undefined,
  functionBody: (fn) => fn.childForFieldName("body") ?? undefined,
  functionName: (fn) => declaredName(fn.childForFieldName("declarator")),
  binary: C_BINARY,
  levels: C_LEVELS,
  isNameSlot: (node) =>
    node.type === "field_identifier" && !!node.parent && fieldIs(node.parent, "field", node),
  blockScoped: ["declaration"],
  identifierTypes: ["identifier"],
};

/** The C table. */
export const C: LanguageTable = bracedTable(C_SPEC);

/** The C++ table. */
export const CPP: LanguageTable = bracedTable({
  ...C_SPEC,
  languages: ["cpp"],
  functionTypes: ["function_definition", "lambda_expression"],
  classTypes: ["class_specifier", "struct_specifier"],
  callTypes: ["call_expression"],
  tryType: "try_statement",
  tryExcept: ({ excType, asName, handler, finallyBody }) => [
    { line: "try {" },
    { target: true },
    {
      line: excType.trim() === "*"
        ? "} catch (...) {"
        : `} catch (const ${excType.trim()}& ${asName ?? "e"}) {`,
    },
    { body: handler },
    ...(finallyBody ? [{ body: finallyBody }] : []),
    { line: "}" },
  ],
  assignment: (name, value) => `auto ${name} = ${value};`,
  classBody: (cls) => cls.childForFieldName("body") ?? undefined,
  memberText: (code) => `class __C {\n${code}\n};`,
  contextMembers: (root) => {
    const body = root.namedChild(0)?.childForFieldName("body");
    return body ? statementsOf(body).filter((n) => n.type !== "access_specifier") : [];
  },
  methodTypes: ["function_definition", "declaration", "field_declaration"],
  memberName: (member) => declaredName(member.childForFieldName("declarator")) ?? nameOf(member),
  identifierTypes: ["identifier", "field_identifier"],
});
