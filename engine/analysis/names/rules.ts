/**
 * The shape of one language's name rules (`analysis/names/mod.ts` reads
 * them): which token types are names, under which parent and field a name
 * is a definition or a certain use, and what else keeps a name alive.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";

/** Fields of a parent type under which a name has a role; `"*"`: any child. */
export type Fields = readonly string[] | "*";

/** One language's rules. */
export interface NameRules {
  /** Token types that are names (`identifier`, `type_identifier`, ...). */
  names: ReadonlySet<string>;
  /** Parent type → fields whose name is a definition. */
  definitions: Readonly<Record<string, Fields>>;
  /** Parent type → fields whose name is certainly a use (the `""` field: a child without a field). */
  uses: Readonly<Record<string, Fields>>;
  /** A definition the table matched counts only when this says so (default: it does). */
  countsAsDefinition?: (name: Node, parent: Node) => boolean;
  /** A use the table matched counts only when this says so (default: it does). */
  isUse?: (name: Node, parent: Node, field: string | null) => boolean;
  /** A certain use the parent-and-field table cannot express (a call inside a standard macro's tokens). */
  isOtherUse?: (name: Node, parent: Node) => boolean;
  /**
   * Parent type → the field of the member and the field of the object of an
   * access on an object or package (`o.f`, `p->f`, `pkg.F`): such a member
   * neither defines nor uses a free name `f`, so it keeps no same-spelled
   * definition alive against a bare use (an assignment to one, `o.f = ...`,
   * still may: see `mod.ts`). Without its object the token is no access.
   */
  memberAccess?: Readonly<Record<string, readonly [member: string, object: string]>>;
  /**
   * Objects whose members an assignment writes without binding a free name (CommonJS's `exports` and
   * `module.exports`): such an assignment is a member access like a read (see `memberAccess`).
   */
  moduleObjects?: ReadonlySet<string>;
  /** Token types whose words keep names alive (strings in dynamic languages, macro bodies). */
  words?: ReadonlySet<string>;
  /** Whether a node lets the file supply any name at run time (`def method_missing`). */
  opens?: (node: Node) => boolean;
  /** Names the language defines without the file (never reported as lost). */
  builtins?: ReadonlySet<string>;
  /**
   * Whether a name token is a method called through a receiver or a path
   * (`obj.m()`, `self.m()`, `Type::m()`), and which receiver; undefined
   * where it is no such call (`receivers.ts` resolves the receiver).
   */
  receiver?: (name: Node, parent: Node, field: string | null) => Receiver | undefined;
  /** Parent types whose definitions name a type or module of the file (a receiver naming one is the file's own). */
  types?: ReadonlySet<string>;
  /** The declared type of a variable or parameter definition (its name token), where the code writes one. */
  declaredType?: (name: Node) => string | undefined;
  /** Methods every value may have (`toString`, `clone`, `each`): a receiver call of one is never judged. */
  knownMethods?: ReadonlySet<string>;
  /**
   * Whether a counted definition's owner also takes methods from types in
   * other files (a Java class implementing interfaces, whose defaults may
   * answer): its loss is judged only where no other file declares the name.
   */
  inherits?: (name: Node, parent: Node) => boolean;
  /**
   * Whether a definition could answer a call through a receiver (`o.m()`):
   * a method can, a lexical binding (a variable, an import, a parameter, a
   * function declaration) cannot. A lost name none of whose definitions
   * could is judged by its bare uses alone. Undefined: every definition could.
   */
  answersMembers?: (name: Node, parent: Node) => boolean;
  /** Whether a receiver the file never declares is a global or another file's (JavaScript's `console`, Go's package variables): not judged. */
  undeclaredIsForeign?: boolean;
  /** Whether a call on the file's own receiver (`this.m()`) may reach a definition in another file (Rust traits, reopened Ruby classes). */
  selfReachesOtherFiles?: boolean;
}

/**
 * The receiver of a method call, as the code writes it: the file's own
 * object (`this`, `self`, `$this`, `Self::`), a type or module by name, a
 * variable by name, a package or parent whose methods are never the file's
 * (`fmt.Println`, `parent::f`), or any other expression.
 */
export type Receiver =
  | { kind: "self" }
  | { kind: "type"; name: string }
  | { kind: "value"; name: string }
  | { kind: "foreign" }
  | { kind: "expression" };

/** The `uses` contexts most C-like grammars share: arguments, operands, returned and assigned values. */
export const EXPRESSION_USES: Readonly<Record<string, Fields>> = {
  arguments: "*",
  argument_list: "*",
  binary_expression: ["left", "right"],
  unary_expression: ["argument", "operand"],
  return_statement: "*",
  parenthesized_expression: "*",
  conditional_expression: ["condition", "consequence", "alternative"],
};

/** Whether `member` (`o.m`, `T::m`) is the callee of a call, directly or with type arguments (`o.m::<T>()`). */
export function isCallee(member: Node): boolean {
  let callee = member;
  const up = member.parent;
  if (up && (up.type === "generic_function" || up.type === "template_function")) callee = up;
  const call = callee.parent;
  return call?.type === "call_expression" && call.childForFieldName("function")?.id === callee.id;
}

/** The text of the `type` field of the first of `name`'s ancestors (at most `depth` up) whose type is in `holders`. */
export function typeOfHolder(name: Node, holders: ReadonlySet<string>, depth = 4): string | undefined {
  let at = name.parent;
  for (let i = 0; at && i < depth; i++, at = at.parent) {
    if (holders.has(at.type)) return at.childForFieldName("type")?.text;
  }
  return undefined;
}

/** The receiver an object expression is: the language's own-object keyword (`self`, `this`), a variable by name, or an expression. */
export function objectReceiver(object: Node | null, own: string): Receiver {
  if (object?.type === own) return { kind: "self" };
  if (object?.type === "identifier") return { kind: "value", name: object.text };
  return { kind: "expression" };
}
