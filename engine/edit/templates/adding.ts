/**
 * Templates that add code: guard_clause, add_parameter, add_import_and_use,
 * add_method, add_class_attribute, add_decorator, add_conditional_branch.
 *
 * @module
 */

import { error, IssueError, warning } from "../../base/issue.ts";
import type { Node } from "../../parse/mod.ts";
import { firstOnLine, lastOnLine, lineEnd, lineStart, nextLineStart, reindent } from "../indent.ts";
import { COMPOSED_OPS } from "../composed_ops.ts";
import { dedent } from "../params.ts";
import { PRIMITIVES } from "../primitives.ts";
import { syntaxProblems, withTree } from "../../parse/mod.ts";
import {
  alreadyPresent,
  exactLocator,
  fitExpression,
  layoutAt,
  opName,
  refuse,
  str,
  type TemplateRun,
  unwrapDefinition,
} from "./common.ts";
import { addBaseClass } from "./base_class.ts";
import { addImportName } from "./import_name.ts";
import { changeSignature } from "./signature.ts";
import { normalizeCode, renderParts, statementsOf } from "./lang/table.ts";

/** Re-exported for the templates that import it from here. */
export { unwrapDefinition };

/** The outermost wrapper (decorators, export) of a definition. */
export function outerDefinition(node: Node): Node {
  const parent = node.parent;
  if (parent?.type === "decorated_definition" || parent?.type === "export_statement") return parent;
  return node;
}

function classOf(run: TemplateRun): Node {
  const node = unwrapDefinition(run.node);
  if (!run.table.classTypes.has(node.type)) {
    refuse(run, `Target of "${run.name}" must be a class, got a "${node.type}"`, {
      hint: `e.g. {"file": "${run.doc.file.path}", "kind": "class", "name": "Session"}`,
    });
  }
  return node;
}

function functionOf(run: TemplateRun): Node {
  const node = unwrapDefinition(run.node);
  if (!run.table.functionTypes.has(node.type)) {
    refuse(run, `Target of "${run.name}" must be a function, got a "${node.type}"`, {
      hint: `e.g. {"file": "${run.doc.file.path}", "kind": "function", "name": "..."}`,
    });
  }
  return node;
}

/** Contiguous comment lines directly above `node` (no blank line between): where inserted code goes. */
function commentsAbove(node: Node, text: string): Node {
  let first = node;
  for (
    let previous = node.previousNamedSibling;
    previous?.type === "comment";
    previous = previous.previousNamedSibling
  ) {
    if (previous.endPosition.row !== first.startPosition.row - 1) break;
    if (!firstOnLine(text, previous.startIndex)) break;
    first = previous;
  }
  return first;
}

function previousStatement(node: Node): Node | undefined {
  let previous = node.previousNamedSibling;
  while (previous?.type === "comment") previous = previous.previousNamedSibling;
  return previous ?? undefined;
}

// ---------------------------------------------------------------- guard_clause

function enclosingFunction(node: Node, run: TemplateRun): Node | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (run.table.functionTypes.has(current.type)) return current;
  }
  return undefined;
}

/**
 * The surrounding code's habit: whether the compound statements (`if`,
 * `for`, `with`, ...) of `scope` that some statement follows are mostly
 * followed by a blank line. Definitions (nested functions, classes) and
 * nested scopes do not count.
 */
function blankAfterBlocks(scope: Node, run: TemplateRun): boolean {
  const { table } = run;
  const text = run.doc.file.text;
  let blank = 0;
  let tight = 0;
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child || table.functionTypes.has(child.type) || table.classTypes.has(child.type)) continue;
      const compound = child.namedChildren.some((inner) => !!inner && table.blockTypes.has(inner.type));
      let next = child.nextNamedSibling;
      while (next?.type === "comment") next = next.nextNamedSibling;
      if (compound && table.blockTypes.has(node.type) && next) {
        if (/\n[ \t]*\r?\n/.test(text.slice(child.endIndex, next.startIndex))) blank++;
        else tight++;
      }
      visit(child);
    }
  };
  visit(scope);
  return blank > tight;
}

