/**
 * The AST-node primitives (seed 002, phase 2): six mutators and two
 * read-only operators, each an {@link OperatorFn}. They find their targets
 * with locators against the live tree of the step's overlay, compute text
 * edits, and apply them only through `ctx.edit()`; the executor post-checks
 * and writes. Every code snippet is fitted to its place by `reindent()`.
 *
 * Semantics worth knowing (the operator catalog repeats them):
 * - `replace_node` needs exactly one node. The replacement's first line goes
 *   where the node starts. A Python definition's decorators (a JS
 *   declaration's `export`) stay unless the replacement starts with `@`
 *   (with `export`), in which case the whole decorated definition is replaced.
 * - `insert_before_node` / `insert_after_node` need one anchor (several
 *   matches without `index` are `locator-ambiguous`). With no `separator`,
 *   a list element anchor (argument, parameter, array element, imported
 *   name..., also the only element of its list) gets a comma-separated
 *   insertion in the list's layout (inline or one element per line; a
 *   trailing comma in `code` is dropped); anything else gets the code on its own lines at the anchor's
 *   indentation. Blank lines the code starts with stay above it, those it
 *   ends with below it (a single final line break only ends the line), and
 *   are not added where the file already has them; between code and anchor
 *   go the code's own blank lines on that side, else as many as the file
 *   puts between definitions when anchor or code is a definition (else
 *   none). A `separator` with line breaks sets
 *   the layout: `"\n\n"` = one blank line; one without line breaks (`", "`)
 *   inserts inline, verbatim. Anchoring before a decorated (exported)
 *   definition puts the code above its decorators (`export`).
 * - `delete_node` deletes one node (`all: true`: every match) with its
 *   separator; see `separators.ts`.
 * - `wrap_node` wraps one node, or several consecutive sibling matches as
 *   one block. When the node stands alone on its lines and `before` ends a
 *   line opening a block (`try:`, `{`) or either part has several lines, the
 *   node's lines are indented one unit of the file (`indent_body`: `true`,
 *   the default, one unit; `false` none; a number of spaces; a string) and
 *   `before`/`after` sit at the node's indentation; otherwise
 *   `before + node + after` inline.
 * - `replace_all_matching` replaces every match (outermost of nested ones),
 *   optionally skipping those inside strings or comments; afterwards no
 *   match may remain. When every match is an identifier token and the
 *   replacement is a single word, it is a rename and gets the rename checks
 *   (see `renameHazards`): the replacement must be a valid, non-reserved
 *   identifier (error, nothing changed), and in Python a collision is an
 *   error, shadowing a warning. A replacement that is not a single word
 *   (`self.x`, `f(x)`) replaces identifiers by expressions: no rename checks.
 *
 * @module
 */

import { stringParam } from "./params.ts";
import { skipIfPresent } from "./already_present.ts";
import { error, fail, type Issue, IssueError } from "../base/issue.ts";
import {
  locateRegion,
  locateResult,
  parseLocator,
  resolveLocator,
  resolveOne,
  resolveSome,
} from "../locate/mod.ts";
import type { Document } from "../parse/documents.ts";
import type { LanguageId, Node } from "../parse/mod.ts";
import {
  blanksAbove,
  blanksBelow,
  detectIndentUnit,
  firstOnLine,
  indentWidth,
  lastOnLine,
  leadingBlankLines,
  lineEnd,
  lineIndent,
  lineStart,
  nextLineStart,
  reindent,
  stringRows,
  trailingBlankLines,
} from "./indent.ts";
import { bindingCollisions, checkNewName } from "../analysis/rename_safety.ts";
import {
  type Binding,
  bindingAt,
  resolveInChain,
  resolveName,
  roleOf,
  type Scope,
} from "../analysis/scope.ts";
import type { OperatorFn, StepContext } from "./operator.ts";
import {
  definitionWrapper,
  deletionEdit,
  deletionTarget,
  isListElement,
  type ListContext,
  listContext,
  withWrapper,
} from "./separators.ts";
import { lineAt, type TextEdit } from "./text_edit.ts";

