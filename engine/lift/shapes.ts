/**
 * Step selection: for one pair of matching nodes (a node of the current
 * text and the node at its place in the target text), the steps that could
 * reproduce the change, most specific first. Each candidate is a list of
 * step builders; lift replays it and keeps the first one whose result is
 * the target, byte for byte (see `lift_file.ts`).
 *
 * | shape of the change                                   | candidate (tier)                         |
 * | ----------------------------------------------------- | ---------------------------------------- |
 * | the condition of an if / elif / while                 | `modify_condition` (2)                   |
 * | the value of a return                                 | `change_return_value` (2)                |
 * | any other expression                                  | `replace_expression` (2)                 |
 * | the one expression changed under a node, of another   | `replace_expression` (2) of it           |
 * |   type (a base `a.B` to `C`, which the tree diff      |                                          |
 * |   leaves to the parent)                               |                                          |
 * | an if statement gained an elif / else                 | `add_conditional_branch` (2)             |
 * | a statement rewritten                                 | fragment `replace` (3)                   |
 * | a parameter added / removed                           | `add_parameter` (2) / `delete_node` (1)  |
 * | a decorator added / dropped                           | `add_decorator` (2) / `delete_node` (1)  |
 * | names appended to a `from ... import`                 | `add_import_name` (2)                    |
 * | names dropped from / added inside a from-import list  | `delete_node` (1), `add_import_name` (2) |
 * |   (the list put in parentheses as well)               |   (after `parenthesize_import`)          |
 * | a `from ... import` re-laid in parentheses            | `parenthesize_import` (2)                |
 * | a base class added first or last                      | `add_base_class` (2)                     |
 * | bases dropped (`class A(object):` to `class A:`)      | `delete_node` (1) of each, or of the list|
 * | a signature's parameters / return type rewritten      | `change_signature` (2) (+ body)          |
 * | a function's body changed, its header not             | `replace_function_body` (2)              |
 * | statements inserted at the top of a body, or before   | `guard_clause` (2) for `if ...:` guards  |
 * |   one                                                 |                                          |
 * | methods / attributes appended to a class              | `add_method`, `add_class_attribute` (2)  |
 * | statements inserted                                   | fragments `insert_before/after` (3); a   |
 * |                                                       |   new function: fragment + body (3, 2);  |
 * |                                                       |   a new class whose methods fragments    |
 * |                                                       |   cannot say: its skeleton, then each    |
 * |                                                       |   method's body (3, 2)                   |
 * | statements deleted                                    | `delete_node` (1)                        |
 * | outside Python: a comment rewritten                   | `replace_comment` (2), `comment_shapes`  |
 * | outside Python: new children beside unchanged ones    | `insert_sibling` (2), `insert_shapes`    |
 * | a statement wrapped in try / with                     | `wrap_try_except`, `wrap_context_manager`|
 * | a run of statements replaced by another (late resort) | fragments, `delete_node` (3, 1)          |
 * | a comment (or a run of comment lines) reworded        | `rewrite_comment` (2)                    |
 * | only whitespace: lines joined or split, spacing,      | `relayout_node` (1) of each node whose   |
 * |   continuation indents (formatters); also what is     |   lines changed (`layout.ts`), blank     |
 * |   left after any candidate's steps                    |   lines `set_blank_lines` (1)            |
 * | a comment ending a line of code added / changed       | `set_line_comment` (2), `line_comments`  |
 * | own-line comments added / changed / deleted beside    | `add_comment`, `rewrite_comment` (2),    |
 * |   code (statements aligned without their comments)    |   `delete_node` (1), `own_comments`      |
 * | statements inserted that no fragment says (a `del`),  | `insert_sibling` (2), `lastCandidates`   |
 * |   tried after everything else formal                  |                                          |
 * | anything (last resort)                                | `replace_node` (0), `replace_code` (0)   |
 *
 * @module
 */

import { alignNodes } from "../analysis/tree_diff.ts";
import { TABLES } from "../edit/templates/mod.ts";
import type { LanguageTable } from "../edit/templates/lang/table.ts";
import { firstOnLine, lineStart, nextLineStart } from "../edit/indent.ts";
import { dedent } from "../edit/params.ts";
import type { Document, DocumentStore } from "../parse/documents.ts";
import type { Node } from "../parse/mod.ts";
import { commentCandidates as commentTextCandidates } from "./comment_shapes.ts";
import { fragmentOf, relativeProperties } from "./fragment_of.ts";
import { importListCandidates } from "./import_shapes.ts";
import { insertCandidates } from "./insert_shapes.ts";
import { locatorFor } from "./locators.ts";
import { replacementCandidates } from "./replace_shapes.ts";
import type { StepBuilder } from "./replay.ts";

export type { Candidate, Pair } from "./shape_types.ts";
import type { Candidate, Pair } from "./shape_types.ts";

/** What the shapes need to know about the change's file. */
export interface ShapeContext {
  /** The current document (the text before this change). */
  doc: Document;
}

const BODY_TYPES = new Set(["block", "module"]);

/** Statement containers of a table's language. */
function bodyTypes(table: LanguageTable): ReadonlySet<string> {
  return table.blockTypes;
}

/** Member lists of class-like bodies (where a deleted member is a `delete_node`). */
const MEMBER_LISTS = new Set(["class_body", "declaration_list", "field_declaration_list", "enum_body"]);

const named = (node: Node): Node[] => node.namedChildren.filter((child): child is Node => !!child);

/** The node of the scratch state's document at `node`'s place (same span and type), re-found by span. */
function refind(
  doc: Document,
  node: { startIndex: number; endIndex: number; type: string },
): Node | undefined {
  let candidate: Node | null = doc.tree.rootNode.descendantForIndex(
    node.startIndex,
    Math.max(node.startIndex, node.endIndex - 1),
  );
  while (candidate) {
    if (
      candidate.startIndex === node.startIndex && candidate.endIndex === node.endIndex &&
      candidate.type === node.type
    ) {
      return candidate;
    }
    if (candidate.startIndex < node.startIndex || candidate.endIndex > node.endIndex) return undefined;
    candidate = candidate.parent;
  }
  return undefined;
}

