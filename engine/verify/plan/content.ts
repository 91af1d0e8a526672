/**
 * Layer 1 (seed 002), content existence, and the layer of every issue the
 * simulation itself raises.
 *
 * Most of layer 1 is the simulation: `replace_code` runs the operator's
 * layered search (`engine/edit/fuzzy.ts`: exact, whitespace, indentation,
 * fuzzy ≥ 80%), so a missing pattern is the error `pattern-not-found` (with
 * the closest text as a hint) and a near miss it accepts is a `match-fuzzy`
 * warning; `modify_function_signature` and `rename_symbol` fail the same way
 * when their text is absent; `add_import` warns `import-exists` for a
 * duplicate. What the simulation cannot say, because it would succeed, is
 * checked here: `add_method` of a method the class already has.
 *
 * @module
 */

import { type Issue, warning } from "../../base/issue.ts";
import type { NormalizedStep } from "../../plan/mod.ts";
import type { DocumentStore } from "../../parse/documents.ts";
import { graphOf, tryGet } from "./graphs.ts";
import { param } from "./steps.ts";

/** Issue codes of the operators and checks, by the layer they belong to (the rest: layer 0). */
const LAYERS: [RegExp, string][] = [
  [/^locator-/, "0b"],
  [/^(pattern-|signature-|symbol-not-found$|import-exists$|match-|function-body-not-found$)/, "1"],
  [/^syntax-error$/, "5"],
];

/** The plan layer of an issue raised while simulating a step. */
export function layerOf(code: string): string {
  for (const [pattern, layer] of LAYERS) if (pattern.test(code)) return layer;
  return "0";
}

const METHOD_NAME =
  /^\s*(?:@[^\n]*\n\s*)*(?:async\s+)?(?:def|function|fn|func)\s+([\p{L}_$][\p{L}\p{N}_$]*)/u;

/** Layer 1 checks the simulation cannot make (a duplicate method). */
export async function contentChecks(step: NormalizedStep, store: DocumentStore): Promise<Issue[]> {
  if (step.op !== "add_method") return [];
  const file = param(step, "file");
  const className = param(step, "class_name", "class");
  const code = param(step, "method_code", "code");
  if (!file || !className || !code) return [];
  const name = METHOD_NAME.exec(code)?.[1];
  if (!name) return [];
  const got = await tryGet(store, file);
  if (!got.doc) return [];
  const owner = className.split(".").pop();
  const existing = graphOf(got.doc).symbols.find((s) => s.name === name && s.parent === owner);
  if (!existing) return [];
  return [
    warning(
      "method-exists",
      `Step ${step.index} (add_method): Method '${name}' already exists in class '${className}' of "${got.doc.file.path}" (line ${existing.start_line})`,
      {
        step: step.index,
        layer: "1",
        file: got.doc.file.path,
        line: existing.start_line,
        path: [...step.path, "params"],
        hint:
          "the new method would shadow the old one; use replace_function_body or replace_node to change it",
      },
    ),
  ];
}
