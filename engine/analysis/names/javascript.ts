/**
 * Name rules of JavaScript and TypeScript (`analysis/names/mod.ts`).
 * Definitions: declarations, parameters, destructuring, imports. Uses: a
 * callee without a receiver, arguments, operands, the object of a member
 * access, values. A method (`m() {}`) counts unless its class extends
 * another; `this.m()` and `o.m()` are calls through a receiver
 * (`receivers.ts`). A string mentioning a name (`obj["f"]`) keeps it alive.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import {
  EXPRESSION_USES,
  isCallee,
  type NameRules,
  objectReceiver,
  type Receiver,
  typeOfHolder,
} from "./rules.ts";
import { JS_GLOBALS } from "./js_globals.ts";

/** The receiver of `o.m()` (`name` is `m`): `this`, a name, or another expression; `super` and globals are not the file's. */
function receiver(_name: Node, parent: Node, field: string | null): Receiver | undefined {
  if (parent.type !== "member_expression" || field !== "property" || !isCallee(parent)) return undefined;
  const object = parent.childForFieldName("object");
  return object?.type === "super" ? { kind: "foreign" } : objectReceiver(object, "this");
}

/** A method of a class that extends another may be inherited; of an object literal, it is a property like any other. */
function ownMethod(parent: Node): boolean {
  if (parent.type !== "method_definition") return true;
  const owner = parent.parent?.parent;
  if (!owner || !owner.type.includes("class")) return false;
  return !owner.namedChildren.some((child) => child?.type === "class_heritage");
}

/**
 * A TypeScript method counts where its class extends nothing (`implements`
 * gives no methods), and a private one also where it does: TypeScript
 * refuses a private method whose name the base class has, so once it is
 * gone nothing answers its calls but another file's declaration
 * (`inheritsTyped`: judged only where none declares the name).
 */
function ownTypedMethod(parent: Node): boolean {
  if (parent.type !== "method_definition") return true;
  const owner = parent.parent?.parent;
  if (!owner || !owner.type.includes("class")) return false;
  return extendsClass(owner) === undefined || privateMethod(parent);
}

/** The `extends` clause of a TypeScript class, if it has one. */
function extendsClass(owner: Node): Node | undefined {
  const heritage = owner.namedChildren.find((child) => child?.type === "class_heritage");
  return heritage?.namedChildren.find((child) => child?.type === "extends_clause") ?? undefined;
}

/** Whether a TypeScript method is private (`private m()`). */
function privateMethod(method: Node): boolean {
  return method.namedChildren.some((child) =>
    child?.type === "accessibility_modifier" && child.text === "private"
  );
}

/** Whether a counted TypeScript method's class extends another, whose file may declare the name. */
function inheritsTyped(_name: Node, parent: Node): boolean {
  const owner = parent.type === "method_definition" ? parent.parent?.parent : undefined;
  return owner !== undefined && owner !== null && extendsClass(owner) !== undefined;
}

/** CommonJS's export objects: `exports.f = f` writes a property of the module's exports, never a global. */
const MODULE_OBJECTS: ReadonlySet<string> = new Set(["exports", "module.exports"]);

/** Methods of the built-in objects (strings, arrays, maps, promises, events, the console). */
const KNOWN =
  "toString valueOf call apply bind then catch finally push pop shift unshift map filter forEach reduce join split slice splice indexOf includes get set has delete add clear keys values entries log error warn info debug emit on off once resolve reject test exec replace replaceAll match trim toLowerCase toUpperCase concat find findIndex some every sort reverse assign stringify parse startsWith endsWith charAt charCodeAt padStart padEnd flat flatMap fill next return throw write end close send json text append remove addEventListener removeEventListener dispatchEvent querySelector querySelectorAll getAttribute setAttribute toJSON toFixed"
    .split(" ");

const DEFINITIONS = {
  function_declaration: ["name"],
  generator_function_declaration: ["name"],
  class_declaration: ["name"],
  variable_declarator: ["name"],
  formal_parameters: "*",
  assignment_pattern: ["left"],
  rest_pattern: "*",
  object_pattern: "*",
  array_pattern: "*",
  pair_pattern: ["value"],
  import_specifier: ["name", "alias"],
  namespace_import: "*",
  import_clause: "*",
  catch_clause: ["parameter"],
  for_in_statement: ["left"],
  arrow_function: ["parameter"],
  method_definition: ["name"],
} as const;

const USES = {
  ...EXPRESSION_USES,
  call_expression: ["function"],
  new_expression: ["constructor"],
  member_expression: ["object"],
  subscript_expression: ["object", "index"],
  ternary_expression: ["condition", "consequence", "alternative"],
  spread_element: "*",
  template_substitution: "*",
  await_expression: "*",
  assignment_expression: ["right"],
  augmented_assignment_expression: ["right"],
  variable_declarator: ["value"],
  array: "*",
  pair: ["value"],
  object: "*",
  expression_statement: "*",
  if_statement: ["condition"],
  jsx_expression: "*",
} as const;

/** JavaScript. */
export const JAVASCRIPT_RULES: NameRules = {
  names: new Set([
    "identifier",
    "shorthand_property_identifier",
    "shorthand_property_identifier_pattern",
    "property_identifier",
    "private_property_identifier",
  ]),
  definitions: DEFINITIONS,
  uses: USES,
  words: new Set(["string_fragment"]),
  builtins: JS_GLOBALS,
  countsAsDefinition: (_name, parent) => ownMethod(parent),
  receiver,
  answersMembers: (_name, parent) => parent.type === "method_definition",
  memberAccess: { member_expression: ["property", "object"] },
  moduleObjects: MODULE_OBJECTS,
  types: new Set(["class_declaration"]),
  knownMethods: new Set(KNOWN),
  selfReachesOtherFiles: true,
  undeclaredIsForeign: true,
};

/** TypeScript and TSX: JavaScript's rules, with type names and parameters. */
export const TYPESCRIPT_RULES: NameRules = {
  names: new Set([...JAVASCRIPT_RULES.names, "type_identifier"]),
  definitions: {
    ...DEFINITIONS,
    required_parameter: ["pattern"],
    optional_parameter: ["pattern"],
    interface_declaration: ["name"],
    type_alias_declaration: ["name"],
    enum_declaration: ["name"],
    abstract_class_declaration: ["name"],
    function_signature: ["name"],
    type_parameter: ["name"],
    import_require_clause: "*",
  },
  uses: {
    ...USES,
    type_annotation: "*",
    generic_type: ["name"],
    extends_clause: ["value"],
    implements_clause: "*",
    as_expression: "*",
    non_null_expression: "*",
  },
  words: JAVASCRIPT_RULES.words,
  builtins: JS_GLOBALS,
  countsAsDefinition: (_name, parent) => ownTypedMethod(parent),
  inherits: (name, parent) => inheritsTyped(name, parent),
  receiver,
  answersMembers: JAVASCRIPT_RULES.answersMembers,
  memberAccess: { member_expression: ["property", "object"] },
  moduleObjects: MODULE_OBJECTS,
  types: new Set([
    "class_declaration",
    "abstract_class_declaration",
    "interface_declaration",
    "enum_declaration",
  ]),
  declaredType: (name) =>
    typeOfHolder(name, new Set(["required_parameter", "optional_parameter"]), 1)?.replace(/^:\s*/, ""),
  knownMethods: JAVASCRIPT_RULES.knownMethods,
  selfReachesOtherFiles: true,
  undeclaredIsForeign: true,
};