/** A builder for a step whose target is `node` (re-found in the scratch state by its span). */
function at(
  file: string,
  node: Node,
  make: (target: Record<string, unknown>, found: Node) => Record<string, unknown> | undefined,
): StepBuilder {
  const span = { startIndex: node.startIndex, endIndex: node.endIndex, type: node.type };
  return async (state: DocumentStore) => {
    const doc = await state.get(file);
    const found = refind(doc, span);
    if (!found) return undefined;
    const target = await locatorFor(state, doc, found);
    return target ? make(target, found) : undefined;
  };
}

/**
 * A builder for a step whose target is `node` after earlier steps of its
 * candidate changed only text before it (statements inserted before it, one
 * after another): re-found by its span's distance from the end of its tree's root,
 * which those steps leave as it was.
 */
function atFromEnd(
  file: string,
  node: Node,
  make: (target: Record<string, unknown>) => Record<string, unknown>,
): StepBuilder {
  // The root's end, not the text's length: a module may start after a leading newline and end before it.
  const end = node.tree.rootNode.endIndex;
  const [fromStart, fromEnd, type] = [end - node.startIndex, end - node.endIndex, node.type];
  return async (state: DocumentStore) => {
    const doc = await state.get(file);
    const now = doc.tree.rootNode.endIndex;
    const found = refind(doc, { startIndex: now - fromStart, endIndex: now - fromEnd, type });
    const target = found ? await locatorFor(state, doc, found) : undefined;
    return target ? make(target) : undefined;
  };
}

/**
 * A builder for a step whose target is the node of `node`'s type that starts
 * where `node` starts: for the later steps of a candidate, after earlier
 * ones changed the node's length.
 */
function atStart(
  file: string,
  node: Node,
  make: (target: Record<string, unknown>) => Record<string, unknown>,
): StepBuilder {
  const { startIndex, type } = node;
  return async (state: DocumentStore) => {
    const doc = await state.get(file);
    let found: Node | null = doc.tree.rootNode.descendantForIndex(startIndex, startIndex);
    while (found && !(found.type === type && found.startIndex === startIndex)) found = found.parent;
    const target = found ? await locatorFor(state, doc, found) : undefined;
    return target ? make(target) : undefined;
  };
}

/** A node's lines as written (from the start of its first line), for code parameters. */
function linesOf(node: Node): string {
  const text = node.tree.rootNode.text;
  return text.slice(lineStart(text, node.startIndex), node.endIndex);
}

function template(name: string, params: Record<string, unknown>, target: Record<string, unknown>) {
  return { template: name, params: { target, ...params } };
}

/** A one-step candidate: template `name` with `params`, targeting `node`. */
function templateAt(file: string, node: Node, name: string, params: Record<string, unknown>): Candidate {
  return { tier: 2, kind: name, builders: [at(file, node, (target) => template(name, params, target))] };
}

function isDocstring(node: Node | undefined): boolean {
  return !!node && node.type === "expression_statement" && named(node).length === 1 &&
    /^(string|concatenated_string)$/.test(named(node)[0].type);
}

// ---------------------------------------------------------------- expressions

function expressionCandidates(file: string, pair: Pair, table: LanguageTable): Candidate[] {
  const { before, after } = pair;
  if (!table.isExpression(before) || bodyTypes(table).has(before.parent?.type ?? "")) return [];
  const out: Candidate[] = [];
  const parent = before.parent;
  if (parent && table.conditionalTypes.has(parent.type) && table.condition(parent)?.id === before.id) {
    out.push(templateAt(file, parent, "modify_condition", { condition: after.text }));
  }
  if (parent && table.returnTypes.has(parent.type) && table.returnValue(parent)?.id === before.id) {
    out.push(templateAt(file, parent, "change_return_value", { value: after.text }));
  }
  out.push(templateAt(file, before, "replace_expression", { expression: after.text }));
  return out;
}

/**
 * The deepest expression that is all that changed under `pair`: descending
 * while the two nodes have the same type and the same named children but one,
 * with equal text around it. The tree diff pairs only nodes of one type, so a
 * child that changed type (`unittest.TestCase` to `SimpleTestCase`, a name to
 * a call) leaves its parent (a base list, an argument list, a subscript) as
 * the changed node; `replace_expression` of that child is the step.
 */
function soleExpressionChange(pair: Pair, table: LanguageTable): Pair | undefined {
  let { before: left, after: right } = pair;
  let found: Pair | undefined;
  // a body's statements are paired by the tree diff itself (and a module's text is the whole file)
  while (left.type === right.type && !bodyTypes(table).has(left.type)) {
    const a = named(left);
    const b = named(right);
    if (a.length !== b.length) break;
    const changed = a.flatMap((node, k) => node.text === b[k].text ? [] : [k]);
    if (changed.length !== 1) break;
    const [x, y] = [a[changed[0]], b[changed[0]]];
    const head = (outer: Node, inner: Node) => outer.text.slice(0, inner.startIndex - outer.startIndex);
    const tail = (outer: Node, inner: Node) => outer.text.slice(inner.endIndex - outer.startIndex);
    if (head(left, x) !== head(right, y) || tail(left, x) !== tail(right, y)) break;
    [left, right] = [x, y];
    // (a block is an expression in some languages, Rust's: a changed body is the body shapes')
    if (
      table.isExpression(left) && !table.blockTypes.has(left.type) &&
      !bodyTypes(table).has(left.parent?.type ?? "")
    ) {
      found = { before: left, after: right };
    }
  }
  return found;
}

/** `replace_expression` of the one expression under the pair that changed type (see {@link soleExpressionChange}). */
function childExpressionCandidates(file: string, pair: Pair, table: LanguageTable): Candidate[] {
  const sole = soleExpressionChange(pair, table);
  if (!sole || sole.before.type === sole.after.type) return [];
  return [templateAt(file, sole.before, "replace_expression", { expression: sole.after.text })];
}

/** A conditional whose condition, or a return whose value, is all that changed (the slot's type may differ). */
function slotCandidates(file: string, pair: Pair, table: LanguageTable): Candidate[] {
  const { before, after } = pair;
  const only = (left: Node | undefined, right: Node | undefined) =>
    !!right && (left
      ? before.text.slice(0, left.startIndex - before.startIndex) + right.text +
          before.text.slice(left.endIndex - before.startIndex) === after.text
      : false);
  if (table.conditionalTypes.has(before.type)) {
    const right = table.condition(after);
    if (only(table.condition(before), right)) {
      return [templateAt(file, before, "modify_condition", { condition: right!.text })];
    }
  }
  if (table.returnTypes.has(before.type)) {
    const right = table.returnValue(after);
    if (only(table.returnValue(before), right)) {
      return [templateAt(file, before, "change_return_value", { value: right!.text })];
    }
  }
  return [];
}