async function guardClause(run: TemplateRun) {
  const { doc, table } = run;
  const text = doc.file.text;
  const target = unwrapDefinition(run.node);
  const parts = table.guard(str(run.params, "condition")!, dedent(str(run.params, "guard_body")!).trim());
  let anchor: Node | undefined;
  let after: Node | undefined;
  if (table.functionTypes.has(target.type)) {
    const body = table.bodyStatements(target);
    if (!body) refuse(run, `Function at line ${target.startPosition.row + 1} has no block body`);
    anchor = body.statements[0];
    after = anchor ? undefined : body.skipped.at(-1);
    if (!anchor && !after) refuse(run, `Function at line ${target.startPosition.row + 1} has an empty body`);
  } else if (table.classTypes.has(target.type)) {
    refuse(run, `Target of "guard_clause" must be a statement or a function, got a class`);
  } else {
    let statement: Node | null = run.node;
    while (statement?.parent && !table.blockTypes.has(statement.parent.type)) statement = statement.parent;
    if (!statement?.parent) refuse(run, `Target of "guard_clause" is not inside a block`);
    anchor = outerDefinition(statement);
  }
  const place = anchor ?? after!;
  if (!firstOnLine(text, place.startIndex)) {
    refuse(
      run,
      `Cannot insert a guard before a statement that shares line ${place.startPosition.row + 1} with another`,
      {
        node: place,
        hint: "rewrite the enclosing statement with replace_node",
      },
    );
  }
  const layout = layoutAt(doc, place.startIndex);
  const code = await renderParts(parts, layout);
  if (anchor) {
    const previous = previousStatement(anchor);
    const same = (node: Node | undefined) => !!node && normalizeCode(node.text) === normalizeCode(code);
    if (same(previous) || (table.functionTypes.has(target.type) && same(anchor))) {
      return alreadyPresent(run, `The guard "${code.trim().split("\n")[0]}" is already in place`);
    }
    const at = lineStart(text, commentsAbove(anchor, text).startIndex);
    const scope = table.functionTypes.has(target.type)
      ? target
      : enclosingFunction(anchor, run) ?? doc.tree.rootNode;
    const blank = blankAfterBlocks(scope, run) ? layout.eol : "";
    await run.ctx.edit(doc.file.path, opName(run), [{
      start: at,
      end: at,
      replacement: code + layout.eol + blank,
    }]);
    return { changed: true, line: doc.file.text.slice(0, at).split("\n").length };
  }
  const at = nextLineStart(text, after!.endIndex);
  const lead = at === text.length && !text.endsWith("\n") ? layout.eol : "";
  await run.ctx.edit(doc.file.path, opName(run), [{
    start: at,
    end: at,
    replacement: lead + code + layout.eol,
  }]);
  return { changed: true };
}

// ---------------------------------------------------------------- add_parameter

