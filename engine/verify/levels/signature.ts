/**
 * Python call signatures: a definition's parameters, a call's arguments,
 * and whether the call fits (used by L5).
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { clip } from "./quote.ts";

/** One parameter. */
export interface Parameter {
  name: string;
  kind: "positional-only" | "normal" | "keyword-only" | "varargs" | "varkw";
  required: boolean;
}

/** A call's arguments. */
export interface CallArguments {
  positional: number;
  keywords: string[];
  /** `*args` / `**kwargs` in the call: counts and names are unknown. */
  star: boolean;
  doubleStar: boolean;
}

/** The parameters of a Python function definition; `dropFirst` drops `self`/`cls`. */
export function signatureOf(definition: Node, dropFirst = false): Parameter[] {
  const parameters = definition.childForFieldName("parameters");
  const out: Parameter[] = [];
  if (!parameters) return out;
  let keywordOnly = false;
  for (const child of parameters.namedChildren) {
    if (!child) continue;
    switch (child.type) {
      case "identifier":
        out.push({ name: child.text, kind: keywordOnly ? "keyword-only" : "normal", required: true });
        break;
      case "typed_parameter": {
        const inner = child.namedChild(0);
        if (inner?.type === "list_splat_pattern") {
          out.push({ name: inner.namedChild(0)?.text ?? "", kind: "varargs", required: false });
          keywordOnly = true;
        } else if (inner?.type === "dictionary_splat_pattern") {
          out.push({ name: inner.namedChild(0)?.text ?? "", kind: "varkw", required: false });
        } else {
          out.push({
            name: inner?.text ?? "",
            kind: keywordOnly ? "keyword-only" : "normal",
            required: true,
          });
        }
        break;
      }
      case "default_parameter":
      case "typed_default_parameter":
        out.push({
          name: child.childForFieldName("name")?.text ?? "",
          kind: keywordOnly ? "keyword-only" : "normal",
          required: false,
        });
        break;
      case "list_splat_pattern":
        out.push({ name: child.namedChild(0)?.text ?? "", kind: "varargs", required: false });
        keywordOnly = true;
        break;
      case "dictionary_splat_pattern":
        out.push({ name: child.namedChild(0)?.text ?? "", kind: "varkw", required: false });
        break;
      case "keyword_separator":
        keywordOnly = true;
        break;
      case "positional_separator":
        for (const parameter of out) if (parameter.kind === "normal") parameter.kind = "positional-only";
        break;
    }
  }
  if (dropFirst && out.length > 0 && (out[0].kind === "normal" || out[0].kind === "positional-only")) {
    out.shift();
  }
  return out;
}

/** Whether a definition is decorated `@staticmethod`. */
export function isStaticMethod(definition: Node): boolean {
  const parent = definition.parent;
  if (parent?.type !== "decorated_definition") return false;
  return parent.namedChildren.some((child) =>
    child?.type === "decorator" && /^@\s*staticmethod\b/.test(child.text)
  );
}

/** The arguments of a `call` node. */
export function argumentsOf(call: Node): CallArguments {
  const args: CallArguments = { positional: 0, keywords: [], star: false, doubleStar: false };
  const list = call.childForFieldName("arguments");
  if (!list) return args;
  if (list.type === "generator_expression") {
    args.positional = 1;
    return args;
  }
  for (const child of list.namedChildren) {
    if (!child || child.type === "comment") continue;
    if (child.type === "keyword_argument") args.keywords.push(child.childForFieldName("name")?.text ?? "");
    else if (child.type === "list_splat") args.star = true;
    else if (child.type === "dictionary_splat") args.doubleStar = true;
    else args.positional++;
  }
  return args;
}

/** Why `args` does not fit `parameters`, or undefined when it does. */
export function callProblem(parameters: readonly Parameter[], args: CallArguments): string | undefined {
  const positional = parameters.filter((p) => p.kind === "normal" || p.kind === "positional-only");
  const varargs = parameters.some((p) => p.kind === "varargs");
  const varkw = parameters.some((p) => p.kind === "varkw");
  if (!args.star && !varargs && args.positional > positional.length) {
    return `passes ${args.positional} positional arguments but it takes ${positional.length}`;
  }
  for (const keyword of args.keywords) {
    const target = parameters.find((p) =>
      p.name === keyword && (p.kind === "normal" || p.kind === "keyword-only")
    );
    if (!target && !varkw) return `passes unexpected keyword argument "${clip(keyword)}"`;
  }
  for (const [index, parameter] of parameters.entries()) {
    if (!parameter.required) continue;
    if (parameter.kind === "keyword-only") {
      if (!args.keywords.includes(parameter.name) && !args.doubleStar) {
        return `lacks keyword argument "${clip(parameter.name)}"`;
      }
      continue;
    }
    const position = positional.indexOf(parameter);
    const covered = position < args.positional || args.star ||
      (parameter.kind === "normal" && (args.keywords.includes(parameter.name) || args.doubleStar));
    if (!covered) return `lacks argument "${clip(parameter.name)}"`;
    void index;
  }
  return undefined;
}

/** Whether the positional parameters were reordered (same names, different order). */
export function reordered(before: readonly Parameter[], after: readonly Parameter[]): boolean {
  const a = before.filter((p) => p.kind === "normal" || p.kind === "positional-only").map((p) => p.name);
  const b = after.filter((p) => p.kind === "normal" || p.kind === "positional-only").map((p) => p.name);
  if (a.join(",") === b.join(",")) return false;
  const common = a.filter((name) => b.includes(name));
  const inB = b.filter((name) => a.includes(name));
  return common.join(",") !== inB.join(",");
}
