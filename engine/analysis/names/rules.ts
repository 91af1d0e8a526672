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
  /** Token types whose words keep names alive (strings in dynamic languages, macro bodies). */
  words?: ReadonlySet<string>;
  /** Whether a node lets the file supply any name at run time (`def method_missing`). */
  opens?: (node: Node) => boolean;
  /** Names the language defines without the file (never reported as lost). */
  builtins?: ReadonlySet<string>;
}

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
