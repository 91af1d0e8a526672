/**
 * Restructuring templates: extract_variable and inline_variable. Both keep
 * meaning, so they check the scope first (Python: `engine/analysis/scope.ts`).
 *
 * - extract_variable puts `name = <expression>` before the statement holding
 *   the expression and uses `name` in its place. It refuses a name the scope
 *   already binds or reads, and an expression whose value would change when
 *   evaluated earlier or once: inside a lambda, comprehension or nested
 *   function, in a `while` condition, in an `elif` condition. Hoisting out of
 *   a short-circuit (`a and f()`) or a conditional expression is allowed with
 *   an `evaluation-order` warning.
 * - inline_variable needs exactly one plain assignment of the name in the
 *   scope, uses after it only, and no rebinding of the names its value reads
 *   between the assignment and the last use. Each use gets the value,
 *   parenthesised where precedence needs it; the assignment is deleted.
 *
 * @module
 */

import { warning } from "../../base/issue.ts";
import type { LanguageId, Node } from "../../parse/mod.ts";
import { moduleScope, referencesTo, roleOf, type Scope, scopeOfNode } from "../../analysis/scope.ts";
import { firstOnLine, lastOnLine, lineStart, reindent } from "../indent.ts";
import { deletionEdit, deletionTarget } from "../separators.ts";
import type { TextEdit } from "../text_edit.ts";
import { unwrapDefinition } from "./adding.ts";
import {
  ancestors,
  enclosingStatement,
  fitExpression,
  layoutAt,
  opName,
  raise,
  refuse,
  str,
  type TemplateRun,
} from "./common.ts";

const NESTED_SCOPE =
  /^(lambda|list_comprehension|set_comprehension|dictionary_comprehension|generator_expression|function_definition|class_definition|arrow_function|function_expression|function|method_definition)$/;

// ---------------------------------------------------------------- extract_variable

async function extractVariable(run: TemplateRun) {
  const { doc, table } = run;
  const node = table.unwrapExpression(run.node);
  if (!table.isExpression(node)) {
    refuse(run, `Target of "extract_variable" must be an expression, got a "${node.type}"`);
  }
  const name = str(run.params, "name")!;
  const statement = enclosingStatement(node, table);
  if (!statement || statement.id === node.id || statement.id === run.node.id) {
    refuse(run, `The target is a whole statement, not an expression inside one`);
  }
  if (!firstOnLine(doc.file.text, statement.startIndex)) {
    refuse(run, `The statement at line ${statement.startPosition.row + 1} shares its line with other code`, {
      node: statement,
    });
  }
  // What lies between the expression and its statement.
  let child = node;
  for (const ancestor of ancestors(node)) {
    const inCondition = ancestor.childForFieldName("condition")?.id === child.id;
    if (inCondition && /^(while_statement|do_statement|elif_clause)$/.test(ancestor.type)) {
      refuse(
        run,
        `The expression is in a "${ancestor.type}" condition: hoisting it would evaluate it only once`,
        {
          hint: "extract inside the loop body, or rewrite the condition",
        },
      );
    }
    if (ancestor.id === statement.id) break;
    if (NESTED_SCOPE.test(ancestor.type)) {
      refuse(
        run,
        `The expression is inside a "${ancestor.type}": hoisting it out would change what it refers to`,
      );
    }
    if (
      /^(boolean_operator|conditional_expression|ternary_expression)$/.test(ancestor.type) ||
      (ancestor.type === "binary_expression" &&
        /^(&&|\|\||\?\?)$/.test(ancestor.childForFieldName("operator")?.text ?? ""))
    ) {
      if (ancestor.namedChild(0)?.id !== child.id) {
        run.ctx.warnings.push(warning(
          "evaluation-order",
          `The expression was evaluated only sometimes (inside a "${ancestor.type}"); "${name}" evaluates it always`,
          { file: doc.file.path, line: node.startPosition.row + 1 },
        ));
      }
    }
    child = ancestor;
  }
  const conflicts = table.newNameConflicts(doc, node, name);
  raise(run, conflicts);
  const layout = layoutAt(doc, statement.startIndex);
  const value = table.precedence(node) < table.assignmentPrecedence ? `(${node.text})` : node.text;
  const assignment = await reindent(table.assignment(name, value), { ...layout });
  const at = lineStart(doc.file.text, statement.startIndex);
  const edits: TextEdit[] = [
    { start: at, end: at, replacement: assignment + layout.eol },
    { start: node.startIndex, end: node.endIndex, replacement: name },
  ];
  await run.ctx.edit(doc.file.path, opName(run), edits, [undefined, node.type]);
  return { changed: true, name, line: statement.startPosition.row + 1 };
}

// ---------------------------------------------------------------- inline_variable

