/**
 * Name rules of Java (`analysis/names/mod.ts`). Definitions: types,
 * methods, fields, locals, parameters. Uses: a method invoked without an
 * object, arguments, operands, values, the object of a field access or
 * call, the type of `new`. A method or field declared in a class that
 * extends or implements another type, or in a file with a static import,
 * may be inherited or imported under the same name: it does not count.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { EXPRESSION_USES, type NameRules } from "./rules.ts";

const MEMBER_OWNERS = new Set(["method_declaration", "field_declaration"]);

/** Whether a member definition stands in a class whose names may come from elsewhere. */
function mayBeInherited(name: Node, parent: Node): boolean {
  const member = parent.type === "variable_declarator" ? parent.parent : parent;
  if (!member || !MEMBER_OWNERS.has(member.type)) return false;
  const type = member.parent?.parent;
  if (!type) return true;
  if (
    type.type !== "class_declaration" && type.type !== "enum_declaration" &&
    type.type !== "record_declaration"
  ) {
    return true;
  }
  if (type.childForFieldName("superclass") || type.childForFieldName("interfaces")) return true;
  return /^\s*import\s+static\b/m.test(name.tree.rootNode.text.slice(0, 20_000));
}

/** Java. */
export const JAVA_RULES: NameRules = {
  names: new Set(["identifier", "type_identifier"]),
  definitions: {
    method_declaration: ["name"],
    class_declaration: ["name"],
    interface_declaration: ["name"],
    enum_declaration: ["name"],
    record_declaration: ["name"],
    annotation_type_declaration: ["name"],
    variable_declarator: ["name"],
    formal_parameter: ["name"],
    catch_formal_parameter: ["name"],
    enhanced_for_statement: ["name"],
    lambda_expression: ["parameters"],
    inferred_parameters: "*",
    enum_constant: ["name"],
  },
  countsAsDefinition: (name, parent) => !mayBeInherited(name, parent),
  uses: {
    ...EXPRESSION_USES,
    method_invocation: ["name", "object"],
    field_access: ["object"],
    object_creation_expression: ["type"],
    ternary_expression: ["condition", "consequence", "alternative"],
    assignment_expression: ["right"],
    variable_declarator: ["value"],
    array_access: ["array", "index"],
    cast_expression: ["value"],
  },
  isUse: (_name, parent, field) =>
    parent.type !== "method_invocation" || field !== "name" || parent.childForFieldName("object") === null,
};
