/**
 * `rename_symbol(file, old_name, new_name)`: the seed's word-boundary
 * rename, done on the tree instead of a regex: every identifier token
 * (`identifier`, `property_identifier`, `type_identifier`, PHP `name`, Ruby
 * `constant`, ...) spelled `old_name` becomes `new_name`. Strings and
 * comments are never touched (identifiers inside f-string or template
 * interpolations are code, and are renamed); when the name also appears in
 * strings or comments a warning says how often (seed layer 4), since those
 * may need a manual look.
 *
 * The rename is per file and by spelling, not by scope: a local variable of
 * the same name in another function is renamed too, as with the seed's
 * regex. `file: "all"` is refused (seed runtime guard). There is no option
 * to rename inside strings or comments: use `rename_identifier` (Python,
 * `include_strings` / `include_comments`) or `replace_code` for those.
 *
 * Safety, checked before anything changes:
 * - `new_name` must be an identifier of the file's language and not a
 *   reserved word (`rename-invalid-name`, `rename-keyword`; errors);
 * - Python: every binding of `old_name` that a renamed identifier binds or
 *   refers to (each distinct binding in the file: module, class, function,
 *   comprehension...) is checked as `rename_identifier` checks its one
 *   binding (`bindingCollisions`): `new_name` already bound in the same
 *   scope, or a renamed use / an existing use of `new_name` ending up
 *   resolving to another binding, is a `rename-collision` error; shadowing
 *   an outer or builtin `new_name`, or being shadowed by an inner one, is a
 *   warning (`rename-shadows`, `rename-shadowed`). A renamed use of
 *   `old_name` bound nowhere in the file (a builtin, a star-imported name)
 *   that would resolve to a binding of `new_name` is a collision too.
 *   Attributes (`obj.old_name`) are renamed by spelling and not checked.
 *   Other languages: name check only.
 *
 * @module
 */

import { preorder } from "../../parse/walk.ts";
import { fail, IssueError, warning } from "../../base/issue.ts";
import type { Node } from "../../parse/mod.ts";
import { checkNewName } from "../../analysis/rename_safety.ts";
import type { OperatorFn } from "../operator.ts";
import { renameHazards } from "../primitives.ts";
import type { TextEdit } from "../text_edit.ts";
import { at, prepare } from "./_util.ts";

const STRING_NODE = /string|template|heredoc|regex|char_literal|character_literal/;

/** Whether a leaf node is an identifier token. */
function isIdentifier(node: Node): boolean {
  const type = node.type;
  return type.endsWith("identifier") || type === "name" || type === "constant";
}

/** The legacy `rename_symbol` operator. */
export const renameSymbol: OperatorFn = async (params, ctx) => {
  const raw = params as { file?: unknown };
  if (raw.file === "all" || raw.file === "*") {
    fail("file-required", `rename_symbol requires an explicit file, not "${raw.file}"`, {
      step: ctx.step,
      path: ["params", "file"],
      hint: "add one rename_symbol step per file",
    });
  }
  const { p, doc, file } = await prepare<{ file: string; old_name: string; new_name: string }>(
    "rename_symbol",
    params,
    ctx,
  );
  if (p.old_name === p.new_name) {
    fail("rename-noop", `old_name and new_name are both '${p.old_name}'`, at(ctx, file, "new_name"));
  }
  const invalid = checkNewName(p.new_name, doc.file.language);
  if (invalid.length > 0) {
    throw new IssueError(invalid.map((issue) => ({ ...issue, ...at(ctx, file, "new_name") })));
  }
  const edits: TextEdit[] = [];
  const renamed: Node[] = [];
  let inStrings = 0;
  let inComments = 0;
  const word = new RegExp(`(?<![\\p{L}\\p{N}_$])${escape(p.old_name)}(?![\\p{L}\\p{N}_$])`, "gu");
  preorder(doc.tree.rootNode, (node) => {
    const type = node.type;
    if (type.includes("comment")) {
      inComments += node.text.match(word)?.length ?? 0;
      return false;
    }
    if (node.childCount > 0) return true;
    if (isIdentifier(node) && node.text === p.old_name) {
      edits.push({ start: node.startIndex, end: node.endIndex, replacement: p.new_name });
      renamed.push(node);
    } else if (STRING_NODE.test(type) || STRING_NODE.test(node.parent?.type ?? "")) {
      inStrings += node.text.match(word)?.length ?? 0;
    }
  });
  if (edits.length === 0) {
    fail("symbol-not-found", `'${p.old_name}' not found as an identifier in "${file}"`, {
      ...at(ctx, file, "old_name"),
      hint: inStrings + inComments > 0
        ? `it appears only in strings (${inStrings}x) or comments (${inComments}x), which rename_symbol leaves alone; use replace_code`
        : "check the spelling and the file",
    });
  }
  const hazards = renameHazards(doc, renamed, p.new_name);
  const errors = hazards.filter((issue) => issue.severity === "error");
  if (errors.length > 0) {
    throw new IssueError(errors.map((issue) => ({ ...issue, step: ctx.step, path: ["params", "new_name"] })));
  }
  for (const issue of hazards) {
    if (issue.severity === "warning") {
      ctx.warnings.push({ ...issue, step: ctx.step, path: ["params", "new_name"] });
    }
  }
  if (inStrings + inComments > 0) {
    ctx.warnings.push(warning(
      "rename-skipped-text",
      `'${p.old_name}' also appears in strings (${inStrings}x) and comments (${inComments}x) of "${file}"; those were left unchanged`,
      { step: ctx.step, file, path: ["params", "old_name"] },
    ));
  }
  await ctx.edit(file, "rename_symbol", edits);
  return { file, renamed: edits.length };
};

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