function scopeFor(run: TemplateRun): Scope {
  const node = unwrapDefinition(run.node);
  if (node.type === "module") return moduleScope(run.doc);
  if (/^(function_definition|class_definition|lambda)$/.test(node.type)) return scopeOfNode(run.doc, node);
  refuse(
    run,
    `Target of "inline_variable" must be a function, a class or the file (the scope holding the assignment), got a "${node.type}"`,
    {
      hint: `e.g. {"file": "${run.doc.file.path}", "kind": "function", "name": "..."}`,
    },
  );
}

async function inlineVariable(run: TemplateRun) {
  const { doc } = run;
  const name = str(run.params, "name")!;
  const scope = scopeFor(run);
  const file = doc.file.path;
  if (scope.globals.has(name) || scope.nonlocals.has(name)) {
    refuse(run, `"${name}" is declared global or nonlocal in this scope`);
  }
  const bindings = scope.bindings.get(name) ?? [];
  if (bindings.length !== 1) {
    refuse(
      run,
      bindings.length === 0
        ? `"${name}" is not assigned in this scope`
        : `"${name}" is bound ${bindings.length} times in this scope (lines ${
          bindings.map((b) => b.line).join(", ")
        }); inline_variable needs a single assignment`,
    );
  }
  const binding = bindings[0];
  const root = doc.tree.rootNode;
  const id = root.descendantForIndex(binding.start, binding.end);
  const assignment = id?.parent;
  const statement = assignment?.parent;
  const value = assignment?.childForFieldName("right");
  if (
    binding.kind !== "assignment" || !id || assignment?.type !== "assignment" ||
    assignment.childForFieldName("left")?.id !== id.id || !value || value.type === "assignment" ||
    statement?.type !== "expression_statement" || value.type === "yield"
  ) {
    refuse(
      run,
      `"${name}" is not bound by a plain "${name} = <expression>" assignment (line ${binding.line})`,
    );
  }
  const uses = referencesTo(doc, binding).filter((use) =>
    !(use.startIndex >= statement.startIndex && use.endIndex <= statement.endIndex)
  );
  if (uses.length === 0) {
    refuse(run, `"${name}" is never read after its assignment`, {
      hint: "delete the assignment with delete_node",
    });
  }
  const early = uses.find((use) => use.startIndex < statement.endIndex);
  if (early) refuse(run, `"${name}" is read before its assignment (line ${early.startPosition.row + 1})`);
  // The value's names must mean the same at every use.
  const lastUse = uses.at(-1)!.startIndex;
  for (const ref of value.descendantsOfType("identifier")) {
    if (!ref || roleOf(ref) !== "reference") continue;
    for (const other of scope.bindings.get(ref.text) ?? []) {
      if (other.statementStart >= statement.endIndex && other.statementStart < lastUse) {
        refuse(
          run,
          `"${ref.text}", read by the value of "${name}", is rebound at line ${other.line} before a use`,
        );
      }
    }
  }
  if (uses.length > 1 && value.descendantsOfType(["call", "await", "yield"]).length) {
    run.ctx.warnings.push(warning(
      "duplicated-evaluation",
      `The value of "${name}" contains a call and is now evaluated ${uses.length} times`,
      { file, line: binding.line },
    ));
  }
  const edits: TextEdit[] = [statementDeletion(doc.file.text, statement, doc.file.language)];
  const kinds: (string | undefined)[] = [undefined];
  let parenthesized = 0;
  for (const use of uses) {
    const fitted = await fitExpression(run, use, value.text);
    if (fitted.parenthesized) parenthesized++;
    edits.push({ start: use.startIndex, end: use.endIndex, replacement: fitted.text });
    kinds.push(use.type);
  }
  await run.ctx.edit(file, opName(run), edits, kinds);
  return { changed: true, name, uses: uses.length, parenthesized };
}

/** Delete a statement: with its lines when alone on them, else with its `;` separator. */
function statementDeletion(text: string, statement: Node, language: LanguageId): TextEdit {
  if (firstOnLine(text, statement.startIndex) && lastOnLine(text, statement.endIndex, language)) {
    return deletionEdit(text, deletionTarget(statement), language);
  }
  const after = /^[ \t]*;[ \t]*/.exec(text.slice(statement.endIndex));
  if (after) {
    return { start: statement.startIndex, end: statement.endIndex + after[0].length, replacement: "" };
  }
  let start = statement.startIndex;
  const before = /[ \t]*;[ \t]*$/.exec(text.slice(lineStart(text, start), start));
  if (before) start -= before[0].length;
  return { start, end: statement.endIndex, replacement: "" };
}

/** The restructuring templates' code, by template name. */
export const RESTRUCTURING_IMPLS: Record<string, (run: TemplateRun) => Promise<Record<string, unknown>>> = {
  extract_variable: extractVariable,
  inline_variable: inlineVariable,
};
