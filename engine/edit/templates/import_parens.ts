/**
 * `parenthesize_import`: a `from MODULE import ...` statement's names put in
 * parentheses, the form PEP 8 prefers to backslash continuations, and the
 * form a long import is re-laid into before it grows:
 *
 * ```text
 * from sympy.core.compatibility import is_sequence, range, \
 *     NotIterable
 * ```
 *
 * becomes
 *
 * ```text
 * from sympy.core.compatibility import (is_sequence, range,
 *     NotIterable)
 * ```
 *
 * Each backslash continuation (and the spaces before it) is dropped; the
 * line breaks and the indentation of the continuation lines stay, so the
 * names keep their lines. The imported names do not change. A continuation
 * right after `import` puts the parenthesis there (`import (` then the
 * names on the next line). A statement already in parentheses is
 * `already-present` (a no-op); a `*` import is refused.
 *
 * With `one_per_line: true` the names are laid out vertically instead, the
 * layout formatters such as black give a list that no longer fits one line:
 * `import (`, then each name on a line of its own, one indentation unit
 * deeper than the statement (the file's unit), each followed by a comma,
 * and `)` on a line of its own at the statement's indentation. A comment
 * ending the statement's last line stays after the `)`.
 *
 * @module
 */

import { detectIndentUnit, lineIndent } from "../indent.ts";
import { alreadyPresent, opName, refuse, type TemplateRun } from "./common.ts";
import { fromImportStatement, importedNames } from "./import_name.ts";

/** `parenthesize_import`. */
export async function parenthesizeImport(run: TemplateRun): Promise<Record<string, unknown>> {
  const statement = fromImportStatement(run);
  const names = importedNames(statement);
  if (names.length === 0) {
    refuse(run, `Cannot parenthesize "${statement.text.split("\n")[0]}": it imports "*"`, {
      node: statement,
    });
  }
  if (statement.children.some((child) => child?.type === "(")) {
    return alreadyPresent(run, `The names of "${statement.text.split("\n")[0]}" are already in parentheses`);
  }
  const keyword = statement.children.find((child) => child?.type === "import")!;
  const last = names.at(-1)!;
  const text = run.doc.file.text;
  if (run.params.one_per_line === true) {
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    const outer = lineIndent(text, statement.startIndex);
    const inner = outer + detectIndentUnit(text);
    const lines = names.map((name) => `${inner}${name.text},`).join(eol);
    await run.ctx.edit(run.doc.file.path, opName(run), [{
      start: keyword.endIndex,
      end: last.endIndex,
      replacement: ` (${eol}${lines}${eol}${outer})`,
    }]);
    return { changed: true };
  }
  const between = text.slice(keyword.endIndex, last.endIndex).replace(/[ \t]*\\(?=\r?\n)/g, "");
  await run.ctx.edit(run.doc.file.path, opName(run), [{
    start: keyword.endIndex,
    end: last.endIndex,
    replacement: ` (${between.replace(/^[ \t]*/, "")})`,
  }]);
  return { changed: true };
}