// ---------------------------------------------------------------- statements

function statementCandidates(file: string, pair: Pair, python: boolean): Candidate[] {
  const { before, after } = pair;
  if (!BODY_TYPES.has(before.parent?.type ?? "")) return [];
  const out: Candidate[] = [];
  if (before.type === "if_statement") out.push(...branchCandidates(file, pair));
  out.push(...importNameCandidates(file, pair));
  out.push(...importListCandidates(pair, {
    at: (node, make) => at(file, node, make),
    atStart: (node, make) => atStart(file, node, make),
  }));
  out.push(...importLayoutCandidates(file, pair));
  const fragment = python ? fragmentOf(after) : undefined;
  if (fragment) {
    out.push({
      tier: 3,
      kind: "fragment",
      builders: [at(file, before, (target) => ({ fragment, action: "replace", target }))],
    });
  }
  return out;
}

/** A base class added first or last to a class's bases: `add_base_class`. */
function baseCandidates(file: string, pair: Pair): Candidate[] {
  const { before, after } = pair;
  const cls = before.type === "argument_list" ? before.parent : before;
  if (cls?.type !== "class_definition") return [];
  if (before.type === "argument_list" && cls.childForFieldName("superclasses")?.id !== before.id) return [];
  const bases = (node: Node | null) => node ? named(node).filter((c) => c.type !== "comment") : [];
  const left = bases(before.type === "argument_list" ? before : before.childForFieldName("superclasses"));
  const right = bases(after.type === "argument_list" ? after : after.childForFieldName("superclasses"));
  if (right.length < left.length) return baseRemovalCandidates(file, pair, left, right);
  if (right.length !== left.length + 1) return [];
  const texts = (list: Node[]) => list.map((n) => n.text).join("\n");
  const firstAdded = texts(right.slice(1)) === texts(left);
  const lastAdded = texts(right.slice(0, -1)) === texts(left);
  if (!firstAdded && !lastAdded) return [];
  const base = firstAdded ? right[0] : right.at(-1)!;
  if (base.type === "keyword_argument") return [];
  return [
    templateAt(file, cls, "add_base_class", {
      base: base.text,
      ...(firstAdded && left.length ? { first: true } : {}),
    }),
  ];
}

/**
 * Bases dropped from a class's list, the others kept as written: `delete_node`
 * of each (a list that loses all of them, `class A(object):` to `class A:`,
 * is deleted with its parentheses).
 */
function baseRemovalCandidates(file: string, pair: Pair, left: Node[], right: Node[]): Candidate[] {
  const cls = pair.before.type === "argument_list" ? pair.before.parent! : pair.before;
  const list = cls.childForFieldName("superclasses");
  const newCls = pair.after.type === "argument_list" ? pair.after.parent : pair.after;
  if (!list || !newCls) return [];
  const header = (node: Node) =>
    node.text.slice(0, (node.childForFieldName("body")?.startIndex ?? node.endIndex) - node.startIndex);
  const bodyText = (node: Node) => node.text.slice(header(node).length);
  if (bodyText(cls) !== bodyText(newCls)) return [];
  const deleted = right.length === 0 && !newCls.childForFieldName("superclasses") ? [list] : (() => {
    const alignment = alignNodes(left, right);
    return alignment.inserted.length || alignment.changed.length ? [] : alignment.deleted.map((i) => left[i]);
  })();
  if (deleted.length === 0) return [];
  return [{
    tier: 1,
    kind: "delete_node",
    builders: deleted.slice().reverse().map((node) =>
      at(file, node, (target) => ({ op: "delete_node", params: { target } }))
    ),
  }];
}

/**
 * Names appended to a `from ... import` (or `import a, b`) list: `add_import_name` for each, in
 * order, after the list was put in parentheses if the target has them and the
 * current text not (`parenthesize_import`, one name per line when the target
 * starts its names on the line after `(`). A name the target writes on a line
 * of its own is added with `own_line` (the vertical layout of formatters).
 */
function importNameCandidates(file: string, pair: Pair): Candidate[] {
  const { before, after } = pair;
  if (!/^(import_from_statement|import_statement)$/.test(before.type) || after.type !== before.type) {
    return [];
  }
  const names = (node: Node) => node.childrenForFieldName("name").filter((c): c is Node => !!c);
  const left = names(before);
  const right = names(after);
  if (left.length === 0 || right.length <= left.length) return [];
  if (left.some((node, k) => node.text !== right[k].text)) return [];
  const added = right.slice(left.length).map((node) => ({
    ...(node.type === "aliased_import"
      ? { name: node.childForFieldName("name")?.text, alias: node.childForFieldName("alias")?.text }
      : { name: node.text }),
    ...(firstOnLine(node.tree.rootNode.text, node.startIndex) ? { own_line: true } : {}),
  }));
  if (added.some((entry) => !entry.name || entry.name.includes("."))) return [];
  // A trailing comma the target no longer ends with became the separator before the first new name.
  const trailing = (list: Node[]) => list.at(-1)?.nextSibling?.type === ",";
  if (trailing(left) && !trailing(right)) Object.assign(added[0], { trailing_comma: false });
  const parens = (node: Node) => node.children.find((child) => child?.type === "(");
  const open = parens(after);
  const layout: StepBuilder[] = [];
  if (!parens(before) && open) {
    const vertical = after.text.slice(
      open.endIndex - after.startIndex,
      right[0].startIndex - after.startIndex,
    )
      .includes("\n");
    layout.push(
      atStart(
        file,
        before,
        (target) => template("parenthesize_import", vertical ? { one_per_line: true } : {}, target),
      ),
    );
  }
  return [{
    tier: 2,
    kind: "add_import_name",
    // Each name lengthens the statement: the later steps find it by where it starts.
    builders: [
      ...layout,
      ...added.map((params) =>
        atStart(file, before, (target) => template("add_import_name", params, target))
      ),
    ],
  }];
}

/** The same names of a `from ... import` put in parentheses: `parenthesize_import`. */
function importLayoutCandidates(file: string, pair: Pair): Candidate[] {
  const { before, after } = pair;
  if (before.type !== "import_from_statement" || after.type !== "import_from_statement") return [];
  const parenthesized = (node: Node) => node.children.some((child) => child?.type === "(");
  if (parenthesized(before) || !parenthesized(after)) return [];
  const names = (node: Node) => node.childrenForFieldName("name").map((child) => child?.text).join("\n");
  if (names(before) !== names(after)) return [];
  return [templateAt(file, before, "parenthesize_import", {})];
}