/** Parameters each primitive requires and accepts (for the DSL validator and the plan schema). */
export const PRIMITIVE_PARAMS: Record<string, { required: string[]; optional: string[] }> = {
  replace_node: { required: ["locator", "replacement"], optional: ["file"] },
  insert_before_node: { required: ["locator", "code"], optional: ["separator", "file"] },
  insert_after_node: { required: ["locator", "code"], optional: ["separator", "file"] },
  delete_node: { required: ["locator"], optional: ["all", "file", "target"] },
  wrap_node: { required: ["locator", "before"], optional: ["after", "indent_body", "file"] },
  replace_all_matching: { required: ["locator", "replacement"], optional: ["filter", "file"] },
  locate: { required: ["locator"], optional: ["file"] },
  locate_region: { required: ["locator"], optional: ["file"] },
};

// ---------------------------------------------------------------- helpers

function locatorOf(params: Record<string, unknown>) {
  const key = params.locator === undefined && params.target !== undefined ? "target" : "locator";
  if (params[key] === undefined) {
    fail("param-missing", `Missing parameter "locator"`, { path: ["params", "locator"] });
  }
  return parseLocator(params[key], ["params", key], { requireFile: typeof params.file !== "string" });
}

function options(params: Record<string, unknown>): { defaultFile?: string; path: string[] } {
  const path = ["params", params.locator === undefined && params.target !== undefined ? "target" : "locator"];
  return typeof params.file === "string" ? { defaultFile: params.file, path } : { path };
}

async function one(
  ctx: StepContext,
  params: Record<string, unknown>,
): Promise<{ doc: Document; node: Node }> {
  return await resolveOne(ctx.store, locatorOf(params), options(params));
}

/** The file's layout: what `reindent()` needs besides the anchor's indentation. */
function styleOf(doc: Document): { unit: string; eol: string; language: LanguageId } {
  return { unit: detectIndentUnit(doc.file.text), eol: doc.file.eol, language: doc.file.language };
}

const DEFINITION =
  /^(function_definition|class_definition|decorated_definition|function_declaration|class_declaration|method_definition|method_declaration|constructor_declaration|function_item|impl_item|struct_item|export_statement|generator_function_declaration|abstract_class_declaration|interface_declaration)$/;
const DEFINITION_CODE =
  /^\s*(@|(async\s+)?def\s|class\s|(export\s+)?(async\s+)?function\b|(export\s+)?class\s|fn\s|pub\s)/;

function isDefinition(node: Node): boolean {
  return DEFINITION.test(node.type);
}

/** Blank lines between two consecutive siblings (from `a`'s end row to `b`'s start row). */
function gapBetween(text: string, a: Node, b: Node): number {
  let blank = 0;
  let offset = nextLineStart(text, a.endIndex);
  while (offset < b.startIndex) {
    if (text.slice(offset, lineEnd(text, offset)).trim() === "") blank++;
    const next = nextLineStart(text, offset);
    if (next === offset) break;
    offset = next;
  }
  return blank;
}

/**
 * Blank lines to put around inserted code: none, unless anchor or code is a
 * definition; then what the file puts between the anchor's sibling
 * definitions, else PEP 8's 2 at Python module level and 1 elsewhere.
 */
function defaultGap(doc: Document, anchor: Node, code: string): number {
  if (!isDefinition(anchor) && !DEFINITION_CODE.test(code)) return 0;
  const parent = anchor.parent;
  const siblings = (parent?.namedChildren ?? []).filter((child): child is Node =>
    !!child && child.type !== "comment"
  );
  const counts = new Map<number, number>();
  for (let i = 1; i < siblings.length; i++) {
    if (isDefinition(siblings[i]) && isDefinition(siblings[i - 1])) {
      const gap = gapBetween(doc.file.text, siblings[i - 1], siblings[i]);
      counts.set(gap, (counts.get(gap) ?? 0) + 1);
    }
  }
  if (counts.size) return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0][0];
  return doc.file.language === "python" && parent?.type === "module" ? 2 : 1;
}

function record(doc: Document, start: number, end: number) {
  return {
    file: doc.file.path,
    start_line: lineAt(doc.file.text, start),
    end_line: lineAt(doc.file.text, end),
  };
}

// ---------------------------------------------------------------- replace_node

