/**
 * Templates that modify code in place: replace_expression, modify_condition,
 * change_return_value, replace_function_body; and the wrapping templates
 * wrap_try_except, wrap_context_manager.
 *
 * @module
 */

import type { Node } from "../../parse/mod.ts";
import { firstOnLine, lastOnLine, lineEnd, lineStart, reindent } from "../indent.ts";
import { dedent } from "../params.ts";
import { unwrapDefinition } from "./adding.ts";
import { parenthesizeImport } from "./import_parens.ts";
import { alreadyPresent, fitExpression, layoutAt, opName, refuse, str, type TemplateRun } from "./common.ts";
import { normalizeCode, type Part, renderParts } from "./lang/table.ts";

async function replaceSlot(run: TemplateRun, slot: Node, expression: string, what: string) {
  if (normalizeCode(slot.text) === normalizeCode(expression)) {
    return alreadyPresent(run, `The ${what} is already "${expression.trim()}"`);
  }
  const { text, parenthesized } = await fitExpression(run, slot, expression);
  await run.ctx.edit(run.doc.file.path, opName(run), [{
    start: slot.startIndex,
    end: slot.endIndex,
    replacement: text,
  }], [
    slot.type,
  ]);
  return { changed: true, replaced: slot.type, parenthesized, line: slot.startPosition.row + 1 };
}

// ---------------------------------------------------------------- replace_expression

function replaceExpression(run: TemplateRun) {
  const node = run.table.unwrapExpression(run.node);
  if (!run.table.isExpression(node)) {
    refuse(run, `Target of "replace_expression" must be an expression, got a "${node.type}"`, {
      hint: "point the locator at the expression (kind call, attribute, identifier, string, or a sexp query)",
    });
  }
  return replaceSlot(run, node, str(run.params, "expression")!, "expression");
}

// ---------------------------------------------------------------- modify_condition

function modifyCondition(run: TemplateRun) {
  const { table } = run;
  if (!table.conditionalTypes.has(run.node.type)) {
    refuse(
      run,
      `Target of "modify_condition" must be one of ${
        [...table.conditionalTypes].join(", ")
      }, got a "${run.node.type}"`,
    );
  }
  const condition = table.condition(run.node);
  if (!condition) {
    refuse(run, `The "${run.node.type}" at line ${run.node.startPosition.row + 1} has no condition`);
  }
  return replaceSlot(run, condition, str(run.params, "condition")!, "condition");
}

// ---------------------------------------------------------------- change_return_value

async function changeReturnValue(run: TemplateRun) {
  const { table, doc } = run;
  if (!table.returnTypes.has(run.node.type)) {
    refuse(run, `Target of "change_return_value" must be a return statement, got a "${run.node.type}"`, {
      hint: `e.g. {"kind": "return", "parent": {"kind": "function", "name": "..."}, "index": -1}`,
    });
  }
  const value = str(run.params, "value")!;
  const current = table.returnValue(run.node);
  if (current) return await replaceSlot(run, current, value, "return value");
  const layout = layoutAt(doc, run.node.startIndex);
  const replacement = await reindent(table.returnText(dedent(value).trim()), {
    ...layout,
    inlineFirst: true,
  });
  await run.ctx.edit(doc.file.path, opName(run), [{
    start: run.node.startIndex,
    end: run.node.endIndex,
    replacement,
  }], [
    run.node.type,
  ]);
  return { changed: true, replaced: run.node.type };
}

// ---------------------------------------------------------------- replace_function_body

async function replaceFunctionBody(run: TemplateRun) {
  const { table, doc } = run;
  const fn = unwrapDefinition(run.node);
  if (!table.functionTypes.has(fn.type) || !table.bodyStatements(fn)) {
    refuse(run, `Target of "replace_function_body" must be a function with a block body, got a "${fn.type}"`);
  }
  const keep = run.params.keep_docstring !== false;
  // Not dedented here: reindent() measures the common indentation on code lines only, so the lines
  // inside a multi-line string keep their leading whitespace (part of the string's value).
  const body = str(run.params, "body")!.replace(/\r\n?/g, "\n").replace(/^([ \t]*\n)+/, "").trimEnd();
  const range = table.bodyRange(fn, keep);
  const { block, end, inline } = range;
  let start = range.start;
  // `def f(): return 1`: the new body starts on its own line, no space left after the colon.
  if (inline && !table.bracedBodies) { while (/[ \t]/.test(doc.file.text[start - 1])) start--; }
  const text = doc.file.text;
  if (normalizeCode(text.slice(start, end)) === normalizeCode(body)) {
    return alreadyPresent(run, `The body of "${table.functionName(fn)}" is already as given`);
  }
  let replacement: string;
  if (!table.bracedBodies && !inline) {
    const layout = layoutAt(doc, block.startIndex);
    replacement = firstOnLine(text, start)
      ? await reindent(body, { ...layout, inlineFirst: true })
      : layout.eol + await reindent(body, layout);
  } else {
    const header = layoutAt(doc, table.bracedBodies ? block.startIndex : fn.startIndex);
    const fitted = await reindent(body, { ...header, indent: header.indent + header.unit });
    replacement = table.bracedBodies ? header.eol + fitted + header.eol + header.indent : header.eol + fitted;
  }
  await run.ctx.edit(doc.file.path, opName(run), [{ start, end, replacement }]);
  return { changed: true, function: table.functionName(fn) };
}