function branchCandidates(file: string, pair: Pair): Candidate[] {
  const left = pair.before.childrenForFieldName("alternative").filter((c): c is Node => !!c);
  const right = pair.after.childrenForFieldName("alternative").filter((c): c is Node => !!c);
  if (right.length !== left.length + 1) return [];
  const added = right.at(-1)!.type === "else_clause"
    ? right.at(-1)!
    : right.find((c, i) => c.text !== left[i]?.text);
  if (!added) return [];
  const body = added.childForFieldName("consequence") ?? added.childForFieldName("body");
  if (!body) return [];
  const condition = added.type === "elif_clause" ? added.childForFieldName("condition")?.text : undefined;
  return [templateAt(file, pair.before, "add_conditional_branch", {
    body: dedent(linesOf(body)),
    ...(condition !== undefined ? { condition } : {}),
  })];
}

// ---------------------------------------------------------------- functions

function parameterName(node: Node): string | undefined {
  if (node.type === "identifier") return node.text;
  const name = node.childForFieldName("name") ?? named(node)[0];
  return name?.type === "identifier" ? name.text : undefined;
}

function parameterCandidates(file: string, pair: Pair, fn: Node, table: LanguageTable): Candidate[] {
  const left = table.parameterList(pair.before);
  const right = table.parameterList(pair.after);
  if (!left || !right) return [];
  const a = named(left);
  const b = named(right);
  const alignment = alignNodes(a, b);
  const out: Candidate[] = [];
  if (alignment.changed.length === 0 && alignment.deleted.length === 0 && alignment.inserted.length === 1) {
    const j = alignment.inserted[0];
    const param = b[j];
    const name = parameterName(param);
    if (!name) return [];
    const value = param.childForFieldName("value")?.text;
    const annotation = param.childForFieldName("type")?.text;
    const previous = b[j - 1];
    const prevName = previous ? parameterName(previous) : undefined;
    const positions = [
      ...(prevName ? [`after:${prevName}`] : []),
      ...(j === 0 ? ["start"] : []),
      "end",
    ];
    const afterStar = b.slice(0, j).some((p) =>
      p.type === "keyword_separator" || p.type === "list_splat_pattern"
    );
    for (const position of positions) {
      const params: Record<string, unknown> = {
        name,
        ...(value !== undefined ? { default: value } : {}),
        ...(annotation !== undefined ? { annotation } : {}),
        position,
        ...(afterStar ? { keyword_only: true } : {}),
      };
      out.push(templateAt(file, fn, "add_parameter", params));
    }
  }
  if (alignment.changed.length === 0 && alignment.inserted.length === 0 && alignment.deleted.length > 0) {
    out.push({
      tier: 1,
      kind: "delete_node",
      builders: alignment.deleted.slice().reverse().map((i) =>
        at(file, a[i], (target) => ({ op: "delete_node", params: { target } }))
      ),
    });
  }
  return out;
}

function functionCandidates(file: string, pair: Pair, table: LanguageTable): Candidate[] {
  const { before, after } = pair;
  if (!table.functionTypes.has(before.type)) return [];
  const out: Candidate[] = [];
  const leftBody = before.childForFieldName("body");
  const rightBody = after.childForFieldName("body");
  if (!leftBody || !rightBody) return out;
  // The header ends at the colon (or brace) before the body: comments between them belong to the body.
  const bodyStart = (fn: Node, body: Node) => {
    const colon = fn.children.filter((c): c is Node => !!c && c.type === ":" && c.endIndex <= body.startIndex)
      .at(-1);
    const leading = colon &&
      fn.children.find((c) =>
        c?.type === "comment" && c.startIndex > colon.endIndex && c.startIndex < body.startIndex
      );
    return leading && leading.startPosition.row > colon.endPosition.row ? leading : body;
  };
  const headerOf = (fn: Node, body: Node) => fn.text.slice(0, bodyStart(fn, body).startIndex - fn.startIndex);
  const sameHeader = headerOf(before, leftBody) === headerOf(after, rightBody);
  if (!sameHeader && leftBody.text === rightBody.text) {
    out.push(...parameterCandidates(file, pair, before, table));
  }
  const bodyText = (fn: Node, body: Node) => fn.text.slice(bodyStart(fn, body).startIndex - fn.startIndex);
  if (!sameHeader) out.push(...signatureCandidates(file, pair, table, headerOf, bodyText));
  if (sameHeader && bodyText(before, leftBody) !== bodyText(after, rightBody)) {
    const leftStatements = named(leftBody);
    const rightStatements = named(rightBody);
    const keep = isDocstring(leftStatements[0]) && isDocstring(rightStatements[0]) &&
      leftStatements[0].text === rightStatements[0].text && rightStatements.length > 1;
    const variants = keep ? [{ body: linesOfRange(rightStatements[1], rightBody), params: {} }] : [];
    variants.push({
      body: linesOfRange(bodyStart(after, rightBody), rightBody),
      params: { keep_docstring: false },
    });
    if (table.bracedBodies) {
      // Braces: the body is what is between them (the template lays the braces out).
      if (!table.languages.includes("javascript")) variants.length = 0;
      const inner = bracedInner(rightBody);
      if (inner !== undefined) variants.push({ body: dedent(inner), params: {} });
    }
    for (const variant of variants) {
      out.push(templateAt(file, before, "replace_function_body", { body: variant.body, ...variant.params }));
    }
  }
  return out;
}

/**
 * A header that differs only in its parameter list and return annotation:
 * `change_signature`, then `replace_function_body` when the body changed too.
 */