async function addParameter(run: TemplateRun) {
  const { doc, table, params } = run;
  const fn = functionOf(run);
  const list = table.parameterList(fn);
  if (!list) refuse(run, `Function at line ${fn.startPosition.row + 1} has no parenthesised parameter list`);
  const name = str(params, "name")!;
  const value = str(params, "default");
  const annotation = str(params, "annotation");
  const keywordOnly = params.keyword_only === true;
  const position = str(params, "position") ?? "end";
  const fnName = table.functionName(fn) ?? "<anonymous>";
  const existing = table.parameters(list);
  if (existing.some((p) => p.name === name)) {
    throw new IssueError(error("param-exists", `Parameter "${name}" already exists in "${fnName}"`, {
      file: doc.file.path,
      line: list.startPosition.row + 1,
    }));
  }
  if (value !== undefined && table.parameterDefaults === false) {
    refuse(run, `${doc.file.language} parameters have no default values`, {
      code: "param-invalid",
      hint: "leave out default, and pass the value at the call sites",
    });
  }
  if (annotation === undefined && table.parameterTypeRequired) {
    refuse(run, `A ${doc.file.language} parameter needs a type: give "annotation"`, {
      code: "param-missing",
      hint: `e.g. "annotation": "int"`,
    });
  }
  if (keywordOnly && !table.keywordOnly) {
    refuse(run, `${doc.file.language} has no keyword-only parameters`, { hint: "leave out keyword_only" });
  }
  const roles = existing.map((p) => p.role);
  const sectionEnd = (() => {
    const i = roles.findIndex((r) => r === "varargs" || r === "kwsep" || r === "kwargs");
    return i < 0 ? existing.length : i;
  })();
  const star = roles.findIndex((r) => r === "varargs" || r === "kwsep");
  const kwargs = roles.indexOf("kwargs");
  let index: number;
  let marker = false;
  const afterName = position.startsWith("after:") ? position.slice(6).trim() : undefined;
  const afterIndex = afterName !== undefined ? existing.findIndex((p) => p.name === afterName) : -1;
  if (afterName !== undefined && afterIndex < 0) {
    throw new IssueError(
      error("param-invalid", `Parameter "position": "${fnName}" has no parameter "${afterName}"`, {
        path: ["params", "position"],
        file: doc.file.path,
        hint: `parameters: ${existing.filter((p) => p.name).map((p) => p.name).join(", ")}`,
      }),
    );
  }
  if (keywordOnly) {
    const kwEnd = kwargs < 0 ? existing.length : kwargs;
    if (star < 0) {
      index = kwEnd;
      marker = true;
    } else if (position === "start") index = star + 1;
    else if (afterName !== undefined) {
      if (afterIndex < star || afterIndex >= kwEnd) {
        refuse(
          run,
          `Cannot put keyword-only "${name}" after "${afterName}": that is not in the keyword-only section`,
        );
      }
      index = afterIndex + 1;
    } else index = kwEnd;
  } else {
    if (position === "start") index = roles[0] === "self" ? 1 : 0;
    else if (afterName !== undefined) {
      index = afterIndex + 1;
      if (index > sectionEnd) {
        refuse(run, `Cannot put positional "${name}" after "${afterName}", past "*" or "*args"`, {
          hint: "use keyword_only: true",
        });
      }
    } else index = sectionEnd;
    const before = existing.slice(0, index).filter((p) => p.role === "default");
    const later = existing.slice(index, sectionEnd).filter((p) => p.role === "plain");
    if (value === undefined && before.length) {
      refuse(run, `A parameter without default cannot follow "${before[0].name}", which has one`, {
        code: "param-order",
        hint: 'give "default", use keyword_only: true, or a position before the defaults',
      });
    }
    if (value !== undefined && later.length) {
      refuse(run, `A parameter with a default cannot precede "${later[0].name}", which has none`, {
        code: "param-order",
        hint: `use position "end"`,
      });
    }
  }
  const code = (marker ? `${table.keywordOnlyMarker}, ` : "") +
    table.parameterText({ name, default: value, annotation });
  if (existing.length === 0) {
    const open = list.child(0)!;
    await run.ctx.edit(doc.file.path, opName(run), [{
      start: open.endIndex,
      end: open.endIndex,
      replacement: code,
    }]);
  } else if (index < existing.length) {
    await PRIMITIVES.insert_before_node({ locator: exactLocator(doc, existing[index].node), code }, run.ctx);
  } else {
    await PRIMITIVES.insert_after_node({ locator: exactLocator(doc, existing.at(-1)!.node), code }, run.ctx);
  }
  if (value === undefined) {
    const positionalIndex = keywordOnly ? -1 : index - (roles[0] === "self" ? 1 : 0);
    const missing = callSitesMissing(run, fnName, name, positionalIndex);
    if (missing.length) {
      run.ctx.warnings.push(warning(
        "call-sites-missing-argument",
        `${missing.length} call(s) of "${fnName}" in "${doc.file.path}" do not pass the new required parameter "${name}" (lines ${
          missing.join(", ")
        }); call sites were not changed`,
        { file: doc.file.path, line: missing[0], hint: `give "${name}" a default, or update the calls` },
      ));
    }
  }
  return { changed: true, parameter: code };
}