const replaceNode: OperatorFn = async (params, ctx) => {
  const replacement = stringParam(params, "replacement");
  const { doc, node } = await one(ctx, params);
  const text = doc.file.text;
  const head = leadingBlankLines(replacement).rest;
  let target = node;
  // The replacement brings its own wrapper (`@decorator`, `export`, Go's `type`): it replaces that too.
  const wrapper = definitionWrapper(node);
  if (wrapper?.type === "decorated_definition" && /^\s*@/.test(head)) target = wrapper;
  if (wrapper?.type === "export_statement" && /^\s*export\b/.test(head)) target = wrapper;
  if (wrapper?.type === "type_declaration" && /^\s*type\b/.test(head)) target = wrapper;
  if (node.type === "decorated_definition" && !/^\s*@/.test(head)) {
    target = node.childForFieldName("definition") ?? node;
  }
  const fitted = await reindent(head, {
    ...styleOf(doc),
    indent: lineIndent(text, target.startIndex),
    inlineFirst: true,
  });
  // A whole file keeps a final line break.
  const whole = !target.parent && fitted !== "" ? doc.file.eol : "";
  const edit = { start: target.startIndex, end: target.endIndex, replacement: fitted + whole };
  if (skipIfPresent(ctx, doc, edit)) {
    return { ...record(doc, target.startIndex, target.endIndex), kind: target.type, changed: false };
  }
  await ctx.edit(doc.file.path, "replace_node", [edit], [target.type]);
  return { ...record(doc, target.startIndex, target.endIndex), kind: target.type };
};

// ---------------------------------------------------------------- insertions

async function insertEdit(
  doc: Document,
  anchor: Node,
  code: string,
  where: "before" | "after",
  separator: string | undefined,
): Promise<TextEdit> {
  const text = doc.file.text;
  const style = styleOf(doc);
  const { eol, language } = style;
  const indent = lineIndent(text, anchor.startIndex);
  // Verbatim inline separator.
  if (separator !== undefined && !separator.includes("\n")) {
    const fitted = await reindent(leadingBlankLines(code).rest, { ...style, indent, inlineFirst: true });
    return where === "after"
      ? { start: anchor.endIndex, end: anchor.endIndex, replacement: separator + fitted }
      : { start: anchor.startIndex, end: anchor.startIndex, replacement: fitted + separator };
  }
  if (separator === undefined && isListElement(anchor)) {
    return await listInsertEdit(doc, anchor, code, where, listContext(anchor) ?? {});
  }
  // Blank lines the code starts or ends with stay on that side of it; the side facing the anchor
  // gets the separator's, the code's own, or the file's gap between definitions.
  const { blank: leading, rest: unled } = leadingBlankLines(code);
  const { blank: trailing, rest } = trailingBlankLines(unled);
  const [near, far] = where === "before" ? [trailing, leading] : [leading, trailing];
  const blank = separator !== undefined
    ? separator.split("\n").length - 2
    : near > 0
    ? near
    : defaultGap(doc, anchor, rest);
  if (language === "python" && anchor.parent?.type === "block" && !firstOnLine(text, anchor.startIndex)) {
    fail(
      "anchor-on-header-line",
      `Cannot insert a line next to a statement that shares line ${
        anchor.startPosition.row + 1
      } with its block's header`,
      {
        file: doc.file.path,
        line: anchor.startPosition.row + 1,
        hint: "replace the enclosing statement with replace_node",
      },
    );
  }
  const gap = eol.repeat(Math.max(0, blank));
  const body = await reindent(rest, { ...style, indent });
  if (where === "after") {
    if (lastOnLine(text, anchor.endIndex, language)) {
      const at = nextLineStart(text, anchor.endIndex);
      const needsBreak = at === text.length && !text.endsWith("\n");
      const below = at < text.length ? eol.repeat(Math.max(0, far - blanksBelow(text, at))) : "";
      return {
        start: at,
        end: at,
        replacement: (needsBreak ? eol : "") + gap + body + (needsBreak ? "" : eol) + below,
      };
    }
    return { start: anchor.endIndex, end: anchor.endIndex, replacement: eol + gap + body + eol + indent };
  }
  if (firstOnLine(text, anchor.startIndex)) {
    const at = lineStart(text, anchor.startIndex);
    const above = at > 0 ? eol.repeat(Math.max(0, far - blanksAbove(text, at))) : "";
    return { start: at, end: at, replacement: above + body + eol + gap };
  }
  const inline = await reindent(rest, { ...style, indent, inlineFirst: true });
  return { start: anchor.startIndex, end: anchor.startIndex, replacement: inline + eol + gap + indent };
}