function signatureCandidates(
  file: string,
  pair: Pair,
  table: LanguageTable,
  headerOf: (fn: Node, body: Node) => string,
  bodyText: (fn: Node, body: Node) => string,
): Candidate[] {
  const { before, after } = pair;
  const left = table.parameterList(before);
  const right = table.parameterList(after);
  const leftBody = before.childForFieldName("body");
  const rightBody = after.childForFieldName("body");
  if (!left || !right || !leftBody || !rightBody) return [];
  const leftReturn = before.childForFieldName("return_type");
  const rightReturn = after.childForFieldName("return_type");
  if (leftReturn && !rightReturn) return [];
  // The header with the new list and annotation spliced in must be the new header.
  const header = headerOf(before, leftBody);
  const offset = (node: Node) => node.startIndex - before.startIndex;
  let spliced = header;
  if (leftReturn && rightReturn) {
    spliced = spliced.slice(0, offset(leftReturn)) + rightReturn.text +
      spliced.slice(offset(leftReturn) + leftReturn.text.length);
  } else if (rightReturn) {
    const end = offset(left) + left.text.length;
    spliced = spliced.slice(0, end) + ` -> ${rightReturn.text}` + spliced.slice(end);
  }
  spliced = spliced.slice(0, offset(left)) + right.text + spliced.slice(offset(left) + left.text.length);
  if (spliced !== headerOf(after, rightBody)) return [];
  const params: Record<string, unknown> = {
    parameters: right.text.slice(1, -1),
    ...(rightReturn && rightReturn.text !== leftReturn?.text ? { return_type: rightReturn.text } : {}),
  };
  const builders: StepBuilder[] = [
    atStart(file, before, (target) => template("change_signature", params, target)),
  ];
  if (bodyText(before, leftBody) !== bodyText(after, rightBody)) {
    const body = bodyTextOf(after, rightBody, bodyText);
    builders.push(
      atStart(
        file,
        before,
        (target) => template("replace_function_body", { body, keep_docstring: false }, target),
      ),
    );
  }
  return [{ tier: 2, kind: "change_signature", builders }];
}

/** The new body from its first line (leading comments included), for `replace_function_body`. */
function bodyTextOf(fn: Node, body: Node, bodyText: (fn: Node, body: Node) => string): string {
  const text = fn.tree.rootNode.text;
  const from = fn.endIndex - bodyText(fn, body).length;
  return text.slice(lineStart(text, from), body.endIndex);
}

/** What is between a block's braces, without the line breaks next to them (undefined: no braces). */
function bracedInner(block: Node): string | undefined {
  if (!block.text.startsWith("{") || !block.text.endsWith("}")) return undefined;
  return block.text.slice(1, -1).replace(/^[ \t]*\r?\n/, "").replace(/\r?\n[ \t]*$/, "");
}

/** The lines from `first`'s line to the end of `container`. */
function linesOfRange(first: Node, container: Node): string {
  const text = container.tree.rootNode.text;
  return text.slice(lineStart(text, first.startIndex), container.endIndex);
}

function decoratorCandidates(file: string, pair: Pair): Candidate[] {
  const { before, after } = pair;
  if (before.type !== "decorated_definition") return [];
  const left = named(before).filter((c) => c.type === "decorator");
  const right = named(after).filter((c) => c.type === "decorator");
  const definition = before.childForFieldName("definition");
  if (!definition || definition.text !== after.childForFieldName("definition")?.text) return [];
  const alignment = alignNodes(left, right);
  if (right.length < left.length && !alignment.inserted.length && !alignment.changed.length) {
    return [decoratorDeletion(file, alignment.deleted.map((i) => left[i]))];
  }
  if (right.length !== left.length + 1) return [];
  if (alignment.inserted.length !== 1 || alignment.changed.length || alignment.deleted.length) return [];
  const j = alignment.inserted[0];
  const decorator = right[j].text.replace(/^@/, "");
  const innermost = j === right.length - 1;
  if (!innermost && j !== 0) return [];
  return [
    templateAt(file, definition, "add_decorator", { decorator, ...(innermost ? { innermost: true } : {}) }),
  ];
}

// ---------------------------------------------------------------- bodies: inserted / deleted statements

function bodyCandidates(file: string, pair: Pair, table: LanguageTable, python: boolean): Candidate[] {
  const { before, after } = pair;
  if (!bodyTypes(table).has(before.type) && !MEMBER_LISTS.has(before.type)) return [];
  return bodyChangeCandidates(file, pair, named(before), named(after), table, python);
}

/**
 * Statements inserted or deleted with comments beside them: the statements
 * alone (the body's children aligned without comments), their comments
 * written by the comment steps that finish a candidate (`own_comments.ts`,
 * `line_comments.ts`). Late: tried after the finer candidates and splits.
 */
function commentFreeBodyCandidates(file: string, pair: Pair, table: LanguageTable): Candidate[] {
  const { before, after } = pair;
  if (!BODY_TYPES.has(before.type) && !MEMBER_LISTS.has(before.type)) return [];
  const code = (node: Node) => node.type !== "comment";
  if (named(before).every(code) && named(after).every(code)) return [];
  const left = named(before).filter(code);
  const right = named(after).filter(code);
  const { inserted, deleted, changed } = alignNodes(left, right);
  if (changed.length > 0 || inserted.length + deleted.length === 0) return [];
  return bodyChangeCandidates(file, pair, left, right, table, true);
}

/** `bodyCandidates` for the children `left` becoming `right` (all of them, or the statements alone). */
function bodyChangeCandidates(
  file: string,
  pair: Pair,
  left: Node[],
  right: Node[],
  table: LanguageTable,
  python: boolean,
): Candidate[] {
  const alignment = alignNodes(left, right);
  const out: Candidate[] = [];
  const { inserted, deleted, changed } = alignment;
  if (changed.length === 0 && deleted.length === 0 && inserted.length > 0) {
    out.push(...insertionCandidates(file, pair, left, right, inserted, table, python));
  }
  if (changed.length === 0 && inserted.length === 0 && deleted.length > 0) {
    out.push({
      tier: 1,
      kind: "delete_node",
      builders: deleted.slice().reverse().map((i) =>
        at(file, left[i], (target) => ({ op: "delete_node", params: { target } }))
      ),
    });
  }
  if (deleted.length === 1 && inserted.length === 1 && changed.length === 0) {
    out.push(...wrapCandidates(file, left[deleted[0]], right[inserted[0]]));
    out.push(...decoratedCandidates(file, left[deleted[0]], right[inserted[0]]));
  }
  if (
    deleted.length === 1 && changed.length === 1 && inserted.length === 0 && changed[0][0] === deleted[0] + 1
  ) {
    // A statement folded into the next one (e.g. moved inside a new try): not expressible here.
  }
  return out;
}

