/**
 * L0 statement context: code the grammar accepts but the compiler refuses
 * for where it stands (`break` outside a loop, `return` outside a function,
 * `f(a=1, b)`, ...; `engine/analysis/statement_context.ts`), for Python,
 * JavaScript and TypeScript. Only what the edit brought is an error: a
 * finding the file already had is not blamed (`novelty.ts`).
 *
 * Only the code around the change is analysed, in both texts: the innermost
 * function holding the change (every verdict inside it depends on it and its
 * ancestors only, and nothing outside it on its inside); else, outside every
 * function, the smallest node holding the change that is the same node in
 * both texts (same type and start, its end moved by the change, and so all
 * its ancestors) with its ancestors (`around` in `statement_context.ts`);
 * else the top-level statements the change touches (every rule is decided
 * inside one). A lift replays many candidates of one change in a large
 * module: the cost of each is then that of the changed node, not of the
 * 700 KB literal or the long class body holding it.
 *
 * @module
 */

import {
  type ContextViolation,
  contextViolations,
  innermostFunction,
  outsideFunctions,
} from "../../analysis/statement_context.ts";
import { spanPartner } from "../../analysis/tree_diff.ts";
import { error, type Issue } from "../../base/issue.ts";
import type { Document } from "../../parse/documents.ts";
import type { Node } from "../../parse/mod.ts";
import { childrenIn } from "../../parse/children_in.ts";
import { changedRange, newFindings } from "./novelty.ts";
import { clip } from "./quote.ts";

/** Hints per code: what to do about it. */
const HINTS: Record<string, string> = {
  "break-outside-loop": "put it inside a loop body (a loop's else, a nested def or class is outside it)",
  "continue-outside-loop": "put it inside a loop body (a loop's else, a nested def or class is outside it)",
  "return-outside-function": "a return belongs inside a function body (not a class body or the module)",
  "yield-outside-function":
    "a yield belongs directly inside a function (not a class body or a comprehension)",
  "await-outside-async":
    "await only inside an async def (or a generator expression); make the function async",
  "nonlocal-without-binding": "assign the name in an enclosing function first, or use global",
  "duplicate-parameter": "give each parameter its own name",
  "parameter-order": "put parameters with defaults after those without, and a name after a bare *",
  "argument-order": "pass positional arguments first, then keyword arguments and **mappings",
  "duplicate-keyword-argument": "pass each keyword argument once",
  "invalid-target": "assign to or delete names, attributes, subscripts, or tuples and lists of them",
  "python2-syntax": "use Python 3 syntax: print(...), exec(...), unpack tuple parameters in the body",
  "empty-block": "indent the statements of the body under the line that ends with ':' (or write pass)",
};

/** The statement-context errors `after` has and `before` did not (see the module notes). */
export function newContextIssues(
  path: string,
  before: Document,
  after: Document,
  step: number,
): Issue[] {
  const language = after.file.language;
  if (!/^(python|javascript|typescript|tsx)$/.test(language)) return [];
  const range = changedRange(before, after);
  if (!range) return [];
  // A function holding the change in both texts (same span outside the change) is enough to analyse.
  const core = trimmed(after.file.text, range.after.start, range.after.end);
  const fnAfter = core && innermostFunction(after.tree.rootNode, core.start, core.end);
  const fnBefore = fnAfter && counterpart(before, fnAfter, range.before);
  if (fnAfter && fnBefore) {
    const found = contextViolations(after.tree.rootNode, language, { within: fnAfter, path });
    if (found.length === 0) return [];
    const old = contextViolations(before.tree.rootNode, language, { within: fnBefore, path });
    return report(path, step, before, after, old, found);
  }
  const around = before.file.language === language ? sameNodeAround(before, after, range) : undefined;
  if (around) {
    const found = contextViolations(after.tree.rootNode, language, { around: around.after, path });
    if (found.length === 0) return [];
    const old = contextViolations(before.tree.rootNode, language, { around: around.before, path });
    return report(path, step, before, after, old, found);
  }
  const found = contextViolations(after.tree.rootNode, language, { range: range.after, path });
  if (found.length === 0) return [];
  // The before text of the same top-level statements: the after region mapped back.
  const root = after.tree.rootNode;
  let start = range.after.start;
  let end = range.after.end;
  for (const child of childrenIn(root, range.after.start, range.after.end)) {
    start = Math.min(start, child.startIndex);
    end = Math.max(end, child.endIndex);
  }
  const shift = range.after.end - range.before.end;
  const beforeRange = {
    start: Math.min(start, range.before.start),
    end: end >= range.after.end ? end - shift : range.before.end,
  };
  const old = before.file.language === language
    ? contextViolations(before.tree.rootNode, language, { range: beforeRange, path })
    : [];
  return report(path, step, before, after, old, found);
}