function callSitesMissing(run: TemplateRun, fnName: string, name: string, positionalIndex: number): number[] {
  const { table } = run;
  const lines: number[] = [];
  const root = run.doc.tree.rootNode;
  for (const type of table.callTypes) {
    for (const call of root.descendantsOfType(type)) {
      if (!call) continue;
      const callee = call.childForFieldName("function");
      const last = callee?.childForFieldName("attribute") ?? callee?.childForFieldName("property") ?? callee;
      if (last?.text !== fnName) continue;
      const args = table.callArguments(call);
      if (!args) continue;
      if (args.keywords.includes(name)) continue;
      if (positionalIndex >= 0 && args.positional > positionalIndex) continue;
      lines.push(call.startPosition.row + 1);
    }
  }
  return lines;
}

// ---------------------------------------------------------------- add_import_and_use

async function addImportAndUse(run: TemplateRun) {
  const { doc, table } = run;
  const node = table.unwrapExpression(run.node);
  if (!table.isExpression(node)) {
    refuse(run, `Target of "add_import_and_use" must be an expression, got a "${node.type}"`);
  }
  const expression = str(run.params, "expression")!;
  const statement = dedent(str(run.params, "import")!).trim();
  let changed = false;
  if (normalizeCode(node.text) !== normalizeCode(expression)) {
    const { text } = await fitExpression(run, node, expression);
    await run.ctx.edit(doc.file.path, opName(run), [{
      start: node.startIndex,
      end: node.endIndex,
      replacement: text,
    }], [
      node.type,
    ]);
    changed = true;
  }
  const before = run.ctx.warnings.length;
  await COMPOSED_OPS.add_import({ file: doc.file.path, import_statement: statement }, run.ctx);
  const importPresent = run.ctx.warnings.slice(before).some((w) => w.code === "import-exists");
  if (importPresent) run.ctx.warnings.splice(before);
  if (!changed && importPresent) {
    return alreadyPresent(run, `The expression and the import "${statement}" are already in place`);
  }
  return { changed: true, import_added: !importPresent };
}

// ---------------------------------------------------------------- add_method

async function addMethod(run: TemplateRun) {
  const { doc, table, language } = run;
  const cls = classOf(run);
  const code = dedent(str(run.params, "code")!).trim();
  const context = table.memberContext(code);
  const defined = await withTree(language, context.text + "\n", (tree) => {
    if (syntaxProblems(tree, 1).length) {
      throw new IssueError(
        error("param-invalid", `Parameter "code" must be a method definition, got code that does not parse`, {
          path: ["params", "code"],
          file: doc.file.path,
        }),
      );
    }
    const members = context.members(tree.rootNode);
    return members.length === 1 ? table.definedName(members[0]) : undefined;
  });
  if (!defined) {
    throw new IssueError(error("param-invalid", `Parameter "code" must be exactly one method definition`, {
      path: ["params", "code"],
      file: doc.file.path,
    }));
  }
  const { methods, attributes } = table.classMembers(cls);
  const existing = methods.get(defined) ?? attributes.get(defined);
  if (existing) {
    if (normalizeCode(existing.text) === normalizeCode(code)) {
      return alreadyPresent(run, `Method "${defined}" is already defined as given`);
    }
    throw new IssueError(error("method-exists", `Class already has a member "${defined}"`, {
      file: doc.file.path,
      line: existing.startPosition.row + 1,
      hint: "use replace_function_body or replace_node to change it",
    }));
  }
  const body = table.classBody(cls)!;
  const members = statementsOf(body);
  const real = members.length && table.isDocstring(members[0]) ? members.slice(1) : members;
  if (real.length === 1 && table.isPlaceholder(real[0])) {
    await PRIMITIVES.replace_node({ locator: exactLocator(doc, real[0]), replacement: code }, run.ctx);
  } else if (members.length && table.detachedTerminators) {
    await insertLinesAfter(run, members.at(-1)!, code, 1);
  } else if (members.length) {
    await PRIMITIVES.insert_after_node({ locator: exactLocator(doc, members.at(-1)!), code }, run.ctx);
  } else {
    await insertIntoEmptyBody(run, body, code);
  }
  return { changed: true, method: defined };
}

