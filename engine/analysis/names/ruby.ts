/**
 * Name rules of Ruby (`analysis/names/mod.ts`). Definitions: methods,
 * classes, modules, local variables, parameters. Uses: a method called
 * without a receiver, arguments, operands; `r.m` is a call through a
 * receiver (`receivers.ts`). Ruby finds methods at run time:
 * a method of a class with a superclass or mixins (`include`, `extend`,
 * `prepend`) does not count unless the base is a core one whose methods are
 * known and lack the name, a method of a class or module is judged only
 * where no other file declares the name (another file may reopen it), a symbol or string naming a method keeps it
 * alive (`attr_reader :x`, `send("x")`), and a class with `method_missing`
 * or metaprogramming on itself (`define_method`, `instance_eval`) may supply
 * any name: its methods do not count; metaprogramming on another object
 * (`Foo.class_eval`) or at the top level, or a computed `send`, opens the
 * whole file: nothing is lost there.
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

const SENDS = new Set(["send", "public_send", "__send__"]);

/**
 * How far a name token lets code supply names at run time: `"owner"` for
 * metaprogramming on the current object (`define_method(name)`,
 * `def method_missing`, `instance_eval`, `send(:define_method, ...)` without
 * a receiver or on `self`) inside a class or module, which opens that class
 * or module only; `"file"` for the same on another object
 * (`Foo.class_eval`), at the top level, or a `send` whose method is
 * computed; undefined for anything else. `send(:name)` and
 * `alias`/`alias_method` with literal names do not open: their symbols keep
 * those names alive (`words`).
 */