/**
 * The smallest named node of `after` below the root holding the changed
 * range, paired with the node of `before` it was: the same type and start,
 * its end moved by the change, and each ancestor likewise (so the code
 * around it parsed alike); undefined when there is none, or when a function
 * is around it (a function's verdicts are the `within` case's).
 */
function sameNodeAround(
  before: Document,
  after: Document,
  range: { before: { start: number; end: number }; after: { start: number; end: number } },
): { before: Node; after: Node } | undefined {
  const { start, end } = range.after;
  const delta = range.before.end - range.after.end;
  let node: Node | null = after.tree.rootNode.descendantForIndex(start, Math.max(start, end - 1));
  while (node && !(node.isNamed && node.startIndex <= start && node.endIndex >= end)) node = node.parent;
  if (!node?.parent || !outsideFunctions(node)) return undefined;
  const partner = spanPartner(before.tree.rootNode, node, delta);
  if (!partner) return undefined;
  let a: Node | null = node.parent;
  let b: Node | null = partner.parent;
  for (; a && b; a = a.parent, b = b.parent) {
    if (a.type !== b.type || a.startIndex !== b.startIndex || a.endIndex + delta !== b.endIndex) {
      return undefined;
    }
  }
  return a || b ? undefined : { before: partner, after: node };
}

/** [start, end) without the whitespace at its ends; undefined when nothing else is in it. */
function trimmed(text: string, start: number, end: number): { start: number; end: number } | undefined {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return start < end ? { start, end } : undefined;
}

/**
 * The function of `before` that `fn` (of the text after the change) was:
 * the same type starting at the same offset, holding the changed range of
 * `before`.
 */
function counterpart(before: Document, fn: Node, range: { start: number; end: number }): Node | undefined {
  for (
    let node: Node | null = before.tree.rootNode.descendantForIndex(fn.startIndex);
    node;
    node = node.parent
  ) {
    if (node.startIndex !== fn.startIndex) return undefined;
    if (node.type !== fn.type) continue;
    const core = trimmed(before.file.text, range.start, range.end) ?? { start: range.start, end: range.end };
    // (an insertion right after the function's last statement is inside it once made)
    const holds = node.startIndex <= core.start &&
      (node.endIndex >= core.end || before.file.text.slice(node.endIndex, core.end).trim() === "");
    return holds ? node : undefined;
  }
  return undefined;
}

/** The issues for the findings of `found` that `old` does not account for. */
function report(
  path: string,
  step: number,
  before: Document,
  after: Document,
  old: ContextViolation[],
  found: ContextViolation[],
): Issue[] {
  const keyed = (list: typeof found) => list.map((v) => ({ ...v, key: v.code }));
  return newFindings(before, after, keyed(old), keyed(found)).map((v) =>
    error(
      v.code,
      `Edit leaves code the compiler refuses in "${path}" at line ${v.line}: ${v.detail}: "${clip(v.text)}"`,
      {
        level: "L0",
        step,
        file: path,
        line: v.line,
        hint: HINTS[v.code],
      },
    )
  );
}