// ---------------------------------------------------------------- wrapping

/** The statement to wrap: the target, or the statement holding it, with its decorators. */
function statementOf(run: TemplateRun): Node {
  const { table } = run;
  let statement: Node | null = run.node;
  while (statement?.parent && !table.blockTypes.has(statement.parent.type)) statement = statement.parent;
  if (!statement?.parent) refuse(run, `Target of "${run.name}" is not a statement inside a block`);
  const text = run.doc.file.text;
  if (!firstOnLine(text, statement.startIndex) || !lastOnLine(text, statement.endIndex, run.language)) {
    refuse(
      run,
      `Cannot wrap the statement at line ${
        statement.startPosition.row + 1
      }: it shares its lines with other code`,
      {
        node: statement,
        hint: "wrap the enclosing statement, or rewrite it with replace_node",
      },
    );
  }
  return statement;
}

async function wrapStatement(run: TemplateRun, statement: Node, parts: Part[]) {
  const { doc } = run;
  const text = doc.file.text;
  const inner = statement.type === "export_statement"
    ? statement.childForFieldName("declaration")
    : statement;
  if (inner && run.table.blockScoped.has(inner.type)) {
    refuse(
      run,
      `Cannot wrap the "${inner.type}" at line ${
        statement.startPosition.row + 1
      }: inside the new block its names would be hidden from the code after it`,
      {
        node: statement,
        hint: "declare the variable before the block with let, and wrap the assignment",
      },
    );
  }
  const start = lineStart(text, statement.startIndex);
  const end = lineEnd(text, statement.endIndex);
  const layout = layoutAt(doc, statement.startIndex);
  const replacement = await renderParts(parts, layout, {
    text: text.slice(start, end),
    root: doc.tree.rootNode,
    firstRow: statement.startPosition.row,
  });
  await run.ctx.edit(doc.file.path, opName(run), [{ start, end, replacement }]);
  return { changed: true, wrapped: statement.type, line: statement.startPosition.row + 1 };
}

async function wrapTryExcept(run: TemplateRun) {
  const statement = statementOf(run);
  const excType = str(run.params, "exc_type")!;
  if (run.table.inTry(statement, excType)) {
    return alreadyPresent(run, `The statement is already wrapped in a try handling "${excType}"`);
  }
  const finallyBody = str(run.params, "finally_body");
  const parts = run.table.tryExcept({
    excType,
    asName: str(run.params, "as_name"),
    handler: dedent(str(run.params, "handler")!).trim(),
    finallyBody: finallyBody === undefined ? undefined : dedent(finallyBody).trim(),
  });
  return await wrapStatement(run, statement, parts);
}

async function wrapContextManager(run: TemplateRun) {
  const { table } = run;
  if (!table.withBlock || !table.inWith) refuse(run, `${run.language} has no context managers`);
  const statement = statementOf(run);
  const context = str(run.params, "context")!;
  if (table.inWith(statement, context)) {
    return alreadyPresent(run, `The statement is already inside "with ${context.trim()}"`);
  }
  return await wrapStatement(run, statement, table.withBlock(context, str(run.params, "as_name")));
}

/** The modifying and wrapping templates' code, by template name. */
export const MODIFYING_IMPLS: Record<string, (run: TemplateRun) => Promise<Record<string, unknown>>> = {
  replace_expression: replaceExpression,
  modify_condition: modifyCondition,
  change_return_value: changeReturnValue,
  replace_function_body: replaceFunctionBody,
  wrap_try_except: wrapTryExcept,
  wrap_context_manager: wrapContextManager,
  parenthesize_import: parenthesizeImport,
};