/**
 * The edit that puts `code` as a new element before or after `anchor` in its
 * list (arguments, parameters, elements), with a comma in the list's layout:
 * one element per line when the list is laid out vertically, inline otherwise.
 */
export async function listInsertEdit(
  doc: Document,
  anchor: Node,
  code: string,
  where: "before" | "after",
  list: ListContext,
): Promise<TextEdit> {
  const text = doc.file.text;
  const style = styleOf(doc);
  const indent = lineIndent(text, anchor.startIndex);
  const element = await reindent(leadingBlankLines(code).rest.trimEnd().replace(/,$/, ""), {
    ...style,
    indent,
    inlineFirst: true,
  });
  const neighbour = list.next ?? list.previous;
  // a lone element decides by itself: on a line of its own below the list's opening, the list is vertical
  const apart = neighbour
    ? neighbour.startPosition.row !== anchor.startPosition.row
    : anchor.parent !== null && anchor.parent.startPosition.row !== anchor.startPosition.row &&
      anchor.parent.endPosition.row !== anchor.endPosition.row;
  const vertical = apart && firstOnLine(text, anchor.startIndex);
  const { eol } = style;
  if (where === "before") {
    const replacement = vertical ? `${element},${eol}${indent}` : `${element}, `;
    return { start: anchor.startIndex, end: anchor.startIndex, replacement };
  }
  if (list.commaAfter) {
    const comma = list.commaAfter;
    if (vertical) {
      const at = lastOnLine(text, comma.endIndex, style.language)
        ? lineEnd(text, comma.endIndex)
        : comma.endIndex;
      return { start: at, end: at, replacement: `${eol}${indent}${element},` };
    }
    return { start: comma.endIndex, end: comma.endIndex, replacement: ` ${element},` };
  }
  const replacement = vertical ? `,${eol}${indent}${element}` : `, ${element}`;
  return { start: anchor.endIndex, end: anchor.endIndex, replacement };
}

function insertion(where: "before" | "after"): OperatorFn {
  const op = `insert_${where}_node`;
  return async (params, ctx) => {
    const code = stringParam(params, "code");
    const separator = stringParam(params, "separator", { optional: true });
    const { doc, node } = await one(ctx, params);
    const anchor = withWrapper(node);
    const edit = await insertEdit(doc, anchor, code, where, separator);
    if (skipIfPresent(ctx, doc, edit)) {
      return { ...record(doc, edit.start, edit.start), anchor: anchor.type, changed: false };
    }
    const after = await ctx.edit(doc.file.path, op, [edit]);
    const end = edit.start + edit.replacement.length;
    return { ...record(after, edit.start, end), anchor: anchor.type };
  };
}

// ---------------------------------------------------------------- delete_node

const deleteNode: OperatorFn = async (params, ctx) => {
  const locator = locatorOf(params);
  const opts = options(params);
  if (params.all === true) {
    let { nodes } = await resolveSome(ctx.store, locator, opts);
    const total = nodes.length;
    const kinds: string[] = [];
    for (let round = 0; round < total && nodes.length > 0; round++) {
      const { doc, nodes: current } = await resolveLocator(ctx.store, locator, opts);
      if (current.length === 0) break;
      const target = deletionTarget(current[current.length - 1]);
      kinds.push(target.type);
      await ctx.edit(doc.file.path, "delete_node", [deletionEdit(doc.file.text, target, doc.file.language)]);
      nodes = current.slice(0, -1);
    }
    const { nodes: left } = await resolveLocator(ctx.store, locator, opts);
    if (left.length > 0) {
      fail(
        "postcondition-failed",
        `After deleting ${kinds.length} nodes, ${left.length} still match the locator`,
      );
    }
    return { deleted: kinds.length, kinds };
  }
  const { doc, node } = await resolveOne(ctx.store, locator, opts);
  const target = deletionTarget(node);
  const edit = deletionEdit(doc.file.text, target, doc.file.language);
  await ctx.edit(doc.file.path, "delete_node", [edit]);
  return { deleted: 1, kinds: [target.type], ...record(doc, target.startIndex, target.endIndex) };
};

