/**
 * L3 dangling references beyond Python: a use left without its definition
 * in the same file (`analysis/names/`: JavaScript, TypeScript, Go, Rust,
 * Java, Ruby, PHP, C, C++). The same code as Python's, `dangling-reference`,
 * judged the same way: a warning of the step (a later step may restore the
 * definition or update the uses), an error of the plan when it still
 * dangles in the plan's final state (`l3_dangling.ts` calls
 * `finalNameIssues` from `finalDangling`).
 *
 * @module
 */

import { lostDefinitions, nameRules } from "../../analysis/names/mod.ts";
import { error, type Issue } from "../../issue.ts";
import type { Document } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { clip } from "./quote.ts";

const MAX_LISTED = 10;

/** Whether `language` has name rules (and so this level's findings). */
export function hasNameRules(document: Document): boolean {
  return nameRules(document.file.language) !== undefined;
}

/** Step-level findings: uses a step left without their definition, as warnings until the plan is judged. */
export function checkNames(change: FileChange, env: CheckEnv): Issue[] {
  return nameIssues(change.path, change.before, change.after).map((issue) => ({
    ...issue,
    severity: "warning" as const,
    level: "L3",
    step: env.step,
  }));
}

/** The dangling uses of a whole plan in one file: `before` the plan, `after` it. */
export function finalNameIssues(path: string, before: Document, after: Document): Issue[] {
  return nameIssues(path, before, after);
}

function nameIssues(path: string, before: Document, after: Document): Issue[] {
  if (before.file.text === after.file.text) return [];
  return lostDefinitions(after.file.language, before.tree, after.tree).map(({ name, uses }) =>
    error(
      "dangling-reference",
      `Name "${clip(name)}" is still used after its last definition was removed: ${places(path, uses)}`,
      {
        file: path,
        line: uses[0].startPosition.row + 1,
        hint: `update or remove the uses of "${clip(name)}", or keep a definition of it`,
      },
    )
  );
}

function places(path: string, nodes: readonly Node[]): string {
  const lines = [...new Set(nodes.map((node) => node.startPosition.row + 1))];
  const listed = lines.slice(0, MAX_LISTED).map((line) => `"${path}:${line}"`).join(", ");
  return lines.length > MAX_LISTED ? `${listed} and ${lines.length - MAX_LISTED} more` : listed;
}