function dynamicReach(node: Node): "owner" | "file" | undefined {
  if (node.type !== "identifier") return undefined;
  const call = node.parent?.type === "call" && node.parent.childForFieldName("method")?.id === node.id
    ? node.parent
    : undefined;
  let dynamic = DYNAMIC.has(node.text);
  if (!dynamic && SENDS.has(node.text)) {
    const first = call?.childForFieldName("arguments")?.namedChildren[0];
    if (!first || !["simple_symbol", "string", "delimited_symbol"].includes(first.type)) return "file";
    dynamic = DYNAMIC.has(first.text.replace(/^:|["']/g, ""));
  }
  if (!dynamic) return undefined;
  const receiver = call?.childForFieldName("receiver");
  if (receiver && receiver.type !== "self") return "file";
  return ownerOf(node) ? "owner" : "file";
}

/** Whether a node lets the whole file supply any name at run time (`dynamicReach`). */
function opens(node: Node): boolean {
  return dynamicReach(node) === "file";
}

const openOwners = new WeakMap<object, Map<number, boolean>>();

/** Whether metaprogramming inside a class or module (not a nested one) may supply any of its names (`dynamicReach`). */
function ownerOpens(owner: Node): boolean {
  const known = openOwners.get(owner.tree) ?? new Map<number, boolean>();
  openOwners.set(owner.tree, known);
  let open = known.get(owner.id);
  if (open === undefined) {
    open = owner.descendantsOfType("identifier").some((id) =>
      id !== null && (DYNAMIC.has(id.text) || SENDS.has(id.text)) && dynamicReach(id) === "owner" &&
      ownerOf(id)?.id === owner.id
    );
    known.set(owner.id, open);
  }
  // `class << self` takes methods its class defines at run time (`define_singleton_method`)
  const outer = owner.type === "singleton_class" ? ownerOf(owner) : undefined;
  return open || (outer !== undefined && ownerOpens(outer));
}

/**
 * Methods of the core modules and classes a class often takes in, whose
 * method sets are fixed: a class including `Comparable` or deriving from
 * `StandardError` takes only these names from them (with `Object`'s, which
 * `KNOWN` and `builtins` cover).
 */
const CLOSED: Record<string, readonly string[]> = {
  Comparable: ["<", "<=", "==", ">", ">=", "between?", "clamp"],
  Singleton: ["instance", "clone", "dup", "_dump", "_load"],
  Enumerable:
    "all? any? chain chunk chunk_while collect collect_concat compact count cycle detect drop drop_while each_cons each_entry each_slice each_with_index each_with_object entries filter filter_map find find_all find_index first flat_map grep grep_v group_by include? inject lazy map max max_by member? min min_by minmax minmax_by none? one? partition reduce reject reverse_each select slice_after slice_before slice_when sort sort_by sum take take_while tally to_a to_h to_set uniq zip"
      .split(" "),
  ...Object.fromEntries(
    [
      "Exception",
      "StandardError",
      "RuntimeError",
      "ArgumentError",
      "TypeError",
      "NameError",
      "NotImplementedError",
      "IOError",
      "IndexError",
      "KeyError",
      "RangeError",
      "SecurityError",
      "EncodingError",
      "ScriptError",
    ].map((name) => [
      name,
      "message full_message detailed_message backtrace backtrace_locations set_backtrace cause exception inspect to_s =="
        .split(" "),
    ]),
  ),
};

/** The class or module a method is defined in (its nearest), or undefined at the top level. */
function ownerOf(method: Node): Node | undefined {
  for (let at = method.parent; at; at = at.parent) {
    if (at.type === "class" || at.type === "module" || at.type === "singleton_class") return at;
  }
  return undefined;
}

/** The modules an owner's own body takes in (`include A, B` as a statement of the body, not inside a method). */
function mixins(owner: Node): Node[] {
  const body = owner.childForFieldName("body") ??
    owner.namedChildren.find((c) => c?.type === "body_statement");
  const out: Node[] = [];
  for (const statement of body?.namedChildren ?? []) {
    if (!statement) continue;
    const call = statement.type === "identifier" || statement.type === "call" ? statement : undefined;
    const method = call?.type === "call" ? call.childForFieldName("method")?.text : call?.text;
    if (!method || !/^(?:include|extend|prepend)$/.test(method) || call?.childForFieldName("receiver")) {
      continue;
    }
    const args = call?.childForFieldName("arguments")?.namedChildren ?? [];
    if (args.length === 0) out.push(call!);
    for (const arg of args) if (arg) out.push(arg);
  }
  return out;
}

/** Whether `module` may supply `name`: any module but `self` and a core one with a fixed method set lacking it. */
function mayAnswer(module: Node, name: string): boolean {
  if (module.type === "self") return false;
  const closed = module.type === "constant" ? CLOSED[module.text] : undefined;
  return closed === undefined || closed.includes(name);
}

/**
 * Whether a method stands in a class or module whose methods may come from
 * elsewhere: its nearest class or module (only that one: an outer module's
 * methods are not the inner class's) has a superclass or takes in a module
 * (`include`, `extend`, `prepend` as statements of its body), except a core
 * one whose method set is fixed and lacks the name (`CLOSED`).
 */
function mayBeInherited(name: Node, parent: Node): boolean {
  if (parent.type !== "method" && parent.type !== "singleton_method") return false;
  const owner = ownerOf(parent);
  // a top-level method is Object's: a top-level `include` may answer it
  if (!owner) return mixins(parent.tree.rootNode).some((module) => mayAnswer(module, name.text));
  if (ownerOpens(owner)) return true;
  const superclass = owner.childForFieldName("superclass");
  const base = superclass?.namedChildren[0];
  if (superclass && (!base || mayAnswer(base, name.text))) return true;
  return mixins(owner).some((module) => mayAnswer(module, name.text));
}

/** Whether a counted method stands in a class or module, which another file may reopen: judged only where none declares the name. */
function inherits(_name: Node, parent: Node): boolean {
  return (parent.type === "method" || parent.type === "singleton_method") && ownerOf(parent) !== undefined;
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

/** Whether a definition counts (`mayBeInherited`). */
function mayBeInheritedNot(name: Node, parent: Node): boolean {
  return !mayBeInherited(name, parent);
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
  countsAsDefinition: mayBeInheritedNot,
  inherits,
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
