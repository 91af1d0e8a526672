/**
 * Name rules of Ruby (`analysis/names/mod.ts`). Definitions: methods,
 * classes, modules, local variables, parameters. Uses: a method called
 * without a receiver, arguments, operands. Ruby finds methods at run time:
 * a method of a class with a superclass or mixins (`include`, `extend`,
 * `prepend`) does not count, a symbol or string naming a method keeps it
 * alive (`attr_reader :x`, `send("x")`), and a file with `method_missing`
 * or metaprogramming (`define_method`, `*_eval`, `send`) may supply any
 * name: nothing is lost there.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import type { NameRules } from "./rules.ts";

const DYNAMIC = new Set([
  "method_missing",
  "define_method",
  "define_singleton_method",
  "send",
  "public_send",
  "__send__",
  "instance_eval",
  "class_eval",
  "module_eval",
  "class_exec",
  "instance_exec",
  "eval",
  "alias_method",
  "delegate",
  "def_delegator",
  "def_delegators",
]);

const MIXINS = /^\s*(?:include|extend|prepend)\b/m;

/** Whether a method stands in a class or module whose methods may come from elsewhere. */
function mayBeInherited(parent: Node): boolean {
  if (parent.type !== "method" && parent.type !== "singleton_method") return false;
  for (let at = parent.parent; at; at = at.parent) {
    if (at.type !== "class" && at.type !== "module" && at.type !== "singleton_class") continue;
    if (at.childForFieldName("superclass")) return true;
    const body = at.childForFieldName("body") ?? at;
    if (MIXINS.test(body.text)) return true;
  }
  return false;
}

/** Ruby. */
export const RUBY_RULES: NameRules = {
  names: new Set(["identifier", "constant"]),
  definitions: {
    method: ["name"],
    singleton_method: ["name"],
    class: ["name"],
    module: ["name"],
    assignment: ["left"],
    method_parameters: "*",
    block_parameters: "*",
    lambda_parameters: "*",
    optional_parameter: ["name"],
    keyword_parameter: ["name"],
    splat_parameter: ["name"],
    hash_splat_parameter: ["name"],
    block_parameter: ["name"],
  },
  countsAsDefinition: (_name, parent) => !mayBeInherited(parent),
  uses: {
    call: ["method", "receiver"],
    argument_list: "*",
    binary: ["left", "right"],
    unary: ["operand"],
  },
  isUse: (_name, parent, field) =>
    parent.type !== "call" || field !== "method" || parent.childForFieldName("receiver") === null,
  words: new Set(["simple_symbol", "hash_key_symbol", "string_content", "delimited_symbol"]),
  opens: (node) => (node.type === "identifier" && DYNAMIC.has(node.text)) || (node.type === "alias"),
};