function insertionCandidates(
  file: string,
  pair: Pair,
  left: Node[],
  right: Node[],
  inserted: number[],
  table: LanguageTable,
  python: boolean,
): Candidate[] {
  const out: Candidate[] = [];
  const contiguous = inserted.every((j, k) => k === 0 || j === inserted[k - 1] + 1);
  if (!contiguous) return out;
  const first = inserted[0];
  const last = inserted.at(-1)!;
  const news = inserted.map((j) => right[j]);
  // The unchanged statements around the insertion, on the current side.
  const leftIndex = (j: number) => j - inserted.filter((k) => k < j).length;
  const next = last + 1 < right.length ? left[leftIndex(last + 1)] : undefined;
  const previous = first > 0 ? left[leftIndex(first - 1)] : undefined;
  const owner = pair.before.parent;
  const fn = owner && table.functionTypes.has(owner.type) ? owner : undefined;
  const cls = owner && table.classTypes.has(owner.type) ? owner : undefined;

  // guard_clause: one `if` without alternatives, at the top of a function body or before a statement.
  const guard = news.length === 1 ? table.unwrapExpression(news[0]) : undefined;
  if (
    guard && /^(if_statement|if_expression|if)$/.test(guard.type) &&
    guard.childrenForFieldName("alternative").length === 0
  ) {
    const consequence = guard.childForFieldName("consequence") ?? guard.childForFieldName("body");
    // Brace languages: the condition inside its parentheses, the body inside its braces.
    const condition = table.bracedBodies
      ? table.condition(guard)?.text
      : guard.childForFieldName("condition")?.text;
    const body = !consequence
      ? undefined
      : table.bracedBodies
      ? bracedInner(consequence)
      : linesOf(consequence);
    if (consequence && condition && body !== undefined) {
      const params = { condition, guard_body: dedent(body) };
      const atTop = fn && (!previous || (isDocstring(previous) && left.indexOf(previous) === 0));
      if (atTop) {
        out.push(templateAt(file, fn, "guard_clause", params));
      }
      if (next) {
        out.push(templateAt(file, next, "guard_clause", params));
      }
    }
  }
  // add_method (appended to a class body) / add_class_attribute (placed after the leading attributes).
  if (cls) {
    const builders: StepBuilder[] = [];
    let kind = "add_method";
    for (const node of news) {
      const definition = node.type === "decorated_definition" ? node.childForFieldName("definition") : node;
      if (definition && table.functionTypes.has(definition.type) && !next) {
        builders.push(at(file, cls, (t) => template("add_method", { code: dedent(linesOf(node)) }, t)));
        continue;
      }
      const assignment = node.type === "expression_statement" ? named(node)[0] : undefined;
      const name = assignment?.type === "assignment" ? assignment.childForFieldName("left") : undefined;
      const value = assignment?.childForFieldName("right");
      if (name?.type === "identifier" && value) {
        kind = "add_class_attribute";
        const annotation = assignment!.childForFieldName("type")?.text;
        builders.push(at(file, cls, (t) =>
          template("add_class_attribute", {
            name: name.text,
            value: value.text,
            ...(annotation ? { annotation } : {}),
          }, t)));
        continue;
      }
      builders.length = 0;
      break;
    }
    if (builders.length) out.push({ tier: 2, kind, builders });
  }
  if (!python) return out;
  // Fragments, each inserted statement its own step (a new function: its header as a fragment, then its body).
  const plans = news.map((node) => insertionPlan(file, node, table));
  if (plans.every((plan) => plan !== undefined)) {
    // Where the blank lines end up depends on the anchor: try both neighbours.
    const anchors = [
      ...(next ? [{ node: next, action: "insert_before" }] : []),
      ...(previous ? [{ node: previous, action: "insert_after" }] : []),
    ];
    for (const anchor of anchors) {
      const builders: StepBuilder[] = [];
      const ordered = anchor.action === "insert_after" ? [...plans].reverse() : plans;
      // Before the anchor, each insertion moves it: it is found again by its distance from the end.
      const locate = anchor.action === "insert_before" ? atFromEnd : at;
      for (const plan of ordered) {
        builders.push(
          locate(
            file,
            anchor.node,
            (target) => ({ fragment: plan!.fragment, action: anchor.action, target }),
          ),
        );
        builders.push(...plan!.then);
      }
      out.push({ tier: 3, kind: "fragment", builders });
    }
    if (anchors.length === 0 && owner) {
      const builders: StepBuilder[] = [];
      for (const plan of plans) {
        builders.push(
          at(file, owner, (target) => ({ fragment: plan!.fragment, action: "append_to_body", target })),
        );
        builders.push(...plan!.then);
      }
      out.push({ tier: 3, kind: "fragment", builders });
    }
  }
  return out;
}

/** How to insert one new statement as fragments: the fragment, and the steps that complete it. */
function insertionPlan(
  file: string,
  node: Node,
  table: LanguageTable,
): { fragment: unknown; then: StepBuilder[] } | undefined {
  const direct = fragmentOf(node);
  if (direct) return { fragment: direct, then: [] };
  const definition = node.type === "decorated_definition" ? node.childForFieldName("definition") : node;
  // A new class: the whole of it as one fragment (no template fills a class body), else its skeleton.
  if (definition?.type === "class_definition") {
    const whole = fragmentOf(node, { definitions: true });
    if (whole) return { fragment: whole, then: [] };
    return classSkeleton(file, node, definition, table);
  }
  // A new function: its header as a fragment with `pass`, then its body as written.
  const header = methodHeader(node, table);
  if (!header || !definition) return undefined;
  const { fragment, name, body: bodyText } = header;
  const then: StepBuilder[] = [async (state) => {
    const doc = await state.get(file);
    const found = doc.tree.rootNode.descendantsOfType(definition.type).filter((n): n is Node =>
      !!n && n.childForFieldName("name")?.text === name && n.childForFieldName("body")?.text === "pass"
    );
    if (found.length !== 1) return undefined;
    const target = await locatorFor(state, doc, found[0]);
    return target
      ? template("replace_function_body", { body: bodyText, keep_docstring: false }, target)
      : undefined;
  }];
  return { fragment, then };
}

/**
 * A new class with methods fragments cannot say (a comment before a body's
 * first statement, a statement fragments lack): the class as a fragment
 * with each such method's header over `pass`, then `replace_function_body`
 * of each with its body as written, in order (the first method of that name
 * still reading `pass` in the class of that name). Other members are
 * fragments as they stand; undefined when one cannot be.
 */
