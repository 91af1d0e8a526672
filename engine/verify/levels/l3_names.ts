/**
 * L3 dangling references beyond Python: a use left without its definition
 * in the same file (`analysis/names/`: JavaScript, TypeScript, Go, Rust,
 * Java, Ruby, PHP, C, C++; calls through receivers where no other file
 * declares the method: `analysis/names/receivers.ts`), `dangling-reference`, and in the other files
 * that use the file's names (Go packages, JavaScript and TypeScript
 * imports: `analysis/names/importers.ts`), `dangling-import`. The same
 * codes as Python's, judged the same way: a warning of the step (a later step may restore the
 * definition or update the uses), an error of the plan when it still
 * dangles in the plan's final state (`l3_dangling.ts` calls
 * `finalNameIssues` from `finalDangling`).
 *
 * @module
 */

import { lostDefinitions, nameRules } from "../../analysis/names/mod.ts";
import { error, type Issue } from "../../base/issue.ts";
import type { Document, DocumentStore } from "../../parse/documents.ts";
import { declaredElsewhere, foreignLosses } from "../../analysis/names/importers.ts";
import { answerableElsewhere } from "../../analysis/names/receivers.ts";
import type { CheckEnv, FileChange } from "./mod.ts";
import { clip } from "./quote.ts";
import { places } from "./l3_dangling.ts";

/** Whether `language` has name rules (and so this level's findings). */
export function hasNameRules(document: Document): boolean {
  return nameRules(document.file.language) !== undefined;
}

/** Step-level findings: uses a step left without their definition, as warnings until the plan is judged. */
export async function checkNames(change: FileChange, env: CheckEnv): Promise<Issue[]> {
  return (await nameIssues(change.path, change.before, change.after, env.store)).map((issue) => ({
    ...issue,
    severity: "warning" as const,
    level: "L3",
    step: env.step,
  }));
}

/** The dangling uses of a whole plan in one file (`before` the plan, `after` it) and in the files using its names. */
export function finalNameIssues(
  path: string,
  before: Document,
  after: Document,
  store: DocumentStore,
): Promise<Issue[]> {
  return nameIssues(path, before, after, store);
}

async function nameIssues(
  path: string,
  before: Document,
  after: Document,
  store: DocumentStore,
): Promise<Issue[]> {
  if (before.file.text === after.file.text) return [];
  const language = after.file.language;
  const foreign = await foreignLosses(store, path, language, before.tree, after.tree);
  const issues = foreign.map(({ path: user, name, uses }) =>
    error(
      "dangling-import",
      `Name "${clip(name)}" was removed from "${path}" but "${user}" still uses it: ${places(user, uses)}`,
      {
        file: user,
        line: uses[0].startPosition.row + 1,
        hint: `update the uses of "${clip(name)}" in "${user}" in the plan, or keep "${
          clip(name)
        }" in "${path}"`,
      },
    )
  );
  return [...issues, ...await sameFile(path, before, after, store)];
}

async function sameFile(
  path: string,
  before: Document,
  after: Document,
  store: DocumentStore,
): Promise<Issue[]> {
  const language = after.file.language;
  const lost = [];
  for (const loss of await lostDefinitions(language, before.tree, after.tree)) {
    // a call through a receiver may reach another file's definition (analysis/names/receivers.ts)
    const elsewhere = answerableElsewhere(nameRules(language)!, loss);
    if (!elsewhere || !await declaredElsewhere(store, path, language, loss.name)) lost.push(loss);
  }
  return lost.map(({ name, uses }) =>
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
