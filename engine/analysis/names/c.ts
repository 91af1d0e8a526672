/**
 * Name rules of C and C++ (`analysis/names/mod.ts`). Definitions: the
 * declarator of a function, variable, parameter or `typedef` (a prototype
 * is one too: a function whose body was deleted but whose prototype stays
 * is not lost here), macros. Uses: a callee, arguments, operands, values.
 * A macro body (`#define F(x) g(x)`) mentions names the preprocessor
 * expands: its words keep them alive. `struct`/`enum`/`class` tags name a
 * type both where it is defined and where it is only mentioned (`struct s
 * *p` is legal without the definition): they never count. C++ methods are
 * fields or qualified names (`A::f`): they never count either.
 *
 * @module
 */

import { EXPRESSION_USES, type NameRules } from "./rules.ts";

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
};

/** C++: C's rules, with namespaces, aliases and template calls. */
export const CPP_RULES: NameRules = {
  names: new Set([...C_RULES.names, "namespace_identifier"]),
  definitions: { ...DEFINITIONS, alias_declaration: ["name"] },
  uses: { ...USES, template_function: ["name"] },
  words: C_RULES.words,
};