function classSkeleton(
  file: string,
  node: Node,
  cls: Node,
  table: LanguageTable,
): { fragment: unknown; then: StepBuilder[] } | undefined {
  const className = cls.childForFieldName("name")?.text;
  const body = cls.childForFieldName("body");
  if (!className || !body || named(node).some((c) => c.type === "comment")) return undefined;
  const superclasses = cls.childForFieldName("superclasses");
  const bases = superclasses ? named(superclasses) : [];
  if (bases.some((base) => base.type === "comment")) return undefined;
  const children: unknown[] = [];
  const then: StepBuilder[] = [];
  for (const member of named(body)) {
    if (member.type === "comment" && !firstOnLine(member.tree.rootNode.text, member.startIndex)) continue;
    const whole = fragmentOf(member, { definitions: true });
    if (whole) {
      children.push(whole);
      continue;
    }
    const plan = methodHeader(member, table);
    if (!plan) return undefined;
    children.push(plan.fragment);
    if (plan.body.trim() === "pass") continue;
    then.push(async (state) => {
      const doc = await state.get(file);
      const found = doc.tree.rootNode.descendantsOfType("class_definition").flatMap((c) => {
        if (!c || c.childForFieldName("name")?.text !== className) return [];
        const method = named(c.childForFieldName("body")!).map((m) =>
          m.type === "decorated_definition" ? m.childForFieldName("definition") : m
        ).find((m) =>
          m?.childForFieldName("name")?.text === plan.name && m.childForFieldName("body")?.text === "pass"
        );
        return method ? [method] : [];
      });
      if (found.length !== 1) return undefined;
      const target = await locatorFor(state, doc, found[0]);
      return target
        ? template("replace_function_body", { body: plan.body, keep_docstring: false }, target)
        : undefined;
    });
  }
  const decorators = node.type === "decorated_definition"
    ? named(node).filter((c) => c.type === "decorator").map((c) => c.text.replace(/^@\s*/, ""))
    : [];
  return {
    fragment: {
      kind: "class_definition",
      properties: relativeProperties(node, {
        name: className,
        ...(bases.length ? { bases: bases.map((base) => base.text) } : {}),
        ...(decorators.length ? { decorators } : {}),
      }),
      children,
    },
    then,
  };
}

/** A function's or method's header as a fragment over `pass`, with its name and body as written; undefined for other statements. */
function methodHeader(
  member: Node,
  table: LanguageTable,
): { fragment: unknown; name: string; body: string } | undefined {
  const definition = member.type === "decorated_definition" ? member.childForFieldName("definition") : member;
  if (!definition || !table.functionTypes.has(definition.type)) return undefined;
  const name = definition.childForFieldName("name")?.text;
  const parameters = definition.childForFieldName("parameters");
  const body = definition.childForFieldName("body");
  if (
    !name || !parameters || !body ||
    named(member).some((c) => c.type === "comment" && c.endIndex <= definition.startIndex)
  ) {
    return undefined;
  }
  const text = bodyLines(definition, body);
  if (text === undefined) return undefined;
  const decorators = member.type === "decorated_definition"
    ? named(member).filter((c) => c.type === "decorator").map((c) => c.text.replace(/^@\s*/, ""))
    : [];
  const returns = definition.childForFieldName("return_type")?.text;
  return {
    fragment: {
      kind: "function_definition",
      properties: relativeProperties(member, {
        name,
        parameters: parameters.text.slice(1, -1),
        ...(returns ? { return_type: returns } : {}),
        ...(definition.text.startsWith("async") ? { async: true } : {}),
        ...(decorators.length ? { decorators } : {}),
      }),
      children: [{ kind: "pass_statement" }],
    },
    name,
    body: text,
  };
}

/**
 * A function body's lines as written, from the line after the header's
 * colon: comments before the first statement lie outside the `body` node in
 * the tree, yet belong to the body. Undefined when code or a comment follows
 * the colon on its line (the header fragment would drop it).
 */
function bodyLines(definition: Node, body: Node): string | undefined {
  const colon = definition.children.filter((c): c is Node => c?.type === ":").at(-1);
  if (!colon || colon.endIndex > body.startIndex) return linesOf(body);
  const text = body.tree.rootNode.text;
  const from = nextLineStart(text, colon.endIndex);
  if (text.slice(colon.endIndex, from).trim() !== "" || from > body.startIndex) return linesOf(body);
  return text.slice(from, body.endIndex);
}

function wrapCandidates(file: string, old: Node, wrapper: Node): Candidate[] {
  const body = wrapper.childForFieldName("body") ??
    named(wrapper).find((child) => child.type === "block");
  if (!body || named(body).length !== 1 || named(body)[0].text !== old.text) return [];
  if (wrapper.type === "try_statement") {
    const handlers = named(wrapper).filter((c) => c.type === "except_clause");
    const finallyClause = named(wrapper).find((c) => c.type === "finally_clause");
    if (handlers.length !== 1 || named(wrapper).some((c) => c.type === "else_clause")) return [];
    const handler = handlers[0];
    const handlerBody = named(handler).find((c) => c.type === "block");
    const value = named(handler).find((c) => c.type !== "block" && c.type !== "comment");
    if (!handlerBody || !value) return [];
    let excType = value.text;
    let asName: string | undefined;
    if (value.type === "as_pattern") {
      excType = named(value)[0]?.text ?? excType;
      asName = value.childForFieldName("alias")?.text ?? named(value)[1]?.text;
    }
    const finallyBody = finallyClause ? named(finallyClause).find((c) => c.type === "block") : undefined;
    return [templateAt(file, old, "wrap_try_except", {
      exc_type: excType,
      handler: dedent(linesOf(handlerBody)),
      ...(asName ? { as_name: asName } : {}),
      ...(finallyBody ? { finally_body: dedent(linesOf(finallyBody)) } : {}),
    })];
  }
  if (wrapper.type === "with_statement") {
    const clause = named(wrapper).find((c) => c.type === "with_clause");
    const items = clause ? named(clause) : [];
    if (items.length !== 1) return [];
    const item = items[0];
    const value = item.childForFieldName("value") ?? item;
    let context = value.text;
    let asName: string | undefined;
    if (value.type === "as_pattern") {
      context = named(value)[0]?.text ?? context;
      asName = value.childForFieldName("alias")?.text;
    }
    return [
      templateAt(file, old, "wrap_context_manager", { context, ...(asName ? { as_name: asName } : {}) }),
    ];
  }
  return [];
}

