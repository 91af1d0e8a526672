/**
 * `add_import_name`: one more name in an existing `from MODULE import ...`
 * statement, written right after its last name (or the one given) (`, name` or
 * `, name as alias`), so the statement keeps its layout: parentheses, line
 * breaks and the indentation of continuation lines stay as they are.
 *
 * `add_import` cannot do this: it adds a whole new import statement. Real
 * fixes mostly extend the import that is already there (a parenthesised
 * list over several lines is common), and a new statement for one name
 * would not be the change the author made.
 *
 * With `own_line: true` the name goes on a line of its own, indented like
 * the last name's line: the vertical layout of formatters such as black,
 * where a parenthesised list ends with a trailing comma. A trailing comma
 * after the last name stays last (`When,` becomes `When,\n    Name,`);
 * without one the name is written `,\n    Name`. A statement not in
 * parentheses is refused with `own_line` (a bare line break would end it).
 *
 * With `trailing_comma: false` a list that ends in a trailing comma loses
 * it: the comma becomes the separator before the new name, which ends the
 * list (`When,\n)` becomes `When, Q\n)`, or `When,\n    Q\n)` with
 * `own_line`), as hand-written lists grow.
 *
 * With `after: NAME` the name is written after that one instead of the last
 * (an import list kept in alphabetical order grows in the middle); `NAME`
 * is the imported name as written (`x as y` for an aliased one).
 *
 * With `first: true` the name is written before the first one instead
 * (`name, ` on the first name's line, or a line `name,` of its own above it
 * with `own_line`). Not with `after` or `trailing_comma`.
 *
 * A plain `import a, b` grows the same way (`import io, logging, socket`:
 * a module added with `first`); it has no parentheses, so not `own_line`.
 *
 * Refused: a target that is not an import, a `*` import, an `after`
 * name the statement does not import, `first` with `after`. A name already
 * imported under the same alias is `already-present` (a no-op).
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { firstOnLine, lineIndent, lineStart } from "../indent.ts";
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

/** The `from ... import` or plain `import` statement at (or around) the target; refuses any other target. */
function importStatement(run: TemplateRun): Node {
  let statement: Node | null = run.node;
  while (statement && !/^(import_from_statement|import_statement)$/.test(statement.type)) {
    statement = statement.parent;
  }
  if (!statement) {
    refuse(run, `Target of "${run.name}" must be an import statement, got a "${run.node.type}"`);
  }
  return statement;
}

/** `add_import_name`. */
export async function addImportName(run: TemplateRun): Promise<Record<string, unknown>> {
  const { doc } = run;
  const statement = importStatement(run);
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
  const written = alias ? `${name} as ${alias}` : name;
  if (run.params.first === true) {
    await run.ctx.edit(doc.file.path, opName(run), [firstEdit(run, statement, names[0], written)]);
    return { changed: true, name: written };
  }
  const last = anchorName(run, statement, names);
  const comma = last.nextSibling?.type === "," ? last.nextSibling : undefined;
  const edit = run.params.trailing_comma === false && comma && last.id === names.at(-1)!.id
    ? afterCommaEdit(run, last, comma, written)
    : run.params.own_line === true
    ? ownLineEdit(run, statement, last, written)
    : { start: last.endIndex, end: last.endIndex, replacement: `, ${written}` };
  await run.ctx.edit(doc.file.path, opName(run), [edit]);
  return { changed: true, name: written };
}

/** The name the new one follows: the one the `after` parameter names, else the last. */
function anchorName(run: TemplateRun, statement: Node, names: Node[]): Node {
  const after = str(run.params, "after")?.trim();
  if (after === undefined) return names.at(-1)!;
  const found = names.find((node) => node.text === after);
  if (!found) {
    refuse(run, `Cannot add a name after "${after}": "${statement.text.split("\n")[0]}" does not import it`, {
      node: statement,
    });
  }
  return found;
}

/**
 * The edit writing `written` after the trailing comma that ends the list
 * (the comma becomes a separator, the list ends without one): on the same
 * line, or on a line of its own with `own_line`.
 */
function afterCommaEdit(run: TemplateRun, last: Node, comma: Node, written: string) {
  const text = run.doc.file.text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const replacement = run.params.own_line === true
    ? `${eol}${lineIndent(text, last.startIndex)}${written}`
    : ` ${written}`;
  return { start: comma.endIndex, end: comma.endIndex, replacement };
}

/** The edit putting `written` on a line of its own after `last` (see the module comment). */
function ownLineEdit(run: TemplateRun, statement: Node, last: Node, written: string) {
  if (!statement.children.some((child) => child?.type === "(")) {
    refuse(
      run,
      `Cannot put a name on its own line in "${statement.text.split("\n")[0]}": it has no parentheses`,
      {
        node: statement,
      },
    );
  }
  const text = run.doc.file.text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const indent = lineIndent(text, last.startIndex);
  const comma = last.nextSibling?.type === "," ? last.nextSibling : undefined;
  return comma
    ? { start: comma.endIndex, end: comma.endIndex, replacement: `${eol}${indent}${written},` }
    : { start: last.endIndex, end: last.endIndex, replacement: `,${eol}${indent}${written}` };
}

/** The edit writing `written` before the first name (see the module comment). */
function firstEdit(run: TemplateRun, statement: Node, first: Node, written: string) {
  if (str(run.params, "after") !== undefined || run.params.trailing_comma !== undefined) {
    refuse(run, `Cannot combine "first" with "after" or "trailing_comma" in "${run.name}"`, {
      node: statement,
    });
  }
  if (run.params.own_line !== true) {
    return { start: first.startIndex, end: first.startIndex, replacement: `${written}, ` };
  }
  if (
    !statement.children.some((child) => child?.type === "(") ||
    !firstOnLine(run.doc.file.text, first.startIndex)
  ) {
    refuse(
      run,
      `Cannot put a name on its own line in "${
        statement.text.split("\n")[0]
      }": its first name does not start a line`,
      {
        node: statement,
      },
    );
  }
  const text = run.doc.file.text;
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const start = lineStart(text, first.startIndex);
  return { start, end: start, replacement: `${lineIndent(text, first.startIndex)}${written},${eol}` };
}
