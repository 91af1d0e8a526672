/**
 * L6 non-triviality: the edit is not degenerate.
 *
 * - `no-op-edit`: the edit leaves the text as it was (an edit whose
 *   replacement equals the text it replaces);
 * - `trivial-body`: a function whose body did something now only passes:
 *   its body is empty, `pass`, `...`, `return`, `return None` (`null`,
 *   `undefined`, `nil` in other languages), with or without a docstring.
 *   New stubs are not reported; only bodies the edit reduced.
 *
 * @module
 */

import { type Issue, warning } from "../../base/issue.ts";
import type { Node } from "../../parse/mod.ts";
import { definitionsIn } from "./defs.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { editSpans, lineAt } from "./region.ts";
import { clip } from "./quote.ts";

const EMPTY_VALUES = new Set(["none", "null", "undefined", "nil"]);

/** L6: degenerate edits. */
export function checkTriviality(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  const details = { level: "L6", step: env.step, file: change.path };
  const issues: Issue[] = [];
  // A whole-file step (a new empty file, a mode change) leaves no text edit to judge.
  const fileStep = change.created || change.deleted || change.before.file.mode !== change.after.file.mode;
  const unchanged = !fileStep && change.before.file.text === change.after.file.text;
  const identical: number[] = [];
  for (const record of change.records) {
    if (record.file !== change.path) continue;
    for (const edit of record.edits) {
      const text = record.before.file.text;
      if (text.slice(edit.start, edit.end) === edit.replacement) identical.push(lineAt(text, edit.start));
    }
  }
  if (unchanged || identical.length > 0) {
    const where = identical.length > 0 ? ` at line ${identical[0]}` : "";
    issues.push(warning("no-op-edit", `Edit leaves "${change.path}" unchanged${where}`, {
      ...details,
      line: identical[0],
      hint: "the replacement equals the original text; change it or drop the step",
    }));
  }
  for (const span of editSpans(change.before, change.after, change.records)) {
    const before = definitionsIn(change.before.tree, span.beforeStart, span.beforeEnd);
    const after = definitionsIn(change.after.tree, span.afterStart, span.afterEnd);
    for (const [qualname, def] of after) {
      const old = before.get(qualname);
      if (!old || !isTrivialBody(def.node) || isTrivialBody(old.node)) continue;
      issues.push(warning("trivial-body", `Edit reduces the body of "${clip(qualname)}" to a stub`, {
        ...details,
        line: def.node.startPosition.row + 1,
        hint: "implement the body instead of emptying it",
      }));
    }
  }
  return Promise.resolve(issues);
}

/** Whether a function's body does nothing (see the module doc). */
export function isTrivialBody(definition: Node): boolean {
  const body = definition.childForFieldName("body");
  if (!body) return false;
  const statements = body.namedChildren.filter((child) => child && child.type !== "comment") as Node[];
  let i = 0;
  // a docstring
  if (statements.length > 0 && isDocstring(statements[0])) i = 1;
  const rest = statements.slice(i);
  if (rest.length === 0) return true;
  if (rest.length > 1) return false;
  const only = rest[0];
  if (only.type === "pass_statement" || only.type === "empty_statement") return true;
  if (only.type === "expression_statement") {
    const inner = only.namedChild(0);
    return inner?.type === "ellipsis";
  }
  if (only.type === "return_statement" || only.type === "return_expression") {
    const value = only.namedChild(0);
    return !value || EMPTY_VALUES.has(value.type) ||
      (value.type === "identifier" && value.text === "undefined");
  }
  return false;
}

function isDocstring(node: Node): boolean {
  return node.type === "expression_statement" && node.namedChildCount === 1 &&
    node.namedChild(0)?.type === "string";
}
