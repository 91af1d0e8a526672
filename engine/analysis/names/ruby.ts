/**
 * Name rules of Ruby (`analysis/names/mod.ts`). Definitions: methods,
 * classes, modules, local variables, parameters. Uses: a method called
 * without a receiver, arguments, operands; `r.m` is a call through a
 * receiver (`receivers.ts`). Ruby finds methods at run time:
 * a method of a class with a superclass or mixins (`include`, `extend`,
 * `prepend`) does not count, a symbol or string naming a method keeps it
 * alive (`attr_reader :x`, `send("x")`), and a file with `method_missing`
 * or metaprogramming (`define_method`, `*_eval`, a computed `send`) may supply any
 * name: nothing is lost there.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import type { NameRules, Receiver } from "./rules.ts";

const DYNAMIC = new Set([
  "method_missing",
  "define_method",
  "define_singleton_method",
  "instance_eval",
  "class_eval",
  "module_eval",
  "class_exec",
  "instance_exec",
  "eval",
  "delegate",
  "def_delegator",
  "def_delegators",
]);

const MIXINS = /^\s*(?:include|extend|prepend)\b/m;

const SENDS = new Set(["send", "public_send", "__send__"]);

/**
 * Whether a node lets the file reach any name at run time: metaprogramming
 * (`define_method`, `*_eval`, `method_missing`), or a `send` whose method
 * is computed. `send(:name)` and `alias`/`alias_method` with literal names
 * do not: their symbols keep those names alive (`words`).
 */
function opens(node: Node): boolean {
  if (node.type !== "identifier") return false;
  if (DYNAMIC.has(node.text)) return true;
  if (!SENDS.has(node.text)) return false;
  const call = node.parent;
  if (call?.type !== "call" || call.childForFieldName("method")?.id !== node.id) return true;
  const first = call.childForFieldName("arguments")?.namedChildren[0];
  return !first || !["simple_symbol", "string", "delimited_symbol"].includes(first.type);
}

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

/** The receiver of `r.m`: `self`, a class or module by name, a variable, or another expression. */
function receiver(_name: Node, parent: Node, field: string | null): Receiver | undefined {
  if (parent.type !== "call" || field !== "method") return undefined;
  const object = parent.childForFieldName("receiver");
  if (!object) return undefined;
  if (object.type === "self") return { kind: "self" };
  if (object.type === "constant") return { kind: "type", name: object.text };
  if (object.type === "scope_resolution") {
    return { kind: "type", name: object.childForFieldName("name")?.text ?? "" };
  }
  if (object.type === "super") return { kind: "foreign" };
  return { kind: "expression" };
}

/** Methods of Ruby's core classes (Object, Kernel, Enumerable, String, Array, Hash, IO). */
const KNOWN =
  "new to_s to_str to_a to_ary to_h to_hash to_i to_f to_sym to_proc inspect call each each_with_index each_pair map collect select reject find detect inject reduce include? key? has_key? empty? nil? any? all? none? size length count first last push pop shift unshift join split strip chomp sub gsub match =~ downcase upcase capitalize start_with? end_with? keys values fetch merge update delete dup clone freeze frozen? is_a? kind_of? instance_of? respond_to? class send hash eql? equal? == != < > <= >= <=> [] []= + - * / % << >> read write close puts print gets open flush sort sort_by min max sum flatten compact uniq zip slice tap then yield_self instance_variable_get instance_variable_set const_get require raise lambda proc call"
    .split(" ");

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
  receiver,
  memberAccess: { call: ["method", "receiver"] },
  types: new Set(["class", "module"]),
  knownMethods: new Set(KNOWN),
  selfReachesOtherFiles: true,
  words: new Set(["simple_symbol", "hash_key_symbol", "string_content", "delimited_symbol"]),
  opens,
};