// ---------------------------------------------------------------- wrap_node

const OPENS_BLOCK = /[:{]\s*$/;
/** Ruby opens and closes blocks with keywords: `begin` ... `end`, `x.each do |i|` ... `end`. */
const RUBY_OPENS_BLOCK =
  /^\s*(begin|if|unless|while|until|case|def|class|module)\b|\b(do|then)(\s*\|[^|]*\|)?\s*$/;
const RUBY_CLOSES_BLOCK = /(^|\n)\s*end\b/;

const wrapNode: OperatorFn = async (params, ctx) => {
  const before = stringParam(params, "before");
  const after = stringParam(params, "after", { optional: true }) ?? "";
  const indentBody = params.indent_body;
  if (indentBody !== undefined && !["number", "string", "boolean"].includes(typeof indentBody)) {
    fail("param-invalid", `Parameter "indent_body" must be true, false, a number of spaces or a string`, {
      path: ["params", "indent_body"],
    });
  }
  const locator = locatorOf(params);
  const opts = options(params);
  const { doc, nodes } = await resolveSome(ctx.store, locator, opts);
  let first = withWrapper(nodes[0]);
  let last = withWrapper(nodes[nodes.length - 1]);
  if (nodes.length > 1 && !consecutiveSiblings(nodes.map(withWrapper))) {
    await resolveOne(ctx.store, locator, opts); // throws locator-ambiguous with candidates
  }
  if (nodes.length === 1) first = last = withWrapper(nodes[0]);
  const text = doc.file.text;
  const style = styleOf(doc);
  const { eol, language } = style;
  const head = before.replace(/\s+$/, "");
  const tail = leadingBlankLines(after).rest.replace(/\s+$/, "");
  const alone = firstOnLine(text, first.startIndex) && lastOnLine(text, last.endIndex, language);
  const ruby = language === "ruby" && (RUBY_OPENS_BLOCK.test(head) || RUBY_CLOSES_BLOCK.test(tail));
  const block = alone &&
    (OPENS_BLOCK.test(head) || head.includes("\n") || tail.includes("\n") || /^\s*}/.test(tail) || ruby);
  const indent = lineIndent(text, first.startIndex);
  if (!block) {
    const start = first.startIndex;
    const end = last.endIndex;
    const replacement = before + text.slice(start, end) + after;
    await ctx.edit(doc.file.path, "wrap_node", [{ start, end, replacement }], [undefined]);
    return { ...record(doc, start, end), mode: "inline" };
  }
  const unit = typeof indentBody === "number"
    ? " ".repeat(indentBody)
    : typeof indentBody === "string"
    ? indentBody
    : indentBody === false
    ? ""
    : style.unit;
  const start = lineStart(text, first.startIndex);
  const end = lineEnd(text, last.endIndex);
  const guarded = stringRows(doc.tree.rootNode, language);
  const firstRow = first.startPosition.row;
  const lines = text.slice(start, end).split("\n").map((line, i) => {
    if (guarded.has(firstRow + i) || line.trim() === "") return line;
    return unit + line;
  });
  const opening = await reindent(head, { ...style, indent });
  const closing = tail ? eol + await reindent(tail, { ...style, indent }) : "";
  const replacement = opening + eol + lines.join("\n") + closing;
  await ctx.edit(doc.file.path, "wrap_node", [{ start, end, replacement }], [undefined]);
  return { ...record(doc, start, end), mode: "block", indent_width: indentWidth(indent) };
};

function consecutiveSiblings(nodes: Node[]): boolean {
  const sorted = [...nodes].sort((a, b) => a.startIndex - b.startIndex);
  for (let i = 1; i < sorted.length; i++) {
    let next = sorted[i - 1].nextNamedSibling;
    while (next && next.type === "comment") next = next.nextNamedSibling;
    if (!next || next.id !== sorted[i].id) return false;
  }
  return true;
}

