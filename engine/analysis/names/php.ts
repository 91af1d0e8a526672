/**
 * Name rules of PHP (`analysis/names/mod.ts`): functions, classes,
 * interfaces, traits and enums by name, and methods reached through
 * `$this->m()`, `self::m()` or `static::m()`; `$o->m()` and `T::m()` are
 * calls through a receiver (`receivers.ts`). A method counts only in a
 * class without traits (`use T;`) and without a parent class (`extends`)
 * unless it is private, in a file without `__call`/`__callStatic`:
 * elsewhere an inherited or magic method may answer. (A parent outside the
 * workspace with `__call` could still answer a deleted private method's
 * calls; the check accepts that risk.) Variables (`$x`) never count. A string naming a function
 * keeps it alive (`function_exists('f')`, `call_user_func('f')`).
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import type { NameRules, Receiver } from "./rules.ts";

const MAGIC = new Set(["__call", "__callStatic"]);

/** Whether a method declaration is private. */
function isPrivate(method: Node): boolean {
  return method.namedChildren.some((child) =>
    child?.type === "visibility_modifier" && child.text === "private"
  );
}

/**
 * Whether a method counts: it stands in a class without traits, and without
 * a parent class unless it is private (PHP refuses a private method where
 * the parent's of the same name is public or protected, and a parent's
 * private one does not answer the child's calls; such a loss is judged
 * only where no other file declares the name: `inherits`).
 */
function ownClassOnly(method: Node): boolean {
  const body = method.parent;
  const type = body?.parent;
  if (!body || !type || type.type !== "class_declaration") return false;
  if (body.namedChildren.some((child) => child?.type === "use_declaration")) return false;
  return !type.namedChildren.some((child) => child?.type === "base_clause") || isPrivate(method);
}

/** Whether a counted method's class has a parent class, whose file may declare the name too. */
function inherits(_name: Node, parent: Node): boolean {
  const type = parent.type === "method_declaration" ? parent.parent?.parent : undefined;
  return type?.namedChildren.some((child) => child?.type === "base_clause") ?? false;
}

function onSelf(call: Node): boolean {
  if (call.type === "member_call_expression") {
    const object = call.childForFieldName("object");
    return object?.type === "variable_name" && object.text === "$this";
  }
  const scope = call.childForFieldName("scope");
  return scope?.type === "relative_scope" && (scope.text === "self" || scope.text === "static");
}

/** The receiver of `$o->m()` or `T::m()` when not the file's own object: a class by name, `parent`, or an expression. */
function receiver(_name: Node, parent: Node, field: string | null): Receiver | undefined {
  if (field !== "name") return undefined;
  if (parent.type === "member_call_expression" || parent.type === "nullsafe_member_call_expression") {
    return onSelf(parent) ? { kind: "self" } : { kind: "expression" };
  }
  if (parent.type !== "scoped_call_expression") return undefined;
  const scope = parent.childForFieldName("scope");
  if (!scope || scope.type === "relative_scope") return { kind: "foreign" };
  return scope.type === "name" || scope.type === "qualified_name"
    ? { kind: "type", name: scope.text.split("\\").pop()! }
    : { kind: "expression" };
}

/** Methods PHP's own classes and interfaces give (iterators, `Countable`, exceptions, date, PDO). */
const KNOWN =
  "__construct __destruct __toString __get __set __isset __unset __invoke count current key next rewind valid offsetGet offsetSet offsetExists offsetUnset getIterator jsonSerialize getMessage getCode getPrevious getTrace getFile getLine format modify getTimestamp setTimezone getTimezone prepare execute fetch fetchAll query bindValue close write read"
    .split(" ");

/** PHP. */
export const PHP_RULES: NameRules = {
  names: new Set(["name"]),
  definitions: {
    function_definition: ["name"],
    method_declaration: ["name"],
    class_declaration: ["name"],
    interface_declaration: ["name"],
    trait_declaration: ["name"],
    enum_declaration: ["name"],
  },
  countsAsDefinition: (_name, parent) => parent.type !== "method_declaration" || ownClassOnly(parent),
  inherits,
  uses: {
    function_call_expression: ["function"],
    object_creation_expression: "*",
    member_call_expression: ["name"],
    scoped_call_expression: ["name"],
  },
  isUse: (_name, parent) =>
    (parent.type !== "member_call_expression" && parent.type !== "scoped_call_expression") || onSelf(parent),
  words: new Set(["string_content", "string_value", "encapsed_string"]),
  receiver,
  memberAccess: {
    member_access_expression: ["name", "object"],
    nullsafe_member_access_expression: ["name", "object"],
    member_call_expression: ["name", "object"],
    nullsafe_member_call_expression: ["name", "object"],
  },
  types: new Set(["class_declaration", "interface_declaration", "trait_declaration", "enum_declaration"]),
  knownMethods: new Set(KNOWN),
  opens: (node) =>
    node.type === "method_declaration" && MAGIC.has(node.childForFieldName("name")?.text ?? ""),
};
