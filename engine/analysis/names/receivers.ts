/**
 * Methods called through a receiver (`obj.m()`, `this.m()`, `$this->m()`,
 * `Type::m()`, `self.m`): which of them a deletion leaves without their
 * method, and where another definition could still answer them.
 *
 * ## Resolving a receiver without types
 *
 * The rules (`rules.ts`, `receiver`) say how the code writes the receiver;
 * this file decides, per call, whether the method must be the file's own:
 * - `this`, `self`, `$this`, `Self::`, or a type or module the file defines
 *   (`CharUtils.isAscii(c)`, `Foo::new()`): **self**, the file's own method;
 * - a variable whose declaration writes a type (`String s`, `x: &Foo`,
 *   `b *Buffer`): self when the file defines that type, otherwise the call
 *   belongs to another type and is **not judged** (`s.isEmpty()` says
 *   nothing about the file's `isEmpty`);
 * - a type the file does not define, a package, `super`/`parent`: not judged;
 * - anything else (an untyped variable, a call's result): **other**, a
 *   receiver of unknown type.
 *
 * A method every value may have (`toString`, `clone`, `each`: the rules'
 * `knownMethods`) is never judged through a receiver: the standard library
 * answers it whatever the file deletes.
 *
 * ## Where another definition may answer
 *
 * A call on the file's own object is answered by the file, except where the
 * language lets other files add methods to a type (Rust trait impls, Ruby
 * reopened classes, C++ out-of-class definitions, Go's other files of the
 * package: `selfReachesOtherFiles`). A call through a receiver of unknown
 * type may reach any type's method. For both, `declaredElsewhere` looks at
 * the workspace's files of the language that mention the name: any
 * declaration of it there (a method of another class, a trait default, an
 * overload) keeps the call unjudged. So a name common enough to be declared
 * in many files is never reported through a receiver; the compiler oracles
 * (`verify/compile/`) are the check there.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import type { NameRules, Receiver } from "./rules.ts";

/** The parts of a file's names this file reads (`FileNames` of `mod.ts`). */
interface NamesView {
  definitions: Map<string, Node[]>;
  members: Map<string, { node: Node; receiver: Receiver }[]>;
  types: Set<string>;
}

/** A method call whose method the file must supply (`self`) or some type must (`other`). */
export interface MemberUse {
  node: Node;
  via: "self" | "other";
}

/** The judged calls of `name` through receivers in a file (see the module notes). */
export function memberUses(rules: NameRules, names: NamesView, name: string): MemberUse[] {
  if (rules.knownMethods?.has(name)) return [];
  const out: MemberUse[] = [];
  for (const { node, receiver } of names.members.get(name) ?? []) {
    const via = judge(receiver, rules, names);
    if (via) out.push({ node, via });
  }
  return out;
}

function judge(receiver: Receiver, rules: NameRules, names: NamesView): MemberUse["via"] | undefined {
  switch (receiver.kind) {
    case "self":
      return "self";
    case "expression":
      return "other";
    case "type":
      return names.types.has(receiver.name) ? "self" : undefined;
    case "value":
      return judgeValue(receiver.name, rules, names);
    default:
      return undefined;
  }
}

function judgeValue(name: string, rules: NameRules, names: NamesView): MemberUse["via"] | undefined {
  if (names.types.has(name)) return "self";
  const definitions = names.definitions.get(name);
  // not defined in the file: a class or constant by convention, else a global or inherited field
  if (!definitions) return rules.undeclaredIsForeign || /^[A-Z]/.test(name) ? undefined : "other";
  const types = definitions.map((definition) => rules.declaredType?.(definition));
  if (types.some((type) => type !== undefined && names.types.has(typeName(type)))) return "self";
  if (types.every((type) => type !== undefined)) return undefined;
  return "other";
}

/** The type a declaration names, without references, pointers, qualifiers and type arguments (`&mut Foo<'a>` → `Foo`). */
export function typeName(text: string): string {
  const bare = text.replace(/<[\s\S]*$/, "").replace(/[\s&*?\[\]]+$/, "");
  return bare.match(/([A-Za-z_]\w*)$/)?.[1] ?? bare;
}

/** Whether a loss may be answered by another file's declaration (see the module notes). */
export function answerableElsewhere(
  rules: NameRules,
  loss: { via: "bare" | MemberUse["via"]; inherits: boolean },
): boolean {
  return loss.inherits || loss.via === "other" ||
    (loss.via === "self" && rules.selfReachesOtherFiles === true);
}