// ---------------------------------------------------------------- replace_all_matching

const CODE_INSIDE_STRING =
  /^(interpolation|template_substitution|string_interpolation|escape_interpolation)$/;
const STRING_OR_COMMENT = /comment|string|template_string|heredoc|char_literal|rune_literal/;

/** Whether `node` lies in a string literal or comment (not in an interpolation inside one). */
export function inStringOrComment(node: Node): boolean {
  for (let current: Node | null = node; current; current = current.parent) {
    if (CODE_INSIDE_STRING.test(current.type)) return false;
    if (STRING_OR_COMMENT.test(current.type)) return true;
  }
  return false;
}

function outermost(nodes: Node[]): Node[] {
  const sorted = [...nodes].sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
  const out: Node[] = [];
  for (const node of sorted) {
    const last = out[out.length - 1];
    if (last && node.startIndex < last.endIndex) continue;
    out.push(node);
  }
  return out;
}

/** Whether `node` is an identifier token (`identifier`, `property_identifier`, PHP `name`, Ruby `constant`...). */
export function isIdentifierToken(node: Node): boolean {
  if (node.childCount > 0) return false;
  const type = node.type;
  return type.endsWith("identifier") || type === "name" || type === "constant";
}

/** A replacement that can be a name (one word), as opposed to an expression. */
const ONE_WORD = /^[\p{L}\p{M}\p{N}\p{Pc}$]+[?!]?$/u;

function inImportStatement(node: Node): boolean {
  for (let up = node.parent; up; up = up.parent) {
    if (up.type === "import_statement" || up.type === "import_from_statement") return true;
    if (up.type.endsWith("_statement") || up.type === "module") return false;
  }
  return false;
}

/** The Python binding an identifier binds (a definition, target, parameter, import name) or refers to. */
function bindingOfIdentifier(
  doc: Document,
  id: Node,
): { binding?: Binding; unbound?: boolean } {
  const role = roleOf(id);
  if (role === "reference") {
    const resolution = resolveName(doc, id.text, id);
    if (resolution.binding) return { binding: resolution.binding };
    return { unbound: resolution.status !== "bound" };
  }
  if (role === "binding" || (role === "none" && inImportStatement(id))) {
    const found = bindingAt(doc, id);
    if (!found) return {};
    // `nonlocal x` / `global x`: the binding lives further out
    const chain: Scope[] = [];
    for (let scope: Scope | undefined = found.scope; scope; scope = scope.parent) chain.push(scope);
    return { binding: resolveInChain(chain, id.text).binding ?? found.binding };
  }
  return {};
}

/**
 * What goes wrong when the identifier tokens `identifiers` of `doc` are all
 * renamed to `newName` (Python; other languages: no findings). Every
 * distinct binding that one of them binds or refers to is checked with
 * `bindingCollisions` (`analysis/rename_safety.ts`): `rename-collision`
 * errors, `rename-shadows` / `rename-shadowed` warnings. A renamed reference
 * bound nowhere in the file (a builtin, a star import, an undefined name)
 * that would then resolve to a binding of `newName` is a `rename-collision`
 * too. Attributes and keyword-argument names are not checked. The new
 * name's spelling is `checkNewName`'s job, not this one's.
 */
