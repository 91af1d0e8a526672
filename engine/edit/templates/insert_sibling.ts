/**
 * `insert_sibling`: code (statements, class members, top-level definitions)
 * on lines of its own directly before or after a located node, at that
 * node's indentation, in any language. The code is dedented, then each of
 * its non-blank lines gets the target line's indentation; it goes before
 * the target's first line or after its last, so the target must start its
 * line (`before`) or end it (`after`, a trailing comment may follow).
 * Blank lines around the new code are not this template's business: a
 * `set_blank_lines` step (or the file's own spacing) sets them.
 *
 * The result is checked before anything changes: the file parsed with the
 * code in place has no syntax error that was not there before (compared by
 * count of error and missing nodes), and the first new line starts a node
 * whose parent has the target's parent's type, so the code is a sibling of
 * the target, not the tail of it. Both refusals are `template-precondition`.
 *
 * Why: outside Python, fragments (tier 3) do not exist, and a new function,
 * method or statement next to an existing one had no step but `replace_code`
 * (tier 0). Where the language has a dedicated template (`guard_clause`,
 * `add_method`) lift prefers it.
 *
 * @module
 */

import { problemsWithoutMacros } from "../../analysis/macro_specifiers.ts";
import { type Node, syntaxProblems } from "../../parse/mod.ts";
import { firstOnLine, lastOnLine, lineIndent, lineStart, nextLineStart } from "../indent.ts";
import { dedent } from "../params.ts";
import { alreadyPresent, opName, refuse, str, type TemplateRun } from "./common.ts";

/** Error and missing nodes under `node`. */
function errorCount(node: Node): number {
  if (!node.hasError) return 0;
  let count = node.isError || node.isMissing ? 1 : 0;
  for (const child of node.children) if (child) count += errorCount(child);
  return count;
}

/**
 * The statement the target stands for: the node itself, or the nodes around
 * it that start where it starts and add at most a `;` (Python's expression
 * statement around an assignment, a JS declaration's `;`).
 */
export function statementOf(node: Node, source: string): Node {
  let at = node;
  for (let up = at.parent; up?.parent && up.startIndex === at.startIndex; up = up.parent) {
    if (!/^\s*;?$/.test(source.slice(at.endIndex, up.endIndex))) break;
    at = up;
  }
  return at;
}

/** Where the code goes and the text inserted there, or a refusal. */
function placement(
  run: TemplateRun,
  node: Node,
  position: string,
  code: string,
): { at: number; text: string } {
  const source = run.doc.file.text;
  const eol = source.includes("\r\n") ? "\r\n" : "\n";
  const indent = lineIndent(source, node.startIndex);
  const lines = dedent(code).replace(/\s+$/, "").split("\n").map((line) =>
    line.trim() === "" ? "" : indent + line.replace(/\r$/, "")
  );
  const block = lines.join(eol) + eol;
  if (position === "before") {
    if (!firstOnLine(source, node.startIndex)) {
      refuse(run, `The "${node.type}" at line ${node.startPosition.row + 1} does not start its line`);
    }
    return { at: lineStart(source, node.startIndex), text: block };
  }
  if (!lastOnLine(source, node.endIndex, run.language)) {
    refuse(run, `The "${node.type}" at line ${node.endPosition.row + 1} does not end its line`);
  }
  const at = nextLineStart(source, node.endIndex);
  return at === source.length && !source.endsWith("\n") ? { at, text: eol + block } : { at, text: block };
}

async function insertSibling(run: TemplateRun): Promise<Record<string, unknown>> {
  const position = str(run.params, "position") ?? "after";
  if (position !== "before" && position !== "after") {
    refuse(run, `Parameter "position" must be "before" or "after", got "${position}"`, {
      code: "param-invalid",
    });
  }
  const code = str(run.params, "code")!;
  if (code.trim() === "") refuse(run, 'Parameter "code" is empty', { code: "param-invalid" });
  const source = run.doc.file.text;
  const node = statementOf(run.node, source);
  const { at, text } = placement(run, node, position, code);
  const present = position === "after"
    ? source.slice(at, at + text.length)
    : source.slice(at - text.length, at);
  if (present === text) return alreadyPresent(run, `The code is already ${position} the "${node.type}"`);
  const trial = await run.ctx.store.reparse(run.doc, source.slice(0, at) + text + source.slice(at));
  const first = at + text.search(/\S/);
  let made: Node | null = trial.tree.rootNode.descendantForIndex(first, first);
  while (made?.parent && made.parent.startIndex === first) made = made.parent;
  const sibling = made?.startIndex === first && made.parent?.type === node.parent?.type;
  let errors = errorCount(trial.tree.rootNode) > errorCount(run.doc.tree.rootNode);
  // C/C++: a new declaration written like its neighbours, behind a macro the grammar cannot see through
  const blind = errors ? await problemsWithoutMacros(run.language, trial.file.text) : undefined;
  if (blind) {
    const was = await problemsWithoutMacros(run.language, source) ?? syntaxProblems(run.doc.tree);
    errors = blind.length > was.length;
  }
  if (trial !== run.doc) trial.tree.delete();
  if (errors || !sibling) {
    refuse(
      run,
      errors
        ? `The code does not parse in place ${position} the "${node.type}": a new syntax error`
        : `The code is not a sibling of the "${node.type}" ${position} it: it would join another node`,
      { hint: `give whole ${run.language} statements or members that fit beside the target` },
    );
  }
  await run.ctx.edit(run.doc.file.path, opName(run), [{ start: at, end: at, replacement: text }]);
  return { changed: true, position, line: node.startPosition.row + 1 };
}

/** The template's implementation by name. */
export const INSERT_IMPLS: Record<string, (run: TemplateRun) => Promise<Record<string, unknown>>> = {
  insert_sibling: insertSibling,
};