/**
 * Put `code` on its own lines after `node`'s last line (and after a `;`
 * that follows it: a TS class field does not own its `;`), `blank` blank
 * lines before it, at `node`'s indentation.
 */
async function insertLinesAfter(run: TemplateRun, node: Node, code: string, blank: number) {
  const text = run.doc.file.text;
  let end = node.endIndex;
  const semicolon = /^[ \t]*;/.exec(text.slice(end));
  if (semicolon) end += semicolon[0].length;
  if (!lastOnLine(text, end, run.language)) {
    refuse(run, `Cannot insert after line ${node.endPosition.row + 1}: other code follows on it`, { node });
  }
  const layout = layoutAt(run.doc, node.startIndex);
  const at = nextLineStart(text, end);
  const lead = at === text.length && !text.endsWith("\n") ? layout.eol : "";
  const fitted = await reindent(code, layout);
  await run.ctx.edit(run.doc.file.path, opName(run), [{
    start: at,
    end: at,
    replacement: lead + layout.eol.repeat(blank) + fitted + layout.eol,
  }]);
}

/** `{}` → `{\n<unit>code\n}` at the body's line indentation. */
async function insertIntoEmptyBody(run: TemplateRun, body: Node, code: string) {
  const layout = layoutAt(run.doc, body.startIndex);
  const open = body.child(0)!;
  const close = body.child(body.childCount - 1)!;
  const inner = await reindent(code, { ...layout, indent: layout.indent + layout.unit });
  await run.ctx.edit(run.doc.file.path, opName(run), [{
    start: open.endIndex,
    end: close.startIndex,
    replacement: layout.eol + inner + layout.eol + layout.indent,
  }]);
}

// ---------------------------------------------------------------- add_class_attribute

async function addClassAttribute(run: TemplateRun) {
  const { doc, table, params } = run;
  const cls = classOf(run);
  const name = str(params, "name")!;
  const code = table.classAttribute(name, str(params, "value")!, str(params, "annotation"));
  const { attributes, methods } = table.classMembers(cls);
  const existing = attributes.get(name) ?? methods.get(name);
  if (existing) {
    if (normalizeCode(existing.text) === normalizeCode(code)) {
      return alreadyPresent(run, `Class attribute "${name}" is already set as given`);
    }
    throw new IssueError(error("attribute-exists", `Class already has a member "${name}"`, {
      file: doc.file.path,
      line: existing.startPosition.row + 1,
      hint: "use replace_expression on its value to change it",
    }));
  }
  const body = table.classBody(cls)!;
  const members = statementsOf(body);
  const start = members.length && table.isDocstring(members[0]) ? 1 : 0;
  // After the leading attributes, else before the first member, else after the docstring.
  let lastAttribute = -1;
  for (
    let i = start;
    i < members.length && [...attributes.values()].some((a) => a.id === members[i].id);
    i++
  ) {
    lastAttribute = i;
  }
  if (lastAttribute >= 0 && table.detachedTerminators) {
    await insertLinesAfter(run, members[lastAttribute], code, 0);
  } else if (lastAttribute >= 0) {
    await PRIMITIVES.insert_after_node({
      locator: exactLocator(doc, members[lastAttribute]),
      code,
      separator: "\n",
    }, run.ctx);
  } else if (members[start]) {
    const definition = /definition|declaration|method/.test(members[start].type);
    await PRIMITIVES.insert_before_node({
      locator: exactLocator(doc, members[start]),
      code,
      separator: definition ? "\n\n" : "\n",
    }, run.ctx);
  } else if (members.length) {
    await PRIMITIVES.insert_after_node(
      { locator: exactLocator(doc, members[0]), code, separator: "\n" },
      run.ctx,
    );
  } else {
    await insertIntoEmptyBody(run, body, code);
  }
  return { changed: true, attribute: code };
}