export function renameHazards(doc: Document, identifiers: readonly Node[], newName: string): Issue[] {
  if (doc.file.language !== "python") return [];
  const file = doc.file.path;
  const issues: Issue[] = [];
  const checked = new Set<string>();
  for (const id of identifiers) {
    if (id.type !== "identifier" || id.text === newName) continue;
    const { binding, unbound } = bindingOfIdentifier(doc, id);
    if (unbound) {
      const now = resolveName(doc, newName, id);
      if (now.status === "bound" && now.binding) {
        const line = id.startPosition.row + 1;
        issues.push(error(
          "rename-collision",
          `Cannot rename "${id.text}" to "${newName}": the use at line ${line} would refer to the "${newName}" bound at line ${now.binding.line}`,
          { file, line },
        ));
      }
      continue;
    }
    if (!binding) continue;
    const key = `${binding.name}@${binding.start}`;
    if (checked.has(key)) continue;
    checked.add(key);
    const node = doc.tree.rootNode.descendantForIndex(binding.start, binding.end);
    if (!node) continue;
    issues.push(
      ...bindingCollisions(doc, node, newName).filter((issue) => issue.code !== "rename-not-binding"),
    );
  }
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.code}:${issue.line}:${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The rename checks of `replace_all_matching` when every target is an
 * identifier token and the replacement one word: throws on an invalid or
 * reserved name and on collisions, returns the warnings.
 */
function renameChecks(doc: Document, targets: readonly Node[], replacement: string): Issue[] {
  const name = replacement.trim();
  if (!ONE_WORD.test(name) || !targets.every(isIdentifierToken)) return [];
  const file = doc.file.path;
  const path = ["params", "replacement"];
  const invalid = checkNewName(name, doc.file.language);
  if (invalid.length > 0) {
    throw new IssueError(invalid.map((issue) => ({
      ...issue,
      file,
      path,
      hint:
        'every match is an identifier, so the replacement is read as a new name; to replace the names by an expression, parenthesize it ("(None)")',
    })));
  }
  const hazards = renameHazards(doc, targets, name);
  const errors = hazards.filter((issue) => issue.severity === "error");
  if (errors.length > 0) throw new IssueError(errors.map((issue) => ({ ...issue, path })));
  return hazards.map((issue) => ({ ...issue, path }));
}

const replaceAllMatching: OperatorFn = async (params, ctx) => {
  const replacement = stringParam(params, "replacement");
  const filter = stringParam(params, "filter", { optional: true });
  if (filter !== undefined && filter !== "not_in_string_or_comment") {
    fail("param-invalid", `Unknown filter "${filter}": the only filter is "not_in_string_or_comment"`, {
      path: ["params", "filter"],
    });
  }
  const locator = locatorOf(params);
  const opts = options(params);
  const keep = (node: Node) => filter === undefined || !inStringOrComment(node);
  const { doc, nodes } = await resolveSome(ctx.store, locator, opts);
  const targets = outermost(nodes.filter(keep));
  if (targets.length === 0) {
    fail("locator-not-found", `All ${nodes.length} matches of the locator are inside strings or comments`, {
      file: doc.file.path,
      hint: "drop the filter to replace them too",
    });
  }
  const warnings = renameChecks(doc, targets, replacement);
  const style = styleOf(doc);
  const edits: TextEdit[] = [];
  for (const node of targets.reverse()) {
    const fitted = await reindent(replacement, {
      ...style,
      indent: lineIndent(doc.file.text, node.startIndex),
      inlineFirst: true,
    });
    edits.push({ start: node.startIndex, end: node.endIndex, replacement: fitted });
  }
  await ctx.edit(doc.file.path, "replace_all_matching", edits, edits.map((_, i) => targets[i].type));
  const { nodes: left } = await resolveLocator(ctx.store, locator, opts);
  const remaining = left.filter(keep);
  if (remaining.length > 0) {
    throw new IssueError(error(
      "postcondition-failed",
      `After replacing ${targets.length} matches, ${remaining.length} still match the locator`,
      {
        file: doc.file.path,
        line: remaining[0].startPosition.row + 1,
        hint: "the replacement itself matches the locator; use replace_node per match instead",
      },
    ));
  }
  for (const issue of warnings) ctx.warnings.push({ ...issue, step: ctx.step });
  return { file: doc.file.path, replaced: targets.length };
};

// ---------------------------------------------------------------- read-only

const locate: OperatorFn = async (params, ctx) => {
  const { doc, nodes } = await resolveLocator(ctx.store, locatorOf(params), options(params));
  return locateResult(doc, nodes);
};

const locateRegionOp: OperatorFn = async (params, ctx) => {
  const { doc, node } = await one(ctx, params);
  return locateRegion(doc, node);
};

/** The eight primitives, by operator name. */
export const PRIMITIVES: Record<string, OperatorFn> = {
  replace_node: replaceNode,
  insert_before_node: insertion("before"),
  insert_after_node: insertion("after"),
  delete_node: deleteNode,
  wrap_node: wrapNode,
  replace_all_matching: replaceAllMatching,
  locate,
  locate_region: locateRegionOp,
};
