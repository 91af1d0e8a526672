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
import { EXPRESSION_USES, type NameRules, objectReceiver, type Receiver, typeOfHolder } from "./rules.ts";

const MEMBER_OWNERS = new Set(["method_declaration", "field_declaration"]);

/** The class, enum or record a member definition stands in, if it is one. */
function ownerOf(parent: Node): Node | undefined {
  const member = parent.type === "variable_declarator" ? parent.parent : parent;
  if (!member || !MEMBER_OWNERS.has(member.type)) return undefined;
  return member.parent?.parent ?? undefined;
}

/**
 * Whether a member definition stands in a type whose names may come from
 * elsewhere: an interface, a class extending another (its superclass may be
 * outside the workspace), a file with static imports. A class implementing
 * interfaces counts, but its losses are judged only where no other file
 * declares the name (`inherits`: a default method may answer).
 */
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
  if (type.childForFieldName("superclass")) return true;
  return /^\s*import\s+static\b/m.test(name.tree.rootNode.text.slice(0, 20_000));
}

/** The receiver of `o.m()` (`name` is `m`): `this`, a name (a variable or a class), or another expression. */
function receiver(_name: Node, parent: Node, field: string | null): Receiver | undefined {
  if (parent.type !== "method_invocation" || field !== "name") return undefined;
  const object = parent.childForFieldName("object");
  if (!object) return undefined;
  return object.type === "super" ? { kind: "foreign" } : objectReceiver(object, "this");
}

const HOLDERS = new Set([
  "formal_parameter",
  "local_variable_declaration",
  "field_declaration",
  "enhanced_for_statement",
  "catch_formal_parameter",
  "resource",
]);

/** What `java.lang.Object` gives every class: deleting an override leaves these. */
const OBJECT_METHODS = [
  "equals",
  "hashCode",
  "toString",
  "getClass",
  "clone",
  "finalize",
  "notify",
  "notifyAll",
  "wait",
];

/** Methods of the JDK's everyday types (strings, collections, streams, I/O, functional interfaces). */
const KNOWN = [
  ...OBJECT_METHODS,
  ..."length charAt substring indexOf lastIndexOf isEmpty isBlank trim strip toUpperCase toLowerCase startsWith endsWith contains append insert delete deleteCharAt replace replaceAll split format valueOf get set add addAll put putAll putIfAbsent remove removeAll size clear iterator hasNext next stream map filter forEach collect reduce compareTo compare apply accept test run call close flush write read print println printf getMessage getCause getName getValue getKey keySet values entrySet containsKey containsValue toArray sort intValue longValue doubleValue booleanValue charValue getOrDefault computeIfAbsent of orElse isPresent ifPresent join start interrupt getClassLoader getMethod invoke newInstance getField getDeclaredField getModifiers getParameterTypes getReturnType isInstance cast getSimpleName getTime setTime getTimeInMillis setTimeInMillis getTimeZone getDefault"
    .split(" "),
];

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
  inherits: (_name, parent) => ownerOf(parent)?.childForFieldName("interfaces") != null,
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
  receiver,
  memberAccess: { field_access: ["field", "object"], method_invocation: ["name", "object"] },
  types: new Set([
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "annotation_type_declaration",
  ]),
  declaredType: (name) => typeOfHolder(name, HOLDERS, 2),
  knownMethods: new Set(KNOWN),
  builtins: new Set(OBJECT_METHODS),
};
