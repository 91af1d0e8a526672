/**
 * Graph rules for Ruby (tree-sitter-ruby 0.20).
 *
 * `def` directly in a class or module body (also inside `class << self`) is a
 * method, elsewhere a function; `def self.x` is a method named `x`. A class
 * or module is named as written (`Billing::Report`). Imports are the calls
 * `require "x"`, `require_relative "x"` and `load "x"` with a literal
 * argument (module `x`, symbol null). `raise` is a raise_statement; `unless`
 * and modifier forms are if_statements, `until` a while_statement, `begin`
 * a try_statement.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { type ImportSpec, type LanguageRules, unquote } from "../rules.ts";

const LOADERS = new Set(["require", "require_relative", "load"]);

/** The method name of a receiver-less call (`require "x"`), else undefined. */
function bareCallName(node: Node): string | undefined {
  if (node.childForFieldName("receiver")) return undefined;
  const method = node.childForFieldName("method");
  return method?.type === "identifier" ? method.text : undefined;
}

function requireCall(node: Node): ImportSpec[] {
  const name = bareCallName(node);
  if (!name || !LOADERS.has(name)) return [];
  const arg = node.childForFieldName("arguments")?.namedChildren[0];
  if (arg?.type !== "string" || arg.namedChildren.some((n) => n?.type === "interpolation")) return [];
  return [{ module: unquote(arg.text), symbol: null }];
}

/** Ruby: classes, modules, methods and singleton methods, `require`s, control flow. */
export const RUBY: LanguageRules = {
  symbols: {
    class: { kind: "class", members: true },
    module: { kind: "module", members: true },
    method: { kind: "function", method: true },
    singleton_method: { kind: "function", method: true },
  },
  imports: { call: requireCall },
  lineKinds: {
    if: "if_statement",
    unless: "if_statement",
    if_modifier: "if_statement",
    unless_modifier: "if_statement",
    while: "while_statement",
    until: "while_statement",
    while_modifier: "while_statement",
    until_modifier: "while_statement",
    for: "for_statement",
    return: "return_statement",
    begin: "try_statement",
    call: (node) => bareCallName(node) === "raise" ? "raise_statement" : undefined,
  },
  transparent: ["body_statement", "singleton_class"],
  guards: { call: { first: ["identifier"], words: ["raise", ...LOADERS] } },
  skip: [
    "comment",
    "identifier",
    "constant",
    "instance_variable",
    "class_variable",
    "global_variable",
    "simple_symbol",
    "integer",
    "float",
    "self",
    "nil",
    "true",
    "false",
    "method_parameters",
    "heredoc_body",
    "string",
    "string_content",
  ],
};
