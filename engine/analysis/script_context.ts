/**
 * Statement contexts in JavaScript and TypeScript: `break` outside a loop or
 * `switch` (or a label it names), `continue` outside a loop, `return`
 * outside a function (only in TypeScript and in ES modules: CommonJS files
 * are wrapped in a function by Node, where a top-level `return` is legal;
 * never in a class static block). `node --check` is the oracle in the tests.
 *
 * @module
 */

import type { Node } from "../parse/mod.ts";
import { preorder } from "../parse/walk.ts";
import { type ContextViolation, violation } from "./context_violation.ts";

const JS_FUNCTIONS =
  /^(function_declaration|function_expression|function|arrow_function|method_definition|generator_function|generator_function_declaration|class_static_block)$/;
const JS_LOOPS = /^(for_statement|for_in_statement|while_statement|do_statement)$/;

/** Whether a program imports or exports (an ES module). */
export function isEsModule(root: Node): boolean {
  return root.namedChildren.some((child) =>
    child?.type === "import_statement" || child?.type === "export_statement"
  );
}

/** Every violation under `roots`; `module`: a top-level `return` is refused. */
export function scriptViolations(roots: Node[], module: boolean): ContextViolation[] {
  const out: ContextViolation[] = [];
  for (const root of roots) {
    preorder(root, (node) => {
      if (node.type === "break_statement" || node.type === "continue_statement") {
        const detail = jumpRule(node);
        if (detail) {
          const code = node.type === "break_statement" ? "break-outside-loop" : "continue-outside-loop";
          out.push(violation(code, detail, node));
        }
      } else if (node.type === "return_statement") {
        const owner = jsReturnOwner(node);
        if (owner === "class_static_block") {
          out.push(violation("return-outside-function", "'return' inside a class static block", node));
        } else if (owner === "program" && module) {
          out.push(violation("return-outside-function", "'return' outside of function", node));
        }
      }
    });
  }
  return out;
}

/** Why a JavaScript `break`/`continue` has no target, or undefined. */
function jumpRule(node: Node): string | undefined {
  const label = node.childForFieldName("label")?.text;
  const isBreak = node.type === "break_statement";
  let child = node;
  for (let current = node.parent; current; current = current.parent) {
    if (JS_FUNCTIONS.test(current.type) || current.type === "program") break;
    if (label !== undefined) {
      if (current.type === "labeled_statement" && current.childForFieldName("label")?.text === label) {
        if (isBreak) return undefined;
        const body = current.childForFieldName("body");
        if (body && JS_LOOPS.test(body.type)) return undefined;
        return `'continue ${label}' names a label that is not a loop`;
      }
    } else if (JS_LOOPS.test(current.type) && current.childForFieldName("body")?.id === child.id) {
      return undefined;
    } else if (isBreak && current.type === "switch_body") {
      return undefined;
    }
    child = current;
  }
  if (label !== undefined) return `undefined label '${label}'`;
  return isBreak ? "'break' outside of a loop or switch" : "'continue' outside of a loop";
}

/** What a JavaScript `return` returns from: a function, a class static block (illegal) or the program. */
function jsReturnOwner(node: Node): "function" | "class_static_block" | "program" {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === "class_static_block") return "class_static_block";
    if (JS_FUNCTIONS.test(current.type)) return "function";
  }
  return "program";
}