// ---------------------------------------------------------------- add_decorator

async function addDecorator(run: TemplateRun) {
  const { doc } = run;
  const definition = unwrapDefinition(run.node);
  if (!run.table.decoratable.has(definition.type)) {
    refuse(run, `Target of "add_decorator" must be a function or a class, got a "${definition.type}"`);
  }
  const decorator = str(run.params, "decorator")!.trim().replace(/^@/, "");
  const outer = outerDefinition(definition);
  const existing = outer.type === "decorated_definition"
    ? outer.namedChildren.filter((c): c is Node => c?.type === "decorator")
    : [];
  const same = existing.find((d) => normalizeCode(d.text.replace(/^@/, "")) === normalizeCode(decorator));
  if (same) return alreadyPresent(run, `Decorator "@${decorator}" is already applied`);
  const innermost = run.params.innermost === true;
  const anchor = innermost || existing.length === 0 ? definition : existing[0];
  if (!firstOnLine(doc.file.text, anchor.startIndex)) {
    refuse(run, `Cannot add a decorator line before line ${anchor.startPosition.row + 1}`, { node: anchor });
  }
  const layout = layoutAt(doc, anchor.startIndex);
  const at = lineStart(doc.file.text, anchor.startIndex);
  await run.ctx.edit(doc.file.path, opName(run), [{
    start: at,
    end: at,
    replacement: `${layout.indent}@${decorator}${layout.eol}`,
  }]);
  return { changed: true, decorator: `@${decorator}` };
}

// ---------------------------------------------------------------- add_conditional_branch

async function addConditionalBranch(run: TemplateRun) {
  const { doc, table } = run;
  let ifNode: Node | null = run.node;
  if (ifNode.type === "elif_clause" || ifNode.type === "else_clause") ifNode = ifNode.parent;
  while (ifNode?.parent?.type === "else_clause" && ifNode.parent.parent?.type === "if_statement") {
    ifNode = ifNode.parent.parent;
  }
  if (!ifNode || ifNode.type !== "if_statement") {
    refuse(run, `Target of "add_conditional_branch" must be an if statement, got a "${run.node.type}"`);
  }
  const condition = str(run.params, "condition");
  const plan = table.branch(ifNode, { condition, body: dedent(str(run.params, "body")!).trim() });
  if ("error" in plan) refuse(run, plan.error, { code: "branch-exists", node: ifNode });
  if (plan.present) return alreadyPresent(run, `A branch on "${condition}" already exists`);
  const text = doc.file.text;
  const layout = layoutAt(doc, ifNode.startIndex);
  const code = await renderParts(plan.parts, layout);
  if (plan.inline) {
    const edit = {
      start: plan.at,
      end: plan.at,
      replacement: " " + code.slice(layout.indent.length).trimStart(),
    };
    await run.ctx.edit(doc.file.path, opName(run), [edit]);
  } else if (plan.at >= ifNode.endIndex) {
    const at = lineEnd(text, plan.at);
    await run.ctx.edit(doc.file.path, opName(run), [{ start: at, end: at, replacement: layout.eol + code }]);
  } else {
    const at = lineStart(text, plan.at);
    await run.ctx.edit(doc.file.path, opName(run), [{ start: at, end: at, replacement: code + layout.eol }]);
  }
  return { changed: true, branch: condition === undefined ? "else" : "elif" };
}

/** The adding templates' code, by template name. */
export const ADDING_IMPLS: Record<string, (run: TemplateRun) => Promise<Record<string, unknown>>> = {
  guard_clause: guardClause,
  add_parameter: addParameter,
  add_import_and_use: addImportAndUse,
  add_import_name: addImportName,
  add_base_class: addBaseClass,
  change_signature: changeSignature,
  add_method: addMethod,
  add_class_attribute: addClassAttribute,
  add_decorator: addDecorator,
  add_conditional_branch: addConditionalBranch,
};
