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

/** What a file's static imports bring in: single names, and whether a wildcard brings any. */
interface StaticImports {
  names: Set<string>;
  wildcard: boolean;
}

const staticImportsOf = new WeakMap<object, StaticImports>();

/** The names the static imports of `root`'s file bring in (read once per tree). */
function staticImports(root: Node): StaticImports {
  const known = staticImportsOf.get(root.tree);
  if (known) return known;
  const found: StaticImports = { names: new Set(), wildcard: false };
  for (
    const match of root.text.slice(0, 20_000).matchAll(/^\s*import\s+static\s+([\w.$\s]+?(\*|[\w$]+))\s*;/gm)
  ) {
    if (match[2] === "*") found.wildcard = true;
    else found.names.add(match[2]);
  }
  staticImportsOf.set(root.tree, found);
  return found;
}

/** Whether a member is a private method: it overrides nothing, and no subclass or interface supplies it. */
function privateMethod(member: Node): boolean {
  if (member.type !== "method_declaration") return false;
  const modifiers = member.namedChildren.find((child) => child?.type === "modifiers");
  return modifiers !== undefined && modifiers !== null && /\bprivate\b/.test(modifiers.text);
}

/**
 * Whether a member definition stands in a type whose names may come from
 * elsewhere: an interface, a class extending another (its superclass may be
 * outside the workspace), a name a static import brings in (a wildcard
 * static import: any name). A class implementing interfaces counts, but its
 * losses are judged only where no other file declares the name (`inherits`:
 * a default method may answer).
 *
 * A private method of a class with a superclass counts too: it overrides
 * nothing (a private method with an inherited method's signature does not
 * compile), so once it is gone only an inherited overload of the same name
 * with other parameter types could answer its calls; such a loss is judged
 * only where no other file declares the name (`inherits`), which covers a
 * superclass in the workspace. A field is never judged so: a private field
 * may hide an inherited one.
 */
function mayBeInherited(name: Node, parent: Node): boolean {
  const member = parent.type === "variable_declarator" ? parent.parent : parent;
  if (!member || !MEMBER_OWNERS.has(member.type)) return false;
  const type = member.parent?.parent;
  if (!type) return true;
  const imported = staticImports(name.tree.rootNode);
  if (imported.wildcard || imported.names.has(name.text)) return true;
  if (
    type.type !== "class_declaration" && type.type !== "enum_declaration" &&
    type.type !== "record_declaration"
  ) {
    return true;
  }
  return type.childForFieldName("superclass") !== null && !privateMethod(member);
}

/** Whether a counted member's loss may be answered by another file (module notes of `receivers.ts`). */
function inherits(_name: Node, parent: Node): boolean {
  const type = ownerOf(parent);
  if (!type) return false;
  return type.childForFieldName("interfaces") !== null ||
    (type.childForFieldName("superclass") !== null && privateMethod(parent));
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
  inherits,
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