/** Decorators dropped: `delete_node` of each, the last first (their lines go with them). */
function decoratorDeletion(file: string, decorators: Node[]): Candidate {
  return {
    tier: 1,
    kind: "delete_node",
    builders: decorators.slice().reverse().map((node) =>
      at(file, node, (target) => ({ op: "delete_node", params: { target } }))
    ),
  };
}

/**
 * A definition that gained its first decorator (the node type changes to
 * decorated_definition), or lost all of them (the type changes back).
 */
function decoratedCandidates(file: string, old: Node, now: Node): Candidate[] {
  if (old.type === "decorated_definition" && old.childForFieldName("definition")?.text === now.text) {
    return [decoratorDeletion(file, named(old).filter((c) => c.type === "decorator"))];
  }
  if (now.type !== "decorated_definition" || now.childForFieldName("definition")?.text !== old.text) {
    return [];
  }
  const decorators = named(now).filter((c) => c.type === "decorator");
  if (decorators.length !== 1) return [];
  return [templateAt(file, old, "add_decorator", { decorator: decorators[0].text.replace(/^@/, "") })];
}

// ---------------------------------------------------------------- entry points

/**
 * The pairs in the order their candidates are tried: innermost first, except
 * that a change inside a condition or a returned value is lifted as that
 * (the template names the shape: `modify_condition`, `change_return_value`)
 * rather than as its innermost sub-expression.
 */
export function orderPairs(pairs: Pair[], language: string): Pair[] {
  const table = TABLES[language as keyof typeof TABLES];
  if (!table) return pairs;
  const slot = pairs.findIndex(({ before }) => {
    const parent = before.parent;
    if (!parent) return false;
    return (table.conditionalTypes.has(parent.type) && table.condition(parent)?.id === before.id) ||
      (table.returnTypes.has(parent.type) && table.returnValue(parent)?.id === before.id);
  });
  if (
    slot <= 0 || !pairs.slice(0, slot).every(({ before }) => table.isExpression(before) || !before.isNamed)
  ) {
    return pairs;
  }
  return [pairs[slot], ...pairs.slice(0, slot), ...pairs.slice(slot + 1)];
}

/** The own-line comments on consecutive lines around `node` (itself one), first to last. */
function commentRun(node: Node): Node[] {
  const text = node.tree.rootNode.text;
  const alone = (c: Node | null): c is Node => !!c && c.type === "comment" && firstOnLine(text, c.startIndex);
  if (!alone(node)) return [];
  const run = [node];
  for (let c = node.previousSibling; alone(c) && c.endPosition.row === run[0].startPosition.row - 1;) {
    run.unshift(c);
    c = c.previousSibling;
  }
  for (let c = node.nextSibling; alone(c) && c.startPosition.row === run.at(-1)!.endPosition.row + 1;) {
    run.push(c);
    c = c.nextSibling;
  }
  return run;
}

/**
 * A comment on its own line reworded: `rewrite_comment` of that line, then
 * of the whole run of comment lines around it (a re-wrapped paragraph has
 * another number of lines, so its lines do not pair up one by one).
 */
function commentCandidates(file: string, pair: Pair): Candidate[] {
  const { before, after } = pair;
  if (before.type !== "comment") return [];
  const left = commentRun(before);
  if (left.length === 0) return [];
  const out: Candidate[] = [];
  const line = (c: Node) => c.text.replace(/\r$/, "");
  if (after.type === "comment") out.push(templateAt(file, before, "rewrite_comment", { text: line(after) }));
  const right = after.type === "comment" ? commentRun(after) : [];
  if (right.length > 0 && (left.length > 1 || right.length > 1)) {
    out.push(templateAt(file, left[0], "rewrite_comment", {
      text: right.map(line).join("\n"),
      ...(left.length > 1 ? { lines: left.length } : {}),
    }));
  }
  return out;
}

/** Tier 1–3 candidates for one pair, most specific first. */
export function formalCandidates(file: string, pair: Pair, ctx: ShapeContext): Candidate[] {
  const table = TABLES[ctx.doc.file.language];
  if (!table) return [];
  const python = ctx.doc.file.language === "python";
  return [
    ...commentTextCandidates(pair, ctx.doc.file.language, (node, make) => at(file, node, make)),
    ...slotCandidates(file, pair, table),
    ...expressionCandidates(file, pair, table),
    ...decoratorCandidates(file, pair),
    ...baseCandidates(file, pair),
    ...functionCandidates(file, pair, table),
    ...bodyCandidates(file, pair, table, python),
    ...childExpressionCandidates(file, pair, table),
    ...statementCandidates(file, pair, python),
    ...(python ? commentCandidates(file, pair) : []),
    ...insertCandidates(pair, ctx.doc.file.language, (node, make) => at(file, node, make)),
  ];
}

/**
 * Candidates tried only after the split of `lift_file.ts` failed: statements
 * inserted or deleted beside comments, aligned without them; one run of a
 * Python body's statements replaced by another (`replace_shapes.ts`).
 */
export function lateCandidates(file: string, pair: Pair, ctx: ShapeContext): Candidate[] {
  const table = TABLES[ctx.doc.file.language];
  if (!table || ctx.doc.file.language !== "python" || !BODY_TYPES.has(pair.before.type)) return [];
  return [
    ...commentFreeBodyCandidates(file, pair, table),
    ...replacementCandidates(pair, {
      at: (node, make) => at(file, node, make),
      atFromEnd: (node, make) => atFromEnd(file, node, make),
      plan: (node) => insertionPlan(file, node, table),
    }),
  ];
}

/**
 * The last formal candidates, tried when every other one and the splits and
 * copies failed: in Python, new statements beside unchanged ones as
 * `insert_sibling` (other languages have it among the formal candidates).
 */
export function lastCandidates(file: string, pair: Pair, ctx: ShapeContext): Candidate[] {
  if (ctx.doc.file.language !== "python") return [];
  return insertCandidates(pair, "python", (node, make) => at(file, node, make), true);
}

/** The tier-0 fallback for one pair: `replace_node` on the node with the target's text. */
export function fallbackCandidates(file: string, pair: Pair): Candidate[] {
  if (!pair.before.parent) return [];
  return [{
    tier: 0,
    kind: "replace_node",
    builders: [
      at(
        file,
        pair.before,
        (locator) => ({ op: "replace_node", params: { locator, replacement: pair.after.text } }),
      ),
    ],
  }];
}
