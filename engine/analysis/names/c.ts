/**
 * Name rules of C and C++ (`analysis/names/mod.ts`). Definitions: the
 * declarator of a function, variable, parameter or `typedef` (a prototype
 * is one too: a function whose body was deleted but whose prototype stays
 * is not lost here), macros. Uses: a callee, arguments, operands, values.
 * A macro body (`#define F(x) g(x)`) mentions names the preprocessor
 * expands: its words keep them alive. `struct`/`enum`/`class` tags name a
 * type both where it is defined and where it is only mentioned (`struct s
 * *p` is legal without the definition): they never count. A C++ method
 * declared in its class counts; in a class with bases its loss is judged
 * only where no other file declares the name (a base's may answer); `o.m()`, `this->m()` and `A::m()` are calls through a
 * receiver (`receivers.ts`).
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

/** The receiver of `o.m()`, `p->m()` or `T::m()` in C++ (`name` is `m`). */
function receiver(_name: Node, parent: Node, field: string | null): Receiver | undefined {
  if (parent.type === "field_expression" && field === "field" && isCallee(parent)) {
    return objectReceiver(parent.childForFieldName("argument"), "this");
  }
  if (parent.type === "qualified_identifier" && field === "name" && isCallee(parent)) {
    const scope = parent.childForFieldName("scope");
    return scope ? { kind: "type", name: scope.text.replace(/<[\s\S]*$/, "") } : { kind: "foreign" };
  }
  return undefined;
}

/** An in-class method of a class with bases may hide or override a base's, which answers once it is deleted. */
function overrides(name: Node, parent: Node): boolean {
  if (parent.type !== "function_declarator" || name.type !== "field_identifier") return false;
  for (let at = parent.parent; at; at = at.parent) {
    if (at.type === "class_specifier" || at.type === "struct_specifier") {
      return at.namedChildren.some((child) => child?.type === "base_class_clause");
    }
  }
  return false;
}

const HOLDERS = new Set([
  "parameter_declaration",
  "optional_parameter_declaration",
  "declaration",
  "field_declaration",
]);

/** Methods of the C++ standard library's everyday types (containers, strings, smart pointers, streams, atomics). */
const KNOWN =
  "size empty begin end cbegin cend rbegin rend push_back emplace_back pop_back push emplace pop c_str data get reset release find insert erase clear at front back lock unlock try_lock load store exchange count str append substr length swap value what flush write read close open join detach resize reserve capacity assign compare top wait notify_one notify_all set_value get_future"
    .split(" ");

const DEFINITIONS = {
  function_declarator: ["declarator"],
  init_declarator: ["declarator"],
  declaration: ["declarator"],
  parameter_declaration: ["declarator"],
  pointer_declarator: ["declarator"],
  array_declarator: ["declarator"],
  preproc_def: ["name"],
  preproc_function_def: ["name"],
  type_definition: ["declarator"],
  enumerator: ["name"],
} as const;

const USES = {
  ...EXPRESSION_USES,
  call_expression: ["function"],
  field_expression: ["argument"],
  subscript_expression: ["argument", "index"],
  assignment_expression: ["right"],
  init_declarator: ["value"],
  cast_expression: ["value"],
  pointer_expression: ["argument"],
} as const;

/** C. */
export const C_RULES: NameRules = {
  names: new Set(["identifier", "type_identifier", "field_identifier", "statement_identifier"]),
  definitions: DEFINITIONS,
  uses: USES,
  words: new Set(["preproc_arg"]),
  memberAccess: { field_expression: ["field", "argument"] },
};

/** C++: C's rules, with namespaces, aliases and template calls. */
export const CPP_RULES: NameRules = {
  names: new Set([...C_RULES.names, "namespace_identifier"]),
  definitions: { ...DEFINITIONS, alias_declaration: ["name"] },
  uses: { ...USES, template_function: ["name"] },
  words: C_RULES.words,
  memberAccess: C_RULES.memberAccess,
  inherits: overrides,
  receiver,
  types: new Set([
    "class_specifier",
    "struct_specifier",
    "union_specifier",
    "enum_specifier",
    "namespace_definition",
  ]),
  declaredType: (name) => typeOfHolder(name, HOLDERS, 4),
  knownMethods: new Set(KNOWN),
  selfReachesOtherFiles: true,
};
