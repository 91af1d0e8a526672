/**
 * `add_import_name`: one more name in an existing `from MODULE import ...`
 * statement, written right after its last name (`, name` or
 * `, name as alias`), so the statement keeps its layout: parentheses, line
 * breaks and the indentation of continuation lines stay as they are.
 *
 * `add_import` cannot do this: it adds a whole new import statement. Real
 * fixes mostly extend the import that is already there (a parenthesised
 * list over several lines is common), and a new statement for one name
 * would not be the change the author made.
 *
 * Refused: a target that is not a from-import, a `*` import. A name already
 * imported under the same alias is `already-present` (a no-op).
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { alreadyPresent, opName, refuse, str, type TemplateRun } from "./common.ts";

/** The imported names of a from-import, in order (each a dotted_name or an aliased_import). */
export function importedNames(statement: Node): Node[] {
  return statement.childrenForFieldName("name").filter((child): child is Node => !!child);
}

/** The `from ... import` statement at (or around) the target; refuses any other target. */
export function fromImportStatement(run: TemplateRun): Node {
  let statement: Node | null = run.node;
  while (statement && statement.type !== "import_from_statement") statement = statement.parent;
  if (!statement) {
    refuse(run, `Target of "${run.name}" must be a "from ... import" statement, got a "${run.node.type}"`);
  }
  return statement;
}

/** `add_import_name`. */
export async function addImportName(run: TemplateRun): Promise<Record<string, unknown>> {
  const { doc } = run;
  const statement = fromImportStatement(run);
  const names = importedNames(statement);
  if (names.length === 0) {
    refuse(run, `Cannot add a name to "${statement.text.split("\n")[0]}": it imports "*"`, {
      node: statement,
    });
  }
  const name = str(run.params, "name")!.trim();
  const alias = str(run.params, "alias")?.trim();
  const existing = names.find((node) => {
    const own = node.type === "aliased_import" ? node.childForFieldName("name")?.text : node.text;
    const as = node.type === "aliased_import" ? node.childForFieldName("alias")?.text : undefined;
    return own === name && as === alias;
  });
  if (existing) return alreadyPresent(run, `"${existing.text}" is already imported`);
  const last = names.at(-1)!;
  const written = alias ? `${name} as ${alias}` : name;
  await run.ctx.edit(doc.file.path, opName(run), [{
    start: last.endIndex,
    end: last.endIndex,
    replacement: `, ${written}`,
  }]);
  return { changed: true, name: written };
}
